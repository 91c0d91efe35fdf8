/**
 * What every sign-in method shares: throttling (per account and address pair, per account, per
 * client address), the record of each attempt, and the session a successful sign-in opens (its
 * lifetime by method) with the notice of failed attempts since the previous one.
 */
import { SESSION_LIFETIME_MS, type AuthMethod, type LoginSuccess } from '@learning-hub/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db';
import { countFailedSignIns, recordAuthEvent } from './auth-event-repository';
import { createSession, isNewBrowser } from './session-repository';
import {
  releaseAttempt,
  reserveAttempt,
  throttleKeys,
  type Reservation,
  type ThrottleKey,
} from './throttle';
import { setLastLogin, toPublicUser, usernameKey, type UserRecord } from './user-repository';

export function userAgentOf(request: FastifyRequest): string | null {
  const ua = request.headers['user-agent'];
  return typeof ua === 'string' ? ua : null;
}

/** A browser in a few words, from its user agent ("Firefox on Linux"), for a notice. */
export function browserOf(userAgent: string | null): string {
  if (!userAgent) return 'A browser that did not say what it is';
  const browser = /Edg\//.test(userAgent)
    ? 'Edge'
    : /OPR\/|Opera/.test(userAgent)
      ? 'Opera'
      : /Firefox\//.test(userAgent)
        ? 'Firefox'
        : /Chrom(e|ium)\//.test(userAgent)
          ? 'Chrome'
          : /Safari\//.test(userAgent)
            ? 'Safari'
            : 'A browser';
  const system = /Android/.test(userAgent)
    ? 'Android'
    : /iPhone|iPad/.test(userAgent)
      ? 'iOS'
      : /Windows/.test(userAgent)
        ? 'Windows'
        : /Mac OS X|Macintosh/.test(userAgent)
          ? 'macOS'
          : /Linux/.test(userAgent)
            ? 'Linux'
            : null;
  return system ? `${browser} on ${system}` : browser;
}

export interface SignInScope {
  db: Db;
  now: () => number;
  request: FastifyRequest;
  method: AuthMethod;
}

/** Requests to sign-in routes whose attempt has been recorded. */
const recorded = new WeakSet<FastifyRequest>();

/** Records what the server saw of an attempt (with the real client address). */
export function recordAttempt(
  s: SignInScope,
  event: string,
  fields: { username?: string | null; userId?: string | null; success?: boolean; error?: string },
): Promise<void> {
  recorded.add(s.request);
  return recordAuthEvent(s.db, {
    occurredAt: new Date(s.now()).toISOString(),
    event,
    authMethod: s.method,
    address: s.request.ip,
    userAgent: userAgentOf(s.request),
    requestId: s.request.id,
    ...fields,
  });
}

/**
 * Counts an attempt at `username` from the request's address before anything is verified (see
 * throttle.ts): granted with the keys to settle later, or refused with the seconds to wait.
 */
export function reserveSignIn(
  s: SignInScope,
  username: string,
  options: { accountWide?: boolean } = {},
): Promise<Reservation> {
  return reserveAttempt(s.db, throttleKeys(usernameKey(username), s.request.ip, options), s.now());
}

export const throttledMessage = (wait: number) =>
  `Too many failed sign-in attempts. Try again in ${wait} seconds.`;

/** A reserved attempt that verified nothing (the provider was unreachable, …): given back. */
export function voidAttempt(s: SignInScope, keys: readonly ThrottleKey[]): Promise<void> {
  return releaseAttempt(s.db, keys, 'void', s.now());
}

/**
 * Opens a session for a user who proved who they are, records the success, and tells them of
 * the attempts that failed at their account since their previous sign-in.
 */
export async function openSession(
  s: SignInScope,
  user: UserRecord,
  keys: readonly ThrottleKey[],
): Promise<LoginSuccess> {
  await releaseAttempt(s.db, keys, 'success', s.now());
  const failed = await countFailedSignIns(
    s.db,
    usernameKey(user.username),
    user.lastLogin ?? user.createdAt,
  );
  const at = new Date(s.now());
  const { token, session } = await createSession(s.db, {
    userId: user.id,
    method: s.method,
    now: at,
    lifetimeMs: SESSION_LIFETIME_MS[s.method],
    ipAddress: s.request.ip,
    userAgent: userAgentOf(s.request),
    // Someone signing in from a browser the person has not used: they hear of it, in the
    // transaction of the session itself (docs/notifications.md).
    within: async (trx, opened) => {
      if (!(await isNewBrowser(trx, user.id, opened.userAgent, opened.id))) return;
      await s.request.server.notifications.notify(trx, {
        kind: 'account.new-sign-in',
        priority: 'important',
        title: 'New sign-in to your account',
        body:
          `${browserOf(opened.userAgent)} signed in from ${s.request.ip}. If it was not you, ` +
          'end that session in Profile Settings and change your password.',
        link: '/profile-settings',
        recipients: [user.id],
      });
    },
  });
  void s.request.server.notifications.dispatch();
  await setLastLogin(s.db, user.id, at.toISOString());
  await recordAttempt(s, 'login_success', {
    username: user.username,
    userId: user.id,
    success: true,
  });
  return {
    success: true as const,
    user: toPublicUser({ ...user, lastLogin: at.toISOString() }),
    token,
    expiresAt: session.expiresAt,
    ...(failed.count > 0 && failed.lastAt
      ? { failedAttempts: { count: failed.count, lastAt: failed.lastAt } }
      : {}),
  };
}

/** Text from the client that may go into the record: a string without control characters. */
function recordable(value: unknown, max: number): string | null {
  return typeof value === 'string' && value !== '' && !/[\p{Cc}]/u.test(value)
    ? value.slice(0, max)
    : null;
}

/** The username a sign-in request names, if it names one in a recordable form. */
function requestedUsername(body: unknown): string | null {
  if (typeof body !== 'object' || body === null) return null;
  const record = body as Record<string, unknown>;
  const credentials = record.credentials;
  const nested =
    typeof credentials === 'object' && credentials !== null
      ? (credentials as Record<string, unknown>).username
      : undefined;
  return recordable(record.username ?? nested, 256);
}

/** The method a sign-in route stands for: its last path segment, or the `:method` asked for. */
function requestedMethod(request: FastifyRequest): string {
  const params = request.params as Record<string, unknown> | undefined;
  const asked = recordable(params?.method, 100);
  if (asked) return asked;
  return request.routeOptions.url?.split('/').pop() ?? 'unknown';
}

/** The message of an error answer (`{ message }` or `{ error }`), if it has one. */
function answeredMessage(payload: unknown): string | null {
  if (typeof payload !== 'string') return null;
  try {
    const body = JSON.parse(payload) as Record<string, unknown>;
    return recordable(body.message ?? body.error, 2000);
  } catch {
    return null;
  }
}

/**
 * Records a refused sign-in attempt from what the request itself names (its username and the
 * method asked for), for refusals made before any sign-in method ran.
 */
export function recordRefusedAttempt(
  db: Db,
  now: () => number,
  request: FastifyRequest,
  error: string,
): Promise<void> {
  recorded.add(request);
  return recordAuthEvent(db, {
    occurredAt: new Date(now()).toISOString(),
    event: 'login_failure',
    username: requestedUsername(request.body),
    authMethod: requestedMethod(request),
    success: false,
    error,
    address: request.ip,
    userAgent: userAgentOf(request),
    requestId: request.id,
  });
}

/**
 * Every login attempt is recorded (spec §8): the routes record what they decide, and this hook
 * records any sign-in request that ended otherwise (bad input, dev mode, a method switched off,
 * an unknown provider, an unexpected error) as a failure with the answer's message. Call it in
 * each plugin that declares routes with `config.loginRoute`, before those routes: the hook is
 * attached to those routes only, so no other route of the plugin waits for it.
 */
export function recordEveryAttempt(app: FastifyInstance, db: Db, now: () => number): void {
  const onSend = async (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
  ): Promise<unknown> => {
    if (recorded.has(request) || reply.statusCode < 400) return payload;
    try {
      await recordRefusedAttempt(
        db,
        now,
        request,
        answeredMessage(payload) ?? `Refused with HTTP ${reply.statusCode}`,
      );
    } catch (error) {
      // The answer still goes out; the failure to record it is logged.
      request.log.error({ err: error }, 'could not record a sign-in attempt');
    }
    return payload;
  };
  app.addHook('onRoute', (route) => {
    if (!route.config?.loginRoute) return;
    route.onSend = [route.onSend ?? []].flat().concat(onSend);
  });
}
