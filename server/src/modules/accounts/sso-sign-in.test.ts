/**
 * Single sign-on against a real OpenID Connect provider (oidc-provider, public client with PKCE),
 * the whole authorization-code flow driven with fetch.
 */
import { SsoSettingsSchema } from '@learning-hub/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { driveLogin, startOidcProvider, type OidcFixture } from '../../../../scripts/fixtures';
import { listAssignments } from '../../platform/access/access-repository';
import { listAuthEvents } from '../../platform/auth/auth-event-repository';
import { insertProvider } from '../../platform/auth/provider-repository';
import { THROTTLE_POLICIES } from '../../platform/auth/throttle';
import { insertCourse } from '../courses/course-repository';
import {
  bearer,
  createTestApp,
  createTestUser,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';

const available = await testDatabaseAvailable();
const PUBLIC_URL = 'http://127.0.0.1:3999';

describe.skipIf(!available)(`single sign-on with OpenID Connect (${TEST_DB_KIND})`, () => {
  let idp: OidcFixture;
  let wrongIssuer: OidcFixture;
  let ctx: TestContext;

  beforeAll(async () => {
    const redirectUris = [`${PUBLIC_URL}/api/auth/sso/callback`];
    idp = await startOidcProvider({ redirectUris });
    wrongIssuer = await startOidcProvider({ redirectUris, issuerHost: 'localhost' });
  }, 30_000);
  afterAll(async () => {
    await idp?.stop();
    await wrongIssuer?.stop();
  });

  const settings = (issuer: string) =>
    SsoSettingsSchema.parse({
      issuer,
      clientId: 'learning-hub',
      scopes: ['openid', 'profile', 'email', 'groups'],
      departmentClaim: 'department',
      allowInsecureHttp: true,
      roleMapping: [{ group: 'hub-instructors', role: 'instructor' }],
      contextMapping: [
        {
          group: 'otdr-assistants',
          context: { type: 'course', courseId: 'otdr-101' },
          roles: ['course-assistant'],
        },
      ],
    });

  beforeEach(async () => {
    ctx = await createTestApp({ env: { PUBLIC_URL } });
    const at = new Date(ctx.clock.now()).toISOString();
    await insertCourse(
      ctx.database.db,
      { id: 'otdr-101', code: 'FO-210', title: 'OTDR', description: '', departmentId: null },
      at,
    );
    await insertProvider(
      ctx.database.db,
      {
        id: 'idp',
        method: 'sso',
        label: 'Company SSO',
        enabled: true,
        settings: settings(idp.issuer),
        secrets: {},
      },
      at,
    );
    // Discovery at the listening address, but the provider says its issuer is localhost.
    await insertProvider(
      ctx.database.db,
      {
        id: 'wrong',
        method: 'sso',
        label: 'Wrong issuer',
        enabled: true,
        settings: settings(wrongIssuer.url),
        secrets: {},
      },
      at,
    );
  });
  afterEach(async () => {
    await ctx.close();
  });

  const get = (url: string) => ctx.app.inject({ method: 'GET', url });
  const location = (res: { headers: Record<string, unknown> }) => String(res.headers.location);

  /** Start → identity provider login → callback; returns the callback's redirect. */
  async function signInAtProvider(login: string, returnTo = '/library') {
    const start = await get(
      `/api/auth/sso/start?provider=idp&returnTo=${encodeURIComponent(returnTo)}`,
    );
    expect(start.statusCode).toBe(303);
    const authorization = new URL(location(start));
    expect(authorization.origin).toBe(idp.url);
    expect(authorization.searchParams.get('code_challenge_method')).toBe('S256');
    const callback = await driveLogin(authorization.toString(), login);
    const back = await get(`${callback.pathname}${callback.search}`);
    return { back, callback };
  }

  const exchange = (code: string, ssoConfig: unknown = 'idp') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sso',
      payload: { credentials: code, ssoConfig },
    });

  it('signs in with authorization code + PKCE, maps the groups claim, and hands out a one-time code', async () => {
    const { back } = await signInAtProvider('bob');
    expect(back.statusCode).toBe(303);
    const target = new URL(location(back), PUBLIC_URL);
    expect(target.pathname).toBe('/login');
    expect(target.searchParams.get('sso_provider')).toBe('idp');
    expect(target.searchParams.get('next')).toBe('/library');
    const code = target.searchParams.get('sso_code') as string;
    expect(code).toMatch(/^[\w-]{40,}$/);

    const res = await exchange(code);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Date.parse(body.expiresAt) - ctx.clock.now()).toBe(8 * 3_600_000);
    expect(body.user).toMatchObject({
      username: 'bob',
      role: 'instructor',
      department: 'Field Operations',
      authMethod: 'sso',
      ssoProvider: 'idp',
    });
    const assignments = await listAssignments(ctx.database.db, body.user.id);
    expect(assignments.map((a) => [a.context, a.roles])).toEqual([
      [{ type: 'course', courseId: 'otdr-101' }, ['course-assistant']],
    ]);
    const me = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: bearer(body.token),
    });
    expect(me.json().session.method).toBe('sso');
  });

  it('takes a one-time code once, for its provider, until it expires', async () => {
    const first = new URL(
      location((await signInAtProvider('carol')).back),
      PUBLIC_URL,
    ).searchParams.get('sso_code') as string;
    expect((await exchange(first)).statusCode).toBe(200);
    const replay = await exchange(first);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().message).toBe(
      'This sign-in code is not valid (used, expired or unknown). Please sign in again.',
    );

    const second = new URL(
      location((await signInAtProvider('carol')).back),
      PUBLIC_URL,
    ).searchParams.get('sso_code') as string;
    expect((await exchange(second, 'wrong')).statusCode).toBe(401);
    const third = new URL(
      location((await signInAtProvider('carol')).back),
      PUBLIC_URL,
    ).searchParams.get('sso_code') as string;
    ctx.clock.advance(61_000);
    expect((await exchange(third)).statusCode).toBe(401);
  });

  it('checks no more codes than the throttle allows when guesses arrive at once', async () => {
    const valid = new URL(
      location((await signInAtProvider('carol')).back),
      PUBLIC_URL,
    ).searchParams.get('sso_code') as string;
    const N = 40;
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/auth/sso',
          payload: { credentials: i === N - 1 ? valid : `guess-${i}`, ssoConfig: 'idp' },
          remoteAddress: '203.0.113.40',
        }),
      ),
    );
    const checked = responses.filter((r) => r.statusCode === 401).length;
    expect(checked).toBe(THROTTLE_POLICIES.pair.threshold);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(N - checked);
    expect(responses[N - 1]?.statusCode).toBe(429);
  });

  it('lets no address slow single sign-on down for the others', async () => {
    for (let i = 0; i < 3 * THROTTLE_POLICIES.pair.threshold; i++) {
      await ctx.app.inject({
        method: 'POST',
        url: '/api/auth/sso',
        payload: { credentials: `guess-${i}`, ssoConfig: 'idp' },
        remoteAddress: `203.0.113.${i}`,
      });
    }
    const code = new URL(
      location((await signInAtProvider('carol')).back),
      PUBLIC_URL,
    ).searchParams.get('sso_code') as string;
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/sso',
      payload: { credentials: code, ssoConfig: 'idp' },
      remoteAddress: '192.0.2.50',
    });
    expect(res.statusCode).toBe(200);
  });

  it('refuses a replayed callback and a tampered state', async () => {
    const { back, callback } = await signInAtProvider('alice');
    expect(location(back)).toMatch(/sso_code=/);
    const replay = await get(`${callback.pathname}${callback.search}`);
    expect(location(replay)).toBe('/login?sso_error=expired_state');

    const start = await get('/api/auth/sso/start?provider=idp');
    const fresh = await driveLogin(location(start), 'alice');
    fresh.searchParams.set('state', `${fresh.searchParams.get('state')}x`);
    const tampered = await get(`${fresh.pathname}${fresh.search}`);
    expect(location(tampered)).toBe('/login?sso_error=expired_state');
  });

  it('refuses a provider whose issuer is not the one configured', async () => {
    const start = await get('/api/auth/sso/start?provider=wrong');
    expect(start.statusCode).toBe(303);
    const target = new URL(location(start), PUBLIC_URL);
    expect(target.pathname).toBe('/login');
    expect(target.searchParams.get('sso_error')).toBe('unavailable');
  });

  it('reports a sign-in the user cancels at the provider', async () => {
    const start = await get('/api/auth/sso/start?provider=idp');
    const denied = await driveLogin(location(start), 'alice', { deny: true });
    const back = await get(`${denied.pathname}${denied.search}`);
    expect(new URL(location(back), PUBLIC_URL).searchParams.get('sso_error')).toBe('refused');
    // The details stay in the server's record, not in the address bar.
    const [event] = await listAuthEvents(ctx.database.db, { limit: 1 });
    expect(event).toMatchObject({ success: false });
    expect(event?.error).toMatch(/^The identity provider refused: /);
  });

  it('never lets single sign-on take over an account of another method', async () => {
    await createTestUser(ctx, { username: 'carol', role: 'student' });
    const { back } = await signInAtProvider('carol');
    expect(location(back)).toBe('/login?sso_error=account_conflict');
  });

  it('accepts only the name of a configured provider from the client, and keeps returnTo on the site', async () => {
    expect((await exchange('whatever', { issuer: 'http://evil.example' })).statusCode).toBe(400);
    const start = await get('/api/auth/sso/start?provider=idp&returnTo=//evil.example/x');
    const callback = await driveLogin(location(start), 'dave');
    const back = await get(`${callback.pathname}${callback.search}`);
    expect(new URL(location(back), PUBLIC_URL).searchParams.get('next')).toBeNull();
  });

  it('lets an admin dry-run single sign-on without creating an account or a session', async () => {
    const { signIn } = await import('../../test/helpers');
    const admin = await createTestUser(ctx, { username: 'root', role: 'admin' });
    const token = await signIn(ctx.app, 'root', admin.password);
    const started = await ctx.app.inject({
      method: 'POST',
      url: '/api/admin/auth/test/sso/start',
      headers: bearer(token),
      payload: { provider: 'idp' },
    });
    expect(started.statusCode).toBe(201);
    const { testId, authorizationUrl } = started.json();
    expect(started.headers.location).toBe(`/api/admin/auth/test/sso/${testId}`);
    const pending = await ctx.app.inject({
      method: 'GET',
      url: `/api/admin/auth/test/sso/${testId}`,
      headers: bearer(token),
    });
    expect(pending.statusCode).toBe(202);
    const callback = await driveLogin(authorizationUrl, 'bob');
    const back = await get(`${callback.pathname}${callback.search}`);
    expect(location(back)).toBe(`/auth-test?sso_test=${testId}`);
    const result = (
      await ctx.app.inject({
        method: 'GET',
        url: `/api/admin/auth/test/sso/${testId}`,
        headers: bearer(token),
      })
    ).json();
    expect(result).toMatchObject({
      ok: true,
      provider: 'idp',
      role: 'instructor',
      groups: ['hub-instructors', 'field-operations', 'otdr-assistants'],
      assignments: [
        { context: 'course:otdr-101', label: 'FO-210 · OTDR', roles: ['course-assistant'] },
      ],
      user: { username: 'bob', department: 'Field Operations' },
    });
    expect(result.steps.map((s: { name: string }) => s.name)).toEqual(
      expect.arrayContaining([
        'Discover the provider',
        'Exchange the code',
        'Read userinfo',
        'Claims received',
      ]),
    );
    expect(result.claims).toMatchObject({ preferred_username: 'bob' });
    const { findUserByUsername } = await import('../../platform/auth/user-repository');
    expect(await findUserByUsername(ctx.database.db, 'bob')).toBeNull();
  });
});
