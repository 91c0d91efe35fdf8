/**
 * One's notifications (core/src/contracts/notifications.ts, docs/notifications.md): the bell's
 * list and unread count, kept current by the live channel without asking the server again, and
 * marking read. Keys sit under the signed-in user's prefix, so sign-out drops them.
 */
import type {
  Notification,
  NotificationList,
  NotificationRead,
  TestNotification,
} from '@learning-hub/core';
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';

/** How many the bell lists. */
export const BELL_PAGE_SIZE = 10;

export const notificationKeys = {
  all: [USER_QUERY_PREFIX, 'notifications'] as const,
  page: (page: number) => [USER_QUERY_PREFIX, 'notifications', 'page', page] as const,
};

// The contracts load with the first list, not with the first page (docs/front-end.md).
const contracts = () => import('@learning-hub/core/contracts/notifications');

/** GET /api/notifications (newest first). `enabled`: after the first paint. */
export function useNotifications(page: number, enabled = true) {
  return useQuery({
    queryKey: notificationKeys.page(page),
    queryFn: async () => {
      const { NotificationListSchema } = await contracts();
      return api.get(
        `/api/notifications?page=${page}&pageSize=${BELL_PAGE_SIZE}`,
        NotificationListSchema,
      );
    },
    enabled,
  });
}

/** A notification that arrived live (or in a catch-up): first on the first page, counted unread. */
export function addNotification(client: QueryClient, notification: Notification): void {
  client.setQueryData<NotificationList>(notificationKeys.page(1), (list) => {
    if (!list || list.items.some((n) => n.id === notification.id)) return list;
    return {
      ...list,
      items: [notification, ...list.items].slice(0, list.pageSize),
      total: list.total + 1,
      unreadCount: list.unreadCount + (notification.readAt ? 0 : 1),
    };
  });
  // Later pages shift by one: asked again when opened.
  void client.invalidateQueries({
    queryKey: notificationKeys.all,
    predicate: (query) => query.queryKey[3] !== 1,
    refetchType: 'none',
  });
}

/** Some (or all) were read, here or in another tab: marked read in every loaded page. */
export function applyRead(
  client: QueryClient,
  ids: readonly string[] | 'all',
  unreadCount: number,
  at = new Date().toISOString(),
): void {
  client.setQueriesData<NotificationList>({ queryKey: notificationKeys.all }, (list) =>
    list
      ? {
          ...list,
          unreadCount,
          items: list.items.map((n) =>
            !n.readAt && (ids === 'all' || ids.includes(n.id)) ? { ...n, readAt: at } : n,
          ),
        }
      : list,
  );
}

/** The unread count, from another source (a catch-up). */
export function applyUnreadCount(client: QueryClient, unreadCount: number): void {
  client.setQueriesData<NotificationList>({ queryKey: notificationKeys.all }, (list) =>
    list ? { ...list, unreadCount } : list,
  );
}

/** POST /api/notifications/read. */
export function useMarkRead() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (read: NotificationRead) => {
      const { NotificationReadResultSchema } = await contracts();
      return api.post('/api/notifications/read', read, NotificationReadResultSchema);
    },
    onSuccess: (result, read) =>
      applyRead(client, 'all' in read ? 'all' : read.ids, result.unreadCount),
  });
}

/** POST /api/notifications/test (the notification demo). */
export function useSendTestNotification() {
  return useMutation({
    mutationFn: async (test: Partial<TestNotification>) => {
      const { TestNotificationResultSchema } = await contracts();
      return api.post('/api/notifications/test', test, TestNotificationResultSchema);
    },
  });
}
