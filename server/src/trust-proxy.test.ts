/**
 * TRUST_PROXY decides which address a request comes from: the throttle counts by it and the
 * sessions list shows it. Checked through the API, on a real database.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  bearer,
  createTestApp,
  createTestUser,
  testDatabaseAvailable,
  type TestContext,
} from './test/helpers';

const available = await testDatabaseAvailable();

const FORWARDED = '203.0.113.9, 198.51.100.7';

async function addressSeen(trustProxy: string, remoteAddress: string): Promise<string> {
  const ctx: TestContext = await createTestApp({ env: { TRUST_PROXY: trustProxy } });
  contexts.push(ctx);
  const { user, password } = await createTestUser(ctx);
  const signedIn = await ctx.app.inject({
    method: 'POST',
    url: '/api/auth/local',
    payload: { username: user.username, password },
    remoteAddress,
    headers: { 'x-forwarded-for': FORWARDED },
  });
  expect(signedIn.statusCode).toBe(200);
  const { token } = signedIn.json() as { token: string };
  const res = await ctx.app.inject({
    method: 'GET',
    url: '/api/auth/sessions',
    headers: bearer(token),
  });
  expect(res.statusCode).toBe(200);
  const { items: sessions } = res.json() as { items: { ipAddress: string | null }[] };
  expect(sessions).toHaveLength(1);
  return sessions[0]?.ipAddress ?? '';
}

const contexts: TestContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((c) => c.close()));
});

describe.skipIf(!available)('TRUST_PROXY', () => {
  it.each([
    ['false', '10.0.0.5', '10.0.0.5'],
    // A hop count trusts that many proxies in front of the server (Fastify 5 alone ignores it).
    ['1', '10.0.0.5', '198.51.100.7'],
    ['2', '10.0.0.5', '203.0.113.9'],
    ['true', '10.0.0.5', '203.0.113.9'],
    ['10.0.0.0/8', '10.0.0.5', '198.51.100.7'],
    ['10.0.0.0/8', '192.0.2.1', '192.0.2.1'],
  ])('TRUST_PROXY=%s from %s: the client is %s', async (setting, peer, expected) => {
    expect(await addressSeen(setting, peer)).toBe(expected);
  });
});
