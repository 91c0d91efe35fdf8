/** All SQL about sign-in throttling counters (shared by every server instance via the database). */
import type { Db } from '../db';

export interface ThrottleRow {
  key: string;
  failures: number;
  lastFailureAt: string;
  blockedUntil: string | null;
}

export async function findThrottleRows(db: Db, keys: readonly string[]): Promise<ThrottleRow[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('login_throttle')
    .selectAll()
    .where('key', 'in', [...keys])
    .execute();
  return rows.map((r) => ({
    key: r.key,
    failures: Number(r.failures),
    lastFailureAt: r.last_failure_at,
    blockedUntil: r.blocked_until,
  }));
}

export async function saveThrottleRow(db: Db, row: ThrottleRow): Promise<void> {
  await db
    .insertInto('login_throttle')
    .values({
      key: row.key,
      failures: row.failures,
      last_failure_at: row.lastFailureAt,
      blocked_until: row.blockedUntil,
    })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        failures: row.failures,
        last_failure_at: row.lastFailureAt,
        blocked_until: row.blockedUntil,
      }),
    )
    .execute();
}

export async function deleteThrottleRow(db: Db, key: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', key).execute();
}
