import { UrlSigner } from '../storage/signed-urls';
import type { FastifyInstance } from 'fastify';
import { isPermissionId } from '@learning-hub/core';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { buildApp } from '../../app';
import {
  bearer,
  createTestApp,
  createTestUser,
  signIn,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { AccessService } from '../access/access-service';
import accessPlugin, { mustDeclareAccess } from './access';

const available = await testDatabaseAvailable();

/** Probe routes with declared requirements, registered the way features register theirs. */
function probes(app: FastifyInstance) {
  app.get(
    '/api/probe/admin',
    { config: { access: { permissions: ['system.admin'], roles: ['admin'] } } },
    async () => ({ ok: true }),
  );
  app.get(
    '/api/probe/instructor-any',
    {
      config: {
        access: {
          permissions: ['course.create', 'library.upload'],
          mode: 'any',
          roles: ['instructor', 'admin'],
        },
      },
    },
    async () => ({ ok: true }),
  );
  app.get(
    '/api/probe/all',
    { config: { access: { permissions: ['course.view', 'wiki.create', 'grade.export'] } } },
    async () => ({ ok: true }),
  );
  app.get<{ Params: { dept: string } }>(
    '/api/probe/departments/:dept',
    {
      config: {
        access: {
          permissions: ['department.view'],
          scope: { type: 'department', param: 'dept' },
        },
      },
    },
    async () => ({ ok: true }),
  );
}

describe.skipIf(!available)(`access plugin (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    ctx = await createTestApp({ beforeReady: probes });
    for (const [role, department] of [
      ['student', 'Customer Support'],
      ['instructor', 'Field Operations'],
      ['admin', 'Network Engineering'],
    ] as const) {
      const { password } = await createTestUser(ctx, { username: `p-${role}`, role, department });
      tokens[role] = await signIn(ctx.app, `p-${role}`, password);
    }
  });
  afterAll(async () => {
    await ctx.close();
  });

  const get = (url: string, role?: string) =>
    ctx.app.inject({ method: 'GET', url, headers: role ? bearer(tokens[role]!) : {} });

  it.each([
    ['/api/probe/admin', 'student', 403, 'Missing required permission: system.admin'],
    ['/api/probe/admin', 'instructor', 403, 'Missing required permission: system.admin'],
    ['/api/probe/admin', 'admin', 200, null],
    [
      '/api/probe/instructor-any',
      'student',
      403,
      'Missing any of required permissions: course.create, library.upload',
    ],
    ['/api/probe/instructor-any', 'instructor', 200, null],
    ['/api/probe/all', 'student', 403, 'Missing required permissions: wiki.create, grade.export'],
    ['/api/probe/all', 'instructor', 200, null],
    ['/api/probe/departments/customer-support', 'student', 200, null],
    [
      '/api/probe/departments/field-operations',
      'student',
      403,
      'Missing required permission: department.view',
    ],
    ['/api/probe/departments/field-operations', 'instructor', 200, null],
    ['/api/probe/departments/customer-support', 'admin', 200, null],
    ['/api/probe/admin', undefined, 401, 'User not authenticated'],
  ])('%s as %s → %i', async (url, role, status, reason) => {
    const res = await get(url, role);
    expect(res.statusCode).toBe(status);
    if (reason) expect(res.json().message).toBe(reason);
    if (status === 403) expect(res.json().code).toBe('FORBIDDEN');
  });

  it('records each check in the audit ring with its result and reason', async () => {
    ctx.app.auditRing.clear();
    await get('/api/probe/admin', 'student');
    await get('/api/probe/admin', 'admin');
    const [allowed, denied] = ctx.app.auditRing.list();
    expect(denied).toMatchObject({
      action: 'checked',
      permission: 'system.admin',
      context: 'system',
      result: false,
      reason: 'Missing required permission: system.admin',
    });
    expect(allowed).toMatchObject({ result: true, reason: null });
  });

  it('answers unknown API routes with a 404 { code, message }', async () => {
    const res = await get('/api/nowhere', 'admin');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', message: 'Route GET /api/nowhere not found' });
    const post = await ctx.app.inject({ method: 'POST', url: '/api/nowhere' });
    expect(post.statusCode).toBe(404);
  });

  it('serves liveness and readiness', async () => {
    expect((await get('/healthz')).json()).toEqual({ status: 'ok' });
    expect((await get('/readyz')).json()).toEqual({ status: 'ready' });
  });
});

describe('route declarations', () => {
  it('every route of the app declares its access', async () => {
    const config = loadConfig({ NODE_ENV: 'test', WEB_DIST_DIR: '/nonexistent' });
    // Building the app registers every route; one without a declaration would throw here.
    const app = await buildApp({ config, db: {} as never, logger: false });
    await app.ready();
    const routes = [...app.routeAccess.keys()].filter((r) => !r.startsWith('HEAD '));
    // The authorization matrix test requests each of these as every kind of user.
    expect(routes).toEqual(
      expect.arrayContaining([
        'GET /api/auth/me',
        'POST /api/auth/local',
        'GET /api/admin/users',
        'PUT /api/admin/users/:userId/assignments',
        'GET /api/courses/:courseId/participants',
      ]),
    );
    for (const route of routes) {
      const access = app.routeAccess.get(route);
      expect(access, route).toBeDefined();
      if (!access?.public) {
        for (const p of access?.permissions ?? [])
          expect(isPermissionId(p), `${route}: ${p}`).toBe(true);
      }
    }
    await app.close();
  });

  it('refuses to register an /api route without a declaration', async () => {
    const app = Fastify({ logger: false });
    await app.register(accessPlugin, {
      db: {} as never,
      now: Date.now,
      access: new AccessService({} as never, Date.now),
      urlSigner: new UrlSigner(Buffer.alloc(32), Date.now),
    });
    expect(() => app.get('/api/sneaky', async () => ({}))).toThrow(
      'Route GET /api/sneaky declares no access requirement (config.access).',
    );
    expect(mustDeclareAccess('/healthz')).toBe(true);
    expect(mustDeclareAccess('/assets/app.js')).toBe(false);
    await app.close();
  });
});
