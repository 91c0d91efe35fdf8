import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listAccessAudit } from '../../platform/access/access-repository';
import { findProvider } from '../../platform/auth/provider-repository';
import { insertCourse } from '../courses/course-repository';
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

const ldapProvider = {
  method: 'ldap',
  id: 'corp',
  label: 'Company directory',
  settings: {
    urls: ['ldap://127.0.0.1:1'],
    bindDn: 'cn=hub-service,ou=services,dc=fiberco,dc=example',
    userSearchBases: ['ou=people,dc=fiberco,dc=example'],
    roleMapping: [{ group: 'hub-admins', role: 'admin' }],
    contextMapping: [
      {
        group: 'otdr',
        context: { type: 'course', courseId: 'otdr-101' },
        roles: ['course-assistant'],
      },
    ],
  },
  secrets: { bindPassword: 's3rvice-secret' },
};

describe.skipIf(!available)(`admin: sign-in settings (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let token: string;

  beforeEach(async () => {
    ctx = await createTestApp();
    const admin = await createTestUser(ctx, { username: 'root', role: 'admin' });
    token = await signIn(ctx.app, 'root', admin.password);
    await insertCourse(
      ctx.database.db,
      { id: 'otdr-101', code: 'FO-210', title: 'OTDR', description: '', departmentId: null },
      new Date(ctx.clock.now()).toISOString(),
    );
  });
  afterEach(async () => {
    await ctx.close();
  });

  const req = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    ctx.app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload ? { payload: payload as object } : {}),
    });

  it('keeps secrets write-only: set, kept, replaced, removed, never returned', async () => {
    const created = await req('POST', '/api/admin/auth/providers', ldapProvider);
    expect(created.statusCode).toBe(201);
    expect(created.body).not.toContain('s3rvice-secret');
    expect(created.json()).toMatchObject({
      id: 'corp',
      enabled: true,
      secretsSet: { bindPassword: true, clientSecret: false },
      settings: { port: 389, userAttribute: 'uid', security: 'none' },
    });

    const keep = await req('PUT', '/api/admin/auth/providers/corp', {
      ...ldapProvider,
      label: 'Directory',
      secrets: {},
    });
    expect(keep.json()).toMatchObject({ label: 'Directory', secretsSet: { bindPassword: true } });
    expect((await findProvider(ctx.database.db, 'corp'))?.secrets.bindPassword).toBe(
      's3rvice-secret',
    );

    await req('PUT', '/api/admin/auth/providers/corp', {
      ...ldapProvider,
      secrets: { bindPassword: 'rotated' },
    });
    expect((await findProvider(ctx.database.db, 'corp'))?.secrets.bindPassword).toBe('rotated');
    const removed = await req('PUT', '/api/admin/auth/providers/corp', {
      ...ldapProvider,
      secrets: { bindPassword: '' },
    });
    expect(removed.json().secretsSet.bindPassword).toBe(false);

    const settings = await req('GET', '/api/admin/auth/settings');
    expect(settings.body).not.toContain('rotated');
    expect(settings.json()).toMatchObject({
      methods: { local: true, ldap: true, moodle: false, sso: false },
      devMode: false,
      ssoRedirectUri: 'http://localhost:3000/api/auth/sso/callback',
    });
    const trail = await listAccessAudit(ctx.database.db, {
      action: 'auth_provider.update',
      offset: 0,
      limit: 10,
    });
    expect(trail.entries[0]?.details).toEqual({
      provider: 'corp',
      secretsChanged: ['bindPassword'],
    });
  });

  it('lists enabled providers on the sign-in page by id and label only', async () => {
    await req('POST', '/api/admin/auth/providers', ldapProvider);
    const config = (await ctx.app.inject({ method: 'GET', url: '/api/auth/config' })).json();
    expect(config).toEqual({
      methods: ['local', 'ldap'],
      defaultMethod: 'local',
      devMode: false,
      providers: { ldap: [{ id: 'corp', label: 'Company directory' }], moodle: [], sso: [] },
    });
    await req('PUT', '/api/admin/auth/methods/ldap', { enabled: false });
    const off = (await ctx.app.inject({ method: 'GET', url: '/api/auth/config' })).json();
    expect(off.methods).toEqual(['local']);
  });

  it('keeps at least one method on', async () => {
    const res = await req('PUT', '/api/admin/auth/methods/local', { enabled: false });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('At least one sign-in method must stay on');
  });

  it.each([
    [
      { ...ldapProvider, id: 'Bad Id' },
      'Use lower-case letters, digits and hyphens, e.g. corp-ldap',
    ],
    [
      { ...ldapProvider, settings: { ...ldapProvider.settings, urls: ['http://dc1'] } },
      'Use ldap://host[:port] or ldaps://host[:port]',
    ],
    [
      {
        ...ldapProvider,
        settings: { ...ldapProvider.settings, roleMapping: [{ group: 'x', role: 'wizard' }] },
      },
      'Unknown role in the mapping: wizard',
    ],
    [
      {
        ...ldapProvider,
        settings: {
          ...ldapProvider.settings,
          contextMapping: [
            {
              group: 'x',
              context: { type: 'course', courseId: 'nope' },
              roles: ['course-student'],
            },
          ],
        },
      },
      'The mapping of group "x" names no such course: course:nope',
    ],
    [
      { method: 'moodle', id: 'lms', label: 'Moodle', settings: { siteUrl: 'ftp://moodle' } },
      'Enter an http:// or https:// address',
    ],
    [{ method: 'kerberos', id: 'k', label: 'K', settings: {} }, undefined],
  ])('refuses %j', async (body, message) => {
    const res = await req('POST', '/api/admin/auth/providers', body);
    expect(res.statusCode).toBe(400);
    if (message) expect(res.json().message).toBe(message);
  });

  it('refuses a duplicate id and a changed method; deletes', async () => {
    await req('POST', '/api/admin/auth/providers', ldapProvider);
    expect((await req('POST', '/api/admin/auth/providers', ldapProvider)).statusCode).toBe(409);
    const moved = await req('PUT', '/api/admin/auth/providers/corp', {
      method: 'moodle',
      id: 'corp',
      label: 'x',
      settings: { siteUrl: 'http://127.0.0.1:1' },
    });
    expect(moved.json().message).toBe('A provider’s method cannot change');
    const removed = await req('DELETE', '/api/admin/auth/providers/corp');
    expect(removed.statusCode).toBe(204);
    expect(removed.body).toBe('');
    expect((await req('DELETE', '/api/admin/auth/providers/corp')).statusCode).toBe(404);
  });

  it('reports an unreachable directory step by step in the connection test', async () => {
    await req('POST', '/api/admin/auth/providers', {
      ...ldapProvider,
      settings: { ...ldapProvider.settings, timeoutMs: 1000 },
    });
    const res = (await req('POST', '/api/admin/auth/providers/corp/test')).json();
    expect(res.ok).toBe(false);
    expect(res.steps[0]).toMatchObject({ name: 'Connect to ldap://127.0.0.1:1', ok: false });
    expect(res.steps.at(-1).error).toMatch(/No directory server could be reached/);
  });

  it('lists the latest failed sign-ins to admins only, newest first, with the reason', async () => {
    const sam = await createTestUser(ctx, { username: 'sam', role: 'student' });
    const instructor = await createTestUser(ctx, { username: 'priya', role: 'instructor' });
    const attempt = (username: string, password: string) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/auth/local',
        payload: { username, password },
      });
    expect((await attempt('sam', 'not it')).statusCode).toBe(401);
    ctx.clock.advance(1000);
    expect((await attempt('ghost', 'whatever')).statusCode).toBe(401);
    ctx.clock.advance(1000);
    const samToken = await signIn(ctx.app, 'sam', sam.password);
    const priyaToken = await signIn(ctx.app, 'priya', instructor.password);

    const res = await req('GET', '/api/admin/sign-in-failures');
    expect(res.statusCode).toBe(200);
    // Successful sign-ins are not failures.
    expect(res.json().items).toEqual([
      {
        id: expect.any(String),
        occurredAt: new Date(ctx.clock.now() - 1000).toISOString(),
        username: 'ghost',
        method: 'local',
        reason: 'Invalid username or password',
        throttled: false,
      },
      expect.objectContaining({ username: 'sam', method: 'local', throttled: false }),
    ]);
    const one = await req('GET', '/api/admin/sign-in-failures?pageSize=1');
    expect(one.json().items.map((f: { username: string }) => f.username)).toEqual(['ghost']);
    expect((await req('GET', '/api/admin/sign-in-failures?pageSize=0')).statusCode).toBe(400);

    for (const other of [samToken, priyaToken]) {
      const refused = await ctx.app.inject({
        method: 'GET',
        url: '/api/admin/sign-in-failures',
        headers: bearer(other),
      });
      expect(refused.statusCode).toBe(403);
    }
  });
});
