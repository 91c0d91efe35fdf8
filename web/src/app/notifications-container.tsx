/** Mantine's notifications container, loaded by app/notifications.tsx when it is first needed. */
import { Notifications } from '@mantine/notifications';

export default function NotificationsContainer() {
  return <Notifications position="top-right" />;
}
