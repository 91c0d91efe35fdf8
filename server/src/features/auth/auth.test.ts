import { SESSION_LIFETIME_MS } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listAuthEvents } from '../../auth/auth-event-repository';
import { THROTTLE_POLICIES } from '../../auth/throttle';
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
      await createTestUser(ctx, { username: 'timed' });
      const time = async (username: string) => {
        const start = performance.now();
        await login(username, 'wrong password', '10.1.1.1');
        return performance.now() - start;
      };
      // Warm up, then take medians: the unknown-user path must also run a full argon2 verify.
      await time('timed');
      await time('ghost');
      const known: number[] = [];
      const ghost: number[] = [];
      for (let i = 0; i < 3; i++) {
        known.push(await time('timed'));
        ghost.push(await time(`ghost${i}`));
      }
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[1] ?? 0;
      expect(median(ghost)).toBeGreaterThan(median(known) * 0.4);
    });

    it('tells a deactivated account apart only to someone who knows its password', async () => {
      const { user, password } = await createTestUser(ctx, { username: 'gone' });
      const { setActive } = await import('../../auth/user-repository');
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

  describe('throttling', () => {
    const { threshold } = THROTTLE_POLICIES.account;

    it('slows down an account after a handful of failures, then lets its owner back in', async () => {
      const { password } = await createTestUser(ctx, { username: 'target' });
      for (let i = 0; i < threshold; i++) {
        expect((await login('target', `guess ${i}`, `198.51.100.${i}`)).statusCode).toBe(401);
      }
      // Even the right password waits: the answer must not reveal whether a guess was right.
      const blocked = await login('target', password, '198.51.100.99');
      expect(blocked.statusCode).toBe(429);
      expect(blocked.headers['retry-after']).toBe('1');
      expect(blocked.json()).toMatchObject({
        success: false,
        code: 'TOO_MANY_ATTEMPTS',
        retryAfter: 1,
        error: 'Too many failed sign-in attempts. Try again in 1 seconds.',
      });

      // Each further failure doubles the wait.
      ctx.clock.advance(1000);
      expect((await login('target', 'guess again', '198.51.100.50')).statusCode).toBe(401);
      expect((await login('target', password, '198.51.100.51')).json().retryAfter).toBe(2);

      ctx.clock.advance(2000);
      expect((await login('target', password)).statusCode).toBe(200);
      // Success cleared the account's counter.
      expect((await login('target', 'one more typo')).statusCode).toBe(401);
      expect((await login('target', password)).statusCode).toBe(200);
    });

    it('never locks the legitimate user out for long', async () => {
      const { password } = await createTestUser(ctx, { username: 'patient' });
      for (let i = 0; i < 40; i++) {
        await login('patient', `guess ${i}`, `192.0.2.${i}`);
        ctx.clock.advance(THROTTLE_POLICIES.account.maxDelayMs);
      }
      expect((await login('patient', 'last guess', '192.0.2.199')).statusCode).toBe(401);
      const wait = await login('patient', 'guess', '192.0.2.200');
      expect(wait.statusCode).toBe(429);
      expect(wait.json().retryAfter).toBeLessThanOrEqual(
        THROTTLE_POLICIES.account.maxDelayMs / 1000,
      );
      ctx.clock.advance(THROTTLE_POLICIES.account.maxDelayMs);
      expect((await login('patient', password, '192.0.2.201')).statusCode).toBe(200);
    });

    it('slows down one client address spraying many accounts, not the others', async () => {
      const { password } = await createTestUser(ctx, { username: 'bystander' });
      for (let i = 0; i < THROTTLE_POLICIES.address.threshold; i++) {
        await login(`sprayed${i}`, 'Winter2026!', '203.0.113.66');
      }
      expect((await login('bystander', password, '203.0.113.66')).statusCode).toBe(429);
      expect((await login('bystander', password, '203.0.113.67')).statusCode).toBe(200);
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
      expect(out.json()).toEqual({ success: true });
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
      const { setActive } = await import('../../auth/user-repository');
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
        const { openDatabase } = await import('../../db');
        const { revokeUserSessions } = await import('../../auth/session-repository');
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
      const b = await signIn(ctx.app, 'multi', password, '10.0.0.2');
      const c = await signIn(ctx.app, 'multi', password, '10.0.0.3');
      const list = await ctx.app.inject({
        method: 'GET',
        url: '/api/auth/sessions',
        headers: bearer(a),
      });
      expect(list.statusCode).toBe(200);
      const sessions = list.json().sessions as {
        id: string;
        current: boolean;
        ipAddress: string;
      }[];
      expect(sessions).toHaveLength(3);
      expect(sessions.filter((s) => s.current).map((s) => s.ipAddress)).toEqual(['10.0.0.1']);

      const other = sessions.find((s) => s.ipAddress === '10.0.0.2');
      const end = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/auth/sessions/${other?.id}`,
        headers: bearer(a),
      });
      expect(end.statusCode).toBe(200);
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
      const id = vs.json().sessions[0].id as string;
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
      expect(res.json()).toMatchObject({
        success: true,
        user: { firstname: 'Rene', lastname: 'Namer', email: 'rene@fiberco.example' },
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
      expect(res.json()).toEqual({ success: true, revokedSessions: 1 });
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

    it('stores the client event beside the real address', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/log',
        payload: event,
        remoteAddress: '198.51.100.23',
      });
      expect(res.statusCode).toBe(204);
      const [stored] = await listAuthEvents(ctx.database.db, { username: 'someone' });
      expect(stored).toMatchObject({
        source: 'client',
        event: 'login_failure',
        success: false,
        address: '198.51.100.23',
        error: 'Invalid username or password',
      });
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
      let last = 0;
      for (let i = 0; i < 61; i++) {
        last = (await ctx.app.inject({ method: 'POST', url: '/api/auth/log', payload: event }))
          .statusCode;
      }
      expect(last).toBe(429);
    });
  });
});
