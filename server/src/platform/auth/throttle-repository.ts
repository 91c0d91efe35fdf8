/** All SQL about sign-in throttling counters (shared by every server instance via the database). */
import type { Db } from '../db';

export interface ThrottleRow {
  key: string;
  failures: number;
  /** When the current count began (null on counters older than this column). */
  windowStartedAt: string | null;
  lastFailureAt: string;
  blockedUntil: string | null;
}

/** Thrown inside the transaction to roll it back when the caller decides to write nothing. */
class NothingToWrite extends Error {}

/**
 * Reads and rewrites the counters of `keys` as one atomic step, on SQLite and PostgreSQL alike.
 * Missing counters are created empty (failures 0) by an upsert that also locks every row:
 * PostgreSQL holds the row locks until commit (taken in key order, so two attempts never wait on
 * each other in a cycle), and SQLite holds its single write lock. Concurrent callers therefore
 * see each other's writes, never the same old counts. `decide` gets the current rows and returns
 * the rows to write, or null to write nothing (the transaction is rolled back, so no empty rows
 * are left behind). Returns whether anything was written.
 */
export async function updateThrottleRows(
  db: Db,
  keys: readonly string[],
  nowIso: string,
  decide: (rows: ReadonlyMap<string, ThrottleRow>) => ThrottleRow[] | null,
): Promise<boolean> {
  const sorted = [...new Set(keys)].sort();
  if (sorted.length === 0) return false;
  try {
    await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('login_throttle')
        .values(
          sorted.map((key) => ({
            key,
            failures: 0,
            window_started_at: nowIso,
            last_failure_at: nowIso,
            blocked_until: null,
          })),
        )
        .onConflict((oc) =>
          oc.column('key').doUpdateSet((eb) => ({ failures: eb.ref('login_throttle.failures') })),
        )
        .execute();
      const rows = await trx
        .selectFrom('login_throttle')
        .selectAll()
        .where('key', 'in', sorted)
        .execute();
      const writes = decide(
        new Map(
          rows.map((r) => [
            r.key,
            {
              key: r.key,
              failures: Number(r.failures),
              windowStartedAt: r.window_started_at,
              lastFailureAt: r.last_failure_at,
              blockedUntil: r.blocked_until,
            },
          ]),
        ),
      );
      if (!writes) throw new NothingToWrite();
      for (const row of writes) {
        await trx
          .updateTable('login_throttle')
          .set({
            failures: row.failures,
            window_started_at: row.windowStartedAt,
            last_failure_at: row.lastFailureAt,
            blocked_until: row.blockedUntil,
          })
          .where('key', '=', row.key)
          .execute();
      }
    });
    return true;
  } catch (error) {
    if (error instanceof NothingToWrite) return false;
    throw error;
  }
}

/**
 * Gives back one counted attempt (it turned out not to be a failure), in one statement. The
 * delay is lifted when the count drops below `threshold`.
 */
export async function giveBackAttempt(db: Db, key: string, threshold: number): Promise<void> {
  await db
    .updateTable('login_throttle')
    .set((eb) => ({
      failures: eb('failures', '-', 1),
      blocked_until: eb
        .case()
        .when('failures', '<=', threshold)
        .then(null)
        .else(eb.ref('blocked_until'))
        .end(),
    }))
    .where('key', '=', key)
    .where('failures', '>', 0)
    .execute();
}

export async function deleteThrottleRow(db: Db, key: string): Promise<void> {
  await db.deleteFrom('login_throttle').where('key', '=', key).execute();
}

/** Deletes counters whose last failure is older than `cutoffIso` and that impose no delay. */
export async function purgeStaleThrottleRows(
  db: Db,
  cutoffIso: string,
  nowIso: string,
): Promise<void> {
  await db
    .deleteFrom('login_throttle')
    .where('last_failure_at', '<', cutoffIso)
    .where((eb) => eb.or([eb('blocked_until', 'is', null), eb('blocked_until', '<=', nowIso)]))
    .execute();
}
