import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

describe.skipIf(!available)(`admin: system information (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;

  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('tells an admin the Node.js version, platform, database and uptime', async () => {
    const admin = await createTestUser(ctx, { username: 'root', role: 'admin' });
    const token = await signIn(ctx.app, 'root', admin.password);
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/system',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      node: process.version,
      supportedNodeLines: [22, 24, 26],
      platform: process.platform,
      arch: process.arch,
      database: TEST_DB_KIND,
    });
    expect(body.uptimeSeconds).toBeGreaterThanOrEqual(0);
    // The API reference, as a link signed for this session (plugins/api-reference.ts).
    expect(body.apiReferenceUrl).toMatch(/^\/api\/docs\?exp=\d+&sid=[^&]+&sig=[\w-]+$/);
    expect(Date.parse(body.startedAt)).toBeLessThanOrEqual(Date.now());
  });

  it('is refused without system.view, and without a session', async () => {
    const student = await createTestUser(ctx, { username: 'learner', role: 'student' });
    const token = await signIn(ctx.app, 'learner', student.password);
    const denied = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/system',
      headers: bearer(token),
    });
    expect(denied.statusCode).toBe(403);
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/admin/system' });
    expect(anonymous.statusCode).toBe(401);
  });
});
