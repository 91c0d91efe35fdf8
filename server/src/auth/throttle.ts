/**
 * Throttling of failed sign-ins, per account and per client address. After a handful of failures
 * each further attempt must wait twice as long as the previous one, up to a cap, so a guesser is
 * slowed to a crawl while the legitimate user is never locked out for long. Counters forget
 * failures after a quiet window, and a successful sign-in clears the account's counter.
 */
import type { Db } from '../db';
import { deleteThrottleRow, findThrottleRows, saveThrottleRow } from './throttle-repository';

export interface ThrottlePolicy {
  /** Failures allowed before delays start. */
  threshold: number;
  /** Delay after the first failure beyond the threshold; doubles with each further one. */
  baseDelayMs: number;
  /** Longest delay ever imposed. */
  maxDelayMs: number;
}

export const THROTTLE_POLICIES = {
  account: { threshold: 5, baseDelayMs: 1_000, maxDelayMs: 5 * 60_000 },
  address: { threshold: 20, baseDelayMs: 1_000, maxDelayMs: 15 * 60_000 },
} as const satisfies Record<string, ThrottlePolicy>;

/** Failures are forgotten once this long has passed since the last one. */
export const THROTTLE_WINDOW_MS = 15 * 60_000;

export type ThrottleKind = keyof typeof THROTTLE_POLICIES;
export interface ThrottleKey {
  kind: ThrottleKind;
  key: string;
}

/** The throttle keys of one sign-in attempt. */
export function throttleKeys(usernameKey: string, address: string): ThrottleKey[] {
  return [
    { kind: 'account', key: `account:${usernameKey}` },
    { kind: 'address', key: `address:${address}` },
  ];
}

/** Delay imposed after `failures` failures under `policy` (0 below the threshold). */
export function delayAfter(failures: number, policy: ThrottlePolicy): number {
  if (failures < policy.threshold) return 0;
  const exponent = Math.min(failures - policy.threshold, 30);
  return Math.min(policy.baseDelayMs * 2 ** exponent, policy.maxDelayMs);
}

/** Whole seconds to wait before another attempt is accepted, or 0 when one may go ahead now. */
export async function secondsUntilAllowed(
  db: Db,
  keys: readonly ThrottleKey[],
  now: number,
): Promise<number> {
  const rows = await findThrottleRows(
    db,
    keys.map((k) => k.key),
  );
  let waitMs = 0;
  for (const row of rows) {
    if (row.blockedUntil) waitMs = Math.max(waitMs, Date.parse(row.blockedUntil) - now);
  }
  return waitMs > 0 ? Math.ceil(waitMs / 1000) : 0;
}

/** Counts one failure against every key and sets the delay the next attempt must wait. */
export async function registerFailure(
  db: Db,
  keys: readonly ThrottleKey[],
  now: number,
): Promise<void> {
  const existing = new Map(
    (
      await findThrottleRows(
        db,
        keys.map((k) => k.key),
      )
    ).map((r) => [r.key, r]),
  );
  for (const { kind, key } of keys) {
    const row = existing.get(key);
    const fresh = !row || now - Date.parse(row.lastFailureAt) > THROTTLE_WINDOW_MS;
    const failures = fresh ? 1 : row.failures + 1;
    const delay = delayAfter(failures, THROTTLE_POLICIES[kind]);
    await saveThrottleRow(db, {
      key,
      failures,
      lastFailureAt: new Date(now).toISOString(),
      blockedUntil: delay > 0 ? new Date(now + delay).toISOString() : null,
    });
  }
}

/** Forgets an account's failures after it signs in successfully. */
export async function clearFailures(db: Db, key: ThrottleKey): Promise<void> {
  await deleteThrottleRow(db, key.key);
}
