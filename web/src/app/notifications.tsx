/**
 * The app's notifications (`notifications.show` from @mantine/notifications, anywhere). The
 * container that shows them, with its transitions, loads with the first notification rather than
 * with the first page (docs/front-end.md); notifications shown meanwhile wait in Mantine's store
 * and appear when it is there.
 */
import { notificationsStore } from '@mantine/notifications';
import { lazy, Suspense, useState, useSyncExternalStore } from 'react';

const NotificationsContainer = lazy(() => import('./notifications-container'));

const hasAny = () => {
  const { notifications, queue } = notificationsStore.getState();
  return notifications.length > 0 || queue.length > 0;
};

export function AppNotifications() {
  const pending = useSyncExternalStore(notificationsStore.subscribe, hasAny, hasAny);
  // Once there, it stays (it animates notifications out and the next ones in).
  const [needed, setNeeded] = useState(pending);
  if (pending && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <NotificationsContainer />
    </Suspense>
  );
}
