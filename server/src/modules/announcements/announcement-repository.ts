/**
 * All SQL about announcements (docs/announcements.md): the announcements, the courses and
 * departments their audiences name (`announcement_targets`), the people each was published to
 * (`announcement_recipients`), and the reads of accounts and names the audience needs.
 */
import {
  AnnouncementAudienceSchema,
  type AnnouncementAudience,
  type AnnouncementPriority,
  type AnnouncementState,
} from '@learning-hub/core';
import { sql, type Expression, type SqlBool } from 'kysely';
import { displayName } from '../../platform/auth/display-name';
import type { Db } from '../../platform/db';
import { updateAtRevision, type RevisionChange } from '../../platform/db/revision';
import type { Updateable } from 'kysely';
import type { AnnouncementsTable } from '../../platform/db/schema';

/** The file owner type of images in an announcement's text. */
export const ANNOUNCEMENT_OWNER = 'announcement';

/** The source type of its notifications (the platform's delivery counts). */
export const ANNOUNCEMENT_SOURCE = 'announcement';

/** What the table stores as its state (`expired` is derived from `expires_at`). */
export type StoredStatus = 'draft' | 'scheduled' | 'live' | 'withdrawn';

/** Rows per INSERT or IN list. */
const CHUNK = 500;

function chunks<T>(list: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += CHUNK) out.push(list.slice(i, i + CHUNK));
  return out;
}

export interface AnnouncementRecord {
  id: string;
  title: string;
  bodyHtml: string;
  priority: AnnouncementPriority;
  pinned: boolean;
  requiresAck: boolean;
  status: StoredStatus;
  audience: AnnouncementAudience;
  publishAt: string | null;
  publishedAt: string | null;
  expiresAt: string | null;
  withdrawnAt: string | null;
  remindedAt: string | null;
  author: { id: string; name: string };
  createdAt: string;
  updatedAt: string;
  revision: number;
}

/** The state a reader sees: a live one past its expiry is expired. */
export function stateOf(
  record: Pick<AnnouncementRecord, 'status' | 'expiresAt'>,
  nowIso: string,
): AnnouncementState {
  if (record.status === 'live' && record.expiresAt !== null && record.expiresAt <= nowIso) {
    return 'expired';
  }
  return record.status;
}

const COLUMNS = [
  'a.id',
  'a.title',
  'a.body_html',
  'a.priority',
  'a.pinned',
  'a.requires_ack',
  'a.status',
  'a.audience',
  'a.publish_at',
  'a.published_at',
  'a.expires_at',
  'a.withdrawn_at',
  'a.reminded_at',
  'a.created_by',
  'a.created_at',
  'a.updated_at',
  'a.revision',
  'u.firstname',
  'u.lastname',
  'u.username',
] as const;

type Row = {
  id: string;
  title: string;
  body_html: string;
  priority: string;
  pinned: number;
  requires_ack: number;
  status: string;
  audience: string;
  publish_at: string | null;
  published_at: string | null;
  expires_at: string | null;
  withdrawn_at: string | null;
  reminded_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  revision: number;
  firstname: string | null;
  lastname: string | null;
  username: string | null;
};

/** The stored audience (written by this file from a checked one). */
function parseAudience(text: string): AnnouncementAudience {
  const parsed = AnnouncementAudienceSchema.safeParse(JSON.parse(text));
  return parsed.success
    ? parsed.data
    : { everyone: false, roles: [], departmentIds: [], courseIds: [], userIds: [] };
}

function toRecord(row: Row): AnnouncementRecord {
  return {
    id: row.id,
    title: row.title,
    bodyHtml: row.body_html,
    priority: row.priority as AnnouncementPriority,
    pinned: Boolean(row.pinned),
    requiresAck: Boolean(row.requires_ack),
    status: row.status as StoredStatus,
    audience: parseAudience(row.audience),
    publishAt: row.publish_at,
    publishedAt: row.published_at,
    expiresAt: row.expires_at,
    withdrawnAt: row.withdrawn_at,
    remindedAt: row.reminded_at,
    author: { id: row.created_by, name: displayName(row) },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    revision: Number(row.revision),
  };
}

function baseQuery(db: Db) {
  return db
    .selectFrom('announcements as a')
    .innerJoin('users as u', 'u.id', 'a.created_by')
    .select(COLUMNS);
}

export async function findAnnouncement(db: Db, id: string): Promise<AnnouncementRecord | null> {
  const row = await baseQuery(db).where('a.id', '=', id).executeTakeFirst();
  return row ? toRecord(row) : null;
}

// ---------------------------------------------------------------- writing

/** The targets of an audience: its courses and departments, and one `wide` row for the rest. */
function targetsOf(audience: AnnouncementAudience): { type: string; id: string }[] {
  const wide = audience.everyone || audience.roles.length > 0 || audience.userIds.length > 0;
  return [
    ...(wide ? [{ type: 'wide', id: '*' }] : []),
    ...[...new Set(audience.courseIds)].map((id) => ({ type: 'course', id })),
    ...[...new Set(audience.departmentIds)].map((id) => ({ type: 'department', id })),
  ];
}

async function writeTargets(db: Db, id: string, audience: AnnouncementAudience): Promise<void> {
  await db.deleteFrom('announcement_targets').where('announcement_id', '=', id).execute();
  const targets = targetsOf(audience);
  if (targets.length === 0) return;
  await db
    .insertInto('announcement_targets')
    .values(targets.map((t) => ({ announcement_id: id, target_type: t.type, target_id: t.id })))
    .execute();
}

export interface NewAnnouncement {
  id: string;
  title: string;
  bodyHtml: string;
  priority: AnnouncementPriority;
  pinned: boolean;
  requiresAck: boolean;
  status: 'draft' | 'scheduled';
  audience: AnnouncementAudience;
  publishAt: string | null;
  expiresAt: string | null;
  createdBy: string;
}

export async function insertAnnouncement(db: Db, a: NewAnnouncement, at: string): Promise<void> {
  await db
    .insertInto('announcements')
    .values({
      id: a.id,
      title: a.title,
      body_html: a.bodyHtml,
      priority: a.priority,
      pinned: a.pinned ? 1 : 0,
      requires_ack: a.requiresAck ? 1 : 0,
      status: a.status,
      audience: JSON.stringify(a.audience),
      publish_at: a.publishAt,
      published_at: null,
      expires_at: a.expiresAt,
      withdrawn_at: null,
      reminded_at: null,
      created_by: a.createdBy,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await writeTargets(db, a.id, a.audience);
}

/** The columns a change may set (mapped from the record's fields). */
export interface AnnouncementChanges {
  title?: string;
  bodyHtml?: string;
  priority?: AnnouncementPriority;
  pinned?: boolean;
  requiresAck?: boolean;
  status?: 'draft' | 'scheduled';
  audience?: AnnouncementAudience;
  publishAt?: string | null;
  expiresAt?: string | null;
}

/**
 * Applies a change at the revision the client read, while the row is still in `status` (the
 * state the service judged it in): 404 gone, 409 changed since (STALE_REVISION_MESSAGE).
 * Returns the new revision.
 */
export async function updateAnnouncement(
  db: Db,
  change: { id: string; revision: number; status: StoredStatus; set: AnnouncementChanges },
  at: string,
  notFound: string,
): Promise<number> {
  const s = change.set;
  const set: Updateable<AnnouncementsTable> = { updated_at: at };
  if (s.title !== undefined) set.title = s.title;
  if (s.bodyHtml !== undefined) set.body_html = s.bodyHtml;
  if (s.priority !== undefined) set.priority = s.priority;
  if (s.pinned !== undefined) set.pinned = s.pinned ? 1 : 0;
  if (s.requiresAck !== undefined) set.requires_ack = s.requiresAck ? 1 : 0;
  if (s.status !== undefined) set.status = s.status;
  if (s.audience !== undefined) set.audience = JSON.stringify(s.audience);
  if (s.publishAt !== undefined) set.publish_at = s.publishAt;
  if (s.expiresAt !== undefined) set.expires_at = s.expiresAt;
  const revisionChange: RevisionChange<'announcements'> = {
    table: 'announcements',
    id: change.id,
    revision: change.revision,
    set,
    where: (eb) => eb('status', '=', change.status),
  };
  const revision = await updateAtRevision(db, revisionChange, { notFound });
  if (s.audience !== undefined) await writeTargets(db, change.id, s.audience);
  return revision;
}

/**
 * Publishes one announcement, exactly once: `scheduled` or `draft` → `live` in one conditional
 * update. `expect` says which: a scheduled one at the time its job was sent for (a re-scheduled
 * one's old job finds nothing), or one at the revision the client read. Returns the published
 * row, or null when the condition no longer held (published already, re-scheduled, withdrawn).
 */
export async function markPublished(
  db: Db,
  id: string,
  expect: { scheduledAt: string } | { revision: number; status: 'draft' | 'scheduled' },
  at: string,
): Promise<AnnouncementRecord | null> {
  let query = db
    .updateTable('announcements')
    .set({
      status: 'live',
      published_at: at,
      updated_at: at,
      revision: sql<number>`revision + 1`,
    })
    .where('id', '=', id);
  query =
    'scheduledAt' in expect
      ? query.where('status', '=', 'scheduled').where('publish_at', '=', expect.scheduledAt)
      : query.where('status', '=', expect.status).where('revision', '=', expect.revision);
  const updated = await query.returning('id').executeTakeFirst();
  return updated ? findAnnouncement(db, id) : null;
}

/** Withdraws one that is not withdrawn yet; false when it already was (or is gone). */
export async function markWithdrawn(db: Db, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('announcements')
    .set({
      status: 'withdrawn',
      withdrawn_at: at,
      updated_at: at,
      revision: sql<number>`revision + 1`,
    })
    .where('id', '=', id)
    .where('status', '<>', 'withdrawn')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Takes the announcement's reminder slot: sets `reminded_at` to now when it is live and its last
 * reminder was at least `intervalMs` ago (or there was none), in one conditional update, so of
 * two reminders at once one goes. False when the slot was not free.
 */
export async function claimReminder(
  db: Db,
  id: string,
  at: string,
  notBefore: string,
): Promise<boolean> {
  const result = await db
    .updateTable('announcements')
    .set({ reminded_at: at })
    .where('id', '=', id)
    .where('status', '=', 'live')
    .where((eb) => eb.or([eb('reminded_at', 'is', null), eb('reminded_at', '<=', notBefore)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

// ---------------------------------------------------------------- recipients

/** Stores the people it was published to (once each: the primary key). */
export async function insertRecipients(
  db: Db,
  announcementId: string,
  userIds: readonly string[],
): Promise<void> {
  for (const part of chunks(userIds)) {
    await db
      .insertInto('announcement_recipients')
      .values(
        part.map((userId) => ({
          announcement_id: announcementId,
          user_id: userId,
          acknowledged_at: null,
          reminded_at: null,
        })),
      )
      .onConflict((oc) => oc.columns(['announcement_id', 'user_id']).doNothing())
      .execute();
  }
}

/** The person's own row: whether it was published to them, and their acknowledgement. */
export async function findRecipient(
  db: Db,
  announcementId: string,
  userId: string,
): Promise<{ acknowledgedAt: string | null } | null> {
  const row = await db
    .selectFrom('announcement_recipients')
    .where('announcement_id', '=', announcementId)
    .where('user_id', '=', userId)
    .select('acknowledged_at')
    .executeTakeFirst();
  return row ? { acknowledgedAt: row.acknowledged_at } : null;
}

/** Which of these were published to the person: id → their acknowledgement (null: not yet). */
export async function recipientRowsOf(
  db: Db,
  userId: string,
  ids: readonly string[],
): Promise<Map<string, string | null>> {
  const out = new Map<string, string | null>();
  for (const part of chunks(ids)) {
    const rows = await db
      .selectFrom('announcement_recipients')
      .where('user_id', '=', userId)
      .where('announcement_id', 'in', part)
      .select(['announcement_id', 'acknowledged_at'])
      .execute();
    for (const r of rows) out.set(r.announcement_id, r.acknowledged_at);
  }
  return out;
}

/** Records the person's acknowledgement once; null when it was recorded before. */
export async function acknowledge(
  db: Db,
  announcementId: string,
  userId: string,
  at: string,
): Promise<string | null> {
  const row = await db
    .updateTable('announcement_recipients')
    .set({ acknowledged_at: at })
    .where('announcement_id', '=', announcementId)
    .where('user_id', '=', userId)
    .where('acknowledged_at', 'is', null)
    .returning('acknowledged_at')
    .executeTakeFirst();
  return row?.acknowledged_at ?? null;
}

/** Recipients and acknowledgements per announcement. */
export async function countRecipients(
  db: Db,
  ids: readonly string[],
): Promise<Map<string, { recipients: number; acknowledged: number }>> {
  const out = new Map<string, { recipients: number; acknowledged: number }>();
  for (const part of chunks(ids)) {
    const rows = await db
      .selectFrom('announcement_recipients')
      .where('announcement_id', 'in', part)
      .groupBy('announcement_id')
      .select((eb) => [
        'announcement_id',
        eb.fn.countAll<number | string>().as('recipients'),
        eb.fn.count<number | string>('acknowledged_at').as('acknowledged'),
      ])
      .execute();
    for (const r of rows) {
      out.set(r.announcement_id, {
        recipients: Number(r.recipients),
        acknowledged: Number(r.acknowledged),
      });
    }
  }
  return out;
}

/** The active recipients who have not acknowledged it yet, marked reminded now. */
export async function markPendingReminded(
  db: Db,
  announcementId: string,
  at: string,
): Promise<string[]> {
  const rows = await db
    .updateTable('announcement_recipients')
    .set({ reminded_at: at })
    .where('announcement_id', '=', announcementId)
    .where('acknowledged_at', 'is', null)
    .where('user_id', 'in', (eb) =>
      eb.selectFrom('users').where('is_active', '=', 1).select('users.id'),
    )
    .returning('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}

export interface RecipientRow {
  userId: string;
  username: string;
  name: string;
  firstname: string | null;
  lastname: string | null;
  department: string | null;
  acknowledgedAt: string | null;
  remindedAt: string | null;
}

function recipientsQuery(db: Db, announcementId: string, acknowledged: boolean | undefined) {
  let query = db
    .selectFrom('announcement_recipients as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .leftJoin('departments as d', 'd.id', 'u.department_id')
    .where('r.announcement_id', '=', announcementId);
  if (acknowledged === true) query = query.where('r.acknowledged_at', 'is not', null);
  if (acknowledged === false) query = query.where('r.acknowledged_at', 'is', null);
  return query;
}

const recipientColumns = [
  'r.user_id',
  'u.username',
  'u.username_key',
  'u.firstname',
  'u.lastname',
  'd.name as department',
  'r.acknowledged_at',
  'r.reminded_at',
] as const;

function toRecipientRow(r: {
  user_id: string;
  username: string;
  firstname: string | null;
  lastname: string | null;
  department: string | null;
  acknowledged_at: string | null;
  reminded_at: string | null;
}): RecipientRow {
  return {
    userId: r.user_id,
    username: r.username,
    name: displayName(r),
    firstname: r.firstname,
    lastname: r.lastname,
    department: r.department,
    acknowledgedAt: r.acknowledged_at,
    remindedAt: r.reminded_at,
  };
}

/** One page of the people it was published to, by last name, first name and username. */
export async function listRecipients(
  db: Db,
  announcementId: string,
  filter: { acknowledged: boolean | undefined; offset: number; limit: number },
): Promise<{ items: RecipientRow[]; total: number }> {
  const [rows, count] = await Promise.all([
    recipientsQuery(db, announcementId, filter.acknowledged)
      .select(recipientColumns)
      .orderBy('u.lastname')
      .orderBy('u.firstname')
      .orderBy('u.username_key')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute(),
    recipientsQuery(db, announcementId, filter.acknowledged)
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toRecipientRow), total: Number(count.n) };
}

/**
 * The people it was published to, `batch` at a time by username (keyset paging), for the CSV:
 * memory stays flat whatever the audience.
 */
export async function* recipientBatches(
  db: Db,
  announcementId: string,
  acknowledged: boolean | undefined,
  batch = 500,
): AsyncGenerator<RecipientRow[]> {
  let after: string | null = null;
  for (;;) {
    let query = recipientsQuery(db, announcementId, acknowledged)
      .select(recipientColumns)
      .orderBy('u.username_key')
      .limit(batch);
    if (after !== null) query = query.where('u.username_key', '>', after);
    const rows = await query.execute();
    if (rows.length === 0) return;
    yield rows.map(toRecipientRow);
    after = (rows[rows.length - 1] as { username_key: string }).username_key;
    if (rows.length < batch) return;
  }
}

// ---------------------------------------------------------------- lists

/** Which announcements the viewer may manage, as the SQL twin of announceDenial. */
export interface ManageScope {
  /** Announces to anyone (admin): every announcement. */
  anyone: boolean;
  /** course.edit everywhere, or in these courses. */
  courses: 'all' | readonly string[];
  /** department.manage everywhere, or in these departments. */
  departments: 'all' | readonly string[];
}

const FALSE = sql<SqlBool>`1 = 0`;

function inListSql(column: string, ids: 'all' | readonly string[]): Expression<SqlBool> {
  if (ids === 'all') return sql<SqlBool>`1 = 1`;
  if (ids.length === 0) return FALSE;
  return sql<SqlBool>`${sql.ref(column)} in (${sql.join([...ids])})`;
}

/** Over `announcements as a`: every target of its audience is one the viewer may announce to. */
export function manageableSql(scope: ManageScope): Expression<SqlBool> {
  if (scope.anyone) return sql<SqlBool>`1 = 1`;
  return sql<SqlBool>`not exists (select 1 from announcement_targets t where t.announcement_id = a.id and not (
    (t.target_type = 'course' and ${inListSql('t.target_id', scope.courses)})
    or (t.target_type = 'department' and ${inListSql('t.target_id', scope.departments)})))`;
}

/** Over `announcements as a`: the audience names this course or department. */
function targetSql(type: 'course' | 'department', id: string): Expression<SqlBool> {
  return sql<SqlBool>`exists (select 1 from announcement_targets t where t.announcement_id = a.id and t.target_type = ${type} and t.target_id = ${id})`;
}

export interface ListFilter {
  courseId?: string | undefined;
  departmentId?: string | undefined;
  priority?: AnnouncementPriority | undefined;
  offset: number;
  limit: number;
}

/** A reader's announcements with their acknowledgement (the announcement's fields and theirs). */
export interface ReaderRow {
  record: AnnouncementRecord;
  acknowledgedAt: string | null;
}

/**
 * The announcements published to `userId` that are out now (live, not past their expiry),
 * urgent ones still waiting for their acknowledgement first, then pinned ones, then newest.
 */
export async function listForReader(
  db: Db,
  userId: string,
  nowIso: string,
  filter: ListFilter & { unacknowledged?: boolean | undefined },
): Promise<{ items: ReaderRow[]; total: number }> {
  let query = db
    .selectFrom('announcements as a')
    .innerJoin('users as u', 'u.id', 'a.created_by')
    .innerJoin('announcement_recipients as r', (join) =>
      join.onRef('r.announcement_id', '=', 'a.id').on('r.user_id', '=', userId),
    )
    .where('a.status', '=', 'live')
    .where((eb) => eb.or([eb('a.expires_at', 'is', null), eb('a.expires_at', '>', nowIso)]));
  if (filter.courseId) query = query.where(targetSql('course', filter.courseId));
  if (filter.departmentId) query = query.where(targetSql('department', filter.departmentId));
  if (filter.priority) query = query.where('a.priority', '=', filter.priority);
  if (filter.unacknowledged) {
    query = query.where('a.requires_ack', '=', 1).where('r.acknowledged_at', 'is', null);
  }
  const [rows, count] = await Promise.all([
    query
      .select([...COLUMNS, 'r.acknowledged_at'])
      .orderBy(
        sql`case when a.priority = 'urgent' and a.requires_ack = 1 and r.acknowledged_at is null then 0 else 1 end`,
      )
      .orderBy('a.pinned', 'desc')
      .orderBy('a.published_at', 'desc')
      .orderBy('a.id', 'desc')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map((row) => ({ record: toRecord(row), acknowledgedAt: row.acknowledged_at })),
    total: Number(count.n),
  };
}

/** The announcements the viewer may manage, newest first, by state. */
export async function listForManager(
  db: Db,
  scope: ManageScope,
  nowIso: string,
  filter: ListFilter & { state?: AnnouncementState | undefined },
): Promise<{ items: AnnouncementRecord[]; total: number }> {
  let query = db
    .selectFrom('announcements as a')
    .innerJoin('users as u', 'u.id', 'a.created_by')
    .where(manageableSql(scope));
  if (filter.courseId) query = query.where(targetSql('course', filter.courseId));
  if (filter.departmentId) query = query.where(targetSql('department', filter.departmentId));
  if (filter.priority) query = query.where('a.priority', '=', filter.priority);
  switch (filter.state) {
    case 'live':
      query = query
        .where('a.status', '=', 'live')
        .where((eb) => eb.or([eb('a.expires_at', 'is', null), eb('a.expires_at', '>', nowIso)]));
      break;
    case 'expired':
      query = query.where('a.status', '=', 'live').where('a.expires_at', '<=', nowIso);
      break;
    case undefined:
      break;
    default:
      query = query.where('a.status', '=', filter.state);
  }
  const [rows, count] = await Promise.all([
    query
      .select(COLUMNS)
      .orderBy('a.created_at', 'desc')
      .orderBy('a.id', 'desc')
      .offset(filter.offset)
      .limit(filter.limit)
      .execute(),
    query.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toRecord), total: Number(count.n) };
}

/** How many announcements there are (the seed runs only when there are none). */
export async function countAnnouncements(db: Db): Promise<number> {
  const row = await db
    .selectFrom('announcements')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

// ---------------------------------------------------------------- the audience's people

/** Active accounts: all, or of these roles, or these ids. */
export async function activeUserIds(
  db: Db,
  which: { all: true } | { roles: readonly string[] } | { ids: readonly string[] },
): Promise<string[]> {
  let query = db.selectFrom('users').where('is_active', '=', 1).select('id');
  if ('roles' in which) {
    if (which.roles.length === 0) return [];
    query = query.where('role', 'in', [...which.roles]);
  }
  if ('ids' in which) {
    const out: string[] = [];
    for (const part of chunks(which.ids)) {
      const rows = await query.where('id', 'in', part).execute();
      out.push(...rows.map((r) => r.id));
    }
    return out;
  }
  return (await query.execute()).map((r) => r.id);
}

/** Names for an audience's departments and people (id → name), those that exist. */
export async function namesOf(
  db: Db,
  ids: { departmentIds: readonly string[]; userIds: readonly string[] },
): Promise<{ departments: Map<string, string>; people: Map<string, string> }> {
  const departments = new Map<string, string>();
  const people = new Map<string, string>();
  for (const part of chunks([...new Set(ids.departmentIds)])) {
    const rows = await db
      .selectFrom('departments')
      .where('id', 'in', part)
      .select(['id', 'name'])
      .execute();
    for (const r of rows) departments.set(r.id, r.name);
  }
  for (const part of chunks([...new Set(ids.userIds)])) {
    const rows = await db
      .selectFrom('users')
      .where('id', 'in', part)
      .select(['id', 'firstname', 'lastname', 'username'])
      .execute();
    for (const r of rows) people.set(r.id, displayName(r));
  }
  return { departments, people };
}

/** The ids of everyone it was published to. */
export async function listRecipientIds(db: Db, announcementId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('announcement_recipients')
    .where('announcement_id', '=', announcementId)
    .select('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}
