/**
 * Auth log events (spec §3, §8): every login attempt, success and failure is reported to the
 * server, fire and forget. `ipAddress` is always the fixed text 'client-side'; the server records
 * the real address itself.
 */
import type { AuthLogEvent, AuthMethod } from '@learning-hub/core';
import { rawRequest } from '../api-client';

export interface AuthLogInput {
  username: string;
  event: AuthLogEvent['event'];
  authMethod: AuthMethod;
  error?: string | null;
}

/** Builds the event body of POST /api/auth/log. */
export function buildAuthLogEvent(input: AuthLogInput, now = new Date()): AuthLogEvent {
  return {
    username: input.username.slice(0, 256),
    event: input.event,
    timestamp: now.toISOString(),
    userAgent: (typeof navigator === 'undefined' ? '' : navigator.userAgent).slice(0, 1024),
    ipAddress: 'client-side',
    authMethod: input.authMethod,
    error: input.error ? input.error.slice(0, 2000) : null,
  };
}

/** Sends the event; never throws, never waits, ignores every failure. */
export function logAuthEvent(input: AuthLogInput): void {
  try {
    rawRequest('/api/auth/log', {
      method: 'POST',
      body: buildAuthLogEvent(input),
      auth: false,
      keepalive: true,
    }).catch(() => undefined);
  } catch {
    // Logging must never disturb sign-in.
  }
}
