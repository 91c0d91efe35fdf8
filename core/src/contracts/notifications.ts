import { z } from 'zod';
import { NOTIFICATION_KINDS, NOTIFICATION_PRIORITIES } from '../notification-kinds';
import { IsoDateTime, NamedRefSchema, pageOf, pageQuery } from './common';

/**
 * An event id: sortable (the time it was made, then a counter and random digits), so "after this
 * one" means "made since" (docs/notifications.md, "Replay").
 */
export const NotificationIdSchema = z
  .string()
  .regex(/^[0-9a-f]{32}$/, 'A notification id is 32 hexadecimal digits.');

/** One notification as its reader sees it: in the bell's list, in a toast, on the live channel. */
export const NotificationSchema = z.object({
  /** The event's id: the same for everyone it reached, and the replay cursor (`after`). */
  id: NotificationIdSchema,
  kind: z.enum(NOTIFICATION_KINDS),
  priority: z.enum(NOTIFICATION_PRIORITIES),
  title: z.string(),
  /** Plain text, at most 500 characters. */
  body: z.string(),
  /** The app's path to the thing it is about, or null. */
  link: z.string().nullable(),
  /** Who caused it, or null (the system: a reminder, an expiry). */
  actor: NamedRefSchema.nullable(),
  createdAt: IsoDateTime,
  /** When the reader marked it read (or opened its link); null: unread. */
  readAt: IsoDateTime.nullable(),
});
export type Notification = z.infer<typeof NotificationSchema>;

/**
 * `GET /api/notifications`: the newest first, paged; or, with `after`, what was made since that
 * event (oldest first, at most `pageSize`), which is how a client catches up after a dropped
 * connection. `unread` lists only the unread.
 */
export const NotificationListQuerySchema = pageQuery({ defaultSize: 20, maxSize: 200 }).extend({
  after: NotificationIdSchema.optional(),
  unread: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .optional(),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuerySchema>;

export const NotificationListSchema = pageOf(NotificationSchema).extend({
  /** How many of the reader's notifications are unread, in all. */
  unreadCount: z.number().int().nonnegative(),
});
export type NotificationList = z.infer<typeof NotificationListSchema>;

/** `POST /api/notifications/read`: these (at most 200), or all of the reader's. */
export const NotificationReadSchema = z.union([
  z.strictObject({ ids: z.array(NotificationIdSchema).min(1).max(200) }),
  z.strictObject({ all: z.literal(true) }),
]);
export type NotificationRead = z.infer<typeof NotificationReadSchema>;

export const NotificationReadResultSchema = z.object({
  /** How many were marked read now (already read ones are not counted). */
  marked: z.number().int().nonnegative(),
  unreadCount: z.number().int().nonnegative(),
});
export type NotificationReadResult = z.infer<typeof NotificationReadResultSchema>;

/** `POST /api/notifications/test` (the notification demo): to oneself, or to a chosen person. */
export const TestNotificationSchema = z.strictObject({
  userId: z.string().min(1).max(200).optional(),
  priority: z.enum(NOTIFICATION_PRIORITIES).default('info'),
});
export type TestNotification = z.infer<typeof TestNotificationSchema>;

export const TestNotificationResultSchema = z.object({
  id: NotificationIdSchema,
  /** When the server stored it: the demo measures delivery from here. */
  createdAt: IsoDateTime,
  recipient: NamedRefSchema,
});
export type TestNotificationResult = z.infer<typeof TestNotificationResultSchema>;
