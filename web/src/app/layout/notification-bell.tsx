/**
 * The header's notification centre (docs/notifications.md): a bell with the unread count, and the
 * list from the first press on (its code loads then). Beside it, the live channel's state when it
 * is not connected: "Reconnecting…", or "Offline — retry" once every attempt of spec §9 failed.
 * The list and the count follow the live channel without asking the server again; urgent ones
 * also show as a toast.
 */
import type { Notification } from '@learning-hub/core';
import { Button, Text } from '@mantine/core';
import { notifications as toasts } from '@mantine/notifications';
import { IconPlugConnectedX } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  addNotification,
  applyRead,
  applyUnreadCount,
  notificationKeys,
  useNotifications,
} from '../../features/notifications/api/notifications-api';
import { liveClient, useLiveEvent, useLiveState } from '../../lib/live/use-live';
import { BellButton } from './bell-button';

const loadPopover = () => import('../../features/notifications/components/notification-popover');
const NotificationPopover = lazy(() =>
  loadPopover().then((m) => ({ default: m.NotificationPopover })),
);

/** Keeps the bell's list current from the live channel, and shows urgent ones as a toast. */
function useNotificationsFromLive(): void {
  const client = useQueryClient();
  const navigate = useNavigate();
  useLiveEvent<Notification>('notification', (notification) => {
    addNotification(client, notification);
    if (notification.priority === 'urgent') {
      toasts.show({
        id: `notification-${notification.id}`,
        color: 'red',
        title: notification.title,
        autoClose: false,
        message: (
          <>
            <Text size="sm">{notification.body}</Text>
            {notification.link && (
              <Button
                size="compact-sm"
                variant="light"
                mt="xs"
                onClick={() => {
                  toasts.hide(`notification-${notification.id}`);
                  void navigate(notification.link ?? '/');
                }}
              >
                Open
              </Button>
            )}
          </>
        ),
      });
    }
  });
  useLiveEvent<{ ids: string[] | 'all'; unreadCount: number }>('notifications-read', (read) =>
    applyRead(client, read.ids, read.unreadCount),
  );
  useLiveEvent<number>('unread-count', (count) => applyUnreadCount(client, count));
  // Back after a drop with no event to catch up from: the list is read again.
  useLiveEvent('reload', () => void client.invalidateQueries({ queryKey: notificationKeys.all }));
}

/** The live channel's state beside the bell, when it is not simply connected. */
export function LiveStatusNotice() {
  const { status, attempt } = useLiveState();
  if (status === 'offline') {
    return (
      <Button
        size="compact-sm"
        variant="light"
        color="orange"
        leftSection={<IconPlugConnectedX size={16} aria-hidden="true" />}
        onClick={() => liveClient.retry()}
      >
        Offline — retry
      </Button>
    );
  }
  if (status === 'reconnecting') {
    return (
      <Text size="xs" c="dimmed" role="status" visibleFrom="xs">
        Reconnecting… ({attempt || 1})
      </Text>
    );
  }
  return null;
}

/**
 * The bell, and its list from the first press on: until then a plain button (the popover and its
 * positioning code load at that press, as the account menu's do: docs/front-end.md).
 */
export function NotificationBell() {
  const { status } = useLiveState();
  // Asked once the live channel starts (after the first paint), not with the first page.
  const list = useNotifications(1, status !== 'idle');
  // What the list holds is had: the next catch-up starts after its newest.
  const loaded = list.data?.items;
  useEffect(() => {
    if (loaded) liveClient.markSeen(loaded.map((n) => n.id));
  }, [loaded]);
  const [wanted, setWanted] = useState(false);
  useNotificationsFromLive();
  const unread = list.data?.unreadCount ?? 0;
  const closed = { unread, opened: false } as const;
  if (!wanted) {
    return (
      <BellButton
        {...closed}
        onClick={() => setWanted(true)}
        onPointerEnter={() => void loadPopover()}
        onFocus={() => void loadPopover()}
      />
    );
  }
  return (
    <Suspense fallback={<BellButton {...closed} />}>
      <NotificationPopover unread={unread} defaultOpened />
    </Suspense>
  );
}
