/**
 * What every sign-in method shares: throttling (per account and per client address), the record
 * of each attempt, and the session a successful sign-in opens (its lifetime by method).
 */
import { SESSION_LIFETIME_MS, type AuthMethod, type LoginSuccess } from '@learning-hub/core';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db';
import { recordAuthEvent } from './auth-event-repository';
import { createSession } from './session-repository';
import {
  clearFailures,
  registerFailure,
  secondsUntilAllowed,
  throttleKeys,
  type ThrottleKey,
} from './throttle';
import { setLastLogin, toPublicUser, usernameKey, type UserRecord } from './user-repository';

export function userAgentOf(request: FastifyRequest): string | null {
  const ua = request.headers['user-agent'];
  return typeof ua === 'string' ? ua : null;
}

export interface SignInScope {
  db: Db;
  now: () => number;
  request: FastifyRequest;
  method: AuthMethod;
}

/** Records what the server saw of an attempt (with the real client address). */
export function recordAttempt(
  s: SignInScope,
  event: string,
  fields: { username?: string | null; userId?: string | null; success?: boolean; error?: string },
): Promise<void> {
  return recordAuthEvent(s.db, {
    occurredAt: new Date(s.now()).toISOString(),
    source: 'server',
    event,
    authMethod: s.method,
    address: s.request.ip,
    userAgent: userAgentOf(s.request),
    requestId: s.request.id,
    ...fields,
  });
}

/** The throttle keys of an attempt and how many seconds it must still wait (0: go ahead). */
export async function throttleState(
  s: SignInScope,
  username: string,
): Promise<{ keys: ThrottleKey[]; wait: number }> {
  const keys = throttleKeys(usernameKey(username), s.request.ip);
  return { keys, wait: await secondsUntilAllowed(s.db, keys, s.now()) };
}

export const throttledMessage = (wait: number) =>
  `Too many failed sign-in attempts. Try again in ${wait} seconds.`;

export function countFailure(s: SignInScope, keys: readonly ThrottleKey[]): Promise<void> {
  return registerFailure(s.db, keys, s.now());
}

/** Opens a session for a user who proved who they are, and records the success. */
export async function openSession(
  s: SignInScope,
  user: UserRecord,
  keys: readonly ThrottleKey[],
): Promise<LoginSuccess> {
  const [accountKey] = keys;
  if (accountKey) await clearFailures(s.db, accountKey);
  const at = new Date(s.now());
  const { token, session } = await createSession(s.db, {
    userId: user.id,
    method: s.method,
    now: at,
    lifetimeMs: SESSION_LIFETIME_MS[s.method],
    ipAddress: s.request.ip,
    userAgent: userAgentOf(s.request),
  });
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
  };
}
