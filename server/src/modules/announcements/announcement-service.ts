/**
 * The rules of announcements (docs/announcements.md) across the area's repository, the
 * permission model, notifications, jobs and the live channel: composing and editing, publishing
 * exactly once (now, or by a job at its time), resolving who it reaches, withdrawing,
 * acknowledging and reminding.
 */
import type { AnnouncementCreateSchema, AnnouncementUpdateSchema } from '@learning-hub/core';
import {
  AppError,
  checkPermission,
  isAssignmentInForce,
  type AnnouncementAudience,
  type AnnouncementCounts,
  ANNOUNCEMENT_REMINDER_INTERVAL_MS,
} from '@learning-hub/core';
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import { z } from 'zod';
import { listContextMembers } from '../../platform/access/access-repository';
import { findUserById, type UserRecord } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import type { Database } from '../../platform/db/schema';
import { sortableId } from '../../platform/ids';
import { defineJob } from '../../platform/jobs';
import {
  deliveryCounts,
  markSourceRead,
  countUnread,
} from '../../platform/notifications/notification-repository';
import { richTextToPlainText, sanitizeRichText } from '../../platform/rich-text/sanitize';
import { courseContext, findCourseRecord, findCourseRecords } from '../courses/public';
import { memberIds } from '../departments/public';
import { audienceDenial, mayManage } from './announcement-access';
import {
  acknowledge,
  activeUserIds,
  ANNOUNCEMENT_OWNER,
  ANNOUNCEMENT_SOURCE,
  claimReminder,
  countRecipients,
  findAnnouncement,
  findRecipient,
  insertAnnouncement,
  insertRecipients,
  markPendingReminded,
  markPublished,
  markWithdrawn,
  namesOf,
  stateOf,
  updateAnnouncement,
  type AnnouncementChanges,
  type AnnouncementRecord,
  listRecipientIds,
} from './announcement-repository';

/** Publishes one scheduled announcement at its time (docs/announcements.md, "Scheduling"). */
export const PublishAnnouncement = defineJob(
  'announcements.publish',
  z.object({ announcementId: z.string(), publishAt: z.string() }),
);

/** The words of the area's refusals (the routes document them). */
export const ANNOUNCEMENT_MESSAGES = {
  notFound: 'Announcement not found',
  notManager: 'You may not change this announcement: it is for people you may not announce to.',
  outFields:
    'An announcement that is out changes only its title, its text, its expiry and whether it is pinned. To change who it is for or how it is sent, withdraw it and write a new one.',
  withdrawn: 'This announcement was withdrawn: it no longer changes.',
  publishedAlready: 'This announcement is out already.',
  publishAtPast: 'Choose a time in the future for it to go out.',
  publishAtWithoutAt: 'A draft is scheduled with `publish: "at"` and its time.',
  expiresPast: 'Choose an expiry in the future.',
  expiresBeforePublish: 'It must expire after it goes out.',
  unknownRole: (id: string) => `There is no role “${id}”.`,
  unknownDepartment: (id: string) => `There is no department with the id “${id}”.`,
  unknownCourse: (id: string) => `There is no course with the id “${id}”.`,
  unknownPerson: (id: string) => `There is no active account with the id “${id}”.`,
  noAck: 'This announcement does not ask for an acknowledgement.',
  notLiveForAck: 'This announcement is not out: there is nothing to acknowledge yet.',
  remindNotLive:
    'Only an announcement that is out, not expired, and asks for an acknowledgement can be reminded of.',
  remindNobody: 'Everyone it reached has acknowledged it: there is nobody to remind.',
  remindTooSoon: (next: string) =>
    `A reminder went out less than an hour ago. The next one can go at ${next}.`,
  withdrawnAlready: 'This announcement was withdrawn already.',
} as const;
const M = ANNOUNCEMENT_MESSAGES;

/** The app's path a notification of an announcement opens: the start page shows it. */
export const announcementLink = (id: string) => `/?announcement=${encodeURIComponent(id)}`;

export interface AnnouncementDeps {
  app: FastifyInstance;
  db: Db;
  now: () => number;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** `HH:MM UTC` of an instant, for a message. */
const clockTime = (at: string) => `${at.slice(11, 16)} UTC`;

// ---------------------------------------------------------------- the audience

/**
 * The audience checked for `user`: allowed (403 with core's reason otherwise), and naming only
 * roles, departments, courses and active people that exist (400).
 */
async function checkAudience(
  deps: AnnouncementDeps,
  user: UserRecord,
  audience: AnnouncementAudience,
): Promise<AnnouncementAudience> {
  const denial = audienceDenial(deps.app.access, user, audience);
  if (denial) throw new AppError('FORBIDDEN', denial);
  const clean: AnnouncementAudience = {
    everyone: audience.everyone,
    roles: [...new Set(audience.roles)],
    departmentIds: [...new Set(audience.departmentIds)],
    courseIds: [...new Set(audience.courseIds)],
    userIds: [...new Set(audience.userIds)],
  };
  for (const role of clean.roles) {
    if (!deps.app.access.roles.get(role)) throw new AppError('BAD_REQUEST', M.unknownRole(role));
  }
  const names = await namesOf(deps.db, { departmentIds: clean.departmentIds, userIds: [] });
  for (const id of clean.departmentIds) {
    if (!names.departments.has(id)) throw new AppError('BAD_REQUEST', M.unknownDepartment(id));
  }
  const courses = new Set((await findCourseRecords(deps.db, clean.courseIds)).map((c) => c.id));
  for (const id of clean.courseIds) {
    if (!courses.has(id)) throw new AppError('BAD_REQUEST', M.unknownCourse(id));
  }
  const people = new Set(await activeUserIds(deps.db, { ids: clean.userIds }));
  for (const id of clean.userIds) {
    if (!people.has(id)) throw new AppError('BAD_REQUEST', M.unknownPerson(id));
  }
  return clean;
}

/**
 * The people an announcement reaches, resolved now through the permission model (in the
 * publishing transaction): active accounts of the audience, its author left out.
 * - everyone: every active account; a role: the active accounts with exactly that role;
 * - a department: its members (by account and by assignment in force: the department pages'
 *   one set);
 * - a course: its participants who may open it now — a course role in force, and for a draft
 *   course only those who may edit it (an archived one stays open to its participants);
 * - chosen people: those still active.
 */
export async function resolveRecipients(
  trx: Db,
  deps: AnnouncementDeps,
  record: AnnouncementRecord,
): Promise<string[]> {
  const at = deps.now();
  const nowIso = iso(at);
  const { audience } = record;
  const ids = new Set<string>();
  const add = (list: readonly string[]) => {
    for (const id of list) ids.add(id);
  };
  if (audience.everyone) add(await activeUserIds(trx, { all: true }));
  add(await activeUserIds(trx, { roles: audience.roles }));
  add(await activeUserIds(trx, { ids: audience.userIds }));
  for (const departmentId of audience.departmentIds) {
    const rows = await memberIds(trx, departmentId, nowIso).execute();
    add(rows.map((r) => r.user_id));
  }
  for (const courseId of audience.courseIds) {
    const course = await findCourseRecord(trx, courseId);
    if (!course) continue;
    const context = courseContext(courseId);
    const members = (await listContextMembers(trx, context)).filter(
      (m) => m.assignment.roles.length > 0 && isAssignmentInForce(m.assignment, at),
    );
    if (course.state !== 'draft') {
      add(members.map((m) => m.id));
      continue;
    }
    // A draft opens only to those who may edit it.
    for (const member of members) {
      const person = await findUserById(trx, member.id);
      if (!person) continue;
      const subject = await deps.app.access.loadSubject(person, trx);
      const edits = checkPermission(subject, 'course.edit', {
        scope: context,
        roles: deps.app.access.roles,
        now: at,
      }).allowed;
      if (edits) ids.add(member.id);
    }
  }
  ids.delete(record.author.id);
  return [...ids];
}

/**
 * Publishes `record` (just marked live in `trx`): resolves its people, stores them and their
 * notification in the same transaction, so the published announcement, its recipients and their
 * notifications exist together or not at all. Call `afterPublish` once it has committed.
 */
async function publishIn(
  trx: Db,
  deps: AnnouncementDeps,
  record: AnnouncementRecord,
): Promise<number> {
  const recipients = await resolveRecipients(trx, deps, record);
  await insertRecipients(trx, record.id, recipients);
  await deps.app.notifications.notify(trx, {
    kind: 'announcement',
    priority: record.priority,
    title: record.title,
    body: richTextToPlainText(record.bodyHtml),
    link: announcementLink(record.id),
    source: { type: ANNOUNCEMENT_SOURCE, id: record.id },
    actorId: record.author.id,
    recipients,
  });
  return recipients.length;
}

/** After a publish committed: send its notifications now, and tell the counts' watchers. */
async function afterPublish(deps: AnnouncementDeps, id: string): Promise<void> {
  await deps.app.notifications.dispatch();
  await emitCounts(deps, id);
}

// ---------------------------------------------------------------- counts

/** Recipients, delivered, read (the platform's) and acknowledged (the area's) of one. */
export async function countsOf(db: Db, id: string): Promise<AnnouncementCounts> {
  const [ours, delivery] = await Promise.all([
    countRecipients(db, [id]),
    deliveryCounts(db, { type: ANNOUNCEMENT_SOURCE, id }),
  ]);
  const mine = ours.get(id) ?? { recipients: 0, acknowledged: 0 };
  return {
    recipients: mine.recipients,
    delivered: delivery.delivered,
    read: delivery.read,
    acknowledged: mine.acknowledged,
  };
}

/** Tells those watching an announcement's counts (the manager's detail) what they are now. */
export async function emitCounts(deps: AnnouncementDeps, id: string): Promise<void> {
  const counts = await countsOf(deps.db, id);
  deps.app.live.toTopic('announcement', id, 'announcement-counts', { counts });
}

// ---------------------------------------------------------------- composing

function checkTimes(
  now: number,
  publish: 'draft' | 'now' | 'at' | undefined,
  publishAt: string | null,
  expiresAt: string | null,
): void {
  if (publish === 'at' && (!publishAt || Date.parse(publishAt) <= now)) {
    throw new AppError('BAD_REQUEST', M.publishAtPast);
  }
  if (expiresAt !== null) {
    if (Date.parse(expiresAt) <= now) throw new AppError('BAD_REQUEST', M.expiresPast);
    if (publish === 'at' && publishAt && Date.parse(expiresAt) <= Date.parse(publishAt)) {
      throw new AppError('BAD_REQUEST', M.expiresBeforePublish);
    }
  }
}

/** The instant ISO strings are compared as text: one form (Date#toISOString). */
const normal = (value: string | null) => (value === null ? null : iso(Date.parse(value)));

/** Sends the job that publishes a scheduled announcement at its time, in `trx`. */
async function schedule(
  trx: Transaction<Database>,
  deps: AnnouncementDeps,
  id: string,
  publishAt: string,
): Promise<void> {
  await deps.app.jobs.send(
    PublishAnnouncement,
    { announcementId: id, publishAt },
    { trx, startAfter: Date.parse(publishAt) },
  );
}

/** Creates an announcement as a draft, scheduled, or published at once. */
export async function createAnnouncement(
  deps: AnnouncementDeps,
  user: UserRecord,
  input: z.output<typeof AnnouncementCreateSchema>,
): Promise<AnnouncementRecord> {
  const audience = await checkAudience(deps, user, input.audience);
  const at = deps.now();
  const publishAt = normal(input.publishAt);
  const expiresAt = normal(input.expiresAt);
  checkTimes(at, input.publish, publishAt, expiresAt);
  const bodyHtml = sanitizeRichText(input.bodyHtml);
  const id = sortableId();
  const published = await deps.db.transaction().execute(async (trx) => {
    await insertAnnouncement(
      trx,
      {
        id,
        title: input.title,
        bodyHtml,
        priority: input.priority,
        pinned: input.pinned,
        requiresAck: input.requiresAck,
        status: input.publish === 'at' ? 'scheduled' : 'draft',
        audience,
        publishAt: input.publish === 'at' ? publishAt : null,
        expiresAt,
        createdBy: user.id,
      },
      iso(at),
    );
    if (input.publish === 'at') await schedule(trx, deps, id, publishAt as string);
    if (input.publish !== 'now') return false;
    const record = await markPublished(trx, id, { revision: 1, status: 'draft' }, iso(at));
    if (!record) throw new Error('a new announcement could not be published');
    await publishIn(trx, deps, record);
    return true;
  });
  await deps.app.files.attachReferenced(user, bodyHtml, { type: ANNOUNCEMENT_OWNER, id });
  if (published) await afterPublish(deps, id);
  return (await findAnnouncement(deps.db, id)) as AnnouncementRecord;
}

/** The announcement for a manager (404 when it is not there, 403 when they do not manage it). */
async function managed(
  deps: AnnouncementDeps,
  user: UserRecord,
  id: string,
  readable: (record: AnnouncementRecord) => Promise<boolean>,
): Promise<AnnouncementRecord> {
  const record = await findAnnouncement(deps.db, id);
  if (!record) throw new AppError('NOT_FOUND', M.notFound);
  if (mayManage(deps.app.access, user, record.audience)) return record;
  // Someone it was published to learns that they may not change it; anyone else, nothing.
  if (await readable(record)) throw new AppError('FORBIDDEN', M.notManager);
  throw new AppError('NOT_FOUND', M.notFound);
}

/** Whether `user` may read `record`: it was published to them and is not withdrawn. */
export async function isReader(
  db: Db,
  user: UserRecord,
  record: AnnouncementRecord,
): Promise<boolean> {
  if (record.status === 'withdrawn') return false;
  return (await findRecipient(db, record.id, user.id)) !== null;
}

/**
 * Changes an announcement at the revision the client read. Before it is out everything may
 * change and `publish` sends it (`now`), schedules or re-schedules it (`at`; `publishAt` alone
 * re-schedules a scheduled one) or takes it back to a draft; once out (live or expired) only its
 * title, text, expiry and pinning; withdrawn, nothing.
 */
export async function updateAnnouncementFor(
  deps: AnnouncementDeps,
  user: UserRecord,
  id: string,
  input: z.output<typeof AnnouncementUpdateSchema>,
): Promise<AnnouncementRecord> {
  const record = await managed(deps, user, id, (r) => isReader(deps.db, user, r));
  const at = deps.now();
  const state = stateOf(record, iso(at));
  if (state === 'withdrawn') throw new AppError('CONFLICT', M.withdrawn);
  const out = state === 'live' || state === 'expired';
  if (out && input.publish !== undefined) throw new AppError('CONFLICT', M.publishedAlready);
  if (
    out &&
    (input.audience !== undefined ||
      input.priority !== undefined ||
      input.requiresAck !== undefined ||
      input.publishAt !== undefined)
  ) {
    throw new AppError('CONFLICT', M.outFields);
  }
  if (!out && input.publish === undefined && record.status === 'draft' && input.publishAt) {
    throw new AppError('BAD_REQUEST', M.publishAtWithoutAt);
  }
  const audience = input.audience ? await checkAudience(deps, user, input.audience) : undefined;

  // Where it goes: the request's choice, or (before it is out) where it is.
  const publish = out ? null : (input.publish ?? (record.status === 'scheduled' ? 'at' : 'draft'));
  const publishAt =
    publish === 'at'
      ? normal(input.publishAt !== undefined ? input.publishAt : record.publishAt)
      : null;
  const expiresAt = input.expiresAt !== undefined ? normal(input.expiresAt) : record.expiresAt;
  const rescheduled =
    publish === 'at' && (record.status !== 'scheduled' || record.publishAt !== publishAt);
  if (rescheduled && (!publishAt || Date.parse(publishAt) <= at)) {
    throw new AppError('BAD_REQUEST', M.publishAtPast);
  }
  if (input.expiresAt !== undefined && expiresAt !== null && Date.parse(expiresAt) <= at) {
    throw new AppError('BAD_REQUEST', M.expiresPast);
  }
  if (
    publish === 'at' &&
    publishAt &&
    expiresAt !== null &&
    Date.parse(expiresAt) <= Date.parse(publishAt)
  ) {
    throw new AppError('BAD_REQUEST', M.expiresBeforePublish);
  }

  const bodyHtml = input.bodyHtml !== undefined ? sanitizeRichText(input.bodyHtml) : undefined;
  const set: AnnouncementChanges = {
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(bodyHtml !== undefined ? { bodyHtml } : {}),
    ...(input.priority !== undefined ? { priority: input.priority } : {}),
    ...(input.pinned !== undefined ? { pinned: input.pinned } : {}),
    ...(input.requiresAck !== undefined ? { requiresAck: input.requiresAck } : {}),
    ...(audience !== undefined ? { audience } : {}),
    ...(input.expiresAt !== undefined ? { expiresAt } : {}),
  };
  if (publish === 'draft') Object.assign(set, { status: 'draft', publishAt: null });
  if (publish === 'at') Object.assign(set, { status: 'scheduled', publishAt });
  if (publish === 'now') set.publishAt = null;

  const published = await deps.db.transaction().execute(async (trx) => {
    const revision = await updateAnnouncement(
      trx,
      { id, revision: input.revision, status: record.status, set },
      iso(at),
      M.notFound,
    );
    if (rescheduled) await schedule(trx, deps, id, publishAt as string);
    if (publish !== 'now') return false;
    const current = await markPublished(
      trx,
      id,
      { revision, status: record.status as 'draft' | 'scheduled' },
      iso(at),
    );
    if (!current) throw new AppError('CONFLICT', M.publishedAlready);
    await publishIn(trx, deps, current);
    return true;
  });
  if (bodyHtml !== undefined) {
    await deps.app.files.attachReferenced(user, bodyHtml, { type: ANNOUNCEMENT_OWNER, id });
  }
  if (published) await afterPublish(deps, id);
  return (await findAnnouncement(deps.db, id)) as AnnouncementRecord;
}

/** Publishes a scheduled announcement if it is still scheduled for `publishAt` (the job). */
export async function publishScheduled(
  deps: AnnouncementDeps,
  id: string,
  publishAt: string,
): Promise<boolean> {
  const published = await deps.db.transaction().execute(async (trx) => {
    const record = await markPublished(trx, id, { scheduledAt: publishAt }, iso(deps.now()));
    if (!record) return false;
    await publishIn(trx, deps, record);
    return true;
  });
  if (published) await afterPublish(deps, id);
  return published;
}

/** Withdraws it: readers no longer see it; its counts stay for its managers. */
export async function withdrawFor(
  deps: AnnouncementDeps,
  user: UserRecord,
  id: string,
): Promise<AnnouncementRecord> {
  const record = await managed(deps, user, id, (r) => isReader(deps.db, user, r));
  if (record.status === 'withdrawn') throw new AppError('CONFLICT', M.withdrawnAlready);
  if (!(await markWithdrawn(deps.db, id, iso(deps.now())))) {
    throw new AppError('CONFLICT', M.withdrawnAlready);
  }
  // Its readers' open pages (the banner, the start page) take it away at once.
  deps.app.live.toUsers(await listRecipientIds(deps.db, id), 'announcement-withdrawn', { id });
  return (await findAnnouncement(deps.db, id)) as AnnouncementRecord;
}

// ---------------------------------------------------------------- readers

/**
 * The reader's "I have read this": recorded once (of two at once, one records it), marks their
 * notifications of it read, and tells the counts' watchers. `created` is false when it was
 * recorded before.
 */
export async function acknowledgeFor(
  deps: AnnouncementDeps,
  user: UserRecord,
  id: string,
): Promise<{ acknowledgedAt: string; created: boolean }> {
  const record = await findAnnouncement(deps.db, id);
  const recipient = record ? await findRecipient(deps.db, id, user.id) : null;
  if (!record || !recipient || record.status === 'withdrawn') {
    throw new AppError('NOT_FOUND', M.notFound);
  }
  if (record.status !== 'live') throw new AppError('CONFLICT', M.notLiveForAck);
  if (!record.requiresAck) throw new AppError('CONFLICT', M.noAck);
  const at = iso(deps.now());
  const recorded = await acknowledge(deps.db, id, user.id, at);
  await markRead(deps, user, id, at);
  if (recorded === null) {
    const again = await findRecipient(deps.db, id, user.id);
    return { acknowledgedAt: again?.acknowledgedAt ?? at, created: false };
  }
  await emitCounts(deps, id);
  return { acknowledgedAt: recorded, created: true };
}

/**
 * Marks the reader's notifications of one announcement read (they opened or acknowledged it),
 * and tells their other tabs and devices, as marking them read in the bell does.
 */
export async function markRead(
  deps: AnnouncementDeps,
  user: UserRecord,
  id: string,
  at: string,
): Promise<boolean> {
  const ids = await markSourceRead(deps.db, user.id, { type: ANNOUNCEMENT_SOURCE, id }, at);
  if (ids.length === 0) return false;
  const unreadCount = await countUnread(deps.db, user.id);
  deps.app.live.toUser(user.id, 'notifications-read', { ids, unreadCount });
  return true;
}

// ---------------------------------------------------------------- reminders

/**
 * Notifies again those it reached who have not acknowledged it: at most one reminder per
 * announcement per ANNOUNCEMENT_REMINDER_INTERVAL_MS, taken by a conditional update (of two at
 * once, one goes; the other is a 429 saying when the next may go).
 */
export async function remindFor(
  deps: AnnouncementDeps,
  user: UserRecord,
  id: string,
): Promise<{ remindedAt: string; reminded: number; nextReminderAt: string }> {
  const record = await managed(deps, user, id, (r) => isReader(deps.db, user, r));
  const at = deps.now();
  const nowIso = iso(at);
  if (stateOf(record, nowIso) !== 'live' || !record.requiresAck) {
    throw new AppError('CONFLICT', M.remindNotLive);
  }
  const notBefore = iso(at - ANNOUNCEMENT_REMINDER_INTERVAL_MS);
  const reminded = await deps.db.transaction().execute(async (trx) => {
    if (!(await claimReminder(trx, id, nowIso, notBefore))) return null;
    const pending = await markPendingReminded(trx, id, nowIso);
    if (pending.length === 0) throw new AppError('CONFLICT', M.remindNobody);
    await deps.app.notifications.notify(trx, {
      kind: 'announcement',
      priority: record.priority,
      title: `Reminder: ${record.title}`,
      body: richTextToPlainText(record.bodyHtml),
      link: announcementLink(id),
      source: { type: ANNOUNCEMENT_SOURCE, id },
      actorId: user.id,
      recipients: pending,
    });
    return pending.length;
  });
  if (reminded === null) {
    const current = await findAnnouncement(deps.db, id);
    const last = current?.remindedAt ?? nowIso;
    if (current?.status !== 'live') throw new AppError('CONFLICT', M.remindNotLive);
    const next = iso(Date.parse(last) + ANNOUNCEMENT_REMINDER_INTERVAL_MS);
    throw new AppError('RATE_LIMITED', M.remindTooSoon(clockTime(next)), {
      retryAfter: Math.max(1, Math.ceil((Date.parse(next) - at) / 1000)),
      nextReminderAt: next,
    });
  }
  await deps.app.notifications.dispatch();
  return {
    remindedAt: nowIso,
    reminded,
    nextReminderAt: iso(at + ANNOUNCEMENT_REMINDER_INTERVAL_MS),
  };
}
