/** All SQL about the auth-event log: every sign-in attempt and session event, durably. */
import type { Db } from '../db';
import { sortableId } from '../lib/ids';

export interface AuthEventInput {
  occurredAt: string;
  source: 'server' | 'client';
  event: string;
  username?: string | null;
  userId?: string | null;
  authMethod?: string | null;
  success?: boolean | null;
  error?: string | null;
  address?: string | null;
  clientIpAddress?: string | null;
  clientTimestamp?: string | null;
  userAgent?: string | null;
  requestId?: string | null;
}

export async function recordAuthEvent(db: Db, e: AuthEventInput): Promise<void> {
  await db
    .insertInto('auth_events')
    .values({
      id: sortableId(),
      occurred_at: e.occurredAt,
      source: e.source,
      event: e.event,
      username: e.username ?? null,
      user_id: e.userId ?? null,
      auth_method: e.authMethod ?? null,
      success: e.success === undefined || e.success === null ? null : e.success ? 1 : 0,
      error: e.error ?? null,
      address: e.address ?? null,
      client_ip_address: e.clientIpAddress ?? null,
      client_timestamp: e.clientTimestamp ?? null,
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

/** Newest first; used by tests and, later, by the admin audit views. */
export async function listAuthEvents(
  db: Db,
  filter: { username?: string; limit?: number } = {},
): Promise<AuthEventRecord[]> {
  let query = db.selectFrom('auth_events').selectAll();
  if (filter.username !== undefined) query = query.where('username', '=', filter.username);
  const rows = await query
    .orderBy('occurred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit ?? 100)
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
