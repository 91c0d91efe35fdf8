/**
 * Announcements as an answer shows them to one viewer: the audience with its names, their own
 * copy (read, acknowledged) when it was published to them, its counts and abilities when they
 * manage it, and its text with images signed for their session. Lists are read in a few batched
 * queries, whatever their length.
 */
import type { Announcement, AnnouncementCounts } from '@learning-hub/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRecord } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import {
  deliveryCounts,
  receiptsOfUser,
} from '../../platform/notifications/notification-repository';
import { findCourseRecords } from '../courses/public';
import { abilitiesOf, manageScopeOf, scopeAllows } from './announcement-access';
import {
  ANNOUNCEMENT_SOURCE,
  countRecipients,
  namesOf,
  recipientRowsOf,
  stateOf,
  type AnnouncementRecord,
} from './announcement-repository';

export interface ViewContext {
  app: FastifyInstance;
  db: Db;
  now: () => number;
  request: FastifyRequest;
  user: UserRecord;
}

/** Counts of several announcements (the list of a manager). */
async function countsOfMany(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, AnnouncementCounts>> {
  const ours = await countRecipients(db, ids);
  const out = new Map<string, AnnouncementCounts>();
  await Promise.all(
    ids.map(async (id) => {
      const delivery = await deliveryCounts(db, { type: ANNOUNCEMENT_SOURCE, id });
      const mine = ours.get(id) ?? { recipients: 0, acknowledged: 0 };
      out.set(id, {
        recipients: mine.recipients,
        delivered: delivery.delivered,
        read: delivery.read,
        acknowledged: mine.acknowledged,
      });
    }),
  );
  return out;
}

/** The answers for `records`, in their order, as `ctx.user` sees them. */
export async function presentAnnouncements(
  ctx: ViewContext,
  records: readonly AnnouncementRecord[],
): Promise<Announcement[]> {
  if (records.length === 0) return [];
  const at = ctx.now();
  const nowIso = new Date(at).toISOString();
  const ids = records.map((r) => r.id);
  const scope = manageScopeOf(ctx.app.access, ctx.user, at);
  const manages = new Map(records.map((r) => [r.id, scopeAllows(scope, r.audience)]));
  const published = records.filter((r) => manages.get(r.id) && r.publishedAt !== null);
  const [names, courses, acks, receipts, counts] = await Promise.all([
    namesOf(ctx.db, {
      departmentIds: records.flatMap((r) => r.audience.departmentIds),
      userIds: records.flatMap((r) => r.audience.userIds),
    }),
    findCourseRecords(ctx.db, [...new Set(records.flatMap((r) => r.audience.courseIds))]),
    recipientRowsOf(ctx.db, ctx.user.id, ids),
    receiptsOfUser(ctx.db, ctx.user.id, { type: ANNOUNCEMENT_SOURCE, ids }),
    countsOfMany(
      ctx.db,
      published.map((r) => r.id),
    ),
  ]);
  const courseNames = new Map(courses.map((c) => [c.id, c.title]));
  const sessionId = ctx.request.auth?.session.id ?? '';
  return records.map((record): Announcement => {
    const state = stateOf(record, nowIso);
    const manage = manages.get(record.id) ?? false;
    const isRecipient = acks.has(record.id) && state !== 'withdrawn';
    const { audience } = record;
    return {
      id: record.id,
      title: record.title,
      bodyHtml: ctx.app.urlSigner.signHtml(record.bodyHtml, sessionId),
      priority: record.priority,
      pinned: record.pinned,
      requiresAck: record.requiresAck,
      state,
      publishAt: record.publishAt,
      publishedAt: record.publishedAt,
      expiresAt: record.expiresAt,
      withdrawnAt: record.withdrawnAt,
      remindedAt: record.remindedAt,
      author: record.author,
      audience: {
        everyone: audience.everyone,
        roles: audience.roles,
        departments: audience.departmentIds.map((id) => ({
          id,
          name: names.departments.get(id) ?? id,
        })),
        courses: audience.courseIds.map((id) => ({ id, name: courseNames.get(id) ?? id })),
        people: audience.userIds.map((id) => ({ id, name: names.people.get(id) ?? id })),
      },
      createdAt: record.createdAt,
      updatedAt: record.updatedAt,
      revision: record.revision,
      receipt: isRecipient
        ? {
            readAt: receipts.get(record.id)?.readAt ?? null,
            acknowledgedAt: acks.get(record.id) ?? null,
          }
        : null,
      counts: manage ? (counts.get(record.id) ?? null) : null,
      can: abilitiesOf(manage, state, record.requiresAck),
    };
  });
}

/** One announcement as `ctx.user` sees it. */
export async function presentAnnouncement(
  ctx: ViewContext,
  record: AnnouncementRecord,
): Promise<Announcement> {
  const [one] = await presentAnnouncements(ctx, [record]);
  return one as Announcement;
}
