import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertCourse } from '../courses/course-repository';
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
const HOUR = 3_600_000;

describe.skipIf(!available)(`admin: users and their permissions (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let adminToken: string;
  let student: { id: string; token: string; password: string };

  beforeEach(async () => {
    ctx = await createTestApp();
    const at = new Date(ctx.clock.now()).toISOString();
    const admin = await createTestUser(ctx, {
      username: 'boss',
      role: 'admin',
      firstname: 'Ada',
      lastname: 'Boss',
      department: 'Network Engineering',
    });
    adminToken = await signIn(ctx.app, 'boss', admin.password);
    const s = await createTestUser(ctx, {
      username: 'sam',
      firstname: 'Sam',
      lastname: 'Rivera',
      email: 'sam.rivera@fiberco.example',
      department: 'Customer Support',
    });
    student = {
      id: s.user.id,
      password: s.password,
      token: await signIn(ctx.app, 'sam', s.password),
    };
    await createTestUser(ctx, { username: 'fo-anchor', department: 'Field Operations' });
    await insertCourse(
      ctx.database.db,
      {
        id: 'otdr-101',
        code: 'FO-210',
        title: 'OTDR Testing',
        description: '',
        departmentId: 'field-operations',
      },
      at,
    );
  });
  afterEach(async () => {
    await ctx.close();
  });

  const as = (token: string) => ({
    get: (url: string) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) }),
    put: (url: string, payload: unknown) =>
      ctx.app.inject({ method: 'PUT', url, headers: bearer(token), payload: payload as object }),
    post: (url: string, payload: unknown) =>
      ctx.app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as object }),
    delete: (url: string) => ctx.app.inject({ method: 'DELETE', url, headers: bearer(token) }),
  });
  const admin = () => as(adminToken);
  const participants = () => as(student.token).get('/api/courses/otdr-101/participants');

  describe('listing users', () => {
    it('searches, filters and pages on the server', async () => {
      for (let i = 0; i < 7; i++) {
        await createTestUser(ctx, {
          username: `tech${i}`,
          lastname: `Splicer${i}`,
          department: 'Field Operations',
        });
      }
      const page1 = await admin().get('/api/admin/users?search=splicer&pageSize=5');
      expect(page1.statusCode).toBe(200);
      expect(page1.json()).toMatchObject({ total: 7, page: 1, pageSize: 5 });
      expect(page1.json().items).toHaveLength(5);
      const page2 = await admin().get('/api/admin/users?search=SPLICER&pageSize=5&page=2');
      expect(page2.json().items.map((u: { username: string }) => u.username)).toHaveLength(2);

      const byEmail = await admin().get('/api/admin/users?search=rivera%40fiberco');
      expect(byEmail.json().items.map((u: { username: string }) => u.username)).toEqual(['sam']);
      const wildcard = await admin().get('/api/admin/users?search=%25');
      expect(wildcard.json().total).toBe(0);

      const admins = await admin().get('/api/admin/users?role=admin');
      expect(admins.json().items.map((u: { username: string }) => u.username)).toEqual(['boss']);
      const field = await admin().get('/api/admin/users?department=field-operations');
      expect(field.json().total).toBe(8);
      expect(JSON.stringify(field.json())).not.toContain('argon2');
    });

    it('refuses bad paging and users without user.view', async () => {
      expect((await admin().get('/api/admin/users?page=0')).statusCode).toBe(400);
      expect((await admin().get('/api/admin/users?pageSize=1000')).statusCode).toBe(400);
      const denied = await as(student.token).get('/api/admin/users');
      expect(denied.statusCode).toBe(403);
      expect(denied.json().message).toBe('Missing required permission: user.view');
      expect((await admin().get('/api/admin/users/nobody')).statusCode).toBe(404);
    });
  });

  describe('roles', () => {
    it('changes a role, effective on the next request, and records it', async () => {
      expect((await participants()).statusCode).toBe(403);
      const res = await admin().put(`/api/admin/users/${student.id}/role`, { role: 'instructor' });
      expect(res.statusCode).toBe(200);
      expect(res.json().role).toBe('instructor');
      expect((await participants()).statusCode).toBe(200);

      const audit = await admin().get(`/api/admin/access/audit?userId=${student.id}`);
      expect(audit.json().items[0]).toMatchObject({
        action: 'role.set',
        actorUsername: 'boss',
        targetUsername: 'sam',
        roleId: 'instructor',
        details: { from: 'student', to: 'instructor' },
      });
      expect(audit.json().pageSize).toBe(50);
    });

    it('refuses unknown roles and demoting the last admin', async () => {
      const unknown = await admin().put(`/api/admin/users/${student.id}/role`, { role: 'wizard' });
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toBe('Unknown role: wizard');
      const me = (await admin().get('/api/auth/me')).json().user.id as string;
      const own = await admin().put(`/api/admin/users/${me}/role`, { role: 'student' });
      expect(own.statusCode).toBe(403);
      expect(own.json().message).toBe('Cannot change your own role');
      // A super admin by flag (role student) is the one who can meet the last admin.
      const flagged = await createTestUser(ctx, { username: 'root', isSuperAdmin: true });
      const root = as(await signIn(ctx.app, 'root', flagged.password));
      const last = await root.put(`/api/admin/users/${me}/role`, { role: 'student' });
      expect(last.statusCode).toBe(409);
      expect(last.json().message).toBe('At least one active admin must remain.');
    });

    it('two admins demoting each other at once leave one admin', async () => {
      const me = (await admin().get('/api/auth/me')).json().user.id as string;
      const other = await createTestUser(ctx, { username: 'boss2', role: 'admin' });
      const otherToken = await signIn(ctx.app, 'boss2', other.password);
      const results = await Promise.all([
        admin().put(`/api/admin/users/${other.user.id}/role`, { role: 'student' }),
        as(otherToken).put(`/api/admin/users/${me}/role`, { role: 'student' }),
      ]);
      // One wins; the other finds one admin left (409), or is no admin any more by its check (403).
      const codes = results.map((r) => r.statusCode);
      expect(codes.filter((c) => c === 200)).toHaveLength(1);
      expect([403, 409]).toContain(codes.find((c) => c !== 200));
      const remaining = results[0]!.statusCode === 200 ? adminToken : otherToken;
      const list = await as(remaining).get('/api/admin/users?role=admin');
      expect(list.json().total).toBe(1);
    });
  });

  describe('direct permissions', () => {
    it('grants and revokes, each effective on the next request', async () => {
      const list = () => as(student.token).get('/api/admin/users');
      expect((await list()).statusCode).toBe(403);
      const granted = await admin().post(`/api/admin/users/${student.id}/permissions`, {
        permission: 'user.view',
      });
      // Created: the grant's URL, and the user as they are now.
      expect(granted.statusCode).toBe(201);
      expect(granted.headers.location).toBe(`/api/admin/users/${student.id}/permissions/user.view`);
      expect(granted.json()).toMatchObject({ id: student.id, directPermissions: ['user.view'] });
      expect((await list()).statusCode).toBe(200);
      // Granting what they hold already changes nothing.
      const again = await admin().post(`/api/admin/users/${student.id}/permissions`, {
        permission: 'user.view',
      });
      expect(again.statusCode).toBe(200);
      expect(again.headers.location).toBeUndefined();
      expect(again.json()).toMatchObject({ id: student.id, directPermissions: ['user.view'] });
      const revoked = await admin().delete(`/api/admin/users/${student.id}/permissions/user.view`);
      expect(revoked.statusCode).toBe(204);
      expect(revoked.body).toBe('');
      const after = await admin().get(`/api/admin/users/${student.id}`);
      expect(after.json().directPermissions).toEqual([]);
      const refused = await list();
      expect(refused.statusCode).toBe(403);
      expect(refused.json().message).toBe('Missing required permission: user.view');
      const actions = (await admin().get(`/api/admin/access/audit?userId=${student.id}`))
        .json()
        .items.map((e: { action: string }) => e.action);
      expect(actions).toEqual(['permission.revoke', 'permission.grant']);
    });

    it('refuses an unknown permission and revoking what was never granted', async () => {
      const bad = await admin().post(`/api/admin/users/${student.id}/permissions`, {
        permission: 'course.fly',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().message).toBe('Invalid permission: course.fly');
      expect(
        (await admin().delete(`/api/admin/users/${student.id}/permissions/wiki.create`)).statusCode,
      ).toBe(404);
    });
  });

  describe('context assignments', () => {
    const assign = (body: unknown) =>
      admin().put(`/api/admin/users/${student.id}/assignments`, body);
    const course = { type: 'course', courseId: 'otdr-101' };

    it('assigns a course role until an expiry, enforced at the moment of the check', async () => {
      const res = await assign({
        context: course,
        roles: ['course-assistant'],
        expiresAt: new Date(ctx.clock.now() + HOUR).toISOString(),
      });
      expect(res.json()).toEqual({ replaced: false, contextKey: 'course:otdr-101' });
      expect((await participants()).statusCode).toBe(200);

      ctx.clock.advance(HOUR);
      const expired = await participants();
      expect(expired.statusCode).toBe(403);
      expect(expired.json().message).toBe('Missing required permission: course.view_participants');
    });

    it('replaces the assignment for the same context, lists it and removes it', async () => {
      await assign({ context: course, roles: ['course-student'] });
      const replaced = await assign({ context: course, roles: ['course-assistant'] });
      expect(replaced.json().replaced).toBe(true);
      const list = (await admin().get(`/api/admin/users/${student.id}/assignments`)).json()
        .items as {
        contextKey: string;
        roles: string[];
        derived: boolean;
        contextLabel: string;
      }[];
      expect(list.map((a) => [a.contextKey, a.roles, a.derived, a.contextLabel])).toEqual([
        ['department:customer-support', ['department-member'], true, 'Customer Support'],
        ['course:otdr-101', ['course-assistant'], false, 'FO-210 · OTDR Testing'],
      ]);
      expect((await participants()).statusCode).toBe(200);

      const removed = await admin().delete(
        `/api/admin/users/${student.id}/assignments/course%3Aotdr-101`,
      );
      expect(removed.statusCode).toBe(204);
      expect(removed.body).toBe('');
      expect((await participants()).statusCode).toBe(403);
      const again = await admin().delete(
        `/api/admin/users/${student.id}/assignments/course%3Aotdr-101`,
      );
      expect(again.statusCode).toBe(404);

      const trail = (await admin().get(`/api/admin/access/audit?userId=${student.id}`)).json()
        .items;
      expect(trail.map((e: { action: string }) => e.action)).toEqual([
        'assignment.remove',
        'assignment.replace',
        'assignment.create',
      ]);
      expect(trail[1].details).toMatchObject({
        roles: ['course-assistant'],
        previous: { roles: ['course-student'] },
      });
    });

    it.each([
      [
        {
          context: { type: 'department', departmentId: 'field-operations' },
          roles: ['course-assistant'],
        },
        'Course assistant can only be assigned in a course',
      ],
      [
        { context: { type: 'course', courseId: 'otdr-101' }, roles: [] },
        'Give at least one role or permission',
      ],
      [
        { context: { type: 'course', courseId: 'nope' }, roles: ['course-student'] },
        'No such course: nope',
      ],
      [
        { context: { type: 'department', departmentId: 'nope' }, roles: ['department-member'] },
        'No such department: nope',
      ],
      [
        {
          context: { type: 'course', courseId: 'otdr-101' },
          roles: ['course-student'],
          expiresAt: '2020-01-01T00:00:00.000Z',
        },
        'The expiry must be in the future',
      ],
      [
        { context: { type: 'course', courseId: 'otdr-101' }, directPermissions: ['course.fly'] },
        'Invalid permission: course.fly',
      ],
      [{ context: { type: 'planet', id: 'mars' }, roles: ['course-student'] }, undefined],
    ])('refuses %j', async (body, message) => {
      const res = await assign(body);
      expect(res.statusCode).toBe(400);
      if (message) expect(res.json().message).toBe(message);
    });
  });

  describe('effective permissions', () => {
    it('explains each permission by source, in the scope asked', async () => {
      await admin().put(`/api/admin/users/${student.id}/assignments`, {
        context: { type: 'course', courseId: 'otdr-101' },
        roles: ['course-assistant'],
      });
      await admin().post(`/api/admin/users/${student.id}/permissions`, {
        permission: 'wiki.create',
      });
      const inCourse = (
        await admin().get(
          `/api/admin/users/${student.id}/effective-permissions?scope=course:otdr-101`,
        )
      ).json();
      const grantsOf = (p: string) =>
        inCourse.permissions.find((x: { permission: string }) => x.permission === p)?.grants;
      expect(grantsOf('course.view_participants')).toEqual([
        {
          source: 'context-role',
          context: { type: 'course', courseId: 'otdr-101' },
          roleId: 'course-assistant',
          expiresAt: null,
        },
      ]);
      expect(grantsOf('wiki.create')).toEqual([{ source: 'direct' }]);
      expect(grantsOf('course.view')).toEqual([{ source: 'role', roleId: 'student' }]);
      expect(grantsOf('department.view')).toBeUndefined();

      const anywhere = (
        await admin().get(`/api/admin/users/${student.id}/effective-permissions?scope=any`)
      ).json();
      expect(anywhere.permissions.map((x: { permission: string }) => x.permission)).toContain(
        'department.view',
      );
      const bad = await admin().get(
        `/api/admin/users/${student.id}/effective-permissions?scope=planet:mars`,
      );
      expect(bad.statusCode).toBe(400);
    });
  });

  describe('several server instances on one database', () => {
    it('a change made through one instance applies on the next request to another', async () => {
      const other = await createSecondInstance(ctx);
      try {
        const onOther = () =>
          other.app.inject({
            method: 'GET',
            url: '/api/admin/users',
            headers: bearer(student.token),
          });
        expect((await onOther()).statusCode).toBe(403);
        await admin().post(`/api/admin/users/${student.id}/permissions`, {
          permission: 'user.view',
        });
        // SQLite instances notice another connection's writes within a millisecond.
        await new Promise((r) => setTimeout(r, 2));
        expect((await onOther()).statusCode).toBe(200);
        await admin().put(`/api/admin/users/${student.id}/role`, { role: 'instructor' });
        await admin().delete(`/api/admin/users/${student.id}/permissions/user.view`);
        await new Promise((r) => setTimeout(r, 2));
        expect((await onOther()).statusCode).toBe(403);
        const participantsOnOther = await other.app.inject({
          method: 'GET',
          url: '/api/courses/otdr-101/participants',
          headers: bearer(student.token),
        });
        expect(participantsOnOther.statusCode).toBe(200);
      } finally {
        await other.close();
      }
    });
  });
});
