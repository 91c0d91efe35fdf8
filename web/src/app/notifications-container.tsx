/** Mantine's notifications container, loaded by app/notifications.tsx when it is first needed. */
import { Notifications } from '@mantine/notifications';

/** Top right, below the app's header rather than over its avatar menu (app.css). */
export default function NotificationsContainer() {
  return <Notifications position="top-right" />;
}
