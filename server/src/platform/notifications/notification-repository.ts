/**
 * All SQL about notifications (docs/notifications.md): the events, each person's copy, the outbox
 * the live channel sends from, and the counts an area shows of its own (an announcement's
 * delivered and read).
 */
import type { Notification, NotificationKind, NotificationPriority } from '@learning-hub/core';
import { sql } from 'kysely';
import { displayName } from '../auth/display-name';
import type { Db } from '../db';

/** Rows per INSERT or IN list (well under both databases' limits on bound values). */
const CHUNK = 500;

function chunks<T>(list: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < list.length; i += size) out.push(list.slice(i, i + size));
  return out;
}

export interface NotificationEventRow {
  id: string;
  kind: NotificationKind;
  priority: NotificationPriority;
  title: string;
  body: string;
  link: string | null;
  sourceType: string | null;
  sourceId: string | null;
  actorId: string | null;
  createdAt: string;
}

export interface Recipient {
  userId: string;
  /** Also by email (the person chose email for this kind and email is set up). */
  email: boolean;
}

/** Stores an event and its recipients' copies (call it inside the thing's own transaction). */
export async function insertNotification(
  db: Db,
  event: NotificationEventRow,
  recipients: readonly Recipient[],
): Promise<void> {
  await db
    .insertInto('notification_events')
    .values({
      id: event.id,
      kind: event.kind,
      priority: event.priority,
      title: event.title,
      body: event.body,
      link: event.link,
      source_type: event.sourceType,
      source_id: event.sourceId,
      actor_id: event.actorId,
      recipient_count: recipients.length,
      created_at: event.createdAt,
      // Nobody to send it to live: nothing for the outbox.
      dispatched_at: recipients.length === 0 ? event.createdAt : null,
    })
    .execute();
  for (const part of chunks(recipients)) {
    await db
      .insertInto('notifications')
      .values(
        part.map((r) => ({
          user_id: r.userId,
          event_id: event.id,
          delivered_at: null,
          read_at: null,
          email: r.email ? 'pending' : null,
        })),
      )
      .execute();
  }
}

type ListedRow = {
  id: string;
  kind: string;
  priority: string;
  title: string;
  body: string;
  link: string | null;
  created_at: string;
  read_at: string | null;
  actor_id: string | null;
  firstname: string | null;
  lastname: string | null;
  username: string | null;
};

function toNotification(row: ListedRow): Notification {
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    priority: row.priority as NotificationPriority,
    title: row.title,
    body: row.body,
    link: row.link,
    actor: row.actor_id
      ? {
          id: row.actor_id,
          name: displayName({
            firstname: row.firstname,
            lastname: row.lastname,
            username: row.username,
          }),
        }
      : null,
    createdAt: row.created_at,
    readAt: row.read_at,
  };
}

function listedQuery(db: Db, userId: string) {
  return db
    .selectFrom('notifications as n')
    .innerJoin('notification_events as e', 'e.id', 'n.event_id')
    .leftJoin('users as a', 'a.id', 'e.actor_id')
    .where('n.user_id', '=', userId)
    .select([
      'e.id',
      'e.kind',
      'e.priority',
      'e.title',
      'e.body',
      'e.link',
      'e.created_at',
      'n.read_at',
      'e.actor_id',
      'a.firstname',
      'a.lastname',
      'a.username',
    ]);
}

/** One person's notifications, newest first (optionally only the unread), with the total. */
export async function listNotifications(
  db: Db,
  userId: string,
  filter: { unread: boolean; offset: number; limit: number },
): Promise<{ items: Notification[]; total: number }> {
  let list = listedQuery(db, userId);
  let count = db
    .selectFrom('notifications')
    .where('user_id', '=', userId)
    .select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (filter.unread) {
    list = list.where('n.read_at', 'is', null);
    count = count.where('read_at', 'is', null);
  }
  const [rows, total] = await Promise.all([
    list.orderBy('n.event_id', 'desc').offset(filter.offset).limit(filter.limit).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { items: rows.map(toNotification), total: Number(total.n) };
}

/** One person's notifications whose event id is above `afterId`, oldest first (the replay). */
export async function listNotificationsAfter(
  db: Db,
  userId: string,
  afterId: string,
  limit: number,
): Promise<Notification[]> {
  const rows = await listedQuery(db, userId)
    .where('n.event_id', '>', afterId)
    .orderBy('n.event_id', 'asc')
    .limit(limit)
    .execute();
  return rows.map(toNotification);
}

/** One of the person's notifications, or null. */
export async function findNotification(
  db: Db,
  userId: string,
  eventId: string,
): Promise<Notification | null> {
  const row = await listedQuery(db, userId).where('n.event_id', '=', eventId).executeTakeFirst();
  return row ? toNotification(row) : null;
}

/** How many of the person's notifications are unread. */
export async function countUnread(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Marks these of the person's notifications (or all) read; returns how many were unread. */
export async function markRead(
  db: Db,
  userId: string,
  ids: readonly string[] | 'all',
  at: string,
): Promise<number> {
  let marked = 0;
  const parts = ids === 'all' ? [null] : chunks(ids);
  for (const part of parts) {
    let query = db
      .updateTable('notifications')
      // Read implies delivered (a reader who reads it in another tab got it).
      .set({ read_at: at, delivered_at: sql`coalesce(delivered_at, ${at})` })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null);
    if (part) query = query.where('event_id', 'in', part);
    const result = await query.executeTakeFirst();
    marked += Number(result.numUpdatedRows);
  }
  return marked;
}

/**
 * Records that copies arrived (the first time counts): one person's copies of these events (a
 * fetched list), or one event's copies of these people (the live channel's receipts).
 */
export async function markDelivered(
  db: Db,
  copies:
    | { userId: string; eventIds: readonly string[] }
    | { eventId: string; userIds: readonly string[] },
  at: string,
): Promise<void> {
  const [fixed, value, many, list] =
    'userId' in copies
      ? (['user_id', copies.userId, 'event_id', copies.eventIds] as const)
      : (['event_id', copies.eventId, 'user_id', copies.userIds] as const);
  for (const part of chunks(list)) {
    await db
      .updateTable('notifications')
      .set({ delivered_at: at })
      .where(fixed, '=', value)
      .where(many, 'in', part)
      .where('delivered_at', 'is', null)
      .execute();
  }
}

/**
 * Takes up to `limit` events no instance has sent yet, oldest first: each is marked sent by a
 * conditional update, so of several instances exactly one takes it.
 */
export async function claimUndispatched(
  db: Db,
  at: string,
  limit: number,
): Promise<NotificationEventRow[]> {
  const candidates = await db
    .selectFrom('notification_events')
    .where('dispatched_at', 'is', null)
    .select(['id'])
    .orderBy('id')
    .limit(limit)
    .execute();
  const claimed: NotificationEventRow[] = [];
  for (const { id } of candidates) {
    const row = await db
      .updateTable('notification_events')
      .set({ dispatched_at: at })
      .where('id', '=', id)
      .where('dispatched_at', 'is', null)
      .returning([
        'id',
        'kind',
        'priority',
        'title',
        'body',
        'link',
        'source_type',
        'source_id',
        'actor_id',
        'created_at',
      ])
      .executeTakeFirst();
    if (row) {
      claimed.push({
        id: row.id,
        kind: row.kind as NotificationKind,
        priority: row.priority as NotificationPriority,
        title: row.title,
        body: row.body,
        link: row.link,
        sourceType: row.source_type,
        sourceId: row.source_id,
        actorId: row.actor_id,
        createdAt: row.created_at,
      });
    }
  }
  return claimed;
}

/** The people an event reached. */
export async function listRecipientIds(db: Db, eventId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('notifications')
    .where('event_id', '=', eventId)
    .select('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}

/** The actor's name of an event, for its live copy. */
export async function findActorName(db: Db, userId: string): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .where('id', '=', userId)
    .select(['firstname', 'lastname', 'username'])
    .executeTakeFirst();
  return row ? displayName(row) : null;
}

/** How many people the events about one thing reached, and how many got and read them. */
export async function deliveryCounts(
  db: Db,
  source: { type: string; id: string },
): Promise<{ recipients: number; delivered: number; read: number }> {
  const row = await db
    .selectFrom('notifications as n')
    .innerJoin('notification_events as e', 'e.id', 'n.event_id')
    .where('e.source_type', '=', source.type)
    .where('e.source_id', '=', source.id)
    .select((eb) => [
      eb.fn.count<number | string>(sql`distinct n.user_id`).as('recipients'),
      eb.fn
        .count<number | string>(
          sql`distinct case when n.delivered_at is not null then n.user_id end`,
        )
        .as('delivered'),
      eb.fn
        .count<number | string>(sql`distinct case when n.read_at is not null then n.user_id end`)
        .as('read'),
    ])
    .executeTakeFirstOrThrow();
  return {
    recipients: Number(row.recipients),
    delivered: Number(row.delivered),
    read: Number(row.read),
  };
}

/**
 * Takes a once-only key (`assignment.due:<id>:<due>`): true when this call took it, false when it
 * was taken before (by another run, another instance). Call it in the notice's transaction.
 */
export async function takeMark(db: Db, key: string, at: string): Promise<boolean> {
  const result = await db
    .insertInto('notification_marks')
    .values({ key, created_at: at })
    .onConflict((oc) => oc.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

/** A copy waiting to be emailed, with what the email says and where it goes. */
export interface EmailCopy {
  userId: string;
  eventId: string;
  /** The person's address (null: they have none). */
  email: string | null;
  title: string;
  body: string;
  link: string | null;
  priority: string;
}

/**
 * Takes copies waiting for email (`pending` → `sending`, each by a conditional update: of several
 * instances one takes each), oldest first: only the urgent ones, or every other one (the digest).
 */
export async function claimEmails(
  db: Db,
  filter: { urgentOnly: boolean; limit: number },
): Promise<EmailCopy[]> {
  const candidates = await db
    .selectFrom('notifications as n')
    .innerJoin('notification_events as e', 'e.id', 'n.event_id')
    .innerJoin('users as u', 'u.id', 'n.user_id')
    .where('n.email', '=', 'pending')
    .where('e.priority', filter.urgentOnly ? '=' : '!=', 'urgent')
    .select(['n.user_id', 'n.event_id', 'u.email', 'e.title', 'e.body', 'e.link', 'e.priority'])
    .orderBy('n.event_id')
    .limit(filter.limit)
    .execute();
  const claimed: EmailCopy[] = [];
  for (const row of candidates) {
    const result = await db
      .updateTable('notifications')
      .set({ email: 'sending' })
      .where('user_id', '=', row.user_id)
      .where('event_id', '=', row.event_id)
      .where('email', '=', 'pending')
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 1) {
      claimed.push({
        userId: row.user_id,
        eventId: row.event_id,
        email: row.email,
        title: row.title,
        body: row.body,
        link: row.link,
        priority: row.priority,
      });
    }
  }
  return claimed;
}

/** Records what became of claimed copies: sent, skipped (no address), or pending again. */
export async function markEmails(
  db: Db,
  copies: readonly Pick<EmailCopy, 'userId' | 'eventId'>[],
  state: 'sent' | 'skipped' | 'pending',
): Promise<void> {
  for (const copy of copies) {
    await db
      .updateTable('notifications')
      .set({ email: state })
      .where('user_id', '=', copy.userId)
      .where('event_id', '=', copy.eventId)
      .where('email', '=', 'sending')
      .execute();
  }
}

/** When a person's copies of the events about one thing were first delivered and read. */
export interface SourceReceipt {
  deliveredAt: string | null;
  readAt: string | null;
}

/**
 * One person's receipts of the events about several things of one type (an area's reader list):
 * thing id → the earliest delivery and reading of any copy (a reminder is another copy).
 */
export async function receiptsOfUser(
  db: Db,
  userId: string,
  source: { type: string; ids: readonly string[] },
): Promise<Map<string, SourceReceipt>> {
  const out = new Map<string, SourceReceipt>();
  for (const part of chunks(source.ids)) {
    const rows = await db
      .selectFrom('notifications as n')
      .innerJoin('notification_events as e', 'e.id', 'n.event_id')
      .where('n.user_id', '=', userId)
      .where('e.source_type', '=', source.type)
      .where('e.source_id', 'in', part)
      .groupBy('e.source_id')
      .select((eb) => [
        'e.source_id',
        eb.fn.min('n.delivered_at').as('delivered_at'),
        eb.fn.min('n.read_at').as('read_at'),
      ])
      .execute();
    for (const r of rows) {
      out.set(r.source_id as string, {
        deliveredAt: (r.delivered_at as string | null) ?? null,
        readAt: (r.read_at as string | null) ?? null,
      });
    }
  }
  return out;
}

/** Several people's receipts of the events about one thing (an area's list of its recipients). */
export async function receiptsOfSource(
  db: Db,
  source: { type: string; id: string },
  userIds: readonly string[],
): Promise<Map<string, SourceReceipt>> {
  const out = new Map<string, SourceReceipt>();
  for (const part of chunks(userIds)) {
    const rows = await db
      .selectFrom('notifications as n')
      .innerJoin('notification_events as e', 'e.id', 'n.event_id')
      .where('e.source_type', '=', source.type)
      .where('e.source_id', '=', source.id)
      .where('n.user_id', 'in', part)
      .groupBy('n.user_id')
      .select((eb) => [
        'n.user_id',
        eb.fn.min('n.delivered_at').as('delivered_at'),
        eb.fn.min('n.read_at').as('read_at'),
      ])
      .execute();
    for (const r of rows) {
      out.set(r.user_id, {
        deliveredAt: (r.delivered_at as string | null) ?? null,
        readAt: (r.read_at as string | null) ?? null,
      });
    }
  }
  return out;
}

/**
 * Records that a person's app received the events about these things (an area's list showed
 * them); returns the ids of the things whose delivery was new (their counts changed).
 */
export async function markSourcesDelivered(
  db: Db,
  userId: string,
  source: { type: string; ids: readonly string[] },
  at: string,
): Promise<string[]> {
  const changed = new Set<string>();
  for (const part of chunks(source.ids)) {
    const events = await db
      .selectFrom('notification_events')
      .where('source_type', '=', source.type)
      .where('source_id', 'in', part)
      .select(['id', 'source_id'])
      .execute();
    if (events.length === 0) continue;
    const updated = await db
      .updateTable('notifications')
      .set({ delivered_at: at })
      .where('user_id', '=', userId)
      .where(
        'event_id',
        'in',
        events.map((e) => e.id),
      )
      .where('delivered_at', 'is', null)
      .returning('event_id')
      .execute();
    const sourceOf = new Map(events.map((e) => [e.id, e.source_id as string]));
    for (const u of updated) changed.add(sourceOf.get(u.event_id) as string);
  }
  return [...changed];
}

/**
 * Marks a person's copies of the events about one thing read (they opened or acknowledged it);
 * returns the ids of those that were unread (for the person's other tabs: `notifications-read`).
 */
export async function markSourceRead(
  db: Db,
  userId: string,
  source: { type: string; id: string },
  at: string,
): Promise<string[]> {
  const rows = await db
    .updateTable('notifications')
    .set({ read_at: at, delivered_at: sql`coalesce(delivered_at, ${at})` })
    .where('user_id', '=', userId)
    .where('read_at', 'is', null)
    .where(
      'event_id',
      'in',
      db
        .selectFrom('notification_events')
        .where('source_type', '=', source.type)
        .where('source_id', '=', source.id)
        .select('id'),
    )
    .returning('event_id')
    .execute();
  return rows.map((r) => r.event_id);
}

/** What these events are about: `source_type` → the source ids (events about nothing left out). */
export async function sourcesOfEvents(
  db: Db,
  eventIds: readonly string[],
): Promise<Map<string, Set<string>>> {
  const sources = new Map<string, Set<string>>();
  for (const part of chunks(eventIds)) {
    const rows = await db
      .selectFrom('notification_events')
      .where('id', 'in', part)
      .where('source_type', 'is not', null)
      .select(['source_type', 'source_id'])
      .execute();
    for (const row of rows) {
      if (!row.source_type || !row.source_id) continue;
      const set = sources.get(row.source_type) ?? new Set<string>();
      set.add(row.source_id);
      sources.set(row.source_type, set);
    }
  }
  return sources;
}
