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

describe.skipIf(!available)(`admin: simulator and audits (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let adminToken: string;
  let instructor: { id: string; token: string };
  let student: { id: string; token: string };

  beforeEach(async () => {
    ctx = await createTestApp();
    const admin = await createTestUser(ctx, { username: 'root', role: 'admin' });
    adminToken = await signIn(ctx.app, 'root', admin.password);
    const i = await createTestUser(ctx, {
      username: 'priya',
      role: 'instructor',
      department: 'Field Operations',
    });
    instructor = { id: i.user.id, token: await signIn(ctx.app, 'priya', i.password) };
    const s = await createTestUser(ctx, { username: 'sam', department: 'Customer Support' });
    student = { id: s.user.id, token: await signIn(ctx.app, 'sam', s.password) };
  });
  afterEach(async () => {
    await ctx.close();
  });

  const simulate = (body: unknown) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/admin/access/simulate',
      headers: bearer(adminToken),
      payload: body as object,
    });

  it('answers a permission in a context with the reason or the chain of grants', async () => {
    const allowed = (await simulate({ userId: instructor.id, permission: 'course.create' })).json();
    expect(allowed).toEqual({
      allowed: true,
      reason: null,
      checked: {
        permissions: ['course.create'],
        mode: 'all',
        roles: [],
        scope: 'system',
        route: null,
      },
      grants: [{ permission: 'course.create', grants: [{ source: 'role', roleId: 'instructor' }] }],
    });
    const denied = (
      await simulate({
        userId: student.id,
        permission: 'department.view',
        scope: 'department:field-operations',
      })
    ).json();
    expect(denied).toMatchObject({
      allowed: false,
      reason: 'Missing required permission: department.view',
      checked: { scope: 'department:field-operations' },
      grants: [{ permission: 'department.view', grants: [] }],
    });
    const invalid = (await simulate({ userId: student.id, permission: 'course.fly' })).json();
    expect(invalid).toMatchObject({
      allowed: false,
      reason: 'Invalid permission: course.fly',
      grants: [],
    });
  });

  it('answers a page of the app with its requirement and scope', async () => {
    const wiki = (await simulate({ userId: student.id, route: '/wiki/create' })).json();
    expect(wiki).toMatchObject({
      allowed: false,
      reason: 'Missing required permission: wiki.create',
      checked: {
        permissions: ['wiki.create'],
        roles: ['instructor', 'admin'],
        route: '/wiki/create',
      },
    });
    const dept = (
      await simulate({ userId: instructor.id, route: '/departments/field-operations' })
    ).json();
    expect(dept).toMatchObject({
      allowed: true,
      checked: { scope: 'department:field-operations', route: '/departments/:deptName' },
      grants: [
        {
          permission: 'department.view',
          grants: [
            {
              source: 'context-role',
              roleId: 'department-member',
              context: { type: 'department', departmentId: 'field-operations' },
            },
          ],
        },
      ],
    });
    const settings = (await simulate({ userId: student.id, route: '/instructor-settings' })).json();
    expect(settings.reason).toBe(
      'Missing any of required permissions: course.create, library.upload',
    );
    expect((await simulate({ userId: student.id, route: '/no/such/page' })).statusCode).toBe(404);
    expect((await simulate({ userId: 'ghost', permission: 'course.view' })).statusCode).toBe(404);
    expect((await simulate({ userId: student.id })).statusCode).toBe(400);
    expect((await simulate({ userId: student.id, permission: 'x', route: '/' })).statusCode).toBe(
      400,
    );
  });

  it('keeps every real check in the ring (user view 50, all 100) but not simulations', async () => {
    for (let i = 0; i < 60; i++) {
      await ctx.app.inject({
        method: 'GET',
        url: '/api/admin/users',
        headers: bearer(student.token),
      });
    }
    const before = (
      await ctx.app.inject({
        method: 'GET',
        url: `/api/admin/access/checks?userId=${student.id}`,
        headers: bearer(adminToken),
      })
    ).json();
    expect(before.items).toHaveLength(50);
    expect(before.total).toBe(60);
    expect(before.items[0]).toMatchObject({
      userId: student.id,
      username: 'sam',
      action: 'checked',
      permission: 'user.view',
      context: 'system',
      result: false,
      reason: 'Missing required permission: user.view',
    });
    await simulate({ userId: student.id, permission: 'course.view' });
    const all = (
      await ctx.app.inject({
        method: 'GET',
        url: '/api/admin/access/checks',
        headers: bearer(adminToken),
      })
    ).json();
    // The student's 60 attempts and the admin's own checks to read the ring; at most 100 shown.
    expect(all.items.length).toBeLessThanOrEqual(100);
    expect(all.items.filter((e: { userId: string }) => e.userId === student.id)).toHaveLength(60);

    const denied = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/access/checks',
      headers: bearer(instructor.token),
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe('Missing required permission: system.admin');
  });

  it('pages and filters the durable audit trail', async () => {
    for (const p of ['wiki.create', 'wiki.edit', 'grade.export']) {
      await ctx.app.inject({
        method: 'POST',
        url: `/api/admin/users/${student.id}/permissions`,
        headers: bearer(adminToken),
        payload: { permission: p },
      });
    }
    await ctx.app.inject({
      method: 'PUT',
      url: `/api/admin/users/${instructor.id}/role`,
      headers: bearer(adminToken),
      payload: { role: 'student' },
    });
    const get = (q: string) =>
      ctx.app.inject({
        method: 'GET',
        url: `/api/admin/access/audit?${q}`,
        headers: bearer(adminToken),
      });
    const all = (await get('')).json();
    expect(all).toMatchObject({ total: 4, page: 1, pageSize: 100 });
    expect(all.items[0]).toMatchObject({
      action: 'role.set',
      targetUsername: 'priya',
      actorUsername: 'root',
    });
    const grants = (await get(`userId=${student.id}&pageSize=2&page=2`)).json();
    expect(grants).toMatchObject({ total: 3, page: 2, pageSize: 2 });
    expect(grants.items.map((e: { permission: string }) => e.permission)).toEqual(['wiki.create']);
    const byAction = (await get('action=role.set')).json();
    expect(byAction.total).toBe(1);
    const later = (
      await get(`from=${encodeURIComponent(new Date(ctx.clock.now() + 1).toISOString())}`)
    ).json();
    expect(later.total).toBe(0);
    expect((await get('action=drop.tables')).statusCode).toBe(400);
  });
});
