/** Mantine's notifications container, loaded by app/notifications.tsx when it is first needed. */
import { Notifications } from '@mantine/notifications';

/**
 * Below the app's header (60 px, `AppShell` in app/layout/app-layout.tsx), not over it: a
 * notification in the corner hid the avatar's menu, and the colour scheme and search buttons.
 */
const NOTIFICATIONS_TOP = 'calc(3.75rem + var(--mantine-spacing-xs))';

export default function NotificationsContainer() {
  return <Notifications position="top-right" style={{ top: NOTIFICATIONS_TOP }} />;
}
