/**
 * One's notifications (docs/notifications.md): the bell's list, the catch-up after a dropped live
 * connection (`after`), marking read (which every tab and device of the person hears at once),
 * and the notification demo's test notification.
 */
import {
  AppError,
  NotificationIdSchema,
  NotificationListQuerySchema,
  NotificationListSchema,
  NotificationReadResultSchema,
  NotificationReadSchema,
  NotificationSchema,
  TestNotificationResultSchema,
  TestNotificationSchema,
} from '@learning-hub/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { displayName } from '../auth/display-name';
import { findUserById } from '../auth/user-repository';
import type { Db } from '../db';
import { currentUser } from '../http/access';
import { createdAnswer } from '../http/openapi';
import { pageWindow, sendPage } from '../paging';
import {
  countUnread,
  listNotifications,
  listNotificationsAfter,
  markDelivered,
  markRead,
  findNotification,
} from './notification-repository';

/**
 * How far before `after` the catch-up looks: an event made before the client's last one may have
 * been committed after it (a longer transaction). The client keeps one copy per id.
 */
export const REPLAY_LOOK_BACK_MS = 30_000;

/** The smallest event id made at `ms` (ids begin with the time in hexadecimal). */
function firstIdAt(ms: number): string {
  return Math.max(0, ms).toString(16).padStart(12, '0') + '0'.repeat(20);
}

const NOT_FOUND = 'Notification not found';
const NO_RECIPIENT = 'There is no active account with that id.';

const ADMIN = { permissions: ['system.admin'], roles: ['admin'] } as const;

const notificationRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => number }> = async (
  app,
  { db, now },
) => {
  const iso = () => new Date(now()).toISOString();

  app.get(
    '/api/notifications',
    {
      config: { access: {} },
      schema: {
        operationId: 'listNotifications',
        tags: ['notifications'],
        summary:
          'One’s notifications, newest first; with `after`, those made since that one (oldest first), to catch up',
        querystring: NotificationListQuerySchema,
        response: { 200: NotificationListSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const query = request.query;
      if (query.after) {
        const since = Number.parseInt(query.after.slice(0, 12), 16) - REPLAY_LOOK_BACK_MS;
        const items = await listNotificationsAfter(db, user.id, firstIdAt(since), query.pageSize);
        const ids = items.map((n) => n.id);
        if (ids.length > 0) {
          await markDelivered(db, { userId: user.id, eventIds: ids }, iso());
          void app.notifications.delivered(ids).catch(() => undefined);
        }
        const unreadCount = await countUnread(db, user.id);
        return sendPage(request, reply, {
          items,
          total: items.length,
          page: 1,
          pageSize: query.pageSize,
          unreadCount,
        });
      }
      const { offset, limit } = pageWindow(query);
      const [page, unreadCount] = await Promise.all([
        listNotifications(app.reads, user.id, { unread: query.unread ?? false, offset, limit }),
        countUnread(app.reads, user.id),
      ]);
      const unseen = page.items.map((n) => n.id);
      if (unseen.length > 0) {
        await markDelivered(db, { userId: user.id, eventIds: unseen }, iso());
        void app.notifications.delivered(unseen).catch(() => undefined);
      }
      return sendPage(request, reply, {
        ...page,
        page: query.page,
        pageSize: query.pageSize,
        unreadCount,
      });
    },
  );

  app.get(
    '/api/notifications/:notificationId',
    {
      config: { access: {}, responses: { 404: [NOT_FOUND] } },
      schema: {
        operationId: 'getNotification',
        tags: ['notifications'],
        summary: 'One of one’s notifications',
        params: z.object({ notificationId: NotificationIdSchema }),
        response: { 200: NotificationSchema },
      },
    },
    async (request) => {
      const found = await findNotification(
        db,
        currentUser(request).id,
        request.params.notificationId,
      );
      if (!found) throw new AppError('NOT_FOUND', NOT_FOUND);
      return found;
    },
  );

  app.post(
    '/api/notifications/read',
    {
      config: { access: {} },
      schema: {
        operationId: 'markNotificationsRead',
        tags: ['notifications'],
        summary: 'Marks some of one’s notifications read, or all of them',
        body: NotificationReadSchema,
        response: { 200: NotificationReadResultSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const body = request.body;
      const ids = 'all' in body ? 'all' : body.ids;
      const marked = await markRead(db, user.id, ids, iso());
      const unreadCount = await countUnread(db, user.id);
      // The person's other tabs and devices take them off their count too.
      app.live.toUser(user.id, 'notifications-read', { ids, unreadCount });
      return { marked, unreadCount };
    },
  );

  app.post(
    '/api/notifications/test',
    {
      config: {
        access: ADMIN,
        responses: {
          201: createdAnswer('/api/notifications/<id>', 'Sent.'),
          404: [NO_RECIPIENT],
        },
      },
      schema: {
        operationId: 'sendTestNotification',
        tags: ['notifications'],
        summary:
          'Sends a test notification to oneself or to a chosen person (the notification demo)',
        body: TestNotificationSchema,
        response: { 201: TestNotificationResultSchema },
      },
    },
    async (request, reply) => {
      const sender = currentUser(request);
      const recipient = request.body.userId ? await findUserById(db, request.body.userId) : sender;
      if (!recipient || !recipient.isActive) throw new AppError('NOT_FOUND', NO_RECIPIENT);
      const priority = request.body.priority;
      const stored = await db.transaction().execute((trx) =>
        app.notifications.notify(trx, {
          kind: 'test',
          priority,
          title: 'Test notification',
          body: `${displayName(sender)} sent this from the notification demo.`,
          link: '/notification-demo',
          // A test to oneself still reaches oneself.
          actorId: recipient.id === sender.id ? null : sender.id,
          recipients: [recipient.id],
        }),
      );
      await app.notifications.dispatch();
      reply.code(201).header('location', `/api/notifications/${stored.id}`);
      return {
        id: stored.id,
        createdAt: stored.createdAt,
        recipient: { id: recipient.id, name: displayName(recipient) },
      };
    },
  );
};

export default notificationRoutes;
