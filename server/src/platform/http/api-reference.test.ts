/**
 * GET /api/docs: the API reference for admins (Scalar over /api/openapi.json), opened through the
 * signed link of Admin → System, with a CSP of its own.
 */
import { brotliDecompressSync } from 'node:zlib';
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
import { API_REFERENCE_CSP } from './api-reference';
import { API_SECURITY_HEADERS } from './security-headers';

const available = await testDatabaseAvailable();

describe.skipIf(!available)(`GET /api/docs (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const adminToken = async () => {
    const admin = await createTestUser(ctx, { username: 'root', role: 'admin' });
    return signIn(ctx.app, 'root', admin.password);
  };

  it('shows an admin the reference page over the description, under its own CSP', async () => {
    const token = await adminToken();
    const res = await ctx.app.inject({ method: 'GET', url: '/api/docs', headers: bearer(token) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(API_REFERENCE_CSP);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toContain('data-url="/api/openapi.json"');
    // No inline script: the page's only scripts are the configuration element and the bundle.
    expect(res.body).not.toMatch(/<script>/);
    expect(res.body).toMatch(
      /<script src="\/api\/docs\/scalar\.js\?exp=\d+&amp;sid=[^"]+&amp;sig=/,
    );
    // The API's own answers keep the API's policy.
    const spec = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(spec.headers['content-security-policy']).toBe(
      API_SECURITY_HEADERS['content-security-policy'],
    );
  });

  it('opens through the signed link of Admin → System, and serves its script the same way', async () => {
    const token = await adminToken();
    const system = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/system',
      headers: bearer(token),
    });
    const link = (system.json() as { apiReferenceUrl: string }).apiReferenceUrl;
    expect(link).toMatch(/^\/api\/docs\?exp=\d+&sid=[^&]+&sig=/);

    const page = await ctx.app.inject({ method: 'GET', url: link });
    expect(page.statusCode).toBe(200);
    const script = /<script src="([^"]+)"/.exec(page.body)?.[1]?.replace(/&amp;/g, '&') ?? '';
    const bundle = await ctx.app.inject({
      method: 'GET',
      url: script,
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(bundle.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(bundle.rawPayload).toString()).toContain('api-reference');

    // A link is the session's: tampered, or without its signature, it opens nothing.
    expect((await ctx.app.inject({ method: 'GET', url: `${link}x` })).statusCode).toBe(401);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/docs/scalar.js' })).statusCode).toBe(
      401,
    );
  });

  it('refuses a student (403) and anyone signed out (401) with the error shape', async () => {
    const student = await createTestUser(ctx, { username: 'learner', role: 'student' });
    const token = await signIn(ctx.app, 'learner', student.password);
    const denied = await ctx.app.inject({
      method: 'GET',
      url: '/api/docs',
      headers: bearer(token),
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toMatchObject({ code: 'FORBIDDEN', message: expect.any(String) });
    const anonymous = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
