/**
 * All SQL about sessions. Tokens are opaque random values; only their SHA-256 is stored, so a
 * leaked database does not leak usable tokens.
 */
import { hash, randomBytes, randomUUID } from 'node:crypto';
import type { AuthMethod } from '@learning-hub/core';
import { sql } from 'kysely';
import type { Db } from '../db';
import { prepareQuery } from '../db/prepared';
import { toUserRecord, USER_COLUMNS, type UserRecord } from './user-repository';

export interface SessionRecord {
  id: string;
  userId: string;
  method: AuthMethod;
  createdAt: string;
  expiresAt: string;
  lastUsedAt: string;
  revokedAt: string | null;
  ipAddress: string | null;
  userAgent: string | null;
}

/** A new bearer token: 256 random bits, base64url. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  // crypto.hash: one call, no Hash object (this runs on every authenticated request).
  return hash('sha256', token, 'hex');
}

/**
 * Most live sessions one user may have. A sign-in beyond it ends the user's oldest live sessions,
 * so that stolen or forgotten tokens do not pile up without bound.
 */
export const MAX_LIVE_SESSIONS_PER_USER = 20;

/**
 * Opens a session, and ends the user's oldest live sessions beyond MAX_LIVE_SESSIONS_PER_USER
 * (revoked with reason `session_limit`) in the same transaction. The transaction first writes
 * the user's row, which PostgreSQL then keeps locked until commit (SQLite holds its one write
 * lock): parallel sign-ins of one user take turns, so each sees the sessions the others opened
 * and the limit is exact.
 */
export async function createSession(
  db: Db,
  input: {
    userId: string;
    method: AuthMethod;
    now: Date;
    lifetimeMs: number;
    ipAddress: string | null;
    userAgent: string | null;
    /** More work in the session's own transaction (a notification of the sign-in). */
    within?: (trx: Db, session: SessionRecord) => Promise<void>;
  },
): Promise<{ token: string; session: SessionRecord; ended: number }> {
  const token = newToken();
  const session: SessionRecord = {
    id: randomUUID(),
    userId: input.userId,
    method: input.method,
    createdAt: input.now.toISOString(),
    expiresAt: new Date(input.now.getTime() + input.lifetimeMs).toISOString(),
    lastUsedAt: input.now.toISOString(),
    revokedAt: null,
    ipAddress: input.ipAddress,
    userAgent: input.userAgent ? input.userAgent.slice(0, 512) : null,
  };
  const now = session.createdAt;
  const ended = await db.transaction().execute(async (trx) => {
    // A column no foreign key points at: rewriting `id` (even to itself) makes SQLite check
    // every table referencing users, which grows with the wiki's and library's rows.
    await trx
      .updateTable('users')
      .set({ access_version: sql`access_version` })
      .where('id', '=', session.userId)
      .execute();
    await trx
      .insertInto('sessions')
      .values({
        id: session.id,
        token_hash: hashToken(token),
        user_id: session.userId,
        method: session.method,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
        last_used_at: session.lastUsedAt,
        revoked_at: null,
        revoked_reason: null,
        ip_address: session.ipAddress,
        user_agent: session.userAgent,
      })
      .execute();
    // The new session and the newest others up to the limit stay; the rest end.
    const othersKept = trx
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', session.userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .where('id', '!=', session.id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(MAX_LIVE_SESSIONS_PER_USER - 1);
    const result = await trx
      .updateTable('sessions')
      .set({ revoked_at: now, revoked_reason: 'session_limit' })
      .where('user_id', '=', session.userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .where('id', '!=', session.id)
      .where('id', 'not in', othersKept)
      .executeTakeFirst();
    await input.within?.(trx, session);
    return Number(result.numUpdatedRows);
  });
  return { token, session, ended };
}

/**
 * Whether this sign-in is from a browser the person has not signed in with before: they have
 * signed in before, and never with this user agent. (The first sign-in of an account is no news.)
 */
export async function isNewBrowser(
  db: Db,
  userId: string,
  userAgent: string | null,
  exceptSessionId: string,
): Promise<boolean> {
  const earlier = await db
    .selectFrom('sessions')
    .where('user_id', '=', userId)
    .where('id', '!=', exceptSessionId)
    .select((eb) => [
      eb.fn.countAll<number | string>().as('all'),
      eb.fn
        .count<number | string>(
          userAgent === null
            ? sql`case when user_agent is null then 1 end`
            : sql`case when user_agent = ${userAgent} then 1 end`,
        )
        .as('same'),
    ])
    .executeTakeFirstOrThrow();
  return Number(earlier.all) > 0 && Number(earlier.same) === 0;
}

function sessionQuery(db: Db) {
  return db
    .selectFrom('sessions as s')
    .innerJoin('users', 'users.id', 's.user_id')
    .leftJoin('departments', 'departments.id', 'users.department_id')
    .innerJoin('access_epoch', (join) => join.on('access_epoch.id', '=', 1))
    .select([
      'access_epoch.roles_version',
      's.id as session_id',
      's.method as session_method',
      's.created_at as session_created_at',
      's.expires_at as session_expires_at',
      's.last_used_at as session_last_used_at',
      's.revoked_at as session_revoked_at',
      's.ip_address as session_ip_address',
      's.user_agent as session_user_agent',
      ...USER_COLUMNS,
    ]);
}

const sessionByTokenHash = prepareQuery(1, (db: Db, tokenHash: string) =>
  sessionQuery(db).where('s.token_hash', '=', tokenHash),
);

const sessionById = prepareQuery(1, (db: Db, id: string) =>
  sessionQuery(db).where('s.id', '=', id),
);

/**
 * The session a token (by its hash) names and its user, whatever their state (the caller judges
 * validity). Runs on every authenticated request, hence the query compiled once.
 */
export async function findSessionByTokenHash(
  db: Db,
  tokenHash: string,
): Promise<{ session: SessionRecord; user: UserRecord; rolesVersion: number } | null> {
  const [row] = await sessionByTokenHash.execute(db, tokenHash);
  return row ? toResolved(row) : null;
}

/**
 * The session with this id and its user, whatever their state (the caller judges validity): a
 * signed file URL speaks for a session by its id (storage/signed-urls.ts).
 */
export async function findSessionById(
  db: Db,
  id: string,
): Promise<{ session: SessionRecord; user: UserRecord; rolesVersion: number } | null> {
  const [row] = await sessionById.execute(db, id);
  return row ? toResolved(row) : null;
}

type SessionRow = Awaited<ReturnType<typeof sessionByTokenHash.execute>>[number];

function toResolved(row: SessionRow): {
  session: SessionRecord;
  user: UserRecord;
  rolesVersion: number;
} {
  return {
    rolesVersion: Number(row.roles_version),
    session: {
      id: row.session_id,
      userId: row.id,
      method: row.session_method as AuthMethod,
      createdAt: row.session_created_at,
      expiresAt: row.session_expires_at,
      lastUsedAt: row.session_last_used_at,
      revokedAt: row.session_revoked_at,
      ipAddress: row.session_ip_address,
      userAgent: row.session_user_agent,
    },
    user: toUserRecord(row),
  };
}

export async function touchSession(db: Db, sessionId: string, at: string): Promise<void> {
  await db.updateTable('sessions').set({ last_used_at: at }).where('id', '=', sessionId).execute();
}

/**
 * One page of a user's sessions that are neither revoked nor expired at `now`: `current` (the
 * session asking) first, then the last used first; and how many there are in all.
 */
export async function listActiveSessions(
  db: Db,
  userId: string,
  now: string,
  current: string,
  window: { offset: number; limit: number },
): Promise<{ rows: SessionRecord[]; total: number }> {
  const active = db
    .selectFrom('sessions')
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now);
  const [rows, count] = await Promise.all([
    active
      .selectAll()
      .orderBy(sql`case when id = ${current} then 0 else 1 end`)
      .orderBy('last_used_at', 'desc')
      .orderBy('id')
      .offset(window.offset)
      .limit(window.limit)
      .execute(),
    active.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    total: Number(count.n),
    rows: rows.map((r) => ({
      id: r.id,
      userId: r.user_id,
      method: r.method as AuthMethod,
      createdAt: r.created_at,
      expiresAt: r.expires_at,
      lastUsedAt: r.last_used_at,
      revokedAt: r.revoked_at,
      ipAddress: r.ip_address,
      userAgent: r.user_agent,
    })),
  };
}

/** Revokes one of a user's sessions; false when the user has no such live session. */
export async function revokeSession(
  db: Db,
  userId: string,
  sessionId: string,
  at: string,
  reason: string,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('id', '=', sessionId)
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes every live session of a user except `keepSessionId`; returns how many ended. */
export async function revokeUserSessions(
  db: Db,
  userId: string,
  at: string,
  reason: string,
  keepSessionId?: string,
): Promise<number> {
  let query = db
    .updateTable('sessions')
    .set({ revoked_at: at, revoked_reason: reason })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at);
  if (keepSessionId) query = query.where('id', '!=', keepSessionId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * Of these sessions, the ones still live (not revoked, not expired, their user active), with
 * their user's access version: the live channel's periodic check of its connections.
 */
export async function listLiveSessions(
  db: Db,
  sessionIds: readonly string[],
  at: string,
): Promise<Map<string, { accessVersion: number }>> {
  const live = new Map<string, { accessVersion: number }>();
  for (let i = 0; i < sessionIds.length; i += 500) {
    const rows = await db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .where('s.id', 'in', sessionIds.slice(i, i + 500))
      .where('s.revoked_at', 'is', null)
      .where('s.expires_at', '>', at)
      .where('u.is_active', '=', 1)
      .select(['s.id', 'u.access_version'])
      .execute();
    for (const row of rows) live.set(row.id, { accessVersion: Number(row.access_version) });
  }
  return live;
}
