/**
 * The notification centre: one's notifications, newest first, unread ones marked; opening one
 * marks it read and goes to its thing; "Mark all as read"; more pages; the live channel's state.
 */
import type { Notification } from '@learning-hub/core';
import {
  Anchor,
  Badge,
  Box,
  Button,
  Group,
  Loader,
  ScrollArea,
  Stack,
  Text,
  UnstyledButton,
} from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { formatDateTime } from '../../../lib/format';
import { useLiveState } from '../../../lib/live/use-live';
import { BELL_PAGE_SIZE, useMarkRead, useNotifications } from '../api/notifications-api';
import './notifications.css';

const PRIORITY_COLOUR = { info: 'gray', important: 'yellow', urgent: 'red' } as const;

const STATUS_TEXT = {
  idle: 'Live updates are off.',
  connecting: 'Connecting to live updates…',
  connected: 'Live: new notifications appear here as they happen.',
  reconnecting: 'Reconnecting to live updates…',
  offline: 'Offline: new notifications appear when the connection is back.',
} as const;

function NotificationItem({
  notification,
  onOpen,
}: {
  notification: Notification;
  onOpen(notification: Notification): void;
}) {
  const unread = notification.readAt === null;
  return (
    <UnstyledButton
      className="notification-item"
      data-unread={unread || undefined}
      onClick={() => onOpen(notification)}
      aria-label={`${unread ? 'Unread: ' : ''}${notification.title}`}
    >
      <Group justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
        <Text size="sm" fw={unread ? 700 : 500} lineClamp={2}>
          {notification.title}
        </Text>
        {notification.priority !== 'info' && (
          <Badge size="xs" color={PRIORITY_COLOUR[notification.priority]} variant="light">
            {notification.priority}
          </Badge>
        )}
      </Group>
      {notification.body && (
        <Text size="xs" c="dimmed" lineClamp={2}>
          {notification.body}
        </Text>
      )}
      <Text size="xs" c="dimmed" mt={2}>
        {notification.actor ? `${notification.actor.name} · ` : ''}
        {formatDateTime(notification.createdAt)}
      </Text>
    </UnstyledButton>
  );
}

export function NotificationCentre({ onNavigate }: { onNavigate(): void }) {
  const [page, setPage] = useState(1);
  const list = useNotifications(page);
  const markRead = useMarkRead();
  const navigate = useNavigate();
  const { status } = useLiveState();
  const unread = list.data?.unreadCount ?? 0;

  const open = (notification: Notification) => {
    if (!notification.readAt) markRead.mutate({ ids: [notification.id] });
    if (notification.link) {
      onNavigate();
      void navigate(notification.link);
    }
  };

  return (
    <Stack gap={0}>
      <Group justify="space-between" px="md" py="sm" wrap="nowrap">
        <Text fw={700} component="h2" size="md" m={0}>
          Notifications
        </Text>
        <Button
          size="compact-sm"
          variant="subtle"
          disabled={unread === 0}
          loading={markRead.isPending}
          onClick={() => markRead.mutate({ all: true })}
        >
          Mark all as read
        </Button>
      </Group>
      <Text size="xs" c="dimmed" px="md" pb="xs" role="status">
        {STATUS_TEXT[status]}
      </Text>
      <ScrollArea.Autosize mah="min(60vh, 480px)" type="auto">
        {list.isPending ? (
          <Group justify="center" p="md">
            <Loader size="sm" aria-label="Loading notifications" />
          </Group>
        ) : list.isError ? (
          <Text size="sm" c="red" p="md" role="alert">
            Your notifications could not be loaded. {list.error.message}
          </Text>
        ) : list.data.items.length === 0 ? (
          <Text size="sm" c="dimmed" p="md">
            Nothing yet. Announcements, grades, new assignments and changes to what you follow show
            up here.
          </Text>
        ) : (
          <Box component="ul" className="notification-list">
            {list.data.items.map((notification) => (
              <li key={notification.id}>
                <NotificationItem notification={notification} onOpen={open} />
              </li>
            ))}
          </Box>
        )}
      </ScrollArea.Autosize>
      {markRead.isError && (
        <Text size="xs" c="red" px="md" role="alert">
          Not marked read: {markRead.error.message}
        </Text>
      )}
      <Group justify="space-between" px="md" py="xs" wrap="nowrap">
        {list.data && list.data.total > BELL_PAGE_SIZE ? (
          <Group gap={4} wrap="nowrap">
            <Button
              size="compact-xs"
              variant="subtle"
              disabled={page === 1}
              onClick={() => setPage((p) => p - 1)}
            >
              Newer
            </Button>
            <Button
              size="compact-xs"
              variant="subtle"
              disabled={page * BELL_PAGE_SIZE >= list.data.total}
              onClick={() => setPage((p) => p + 1)}
            >
              Older
            </Button>
          </Group>
        ) : (
          <span />
        )}
        <Anchor component={Link} to="/settings" size="xs" onClick={onNavigate}>
          Notification settings
        </Anchor>
      </Group>
    </Stack>
  );
}
