/**
 * Throttling of failed sign-ins (and of wrong enrolment keys, with keys of their own:
 * `enrolmentKeyThrottleKeys`). After a number of failures each further attempt must wait twice
 * as long as the previous one, up to a cap, so a guesser is slowed to a crawl while the owner of
 * an account is never locked out for long. Three counters apply to every attempt:
 *
 * - pair (account × client address): 5 failures, then 1 s doubling to 5 min; forgotten after
 *   15 quiet minutes. The strict limit: it holds back one address guessing at one account.
 * - address: 20 failures over any accounts, then 1 s doubling to 15 min; forgotten after 15
 *   quiet minutes. It holds back one address spraying many accounts.
 * - account (from every address): 100 failures within a fixed one-hour window (counted from the
 *   window's first failure), then 1 s doubling to 5 min. It slows a distributed attack to about
 *   120 guesses an hour per account. The window is fixed, not quiet, and the limit high, so that
 *   one address alone can never reach it: held back by its pair counter, one address gets at most
 *   about 42 guesses an hour at one account (bursts of 5 plus a few delayed ones, each burst
 *   followed by 15 quiet minutes). An attacker at one address therefore never locks the owner
 *   out from another address.
 *
 * IPv6 clients are counted by their /64 network, which one machine usually has to itself.
 *
 * An attempt is counted (reserved) before its password is checked, in one atomic step with the
 * check of the delays: parallel attempts each see the others' reservations, so no more attempts
 * are ever verified than the limits allow. An attempt that turns out not to be a failure settles
 * its reservation (see `releaseAttempt`).
 *
 * Uploads are counted the same way, per person, with a policy of their own from the configuration
 * (`countUpload`): a plain rate, N uploads in a fixed window and then none until it ends.
 */
import { isIPv6 } from 'node:net';
import type { Db } from '../db';
import {
  deleteThrottleRow,
  giveBackAttempt,
  purgeStaleThrottleRows,
  updateThrottleRows,
  type ThrottleRow,
} from './throttle-repository';

export interface ThrottlePolicy {
  /** Failures allowed before delays start. */
  threshold: number;
  /** Delay after the first failure beyond the threshold; doubles with each further one. */
  baseDelayMs: number;
  /** Longest delay ever imposed. */
  maxDelayMs: number;
  /** How long failures are remembered (see `window`). */
  windowMs: number;
  /**
   * `quiet`: the count restarts once `windowMs` has passed since the last failure. `fixed`: the
   * count restarts once `windowMs` has passed since the first failure of the count.
   */
  window: 'quiet' | 'fixed';
  /**
   * A plain rate instead of doubling delays (with a `fixed` window): once `threshold` attempts
   * are counted, the next waits until the window ends, and a new count starts then.
   */
  untilWindowEnds?: boolean;
}

const MINUTE = 60_000;

export const THROTTLE_POLICIES = {
  pair: {
    threshold: 5,
    baseDelayMs: 1_000,
    maxDelayMs: 5 * MINUTE,
    windowMs: 15 * MINUTE,
    window: 'quiet',
  },
  address: {
    threshold: 20,
    baseDelayMs: 1_000,
    maxDelayMs: 15 * MINUTE,
    windowMs: 15 * MINUTE,
    window: 'quiet',
  },
  account: {
    threshold: 100,
    baseDelayMs: 1_000,
    maxDelayMs: 5 * MINUTE,
    windowMs: 60 * MINUTE,
    window: 'fixed',
  },
} as const satisfies Record<string, ThrottlePolicy>;

/** Counters untouched for longer than every window (and not in a delay) mean nothing. */
const LONGEST_WINDOW_MS = Math.max(...Object.values(THROTTLE_POLICIES).map((p) => p.windowMs));

export type ThrottleKind = keyof typeof THROTTLE_POLICIES;
export interface ThrottleKey {
  kind: ThrottleKind;
  key: string;
}

/** Expands an IPv6 address to its eight groups (null when it is not one). */
function ipv6Groups(address: string): string[] | null {
  if (!isIPv6(address)) return null;
  const [head = '', tail] = address.split('::');
  const split = (part: string) => (part === '' ? [] : part.split(':'));
  const left = split(head);
  const right = tail === undefined ? [] : split(tail);
  const last = right.at(-1) ?? left.at(-1);
  // An embedded IPv4 address (::ffff:192.0.2.1) stands for two groups.
  const groups = left.length + right.length + (last?.includes('.') ? 1 : 0);
  const zeros = tail === undefined ? [] : Array<string>(8 - groups).fill('0');
  return [...left, ...zeros, ...right];
}

/**
 * The address a client is counted under: IPv4 as it is (also when mapped into IPv6), IPv6 by
 * its /64 network (the part a provider hands to one customer).
 */
export function throttleAddress(ip: string): string {
  const groups = ipv6Groups(ip.toLowerCase());
  if (!groups) return ip;
  const last = groups.at(-1) ?? '';
  if (last.includes('.') && groups.slice(0, 5).every((g) => Number.parseInt(g, 16) === 0)) {
    if (Number.parseInt(groups[5] ?? '', 16) === 0xffff) return last;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => Number.parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}

/**
 * The throttle keys of one attempt at `account` (a username key) from `ip`. `accountWide: false`
 * leaves out the account-wide counter, for names that are not one person's account (single
 * sign-on codes are counted per provider, and no one may slow a whole provider down).
 */
export function throttleKeys(
  account: string,
  ip: string,
  { accountWide = true }: { accountWide?: boolean } = {},
): ThrottleKey[] {
  const address = throttleAddress(ip);
  return [
    { kind: 'pair', key: `pair:${address}|${account}` },
    ...(accountWide ? [{ kind: 'account' as const, key: `account:${account}` }] : []),
    { kind: 'address', key: `address:${address}` },
  ];
}

/**
 * The throttle keys of one enrolment-key attempt: the learner at this course (the pair policy: 5
 * wrong keys, then 1 s doubling to 5 min) and the client address over every course (the address
 * policy), counters of their own, apart from sign-in's.
 */
export function enrolmentKeyThrottleKeys(
  userId: string,
  courseId: string,
  ip: string,
): ThrottleKey[] {
  return [
    { kind: 'pair', key: `pair:enrolment:${courseId}|${userId}` },
    { kind: 'address', key: `address:enrolment:${throttleAddress(ip)}` },
  ];
}

/** Delay imposed after `failures` failures under `policy` (0 below the threshold). */
export function delayAfter(failures: number, policy: ThrottlePolicy): number {
  if (failures < policy.threshold) return 0;
  const exponent = Math.min(failures - policy.threshold, 30);
  return Math.min(policy.baseDelayMs * 2 ** exponent, policy.maxDelayMs);
}

/** Whether a counter's failures are past its window and the count starts again. */
function expired(row: ThrottleRow, policy: ThrottlePolicy, now: number): boolean {
  if (row.failures === 0) return true;
  const since =
    policy.window === 'fixed' ? (row.windowStartedAt ?? row.lastFailureAt) : row.lastFailureAt;
  const age = now - Date.parse(since);
  return policy.untilWindowEnds ? age >= policy.windowMs : age > policy.windowMs;
}

export type Reservation =
  /** The attempt is counted against every key: verify it, then report how it ended. */
  | { granted: true; keys: readonly ThrottleKey[] }
  /** Refused without being counted: whole seconds to wait. */
  | { granted: false; wait: number };

/**
 * Counts one attempt against every key, as if it will fail, and sets the delay the next attempt
 * must wait; or, when any key is still in its delay, counts nothing and says how long to wait.
 */
export async function reserveAttempt(
  db: Db,
  keys: readonly ThrottleKey[],
  now: number,
): Promise<Reservation> {
  const counted = await countAgainst(
    db,
    keys.map(({ kind, key }) => ({ key, policy: THROTTLE_POLICIES[kind] })),
    now,
  );
  return counted.granted ? { granted: true, keys } : counted;
}

/**
 * Counts one attempt against every counter under its policy, in one atomic step, or, when any is
 * still in its delay, counts nothing and says how many whole seconds to wait.
 */
async function countAgainst(
  db: Db,
  counters: readonly { key: string; policy: ThrottlePolicy }[],
  now: number,
): Promise<{ granted: true } | { granted: false; wait: number }> {
  const nowIso = new Date(now).toISOString();
  let waitMs = 0;
  const granted = await updateThrottleRows(
    db,
    counters.map((c) => c.key),
    nowIso,
    (rows) => {
      const writes: ThrottleRow[] = [];
      for (const { key, policy } of counters) {
        const row = rows.get(key);
        const blockedUntil = row?.blockedUntil ? Date.parse(row.blockedUntil) : 0;
        if (blockedUntil > now) {
          waitMs = Math.max(waitMs, blockedUntil - now);
          continue;
        }
        const fresh = !row || expired(row, policy, now);
        const failures = fresh ? 1 : row.failures + 1;
        const windowStartedAt = fresh ? nowIso : (row.windowStartedAt ?? row.lastFailureAt);
        const delay =
          policy.untilWindowEnds === true
            ? failures >= policy.threshold
              ? Date.parse(windowStartedAt) + policy.windowMs - now
              : 0
            : delayAfter(failures, policy);
        writes.push({
          key,
          failures,
          windowStartedAt,
          lastFailureAt: nowIso,
          blockedUntil: delay > 0 ? new Date(now + delay).toISOString() : null,
        });
      }
      return waitMs > 0 ? null : writes;
    },
  );
  return granted ? { granted: true } : { granted: false, wait: Math.ceil(waitMs / 1000) };
}

/** How many uploads one person may make, and in how long (the configuration's upload rate). */
export interface UploadRate {
  uploads: number;
  /** At most an hour: older counters are swept away with sign-in's (`purgeStaleThrottleRows`). */
  windowSeconds: number;
}

/** The policy of an upload rate: `uploads` in a fixed window, then none until it ends. */
export function uploadRatePolicy(rate: UploadRate): ThrottlePolicy {
  const windowMs = rate.windowSeconds * 1000;
  return {
    threshold: rate.uploads,
    baseDelayMs: windowMs,
    maxDelayMs: windowMs,
    windowMs,
    window: 'fixed',
    untilWindowEnds: true,
  };
}

/**
 * Counts one upload by `userId` against `rate` (a counter of its own, `upload:<user id>`, apart
 * from sign-in's), atomically, so parallel uploads cannot slip past it; when the rate is used up,
 * counts nothing and says how many whole seconds to wait. Every attempt counts, whatever becomes
 * of it.
 */
export function countUpload(
  db: Db,
  userId: string,
  rate: UploadRate,
  now: number,
): Promise<{ granted: true } | { granted: false; wait: number }> {
  return countAgainst(db, [{ key: `upload:${userId}`, policy: uploadRatePolicy(rate) }], now);
}

/**
 * Settles a reserved attempt that was not a failure. `success`: the pair's counter is cleared
 * (the owner proved who they are from there), the account and the address get the attempt back
 * (failures from elsewhere stay counted: a success does not reset a distributed attack), and
 * long-forgotten counters are swept away. `void` (nothing was verified, e.g. the directory was
 * unreachable): every counter gets the attempt back.
 */
export async function releaseAttempt(
  db: Db,
  keys: readonly ThrottleKey[],
  outcome: 'success' | 'void',
  now: number,
): Promise<void> {
  for (const { kind, key } of keys) {
    if (outcome === 'success' && kind === 'pair') await deleteThrottleRow(db, key);
    else await giveBackAttempt(db, key, THROTTLE_POLICIES[kind].threshold);
  }
  if (outcome === 'success') {
    await purgeStaleThrottleRows(
      db,
      new Date(now - LONGEST_WINDOW_MS).toISOString(),
      new Date(now).toISOString(),
    );
  }
}
