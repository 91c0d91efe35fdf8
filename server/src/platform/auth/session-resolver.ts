/**
 * Resolves a bearer token to its session and user on every authenticated request. Where the
 * database can tell when sessions, users or departments change (the embedded SQLite database),
 * answers are cached and dropped the moment any of those tables is written to; elsewhere every
 * request reads the database. Validity (revoked, expired, user active) is always judged by the
 * caller against the current time, cached or not. A cached answer is returned as it is, not as a
 * promise, so an authenticated request whose session is cached waits for nothing.
 */
import type { ChangeTracker } from '../db/change-tracker';
import type { Db } from '../db';
import { findSessionByTokenHash, hashToken, type SessionRecord } from './session-repository';
import type { UserRecord } from './user-repository';

/** Tables whose rows a resolved session is built from. */
const SOURCE_TABLES = ['sessions', 'users', 'departments', 'access_epoch'] as const;

/** At most this many tokens are cached (the least recently used go first). */
const CAPACITY = 10_000;

export interface ResolvedSession {
  session: SessionRecord;
  user: UserRecord;
  /** Version of the custom role definitions, read with the session. */
  rolesVersion: number;
}

/** The answer itself when it was cached, else a promise of the database's answer. */
export type SessionResolver = (
  token: string,
) => ResolvedSession | null | Promise<ResolvedSession | null>;

export function createSessionResolver(db: Db, changes: ChangeTracker | null): SessionResolver {
  if (!changes) return (token) => findSessionByTokenHash(db, hashToken(token));

  const cache = new Map<string, { version: number; value: ResolvedSession | null }>();
  return (token) => {
    const key = hashToken(token);
    // The version is read before the query: a write that lands meanwhile changes it, so what
    // this request read can never be served to a later one.
    const version = changes.version(SOURCE_TABLES) as number;
    const hit = cache.get(key);
    if (hit && hit.version === version) {
      cache.delete(key);
      cache.set(key, hit);
      return hit.value;
    }
    return findSessionByTokenHash(db, key).then((value) => {
      cache.set(key, { version, value });
      if (cache.size > CAPACITY) cache.delete(cache.keys().next().value as string);
      return value;
    });
  };
}
