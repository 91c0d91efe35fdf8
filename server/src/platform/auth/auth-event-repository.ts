/**
 * All SQL about the auth-event log: every sign-in attempt and session event the server itself
 * saw, durably; and, apart from it, the events browsers report (spec §3's auth log event). A
 * browser's report is only its claim: it lives in its own table, so nothing that reads the
 * server's record (throttling, the failed-attempt notice, last sign-in, audit views) can take
 * one for the server's own.
 */
import type { Db } from '../db';
import { sortableId } from '../ids';
import { usernameKey } from './user-repository';

export interface AuthEventInput {
  occurredAt: string;
  event: string;
  username?: string | null;
  userId?: string | null;
  authMethod?: string | null;
  success?: boolean | null;
  error?: string | null;
  address?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

/** Records what the server saw of a sign-in attempt or session event. */
export async function recordAuthEvent(db: Db, e: AuthEventInput): Promise<void> {
  await db
    .insertInto('auth_events')
    .values({
      id: sortableId(),
      occurred_at: e.occurredAt,
      source: 'server',
      event: e.event,
      username: e.username ?? null,
      username_key: e.username ? usernameKey(e.username) : null,
      user_id: e.userId ?? null,
      auth_method: e.authMethod ?? null,
      success: e.success === undefined || e.success === null ? null : e.success ? 1 : 0,
      error: e.error ?? null,
      address: e.address ?? null,
      client_ip_address: null,
      client_timestamp: null,
      user_agent: e.userAgent ? e.userAgent.slice(0, 1024) : null,
      request_id: e.requestId ?? null,
    })
    .execute();
}

export interface AuthEventRecord {
  id: string;
  occurredAt: string;
  source: string;
  event: string;
  username: string | null;
  userId: string | null;
  authMethod: string | null;
  success: boolean | null;
  error: string | null;
  address: string | null;
}

/** The server's own record, newest first (browsers' reports are never among it). */
export async function listAuthEvents(
  db: Db,
  filter: { username?: string; events?: readonly string[]; limit?: number; offset?: number } = {},
): Promise<AuthEventRecord[]> {
  let query = db.selectFrom('auth_events').selectAll().where('source', '=', 'server');
  if (filter.username !== undefined) query = query.where('username', '=', filter.username);
  if (filter.events !== undefined) query = query.where('event', 'in', [...filter.events]);
  const rows = await query
    .orderBy('occurred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit ?? 100)
    .offset(filter.offset ?? 0)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    occurredAt: r.occurred_at,
    source: r.source,
    event: r.event,
    username: r.username,
    userId: r.user_id,
    authMethod: r.auth_method,
    success: r.success === null ? null : Boolean(r.success),
    error: r.error,
    address: r.address,
  }));
}

/** Events that are failed sign-in attempts at an account (refused or throttled). */
const FAILED_SIGN_IN_EVENTS = ['login_failure', 'login_throttled'] as const;

/** The latest failed sign-in attempts the server recorded (refused or throttled), newest first. */
export async function listSignInFailures(
  db: Db,
  window: { offset: number; limit: number },
): Promise<{ events: AuthEventRecord[]; total: number }> {
  const [events, counted] = await Promise.all([
    listAuthEvents(db, { events: FAILED_SIGN_IN_EVENTS, ...window }),
    db
      .selectFrom('auth_events')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('source', '=', 'server')
      .where('event', 'in', [...FAILED_SIGN_IN_EVENTS])
      .executeTakeFirstOrThrow(),
  ]);
  return { events, total: Number(counted.count) };
}

/**
 * How many failed sign-in attempts the server recorded at the account with username key `key`
 * from `since` (ISO instant) on, and when the last was; whatever spelling of the name was typed.
 */
export async function countFailedSignIns(
  db: Db,
  key: string,
  since: string,
): Promise<{ count: number; lastAt: string | null }> {
  const row = await db
    .selectFrom('auth_events')
    .select((eb) => [eb.fn.countAll().as('count'), eb.fn.max('occurred_at').as('last_at')])
    .where('username_key', '=', key)
    .where('occurred_at', '>=', since)
    .where('source', '=', 'server')
    .where('event', 'in', FAILED_SIGN_IN_EVENTS)
    .executeTakeFirst();
  return { count: Number(row?.count ?? 0), lastAt: row?.last_at ?? null };
}

/** An auth log event as a browser reported it (spec §3), with what the server saw of the call. */
export interface ClientReportInput {
  receivedAt: string;
  event: string;
  username: string;
  authMethod: string;
  error: string | null;
  /** The client address the server saw. */
  address: string;
  /** What the browser sent as its address (always 'client-side'). */
  clientIpAddress: string;
  clientTimestamp: string;
  userAgent: string;
  requestId: string;
}

export interface ClientReportRecord extends ClientReportInput {
  id: string;
}

export async function recordClientReport(db: Db, r: ClientReportInput): Promise<void> {
  await db
    .insertInto('client_auth_reports')
    .values({
      id: sortableId(),
      received_at: r.receivedAt,
      event: r.event,
      username: r.username,
      auth_method: r.authMethod,
      error: r.error,
      address: r.address,
      client_ip_address: r.clientIpAddress,
      client_timestamp: r.clientTimestamp,
      user_agent: r.userAgent.slice(0, 1024),
      request_id: r.requestId,
    })
    .execute();
}

/** Browsers' reports, newest first. */
export async function listClientReports(
  db: Db,
  filter: { username?: string; limit?: number } = {},
): Promise<ClientReportRecord[]> {
  let query = db.selectFrom('client_auth_reports').selectAll();
  if (filter.username !== undefined) query = query.where('username', '=', filter.username);
  const rows = await query
    .orderBy('id', 'desc')
    .limit(filter.limit ?? 100)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    receivedAt: r.received_at,
    event: r.event,
    username: r.username,
    authMethod: r.auth_method,
    error: r.error,
    address: r.address,
    clientIpAddress: r.client_ip_address,
    clientTimestamp: r.client_timestamp,
    userAgent: r.user_agent,
    requestId: r.request_id,
  }));
}

/** Keeps only the newest `keep` browser reports (ids sort in the order they were received). */
export async function pruneClientReports(db: Db, keep: number): Promise<void> {
  const boundary = await db
    .selectFrom('client_auth_reports')
    .select('id')
    .orderBy('id', 'desc')
    .offset(keep)
    .limit(1)
    .executeTakeFirst();
  if (boundary) {
    await db.deleteFrom('client_auth_reports').where('id', '<=', boundary.id).execute();
  }
}
