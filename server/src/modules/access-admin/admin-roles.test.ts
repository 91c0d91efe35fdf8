import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  createSecondInstance,
  createTestApp,
  createTestUser,
  signIn,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';

const available = await testDatabaseAvailable();

describe.skipIf(!available)(`admin: roles (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let adminToken: string;
  let user: { id: string; token: string };

  beforeEach(async () => {
    ctx = await createTestApp();
    const admin = await createTestUser(ctx, { username: 'root', role: 'admin' });
    adminToken = await signIn(ctx.app, 'root', admin.password);
    const u = await createTestUser(ctx, {
      username: 'coordinator',
      department: 'Customer Support',
    });
    user = { id: u.user.id, token: await signIn(ctx.app, 'coordinator', u.password) };
  });
  afterEach(async () => {
    await ctx.close();
  });

  const req = (
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: unknown,
    token = adminToken,
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: bearer(token),
      ...(payload ? { payload: payload as object } : {}),
    });
  const role = {
    id: 'people-coordinator',
    displayName: 'People coordinator',
    description: 'Finds people and their departments.',
    inherits: 'student',
    permissions: ['user.view'],
  };

  it('lists the system roles, read-only, with every permission and how many hold them', async () => {
    const res = await req('GET', '/api/admin/roles');
    expect(res.statusCode).toBe(200);
    const roles = res.json().items as {
      id: string;
      isSystemRole: boolean;
      allPermissions: string[];
      userCount: number;
      inherits: string | null;
    }[];
    expect(roles.slice(0, 3).map((r) => r.id)).toEqual(['admin', 'instructor', 'student']);
    expect(roles.find((r) => r.id === 'admin')?.allPermissions).toHaveLength(47);
    expect(roles.find((r) => r.id === 'instructor')).toMatchObject({
      inherits: 'student',
      isSystemRole: true,
    });
    expect(roles.find((r) => r.id === 'student')?.userCount).toBe(1);

    const { id: _id, ...fields } = role;
    expect((await req('PUT', '/api/admin/roles/student', fields)).statusCode).toBe(409);
    const edit = await req('PUT', '/api/admin/roles/instructor', {
      displayName: 'X',
      inherits: 'student',
      permissions: [],
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().message).toBe('System roles cannot be edited');
    const del = await req('DELETE', '/api/admin/roles/admin');
    expect(del.json()).toEqual({ code: 'CONFLICT', message: 'System roles cannot be deleted' });
  });

  it('creates a custom role that takes effect for its holders and follows its edits', async () => {
    const created = await req('POST', '/api/admin/roles', role);
    expect(created.statusCode).toBe(201);
    expect(created.headers.location).toBe('/api/admin/roles/people-coordinator');
    expect(created.json()).toMatchObject({
      id: 'people-coordinator',
      isSystemRole: false,
      userCount: 0,
    });
    expect(created.json().allPermissions).toEqual(
      expect.arrayContaining(['user.view', 'course.view']),
    );

    const list = () => req('GET', '/api/admin/users', undefined, user.token);
    expect((await list()).statusCode).toBe(403);
    await req('PUT', `/api/admin/users/${user.id}/role`, { role: 'people-coordinator' });
    expect((await list()).statusCode).toBe(200);
    const me = (await req('GET', '/api/auth/me', undefined, user.token)).json();
    expect(me.access.customRoles.map((r: { id: string }) => r.id)).toEqual(['people-coordinator']);

    // Editing the role changes what its holders may do, at their next request, on every instance.
    const other = await createSecondInstance(ctx);
    try {
      const onOther = () =>
        other.app.inject({ method: 'GET', url: '/api/admin/users', headers: bearer(user.token) });
      expect((await onOther()).statusCode).toBe(200);
      const edited = await req('PUT', '/api/admin/roles/people-coordinator', {
        ...role,
        id: undefined,
        permissions: ['analytics.view'],
      });
      expect(edited.statusCode).toBe(200);
      await new Promise((r) => setTimeout(r, 2));
      expect((await list()).statusCode).toBe(403);
      expect((await onOther()).statusCode).toBe(403);
    } finally {
      await other.close();
    }

    const inUse = await req('DELETE', '/api/admin/roles/people-coordinator');
    expect(inUse.statusCode).toBe(409);
    expect(inUse.json().message).toBe('1 user still holds this role; give them another role first');
    await req('PUT', `/api/admin/users/${user.id}/role`, { role: 'student' });
    const deleted = await req('DELETE', '/api/admin/roles/people-coordinator');
    expect(deleted.statusCode).toBe(204);
    expect(deleted.body).toBe('');
    expect((await req('DELETE', '/api/admin/roles/people-coordinator')).statusCode).toBe(404);

    const trail = (await req('GET', '/api/admin/access/audit?action=custom_role.update')).json();
    expect(trail.items[0]).toMatchObject({
      roleId: 'people-coordinator',
      details: {
        before: { permissions: ['user.view'] },
        after: { permissions: ['analytics.view'] },
      },
    });
  });

  it('refuses a second role with the same id', async () => {
    await req('POST', '/api/admin/roles', role);
    const again = await req('POST', '/api/admin/roles', role);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe('A role with the id "people-coordinator" already exists');
  });

  it('builds on other custom roles, never on admin, and never in a circle', async () => {
    await req('POST', '/api/admin/roles', role);
    const child = await req('POST', '/api/admin/roles', {
      ...role,
      id: 'senior-coordinator',
      inherits: 'people-coordinator',
      permissions: ['user.edit'],
    });
    expect(child.json().allPermissions).toEqual(expect.arrayContaining(['user.view', 'user.edit']));
    const circle = await req('PUT', '/api/admin/roles/people-coordinator', {
      ...role,
      id: undefined,
      inherits: 'senior-coordinator',
    });
    expect(circle.statusCode).toBe(400);
    expect(circle.json().message).toBe(
      'A role cannot inherit from itself, directly or through senior-coordinator',
    );
    const parent = await req('DELETE', '/api/admin/roles/people-coordinator');
    expect(parent.json().message).toBe('Roles inherit from this one: senior-coordinator');
    const fromAdmin = await req('POST', '/api/admin/roles', {
      ...role,
      id: 'super-user',
      inherits: 'admin',
    });
    expect(fromAdmin.json().message).toBe('A custom role cannot inherit from admin');
    const unknown = await req('POST', '/api/admin/roles', {
      ...role,
      id: 'floating',
      inherits: 'ghost',
    });
    expect(unknown.json().message).toBe('Unknown role to inherit from: ghost');
  });

  it.each([
    [{ ...role, id: 'instructor' }, 400, 'A system role has this id'],
    [
      { ...role, id: 'Bad Id' },
      400,
      'Use lower-case letters, digits and hyphens, e.g. field-trainer',
    ],
    [{ ...role, permissions: ['course.fly'] }, 400, 'Invalid permission: course.fly'],
    [{ ...role, permissions: ['user.view', 'user.view'] }, 400, 'Each permission only once'],
    [{ ...role, displayName: '' }, 400, 'Display name is required'],
    [{ ...role, admin: true }, 400, undefined],
  ])('refuses %j', async (body, status, message) => {
    const res = await req('POST', '/api/admin/roles', body);
    expect(res.statusCode).toBe(status);
    if (message) expect(res.json().message).toBe(message);
  });

  it('lets only holders of user.manage_roles change roles', async () => {
    const denied = await req('POST', '/api/admin/roles', role, user.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Missing required permission: user.manage_roles');
    const list = await req('GET', '/api/admin/roles', undefined, user.token);
    expect(list.json().message).toBe(
      'Missing any of required permissions: user.view, user.manage_roles',
    );
  });
});
