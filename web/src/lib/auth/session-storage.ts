/**
 * The session object of spec §3 (`isAuthenticated, user, token, expiresAt`) in localStorage under
 * core's STORAGE_KEYS.session. Expiry is checked on every read: an expired (or unreadable) session
 * is removed and treated as absent (spec §4).
 */
import { PublicUserSchema, STORAGE_KEYS, type PublicUser } from '@learning-hub/core';
import { z } from 'zod';

const StoredSessionSchema = z.object({
  isAuthenticated: z.literal(true),
  user: PublicUserSchema,
  token: z.string().min(1),
  /** ISO 8601 instant the session ends. */
  expiresAt: z.string().refine((v) => !Number.isNaN(Date.parse(v))),
});
export type StoredSession = z.infer<typeof StoredSessionSchema>;

/** Why the stored session went away. */
export type SessionEndReason = 'cleared' | 'expired' | 'invalid';

type Listener = (session: StoredSession | null, reason?: SessionEndReason) => void;
const listeners = new Set<Listener>();

/**
 * Listens to changes of the stored session made in this tab (sign-in, sign-out, 401, expiry on
 * read). Changes made by other tabs arrive as `storage` events instead.
 */
export function subscribeSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function notify(session: StoredSession | null, reason?: SessionEndReason): void {
  for (const listener of [...listeners]) listener(session, reason);
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/**
 * The last value parsed and what it gave: the session is read before every request and by the
 * auth state, and checking the user against its schema each time was a good part of the work of
 * starting a request on a phone (docs/front-end.md "Total blocking time").
 */
let lastParsed: { raw: string; session: StoredSession | null } | null = null;

/** Parses a stored value; null when absent or malformed. Does not look at expiry. */
export function parseStoredSession(raw: string | null): StoredSession | null {
  if (!raw) return null;
  if (lastParsed?.raw === raw) return lastParsed.session;
  let session: StoredSession | null;
  try {
    const parsed = StoredSessionSchema.safeParse(JSON.parse(raw));
    session = parsed.success ? parsed.data : null;
  } catch {
    session = null;
  }
  lastParsed = { raw, session };
  return session;
}

export function isSessionExpired(session: Pick<StoredSession, 'expiresAt'>, now = Date.now()) {
  return Date.parse(session.expiresAt) <= now;
}

/**
 * The stored session, or null. An expired or malformed session is removed (and listeners are told,
 * asynchronously, so a read during render never updates state).
 */
export function readSession(now = Date.now()): StoredSession | null {
  const store = storage();
  const raw = store?.getItem(STORAGE_KEYS.session) ?? null;
  if (raw === null) return null;
  const session = parseStoredSession(raw);
  const reason: SessionEndReason | null = !session
    ? 'invalid'
    : isSessionExpired(session, now)
      ? 'expired'
      : null;
  if (reason === null) return session;
  store?.removeItem(STORAGE_KEYS.session);
  queueMicrotask(() => notify(null, reason));
  return null;
}

/** Stores a session (sign-in). */
export function writeSession(session: StoredSession): void {
  storage()?.setItem(STORAGE_KEYS.session, JSON.stringify(session));
  notify(session);
}

/** Replaces the user of the stored session (after a profile change or a refresh). */
export function updateSessionUser(user: PublicUser): void {
  const current = readSession();
  if (!current) return;
  const next = { ...current, user };
  storage()?.setItem(STORAGE_KEYS.session, JSON.stringify(next));
  notify(next);
}

/** Removes the session and its token (sign-out, 401). */
export function clearSession(): void {
  const store = storage();
  const existed = store?.getItem(STORAGE_KEYS.session) != null;
  store?.removeItem(STORAGE_KEYS.session);
  if (existed) notify(null, 'cleared');
}
