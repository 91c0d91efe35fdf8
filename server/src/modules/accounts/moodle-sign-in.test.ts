/** Moodle sign-in against the Moodle stand-in, which speaks Moodle's web-service protocol. */
import { MoodleSettingsSchema } from '@learning-hub/core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startMoodle, type MoodleFixture } from '../../../../scripts/fixtures';
import { insertProvider } from '../../platform/auth/provider-repository';
import { THROTTLE_POLICIES } from '../../platform/auth/throttle';
import {
  bearer,
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';

const available = await testDatabaseAvailable();

describe.skipIf(!available)(`Moodle sign-in (${TEST_DB_KIND})`, () => {
  let moodle: MoodleFixture;
  let ctx: TestContext;
  beforeAll(async () => {
    moodle = await startMoodle();
  });
  afterAll(async () => {
    await moodle?.stop();
  });
  beforeEach(async () => {
    moodle.setMode('normal');
    moodle.delayMs = 0;
    ctx = await createTestApp();
    await insertProvider(
      ctx.database.db,
      {
        id: 'lms',
        method: 'moodle',
        label: 'Training Moodle',
        enabled: true,
        settings: MoodleSettingsSchema.parse({
          siteUrl: moodle.url,
          siteAdminRole: 'admin',
          // Long enough for a loaded CI machine to answer the other modes, short enough to wait for.
          timeoutMs: 1500,
        }),
        secrets: {},
      },
      new Date(ctx.clock.now()).toISOString(),
    );
  });
  afterEach(async () => {
    await ctx.close();
  });

  const login = (username: string, password: string, extra: object = {}) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/auth/moodle',
      payload: { credentials: { username, password }, ...extra },
    });

  it('signs in through login/token.php and core_webservice_get_site_info', async () => {
    const res = await login('noah', 'Noah-moodle-1!');
    expect(res.statusCode).toBe(200);
    expect(res.json().user).toMatchObject({
      username: 'noah',
      role: 'student',
      authMethod: 'moodle',
      moodleId: 17,
    });
    expect(Date.parse(res.json().expiresAt) - ctx.clock.now()).toBe(8 * 3_600_000);
    expect(moodle.requests).toEqual(
      expect.arrayContaining(['POST /login/token.php', 'POST /webservice/rest/server.php']),
    );
  });

  it('maps a Moodle site administrator to the configured role', async () => {
    const res = await login('mia', 'Mia-moodle-1!');
    expect(res.json().user).toMatchObject({ role: 'admin', moodleId: 2 });
  });

  it('answers invalidlogin (wrong password, suspended account) as invalid credentials', async () => {
    for (const [user, password] of [
      ['noah', 'wrong'],
      ['olivia', 'Olivia-moodle-1!'],
      ['nobody', 'x'],
    ]) {
      const res = await login(user as string, password as string);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, message: 'Invalid username or password' });
    }
  });

  it.each([
    ['servicenotavailable', 502, 'The Moodle web service is not available (servicenotavailable)'],
    [
      'webservicesdisabled',
      502,
      'Web services are disabled on the Moodle site (enablewsdescription)',
    ],
    ['http500', 503, 'Moodle answered HTTP 500'],
    ['timeout', 504, 'Moodle did not answer within 1500 ms'],
  ] as const)('reports %s clearly', async (mode, status, message) => {
    moodle.setMode(mode);
    const start = Date.now();
    const res = await login('noah', 'Noah-moodle-1!');
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ success: false, message });
    expect(Date.now() - start).toBeLessThan(4000);
  });

  it('sends the browser to the Moodle logout page after sign-out', async () => {
    const { token } = (await login('noah', 'Noah-moodle-1!')).json();
    const out = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(token),
    });
    expect(out.json()).toEqual({ redirectTo: `${moodle.url}/login/logout.php` });
    expect(
      (await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) }))
        .statusCode,
    ).toBe(401);
  });

  it('asks Moodle no more often than the throttle allows when guesses arrive at once', async () => {
    const before = moodle.requests.filter((r) => r === 'POST /login/token.php').length;
    const N = 40;
    const responses = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/auth/moodle',
          payload: {
            credentials: { username: 'noah', password: i === N - 1 ? 'Noah-moodle-1!' : `g${i}` },
          },
          remoteAddress: '203.0.113.30',
        }),
      ),
    );
    const asked = moodle.requests.filter((r) => r === 'POST /login/token.php').length - before;
    expect(asked).toBe(THROTTLE_POLICIES.pair.threshold);
    expect(responses.filter((r) => r.statusCode === 401)).toHaveLength(asked);
    expect(responses.filter((r) => r.statusCode === 429)).toHaveLength(N - asked);
    expect(responses[N - 1]?.statusCode).toBe(429);
  });

  it('does not count attempts Moodle could not answer', async () => {
    moodle.setMode('http500');
    for (let i = 0; i < 2 * THROTTLE_POLICIES.pair.threshold; i++) {
      expect((await login('noah', 'Noah-moodle-1!')).statusCode).toBe(503);
    }
    moodle.setMode('normal');
    expect((await login('noah', 'Noah-moodle-1!')).statusCode).toBe(200);
  });

  it('refuses a Moodle address sent by the client', async () => {
    const res = await login('noah', 'Noah-moodle-1!', {
      moodleConfig: { siteUrl: 'http://evil.example' },
    });
    expect(res.statusCode).toBe(400);
  });
});
