/**
 * Every 429 says when to try again (`Retry-After`, in seconds), whichever limit refused: the
 * per-address limits of @fastify/rate-limit (app.ts, a route's `config.rateLimit`), a route's own
 * limits thrown as an AppError (errors.ts gives the header from `details.retryAfter`), and the
 * sign-in throttles. The routes that set the header themselves are tested where they live:
 * sign-in (modules/accounts/auth.test.ts, throttling), search (platform/search/search.test.ts),
 * uploads (platform/storage/upload-limits.test.ts, platform/storage/uploads.test.ts) and wrong
 * enrolment keys (modules/courses/courses.test.ts). The description lists the header on every
 * 429 (openapi.test.ts).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CLIENT_REPORT_LIMITS } from '../../modules/accounts/routes';
import { THROTTLE_POLICIES } from '../auth/throttle';
import {
  bearer,
  createTestApp,
  createTestUser,
  signIn,
  testDatabaseAvailable,
  type TestContext,
} from '../../test/helpers';

const available = await testDatabaseAvailable();

const EVENT = {
  username: 'someone',
  event: 'login_failure',
  timestamp: '2026-11-22T09:00:00.000Z',
  userAgent: 'Mozilla/5.0 test',
  ipAddress: 'client-side',
  authMethod: 'local',
  error: null,
};

let ctx: TestContext;
beforeEach(async () => {
  if (available) ctx = await createTestApp();
});
afterEach(() => ctx?.close());

const report = (remoteAddress: string) =>
  ctx.app.inject({ method: 'POST', url: '/api/auth/log', payload: EVENT, remoteAddress });

/** Seconds in a Retry-After header: a whole number of seconds, more than none. */
const seconds = (value: unknown) => {
  expect(value).toMatch(/^\d+$/);
  return Number(value);
};

describe.skipIf(!available)('Retry-After on every 429', () => {
  it('from a per-address limit (@fastify/rate-limit)', async () => {
    for (let i = 0; i < CLIENT_REPORT_LIMITS.perAddressPerMinute; i++) {
      expect((await report('198.51.100.7')).statusCode).toBe(204);
    }
    const refused = await report('198.51.100.7');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    const wait = seconds(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.headers['x-ratelimit-limit']).toBe(
      String(CLIENT_REPORT_LIMITS.perAddressPerMinute),
    );
  });

  it('from a limit a route keeps itself (an AppError): until its window ends', async () => {
    // Everyone together: the instance's reports a minute, from addresses each under their limit.
    const perAddress = CLIENT_REPORT_LIMITS.perAddressPerMinute;
    for (let sent = 0; sent < CLIENT_REPORT_LIMITS.perMinute; sent++) {
      const address = `203.0.113.${Math.floor(sent / perAddress)}`;
      expect((await report(address)).statusCode).toBe(204);
    }
    ctx.clock.advance(20_000);
    const refused = await report('192.0.2.1');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many auth log reports. Try again in a minute.',
    });
    expect(seconds(refused.headers['retry-after'])).toBe(40);
  });

  it('from the sign-in throttle guarding a password change', async () => {
    const { password } = await createTestUser(ctx, { username: 'changer' });
    const token = await signIn(ctx.app, 'changer', password);
    const change = () =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: bearer(token),
        payload: { currentPassword: 'a wrong guess', newPassword: 'a new fiber secret 42' },
      });
    for (let i = 0; i < THROTTLE_POLICIES.pair.threshold; i++) {
      expect((await change()).statusCode).toBe(400);
    }
    const refused = await change();
    expect(refused.statusCode).toBe(429);
    const body = refused.json() as { code: string; details: { retryAfter: number } };
    expect(body.code).toBe('TOO_MANY_ATTEMPTS');
    expect(seconds(refused.headers['retry-after'])).toBe(body.details.retryAfter);
  });
});
