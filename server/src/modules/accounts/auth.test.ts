import { SESSION_LIFETIME_MS } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import {
  listAuthEvents,
  listClientReports,
  pruneClientReports,
} from '../../platform/auth/auth-event-repository';
import { OWASP_HASH_COST, setPasswordHashCostForTests } from '../../platform/auth/passwords';
import { THROTTLE_POLICIES } from '../../platform/auth/throttle';
import {
  listActiveSessions,
  MAX_LIVE_SESSIONS_PER_USER,
} from '../../platform/auth/session-repository';
import { findUserById } from '../../platform/auth/user-repository';
import { CLIENT_REPORT_LIMITS } from './routes';
import {
  bearer,
  createTestApp,
  createTestUser,
  signIn,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';

const available = await testDatabaseAvailable();

describe.skipIf(!available)(`auth API (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const login = (username: unknown, password: unknown, remoteAddress = '127.0.0.1') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/local',
      payload: { username, password },
      remoteAddress,
    });

  describe('GET /api/auth/config', () => {
    it('offers local sign-in with dev mode off', async () => {
      const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/config' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        methods: ['local'],
        defaultMethod: 'local',
        devMode: false,
        providers: { ldap: [], moodle: [], sso: [] },
      });
    });
  });

  describe('POST /api/auth/local', () => {
    it('signs in with { success, user, token } and a 24-hour session', async () => {
      const { user, password } = await createTestUser(ctx, {
        username: 'Dana',
        department: 'Field Operations',
      });
      const res = await login('Dana', password);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.success).toBe(true);
      expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(Date.parse(body.expiresAt) - ctx.clock.now()).toBe(SESSION_LIFETIME_MS.local);
      expect(body.user).toMatchObject({
        id: user.id,
        username: 'Dana',
        role: 'student',
        department: 'Field Operations',
        departmentId: 'field-operations',
        isActive: true,
        lastLogin: new Date(ctx.clock.now()).toISOString(),
        authMethod: 'local',
      });
      expect(body.user).not.toHaveProperty('passwordHash');
      expect(JSON.stringify(body)).not.toContain('argon2');
    });

    it('looks the username up case-insensitively but verifies the password exactly as typed', async () => {
      const { password } = await createTestUser(ctx, {
        username: 'casey',
        password: 'Tr1cky pass ',
      });
      expect((await login('CASEY', password)).statusCode).toBe(200);
      expect((await login('casey', 'Tr1cky pass')).statusCode).toBe(401);
      expect((await login('casey', 'tr1cky pass ')).statusCode).toBe(401);
    });

    it('answers an unknown user and a wrong password identically', async () => {
      await createTestUser(ctx, { username: 'known' });
      const wrong = await login('known', 'not the password');
      const unknown = await login('nobody-here', 'not the password');
      expect(wrong.statusCode).toBe(401);
      expect(unknown.statusCode).toBe(401);
      expect(wrong.json()).toEqual(unknown.json());
      expect(wrong.json()).toEqual({
        success: false,
        error: 'Invalid username or password',
        code: 'INVALID_CREDENTIALS',
        message: 'Invalid username or password',
      });
    });

    it('spends about the same time on an unknown user as on a wrong password', async () => {
      // At the production cost, which is what makes the two paths comparable (the suite's own
      // cost is a token one: test/setup.ts).
      const suiteCost = setPasswordHashCostForTests(OWASP_HASH_COST);
      onTestFinished(() => void setPasswordHashCostForTests(suiteCost));
      await createTestUser(ctx, { username: 'timed' });
      let attempt = 0;
      const time = async (username: string) => {
        const start = performance.now();
        // From a new address each time: the throttle must not answer in place of the check.
        await login(username, 'wrong password', `10.1.1.${(attempt += 1)}`);
        return performance.now() - start;
      };
      // Warm up, then compare the fastest of five, which a busy machine cannot make faster: the
      // unknown-user path must also run a full argon2 verify.
      await time('timed');
      await time('ghost');
      const known: number[] = [];
      const ghost: number[] = [];
      for (let i = 0; i < 5; i++) {
        known.push(await time('timed'));
        ghost.push(await time(`ghost${i}`));
      }
      expect(Math.min(...ghost)).toBeGreaterThan(Math.min(...known) * 0.4);
    });

    it('tells a deactivated account apart only to someone who knows its password', async () => {
      const { user, password } = await createTestUser(ctx, { username: 'gone' });
      const { setActive } = await import('../../platform/auth/user-repository');
      await setActive(ctx.database.db, user.id, false, new Date().toISOString());
      const right = await login('gone', password);
      expect(right.statusCode).toBe(403);
      expect(right.json().error).toBe('This account is deactivated. Contact an administrator.');
      expect((await login('gone', 'wrong password')).json().error).toBe(
        'Invalid username or password',
      );
    });

    it.each([
      [{}, 'Username is required'],
      [{ username: '', password: 'x' }, 'Username is required'],
      [{ username: 'a', password: '' }, 'Password is required'],
      [{ username: 42, password: 'x' }, undefined],
      [{ username: 'a', password: ['x'] }, undefined],
      [
        { username: 'nul\u0000name', password: 'x' },
        'Username contains characters that are not allowed',
      ],
    ])('refuses malformed credentials %j with a 400', async (payload, message) => {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/local', payload });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.success).toBe(false);
      expect(body.code).toBe('VALIDATION_ERROR');
      expect(typeof body.error).toBe('string');
      if (message) expect(body.error).toBe(message);
    });

    it('refuses malformed JSON, a wrong content type and an oversized body with 4xx', async () => {
      const bad = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/local',
        headers: { 'content-type': 'application/json' },
        payload: '{"username": "a", ',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toMatchObject({ code: 'INVALID_JSON', success: false });

      const text = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/local',
        headers: { 'content-type': 'text/plain' },
        payload: 'username=a',
      });
      expect(text.statusCode).toBe(415);
      expect(text.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');

      const huge = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/local',
        payload: { username: 'a', password: 'x'.repeat(2 * 1024 * 1024) },
      });
      expect(huge.statusCode).toBe(413);
      expect(huge.json().code).toBe('PAYLOAD_TOO_LARGE');
    });

    it('records every attempt, success and failure, with the real client address', async () => {
      const { password } = await createTestUser(ctx, { username: 'audited' });
      await login('audited', 'wrong password', '203.0.113.7');
      await login('audited', password, '203.0.113.7');
      const events = await listAuthEvents(ctx.database.db, { username: 'audited' });
      expect(events.map((e) => [e.event, e.success, e.address]).sort()).toEqual(
        [
          ['login_failure', false, '203.0.113.7'],
          ['login_success', true, '203.0.113.7'],
        ].sort(),
      );
      expect(events.every((e) => e.source === 'server' && e.authMethod === 'local')).toBe(true);
    });
  });

  describe('every sign-in attempt is recorded', () => {
    const post = (url: string, payload: object) =>
      ctx.app.inject({ method: 'POST', url, payload, remoteAddress: '203.0.113.9' });
    const eventsOf = (username: string) => listAuthEvents(ctx.database.db, { username });

    it('records an attempt with an unknown method, under the name asked for', async () => {
      const res = await post('/api/auth/kerberos', { username: 'kim', password: 'x' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Invalid authentication method configured');
      expect(await eventsOf('kim')).toEqual([
        expect.objectContaining({
          source: 'server',
          event: 'login_failure',
          authMethod: 'kerberos',
          success: false,
          error: 'Invalid authentication method configured',
          address: '203.0.113.9',
        }),
      ]);
      await post('/api/auth/radius', { credentials: { username: 'kim', password: 'x' } });
      expect((await eventsOf('kim')).map((e) => e.authMethod).sort()).toEqual([
        'kerberos',
        'radius',
      ]);
    });

    it('records attempts refused before any method ran, with the answer given', async () => {
      await post('/api/auth/local', { username: 'val', password: '' });
      await post('/api/auth/ldap', { credentials: { username: 'val', password: 'x' } });
      const events = await eventsOf('val');
      expect(events.map((e) => [e.authMethod, e.event, e.success]).sort()).toEqual([
        ['ldap', 'login_failure', false],
        ['local', 'login_failure', false],
      ]);
      expect(events.find((e) => e.authMethod === 'local')?.error).toBe('Password is required');
    });

    it('records a name it cannot store as no name, and still answers', async () => {
      const res = await post('/api/auth/kerberos', { username: 'a\u0000b', password: 'x' });
      expect(res.statusCode).toBe(400);
      const [event] = await listAuthEvents(ctx.database.db, { limit: 1 });
      expect(event).toMatchObject({ authMethod: 'kerberos', username: null, success: false });
    });

    it('records attempts made while authentication is disabled (dev mode)', async () => {
      const dev = await createTestApp({ env: { DEV_MODE: 'true' } });
      try {
        for (const url of ['/api/auth/local', '/api/auth/kerberos']) {
          const res = await dev.app.inject({
            method: 'POST',
            url,
            payload: { username: 'devuser', password: 'x' },
          });
          expect(res.json().error).toBe('Authentication is disabled in development mode');
        }
        const events = await listAuthEvents(dev.database.db, { username: 'devuser' });
        expect(events.map((e) => [e.authMethod, e.error]).sort()).toEqual([
          ['kerberos', 'Authentication is disabled in development mode'],
          ['local', 'Authentication is disabled in development mode'],
        ]);
      } finally {
        await dev.close();
      }
    });
  });

  describe('throttling', () => {
    const { threshold } = THROTTLE_POLICIES.pair;

    it('slows down one address guessing at an account, not its owner elsewhere', async () => {
      const { password } = await createTestUser(ctx, { username: 'target' });
      for (let i = 0; i < threshold; i++) {
        expect((await login('target', `guess ${i}`, '198.51.100.1')).statusCode).toBe(401);
      }
      // Even the right password waits there: the answer must not reveal whether a guess was right.
      const blocked = await login('target', password, '198.51.100.1');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers['retry-after']).toBe('1');
      expect(blocked.json()).toMatchObject({
        success: false,
        code: 'TOO_MANY_ATTEMPTS',
        retryAfter: 1,
        error: 'Too many failed sign-in attempts. Try again in 1 seconds.',
      });
      // The owner, from another address, is not held back.
      expect((await login('target', password, '198.51.100.2')).statusCode).toBe(200);

      // Each further failure from the guessing address doubles its wait.
      ctx.clock.advance(1000);
      expect((await login('target', 'guess again', '198.51.100.1')).statusCode).toBe(401);
      expect((await login('target', password, '198.51.100.1')).json().retryAfter).toBe(2);

      ctx.clock.advance(2000);
      expect((await login('target', password, '198.51.100.1')).statusCode).toBe(200);
      // Success there cleared that address's count for the account.
      expect((await login('target', 'one more typo', '198.51.100.1')).statusCode).toBe(401);
      expect((await login('target', password, '198.51.100.1')).statusCode).toBe(200);
    });

    it('never lets one attacking address lock the owner out, however it paces its guesses', async () => {
      const { password } = await createTestUser(ctx, { username: 'owner' });
      const attacker = '203.0.113.99';
      let guesses = 0;
      // The fastest pace the limits allow one address: a burst, a few delayed guesses, then a
      // quiet window so that its counters start again; for three hours.
      for (let cycle = 0; cycle < 9; cycle++) {
        for (let tries = 0; tries < threshold + 8;) {
          const res = await login('owner', `guess ${guesses}`, attacker);
          if (res.statusCode === 401) {
            guesses += 1;
            tries += 1;
          } else {
            expect(res.statusCode).toBe(429);
            ctx.clock.advance(res.json().retryAfter * 1000);
          }
        }
        expect((await login('owner', password, `192.0.2.${cycle}`)).statusCode).toBe(200);
        ctx.clock.advance(THROTTLE_POLICIES.pair.windowMs + 1000);
      }
      expect(guesses).toBeGreaterThan(THROTTLE_POLICIES.account.threshold);
      expect((await login('owner', password, '192.0.2.200')).statusCode).toBe(200);
    }, 60_000);

    it('holds every address back once a distributed attack reaches the account-wide limit', async () => {
      const { password } = await createTestUser(ctx, { username: 'besieged' });
      const { threshold: limit } = THROTTLE_POLICIES.account;
      for (let i = 0; i < limit; i++) {
        const from = `10.9.${Math.floor(i / 200)}.${i % 200}`;
        expect((await login('besieged', `guess ${i}`, from)).statusCode).toBe(401);
      }
      const held = await login('besieged', password, '192.0.2.1');
      expect(held.statusCode).toBe(429);
      expect(held.json().retryAfter).toBe(1);
      ctx.clock.advance(1000);
      const back = await login('besieged', password, '192.0.2.1');
      expect(back.statusCode).toBe(200);
      expect(back.json().failedAttempts).toEqual({
        count: limit + 1,
        lastAt: new Date(ctx.clock.now() - 1000).toISOString(),
      });
      // The window is fixed: an hour after its first failure the count starts again.
      ctx.clock.advance(THROTTLE_POLICIES.account.windowMs);
      expect((await login('besieged', 'a typo', '192.0.2.1')).statusCode).toBe(401);
      expect((await login('besieged', password, '192.0.2.1')).statusCode).toBe(200);
    });

    it('counts every spelling of a name (case, full-width forms) as one account', async () => {
      const { password } = await createTestUser(ctx, { username: 'tuser10' });
      const spellings = ['TUSER10', 'ｔｕｓｅｒ１０', 'TUser10', 'ＴＵＳＥＲ１０', 'tuser10'];
      for (const name of spellings) {
        expect((await login(name, 'wrong', '198.51.100.77')).statusCode).toBe(401);
      }
      expect((await login('Tuser10', password, '198.51.100.77')).statusCode).toBe(429);
      const elsewhere = await login('ｔｕｓｅｒ１０', password, '198.51.100.78');
      expect(elsewhere.statusCode).toBe(200);
      expect(elsewhere.json().failedAttempts.count).toBe(spellings.length + 1);
    });

    it('tells the owner of the failed attempts since their previous sign-in, once', async () => {
      const { password } = await createTestUser(ctx, { username: 'noticed' });
      const first = await login('noticed', password);
      expect(first.statusCode).toBe(200);
      expect(first.json()).not.toHaveProperty('failedAttempts');

      ctx.clock.advance(60_000);
      await login('noticed', 'wrong 1', '203.0.113.5');
      ctx.clock.advance(60_000);
      await login('NOTICED', 'wrong 2', '203.0.113.6');
      const lastAt = new Date(ctx.clock.now()).toISOString();
      await login('someone-else', 'wrong', '203.0.113.6');
      ctx.clock.advance(60_000);

      const second = await login('noticed', password);
      expect(second.json().failedAttempts).toEqual({ count: 2, lastAt });
      ctx.clock.advance(60_000);
      const third = await login('noticed', password);
      expect(third.json()).not.toHaveProperty('failedAttempts');
    });

    it('counts IPv6 clients by their /64 network', async () => {
      const { password } = await createTestUser(ctx, { username: 'six' });
      for (let i = 0; i < threshold; i++) {
        const from = `2001:db8:1:2:${i}::${i + 1}`;
        expect((await login('six', `guess ${i}`, from)).statusCode).toBe(401);
      }
      expect((await login('six', password, '2001:db8:1:2:ffff::9')).statusCode).toBe(429);
      expect((await login('six', password, '2001:db8:1:3::1')).statusCode).toBe(200);
    });

    it('slows down one client address spraying many accounts, not the others', async () => {
      const { password } = await createTestUser(ctx, { username: 'bystander' });
      for (let i = 0; i < THROTTLE_POLICIES.address.threshold; i++) {
        await login(`sprayed${i}`, 'Winter2026!', '203.0.113.66');
      }
      expect((await login('bystander', password, '203.0.113.66')).statusCode).toBe(429);
      expect((await login('bystander', password, '203.0.113.67')).statusCode).toBe(200);
    });

    describe('parallel attempts', () => {
      const N = 120;
      const count = (responses: { statusCode: number }[], status: number) =>
        responses.filter((r) => r.statusCode === status).length;

      it('verifies no more guesses than the account allows when they all arrive at once', async () => {
        const { password } = await createTestUser(ctx, { username: 'racer' });
        // The right password comes last: by then the limit is used up, so it must not get in.
        const responses = await Promise.all(
          Array.from({ length: N }, (_, i) =>
            login('racer', i === N - 1 ? password : `guess ${i}`, '203.0.113.10'),
          ),
        );
        expect(count(responses, 401)).toBe(threshold);
        expect(count(responses, 429)).toBe(N - threshold);
        expect(responses[N - 1]?.statusCode).toBe(429);
      });

      it('holds the account limit against many addresses with one guess each', async () => {
        const { password } = await createTestUser(ctx, { username: 'swarmed' });
        const limit = THROTTLE_POLICIES.account.threshold;
        const responses = await Promise.all(
          Array.from({ length: N }, (_, i) =>
            login(
              'swarmed',
              i === N - 1 ? password : `guess ${i}`,
              `10.${Math.floor(i / 250)}.${i % 250}.7`,
            ),
          ),
        );
        expect(count(responses, 401)).toBe(limit);
        expect(count(responses, 429)).toBe(N - limit);
        expect(responses[N - 1]?.statusCode).toBe(429);
      });

      it('holds the address limit against one address spraying many accounts at once', async () => {
        const { password } = await createTestUser(ctx, { username: 'sprayed-last' });
        const limit = THROTTLE_POLICIES.address.threshold;
        const M = 3 * limit;
        const responses = await Promise.all(
          Array.from({ length: M }, (_, i) =>
            i === M - 1
              ? login('sprayed-last', password, '203.0.113.20')
              : login(`spray${i}`, 'Winter2026!', '203.0.113.20'),
          ),
        );
        expect(count(responses, 401)).toBe(limit);
        expect(count(responses, 429)).toBe(M - limit);
        expect(responses[M - 1]?.statusCode).toBe(429);
      });

      it('counts wrong current passwords of a password change before checking them', async () => {
        const { password } = await createTestUser(ctx, { username: 'changer' });
        const token = await signIn(ctx.app, 'changer', password);
        const responses = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            ctx.app.inject({
              method: 'POST',
              url: '/api/auth/change-password',
              headers: bearer(token),
              payload: { currentPassword: `guess ${i}`, newPassword: 'a brand new passphrase' },
            }),
          ),
        );
        const wrong = responses.filter((r) => r.json().code === 'INVALID_CURRENT_PASSWORD');
        expect(wrong).toHaveLength(threshold);
        expect(count(responses, 429)).toBe(40 - threshold);
      });

      it('a success gives its reservation back: the owner is not counted as a guesser', async () => {
        const { password } = await createTestUser(ctx, { username: 'regular' });
        for (let i = 0; i < 3 * threshold; i++) {
          expect((await login('regular', password, '198.51.100.5')).statusCode).toBe(200);
        }
        // Nothing was left counted against the address either.
        for (let i = 0; i < THROTTLE_POLICIES.address.threshold - 1; i++) {
          expect((await login(`nobody${i}`, 'x', '198.51.100.5')).statusCode).toBe(401);
        }
        expect((await login('regular', password, '198.51.100.5')).statusCode).toBe(200);
      });
    });

    it('forgets old failures after a quiet window', async () => {
      const { password } = await createTestUser(ctx, { username: 'forgetful' });
      for (let i = 0; i < threshold - 1; i++) await login('forgetful', `typo ${i}`);
      ctx.clock.advance(16 * 60_000);
      await login('forgetful', 'one more typo');
      expect((await login('forgetful', password)).statusCode).toBe(200);
    });
  });

  describe('sessions', () => {
    it('GET /api/auth/me returns the user, the session and the access snapshot', async () => {
      const { user, password } = await createTestUser(ctx, {
        username: 'meuser',
        role: 'instructor',
        department: 'Network Engineering',
      });
      const token = await signIn(ctx.app, 'meuser', password);
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer(token),
      });
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.user.id).toBe(user.id);
      expect(body.session.method).toBe('local');
      expect(body.access).toEqual({
        userId: user.id,
        role: 'instructor',
        isSuperAdmin: false,
        directPermissions: [],
        customRoles: [],
        contextAssignments: [
          expect.objectContaining({
            context: { type: 'department', departmentId: 'network-engineering' },
            roles: ['department-member'],
            expiresAt: null,
            isActive: true,
          }),
        ],
      });
    });

    it.each([
      [undefined, 'UNAUTHENTICATED'],
      ['Bearer', 'UNAUTHENTICATED'],
      ['Bearer not-a-real-token-but-long-enough', 'UNAUTHENTICATED'],
      ['Basic dXNlcjpwYXNz', 'UNAUTHENTICATED'],
    ])(
      'refuses authorization %j with 401 "User not authenticated"',
      async (authorization, code) => {
        const res = await ctx.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: authorization ? { authorization } : {},
        });
        expect(res.statusCode).toBe(401);
        expect(res.headers['www-authenticate']).toBe('Bearer');
        expect(res.json()).toEqual({ code, message: 'User not authenticated' });
      },
    );

    it.each(['Bearer', 'bearer', 'BEARER', 'bEaReR'])(
      'accepts the %s scheme name in any case (RFC 9110)',
      async (scheme) => {
        const { password } = await createTestUser(ctx, { username: `scheme-${scheme}` });
        const token = await signIn(ctx.app, `scheme-${scheme}`, password);
        const res = await ctx.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { authorization: `${scheme} ${token}` },
        });
        expect(res.statusCode).toBe(200);
        const spaced = await ctx.app.inject({
          method: 'GET',
          url: '/api/auth/me',
          headers: { authorization: `${scheme}   ${token}` },
        });
        expect(spaced.statusCode).toBe(200);
      },
    );

    it('enforces the 24-hour expiry on the server', async () => {
      const { password } = await createTestUser(ctx, { username: 'expiring' });
      const token = await signIn(ctx.app, 'expiring', password);
      ctx.clock.advance(SESSION_LIFETIME_MS.local - 1);
      const me = () =>
        ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
      expect((await me()).statusCode).toBe(200);
      ctx.clock.advance(1);
      const expired = await me();
      expect(expired.statusCode).toBe(401);
      expect(expired.json()).toEqual({
        code: 'SESSION_EXPIRED',
        message: 'User not authenticated',
      });
    });

    it('logout revokes the session on the server', async () => {
      const { password } = await createTestUser(ctx, { username: 'leaver' });
      const token = await signIn(ctx.app, 'leaver', password);
      const out = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: bearer(token),
      });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ redirectTo: null });
      const me = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer(token),
      });
      expect(me.statusCode).toBe(401);
      expect(me.json().code).toBe('SESSION_EXPIRED');
    });

    it("refuses a deactivated user's live session", async () => {
      const { user, password } = await createTestUser(ctx, { username: 'suspended' });
      const token = await signIn(ctx.app, 'suspended', password);
      const { setActive } = await import('../../platform/auth/user-repository');
      await setActive(ctx.database.db, user.id, false, new Date().toISOString());
      const me = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer(token),
      });
      expect(me.statusCode).toBe(401);
    });

    it.skipIf(TEST_DB_KIND !== 'sqlite')(
      'sees a revocation made by another process on the same database at the next request',
      async () => {
        const { user, password } = await createTestUser(ctx, { username: 'elsewhere' });
        const token = await signIn(ctx.app, 'elsewhere', password);
        const me = () =>
          ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
        expect((await me()).statusCode).toBe(200);
        expect((await me()).statusCode).toBe(200);
        // A second connection, as the admin command line opens: its writes bypass this app.
        const { openDatabase } = await import('../../platform/db');
        const { revokeUserSessions } = await import('../../platform/auth/session-repository');
        const path = ctx.database.path;
        expect(path).toBeDefined();
        const other = openDatabase({ kind: 'sqlite', path: path! });
        try {
          await revokeUserSessions(
            other.db,
            user.id,
            new Date(ctx.clock.now()).toISOString(),
            'test',
          );
        } finally {
          await other.close();
        }
        // Other processes' writes are looked for once a millisecond.
        await new Promise((r) => setTimeout(r, 2));
        expect((await me()).statusCode).toBe(401);
      },
    );

    it('lists the active sessions and ends one or all the others', async () => {
      const { password } = await createTestUser(ctx, { username: 'multi' });
      const a = await signIn(ctx.app, 'multi', password, '10.0.0.1');
      ctx.clock.advance(1000);
      const b = await signIn(ctx.app, 'multi', password, '10.0.0.2');
      ctx.clock.advance(1000);
      const c = await signIn(ctx.app, 'multi', password, '10.0.0.3');
      const list = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/sessions',
        headers: bearer(a),
      });
      expect(list.statusCode).toBe(200);
      const sessions = list.json().items as {
        id: string;
        current: boolean;
        ipAddress: string;
      }[];
      expect(sessions).toHaveLength(3);
      expect(list.json()).toMatchObject({ total: 3, page: 1, pageSize: 25 });
      // The session asking comes first, then the last used (c was used after b).
      expect(sessions.map((s) => [s.ipAddress, s.current])).toEqual([
        ['10.0.0.1', true],
        ['10.0.0.3', false],
        ['10.0.0.2', false],
      ]);
      // Paged like every list, with a Link header to the other pages.
      const second = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/sessions?page=2&pageSize=2',
        headers: bearer(a),
      });
      expect(second.json()).toMatchObject({ total: 3, page: 2, pageSize: 2 });
      expect(second.json().items.map((s: { ipAddress: string }) => s.ipAddress)).toEqual([
        '10.0.0.2',
      ]);
      expect(second.headers.link).toContain('rel="first"');

      const other = sessions.find((s) => s.ipAddress === '10.0.0.2');
      const end = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/auth/sessions/${other?.id}`,
        headers: bearer(a),
      });
      expect(end.statusCode).toBe(204);
      expect(end.body).toBe('');
      const meB = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(b) });
      expect(meB.statusCode).toBe(401);

      const rest = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sessions/revoke-others',
        headers: bearer(a),
      });
      expect(rest.json()).toEqual({ revoked: 1 });
      const meC = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(c) });
      expect(meC.statusCode).toBe(401);
      const meA = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(a) });
      expect(meA.statusCode).toBe(200);
    });

    describe('live sessions per user', () => {
      const me = (token: string) =>
        ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });

      it(`keeps at most ${MAX_LIVE_SESSIONS_PER_USER}, ending the oldest`, async () => {
        const { user, password } = await createTestUser(ctx, { username: 'collector' });
        const tokens: string[] = [];
        for (let i = 0; i < MAX_LIVE_SESSIONS_PER_USER + 5; i++) {
          tokens.push(await signIn(ctx.app, 'collector', password, `10.7.0.${i}`));
          ctx.clock.advance(1000);
        }
        const live = await listActiveSessions(
          ctx.database.db,
          user.id,
          new Date(ctx.clock.now()).toISOString(),
          '',
          { offset: 0, limit: 100 },
        );
        expect(live.total).toBe(MAX_LIVE_SESSIONS_PER_USER);
        expect(live.rows).toHaveLength(MAX_LIVE_SESSIONS_PER_USER);
        for (const [i, token] of tokens.entries()) {
          const res = await me(token);
          if (i < 5) expect(res.json().code).toBe('SESSION_EXPIRED');
          else expect(res.statusCode).toBe(200);
        }
      });

      it('holds the limit exactly when sign-ins arrive at once', async () => {
        const { user, password } = await createTestUser(ctx, { username: 'stampede' });
        const N = 2 * MAX_LIVE_SESSIONS_PER_USER + 5;
        const responses = await Promise.all(
          Array.from({ length: N }, (_, i) => login('stampede', password, `10.8.0.${i}`)),
        );
        expect(responses.every((r) => r.statusCode === 200)).toBe(true);
        const live = await listActiveSessions(
          ctx.database.db,
          user.id,
          new Date(ctx.clock.now()).toISOString(),
          '',
          { offset: 0, limit: 100 },
        );
        expect(live.total).toBe(MAX_LIVE_SESSIONS_PER_USER);
        expect(live.rows).toHaveLength(MAX_LIVE_SESSIONS_PER_USER);
      });

      it("does not end another user's sessions", async () => {
        const a = await createTestUser(ctx, { username: 'limit-a' });
        const b = await createTestUser(ctx, { username: 'limit-b' });
        const kept = await signIn(ctx.app, 'limit-b', b.password);
        for (let i = 0; i < MAX_LIVE_SESSIONS_PER_USER + 1; i++) {
          await signIn(ctx.app, 'limit-a', a.password, `10.9.0.${i}`);
        }
        expect((await me(kept)).statusCode).toBe(200);
      });
    });

    it("cannot end another user's session", async () => {
      const mallory = await createTestUser(ctx, { username: 'mallory' });
      const victim = await createTestUser(ctx, { username: 'victim' });
      const tm = await signIn(ctx.app, 'mallory', mallory.password);
      const tv = await signIn(ctx.app, 'victim', victim.password);
      const vs = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/sessions',
        headers: bearer(tv),
      });
      const id = vs.json().items[0].id as string;
      const res = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/auth/sessions/${id}`,
        headers: bearer(tm),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'Session not found' });
      expect(
        (await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(tv) }))
          .statusCode,
      ).toBe(200);
    });
  });

  describe('PUT /api/auth/profile', () => {
    it('changes the stored names and email', async () => {
      const { password } = await createTestUser(ctx, { username: 'renamer' });
      const token = await signIn(ctx.app, 'renamer', password);
      const res = await ctx.app.inject({
        method: 'PUT',
        url: '/api/auth/profile',
        headers: bearer(token),
        payload: { firstname: '  Rene ', lastname: 'Namer', email: 'rene@fiberco.example' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        user: expect.objectContaining({
          firstname: 'Rene',
          lastname: 'Namer',
          email: 'rene@fiberco.example',
        }),
      });
      const me = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer(token),
      });
      expect(me.json().user.firstname).toBe('Rene');
    });

    it('removes the email when it is set to null', async () => {
      const { password } = await createTestUser(ctx, {
        username: 'emailless',
        email: 'old@fiberco.example',
      });
      const token = await signIn(ctx.app, 'emailless', password);
      const res = await ctx.app.inject({
        method: 'PUT',
        url: '/api/auth/profile',
        headers: bearer(token),
        payload: { email: null },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().user.email).toBeNull();
    });

    it('needs a signed-in user: "User not authenticated"', async () => {
      const res = await ctx.app.inject({
        method: 'PUT',
        url: '/api/auth/profile',
        payload: { firstname: 'X' },
      });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('User not authenticated');
    });

    it.each([
      [{ email: 'not-an-email' }, 'Enter a valid email address'],
      [{ firstname: '   ' }, 'First name is required'],
      [{ lastname: 'Null\u0000byte' }, 'Last name contains characters that are not allowed'],
      [{}, 'Nothing to update'],
      [{ role: 'admin' }, undefined],
      [{ firstname: 'Ok', username: 'root' }, undefined],
    ])('refuses %j with a 400 and changes nothing', async (payload, message) => {
      const { user, password } = await createTestUser(ctx, { username: 'careful' });
      const token = await signIn(ctx.app, 'careful', password);
      const res = await ctx.app.inject({
        method: 'PUT',
        url: '/api/auth/profile',
        headers: bearer(token),
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
      if (message) expect(res.json().message).toBe(message);
      const me = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer(token),
      });
      expect(me.json().user).toMatchObject({
        role: 'student',
        username: 'careful',
        firstname: user.firstname,
      });
    });
  });

  describe('POST /api/auth/change-password', () => {
    const change = (token: string | null, payload: unknown) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: token ? bearer(token) : {},
        payload: payload as Record<string, unknown>,
      });

    it('changes the password, keeps this session and ends the others', async () => {
      const { password } = await createTestUser(ctx, { username: 'rotator' });
      const here = await signIn(ctx.app, 'rotator', password, '10.0.0.1');
      const there = await signIn(ctx.app, 'rotator', password, '10.0.0.2');
      const res = await change(here, {
        currentPassword: password,
        newPassword: 'splice the fiber at dawn',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ revokedSessions: 1 });
      expect((await login('rotator', password)).statusCode).toBe(401);
      expect((await login('rotator', 'splice the fiber at dawn')).statusCode).toBe(200);
      const meHere = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer(here),
      });
      const meThere = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer(there),
      });
      expect(meHere.statusCode).toBe(200);
      expect(meThere.statusCode).toBe(401);
    });

    it('needs a signed-in user', async () => {
      const res = await change(null, { currentPassword: 'a', newPassword: 'b' });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe('User not authenticated');
    });

    it.each([
      [
        'wrong current',
        (p: string) => ({ currentPassword: `${p}x`, newPassword: 'a fine new passphrase' }),
        'INVALID_CURRENT_PASSWORD',
        'Current password is incorrect',
      ],
      [
        'too short',
        (p: string) => ({ currentPassword: p, newPassword: 'short' }),
        'PASSWORD_POLICY',
        'Password must be at least 8 characters.',
      ],
      [
        'too common',
        (p: string) => ({ currentPassword: p, newPassword: 'Password1' }),
        'PASSWORD_POLICY',
        'This password is too common. Choose a less common one.',
      ],
      [
        'the username',
        (p: string) => ({ currentPassword: p, newPassword: 'Policy-Tester' }),
        'PASSWORD_POLICY',
        'Password must not be the same as your username.',
      ],
      [
        'unchanged',
        (p: string) => ({ currentPassword: p, newPassword: p }),
        'PASSWORD_POLICY',
        'New password must be different from the current password.',
      ],
      [
        'too long',
        (p: string) => ({ currentPassword: p, newPassword: 'x'.repeat(257) }),
        'PASSWORD_POLICY',
        'Password must be at most 256 characters.',
      ],
    ])('refuses a new password that is %s', async (_label, payload, code, message) => {
      const { password } = await createTestUser(ctx, { username: 'policy-tester' });
      const token = await signIn(ctx.app, 'policy-tester', password);
      const res = await change(token, payload(password));
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ code, message });
      expect((await login('policy-tester', password)).statusCode).toBe(200);
    });

    it('accepts long passphrases with any characters, counted in code points', async () => {
      const { password } = await createTestUser(ctx, { username: 'unicode' });
      const token = await signIn(ctx.app, 'unicode', password);
      const phrase = 'ñandú 光ファイバー 🔌🔌 ' + 'x'.repeat(40);
      expect(
        (await change(token, { currentPassword: password, newPassword: phrase })).statusCode,
      ).toBe(200);
      expect((await login('unicode', phrase)).statusCode).toBe(200);
      // 8 code points, even though 4 emoji are 8 UTF-16 units: too short at 7 code points.
      const token2 = await signIn(ctx.app, 'unicode', phrase);
      const seven = await change(token2, { currentPassword: phrase, newPassword: '🔌🔌🔌🔌abc' });
      expect(seven.json().message).toBe('Password must be at least 8 characters.');
    });
  });

  describe('forced password change', () => {
    it('blocks everything but the password change until it is done', async () => {
      const { password } = await createTestUser(ctx, {
        username: 'newhire',
        isDefaultPassword: true,
      });
      const token = await signIn(ctx.app, 'newhire', password);
      const me = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer(token),
      });
      expect(me.statusCode).toBe(200);
      expect(me.json().user.isDefaultPassword).toBe(true);

      const profile = () =>
        ctx.app.inject({
          method: 'PUT',
          url: '/api/auth/profile',
          headers: bearer(token),
          payload: { firstname: 'New' },
        });
      const blocked = await profile();
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json()).toEqual({
        code: 'PASSWORD_CHANGE_REQUIRED',
        message: 'You must change your password before continuing.',
      });

      const changed = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: bearer(token),
        payload: { currentPassword: password, newPassword: 'my own fiber secret' },
      });
      expect(changed.statusCode).toBe(200);
      expect((await profile()).statusCode).toBe(200);
      const after = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/me',
        headers: bearer(token),
      });
      expect(after.json().user).toMatchObject({
        isDefaultPassword: false,
        mustChangePassword: false,
      });
    });

    it('applies to mustChangePassword as well', async () => {
      const { password } = await createTestUser(ctx, {
        username: 'flagged',
        mustChangePassword: true,
      });
      const token = await signIn(ctx.app, 'flagged', password);
      const res = await ctx.app.inject({
        method: 'PUT',
        url: '/api/auth/profile',
        headers: bearer(token),
        payload: { firstname: 'New' },
      });
      expect(res.json().code).toBe('PASSWORD_CHANGE_REQUIRED');
    });
  });

  describe('POST /api/auth/log', () => {
    const event = {
      username: 'someone',
      event: 'login_failure',
      timestamp: '2026-11-22T09:00:00.000Z',
      userAgent: 'Mozilla/5.0 test',
      ipAddress: 'client-side',
      authMethod: 'local',
      error: 'Invalid username or password',
    };

    const report = (payload: object, remoteAddress = '198.51.100.23') =>
      ctx.app.inject({ method: 'POST', url: '/api/auth/log', payload, remoteAddress });

    it("keeps the browser's report apart, beside the real address", async () => {
      const res = await report(event);
      expect(res.statusCode).toBe(204);
      const [stored] = await listClientReports(ctx.database.db, { username: 'someone' });
      expect(stored).toMatchObject({
        event: 'login_failure',
        authMethod: 'local',
        address: '198.51.100.23',
        clientIpAddress: 'client-side',
        clientTimestamp: '2026-11-22T09:00:00.000Z',
        error: 'Invalid username or password',
      });
    });

    it("never takes a browser's report for one of the server's own sign-in records", async () => {
      const admin = await createTestUser(ctx, { username: 'admin', role: 'admin' });
      const fake = { ...event, username: 'admin', event: 'login_success', error: null };
      expect((await report(fake)).statusCode).toBe(204);
      expect(await listAuthEvents(ctx.database.db, { username: 'admin' })).toEqual([]);
      expect((await findUserById(ctx.database.db, admin.user.id))?.lastLogin).toBeNull();

      // Reported failures neither slow the account down nor appear in the owner's notice...
      for (let i = 0; i < 2 * THROTTLE_POLICIES.pair.threshold; i++) {
        await report({ ...event, username: 'admin' }, `192.0.2.${i}`);
      }
      const signedIn = await login('admin', admin.password, '192.0.2.0');
      expect(signedIn.statusCode).toBe(200);
      expect(signedIn.json()).not.toHaveProperty('failedAttempts');

      // ...and a reported success does not hide real failures from it.
      ctx.clock.advance(60_000);
      await login('admin', 'a real guess', '203.0.113.1');
      await report(fake, '203.0.113.1');
      ctx.clock.advance(60_000);
      expect((await login('admin', admin.password)).json().failedAttempts?.count).toBe(1);
    });

    it.each([
      [{ ...event, ipAddress: '10.0.0.1' }],
      [{ ...event, event: 'drop table' }],
      [{ ...event, timestamp: 'yesterday' }],
      [{ ...event, authMethod: 'kerberos' }],
      [{ ...event, username: 'x'.repeat(300) }],
      [{ ...event, userAgent: 'Mozilla\u0000' }],
      [{ ...event, error: 'bad\u0000' }],
    ])('refuses an invalid event with a 400', async (payload) => {
      const res = await ctx.app.inject({ method: 'POST', url: '/api/auth/log', payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION_ERROR');
    });

    it('is rate limited per client address', async () => {
      const { perAddressPerMinute } = CLIENT_REPORT_LIMITS;
      for (let i = 0; i < perAddressPerMinute; i++) {
        expect((await report(event)).statusCode).toBe(204);
      }
      const limited = await report(event);
      expect(limited.statusCode).toBe(429);
      expect(limited.json().code).toBe('RATE_LIMITED');
      expect((await report(event, '198.51.100.24')).statusCode).toBe(204);
    });

    it('accepts only so many reports a minute from everyone together', async () => {
      const { perMinute } = CLIENT_REPORT_LIMITS;
      for (let i = 0; i < perMinute; i++) {
        const from = `10.${Math.floor(i / 250)}.${i % 250}.1`;
        expect((await report(event, from)).statusCode).toBe(204);
      }
      expect((await report(event, '172.16.0.1')).statusCode).toBe(429);
      ctx.clock.advance(60_000);
      expect((await report(event, '172.16.0.1')).statusCode).toBe(204);
    });

    it('keeps only the newest reports', async () => {
      for (let i = 0; i < 8; i++) await report({ ...event, username: `reporter${i}` });
      await pruneClientReports(ctx.database.db, 5);
      const kept = await listClientReports(ctx.database.db);
      expect(kept.map((r) => r.username)).toEqual([
        'reporter7',
        'reporter6',
        'reporter5',
        'reporter4',
        'reporter3',
      ]);
    });
  });
});
