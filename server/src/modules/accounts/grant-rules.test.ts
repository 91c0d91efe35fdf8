/**
 * The grant rules through the API: holding `user.manage_roles` does not let anyone make
 * themselves admin (issue 7, item 2), give what they do not hold, or touch an admin; custom role
 * definitions follow the same rules.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

describe.skipIf(!available)(`admin: the grant rules (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let adminToken: string;
  let adminId: string;
  let managerToken: string;
  let managerId: string;
  let studentId: string;
  let instructorId: string;

  const as = (token: string) => ({
    get: (url: string) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) }),
    put: (url: string, payload: unknown) =>
      ctx.app.inject({ method: 'PUT', url, headers: bearer(token), payload: payload as object }),
    post: (url: string, payload: unknown) =>
      ctx.app.inject({ method: 'POST', url, headers: bearer(token), payload: payload as object }),
    delete: (url: string) => ctx.app.inject({ method: 'DELETE', url, headers: bearer(token) }),
  });
  const admin = () => as(adminToken);
  const manager = () => as(managerToken);

  const expectRefused = (
    response: { statusCode: number; json: () => unknown },
    message: string,
  ) => {
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ code: 'FORBIDDEN', message });
  };

  beforeEach(async () => {
    ctx = await createTestApp();
    const at = new Date(ctx.clock.now()).toISOString();
    const a = await createTestUser(ctx, { username: 'boss', role: 'admin' });
    adminId = a.user.id;
    adminToken = await signIn(ctx.app, 'boss', a.password);
    // The role: user.view + user.manage_roles on top of student, made through the API.
    const made = await admin().post('/api/admin/roles', {
      id: 'role-manager',
      displayName: 'Role manager',
      description: 'Gives roles.',
      inherits: 'student',
      permissions: ['user.view', 'user.manage_roles'],
      priority: 20,
    });
    expect(made.statusCode).toBe(201);
    const m = await createTestUser(ctx, { username: 'mia', role: 'role-manager' });
    managerId = m.user.id;
    managerToken = await signIn(ctx.app, 'mia', m.password);
    studentId = (await createTestUser(ctx, { username: 'sam' })).user.id;
    instructorId = (await createTestUser(ctx, { username: 'ian', role: 'instructor' })).user.id;
    await createTestUser(ctx, { username: 'fo-anchor', department: 'Field Operations' });
    for (const id of ['otdr-101', 'splice-201']) {
      await insertCourse(
        ctx.database.db,
        { id, code: id, title: id, description: '', departmentId: 'field-operations' },
        at,
      );
    }
  });
  afterEach(async () => {
    await ctx.close();
  });

  const roleOf = async (id: string) =>
    (await admin().get(`/api/admin/users/${id}`)).json().role as string;

  describe('system roles', () => {
    it('the exploit: a role manager cannot make themselves admin', async () => {
      const response = await manager().put(`/api/admin/users/${managerId}/role`, {
        role: 'admin',
      });
      expectRefused(response, 'Cannot change your own role');
      expect(await roleOf(managerId)).toBe('role-manager');
      // Still no admin pages.
      const adminPage = await manager().get('/api/admin/access/checks');
      expectRefused(adminPage, 'Missing required permission: system.admin');
      // Nothing was changed, so nothing was recorded.
      const audit = await admin().get(`/api/admin/access/audit?userId=${managerId}`);
      expect(audit.json().items).toEqual([]);
    });

    it('a role manager cannot give admin, touch an admin, or give a role beyond their own', async () => {
      expectRefused(
        await manager().put(`/api/admin/users/${studentId}/role`, { role: 'admin' }),
        'Only an admin can grant the admin role',
      );
      expectRefused(
        await manager().put(`/api/admin/users/${adminId}/role`, { role: 'student' }),
        'Only an admin can change an admin',
      );
      const instructor = await manager().put(`/api/admin/users/${studentId}/role`, {
        role: 'instructor',
      });
      expect(instructor.statusCode).toBe(403);
      expect(instructor.json().message).toMatch(
        /^Cannot grant permissions you do not hold: course\.create, course\.edit, /,
      );
      const demote = await manager().put(`/api/admin/users/${instructorId}/role`, {
        role: 'student',
      });
      expect(demote.statusCode).toBe(403);
      expect(demote.json().message).toMatch(/^Cannot change the role instructor: Cannot grant /);
      expect(await roleOf(studentId)).toBe('student');
      expect(await roleOf(adminId)).toBe('admin');
      expect(await roleOf(instructorId)).toBe('instructor');
    });

    it('a role manager gives a role whose permissions they hold', async () => {
      const response = await manager().put(`/api/admin/users/${studentId}/role`, {
        role: 'role-manager',
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().role).toBe('role-manager');
      const back = await manager().put(`/api/admin/users/${studentId}/role`, { role: 'student' });
      expect(back.statusCode).toBe(200);
    });

    it('an admin cannot change their own role either, but can make someone admin', async () => {
      expectRefused(
        await admin().put(`/api/admin/users/${adminId}/role`, { role: 'instructor' }),
        'Cannot change your own role',
      );
      const promoted = await admin().put(`/api/admin/users/${managerId}/role`, { role: 'admin' });
      expect(promoted.statusCode).toBe(200);
      expect(promoted.json().role).toBe('admin');
    });
  });

  describe('direct permissions', () => {
    it('nobody grants to themselves; a role manager grants only what they hold, never system.*', async () => {
      expectRefused(
        await manager().post(`/api/admin/users/${managerId}/permissions`, {
          permission: 'system.admin',
        }),
        'Cannot change your own permissions',
      );
      expectRefused(
        await admin().post(`/api/admin/users/${adminId}/permissions`, {
          permission: 'wiki.manage',
        }),
        'Cannot change your own permissions',
      );
      expectRefused(
        await manager().post(`/api/admin/users/${studentId}/permissions`, {
          permission: 'system.admin',
        }),
        'Only an admin can grant a system permission: system.admin',
      );
      expectRefused(
        await manager().post(`/api/admin/users/${studentId}/permissions`, {
          permission: 'grade.export',
        }),
        'Cannot grant a permission you do not hold: grade.export',
      );
      expectRefused(
        await manager().post(`/api/admin/users/${adminId}/permissions`, {
          permission: 'user.view',
        }),
        'Only an admin can change an admin',
      );
      const granted = await manager().post(`/api/admin/users/${studentId}/permissions`, {
        permission: 'user.view',
      });
      expect(granted.statusCode).toBe(201);
      expect(granted.json()).toMatchObject({ id: studentId, directPermissions: ['user.view'] });
    });

    it('a role manager cannot take away a permission they could not have given', async () => {
      await admin().post(`/api/admin/users/${studentId}/permissions`, {
        permission: 'grade.export',
      });
      expectRefused(
        await manager().delete(`/api/admin/users/${studentId}/permissions/grade.export`),
        'Cannot take away a permission you do not hold: grade.export',
      );
      // Something never granted is still just not there.
      const missing = await manager().delete(`/api/admin/users/${studentId}/permissions/wiki.edit`);
      expect(missing.statusCode).toBe(404);
      const ok = await admin().delete(`/api/admin/users/${studentId}/permissions/grade.export`);
      expect(ok.statusCode).toBe(204);
    });
  });

  describe('context assignments', () => {
    const assign = (roles: string[], courseId = 'otdr-101', directPermissions: string[] = []) => ({
      context: { type: 'course', courseId },
      roles,
      directPermissions,
    });

    it('nobody assigns to themselves; a role manager gives only what they hold there', async () => {
      expectRefused(
        await manager().put(
          `/api/admin/users/${managerId}/assignments`,
          assign(['course-student']),
        ),
        'Cannot change your own context assignments',
      );
      expectRefused(
        await admin().put(`/api/admin/users/${adminId}/assignments`, assign(['course-instructor'])),
        'Cannot change your own context assignments',
      );
      expectRefused(
        await manager().put(`/api/admin/users/${adminId}/assignments`, assign(['course-student'])),
        'Only an admin can change an admin',
      );
      const teach = await manager().put(
        `/api/admin/users/${studentId}/assignments`,
        assign(['course-assistant']),
      );
      expect(teach.statusCode).toBe(403);
      expect(teach.json().message).toBe(
        'Cannot grant permissions you do not hold: course.view_participants, assignment.view_submissions, assignment.grade, grade.view_all (in course otdr-101)',
      );
      expectRefused(
        await manager().put(
          `/api/admin/users/${studentId}/assignments`,
          assign([], 'otdr-101', ['system.view']),
        ),
        'Only an admin can grant a system permission: system.view (in course otdr-101)',
      );
      const student = await manager().put(
        `/api/admin/users/${studentId}/assignments`,
        assign(['course-student']),
      );
      expect(student.statusCode).toBe(200);
    });

    it('an assignment held in a course lets its holder give in that course only', async () => {
      const given = await admin().put(
        `/api/admin/users/${managerId}/assignments`,
        assign(['course-instructor']),
      );
      expect(given.statusCode).toBe(200);
      const here = await manager().put(
        `/api/admin/users/${studentId}/assignments`,
        assign(['course-assistant']),
      );
      expect(here.statusCode).toBe(200);
      const there = await manager().put(
        `/api/admin/users/${studentId}/assignments`,
        assign(['course-assistant'], 'splice-201'),
      );
      expect(there.statusCode).toBe(403);
      expect(there.json().message).toMatch(/\(in course splice-201\)$/);
    });

    it('a role manager cannot replace or remove an assignment they could not have given', async () => {
      await admin().put(`/api/admin/users/${studentId}/assignments`, assign(['course-instructor']));
      expectRefused(
        await manager().put(
          `/api/admin/users/${studentId}/assignments`,
          assign(['course-student']),
        ),
        'Cannot take away permissions you do not hold: course.edit, course.view_participants, course.manage_participants, assignment.create, assignment.edit, assignment.grade, assignment.view_submissions, grade.view_all, grade.edit (in course otdr-101)',
      );
      const removed = await manager().delete(
        `/api/admin/users/${studentId}/assignments/course:otdr-101`,
      );
      expect(removed.statusCode).toBe(403);
      const list = await admin().get(`/api/admin/users/${studentId}/assignments`);
      expect(list.json().items.map((a: { roles: string[] }) => a.roles)).toContainEqual([
        'course-instructor',
      ]);
    });
  });

  describe('custom roles', () => {
    const definition = (permissions: string[], inherits = 'student') => ({
      displayName: 'Role manager',
      description: 'Gives roles.',
      inherits,
      permissions,
      priority: 20,
    });

    it('a role manager cannot widen their own role, nor define one beyond their permissions', async () => {
      expectRefused(
        await manager().put(
          '/api/admin/roles/role-manager',
          definition(['user.view', 'user.manage_roles', 'system.admin']),
        ),
        'Cannot change your own role',
      );
      expectRefused(
        await manager().post('/api/admin/roles', {
          id: 'sidekick',
          ...definition(['user.manage_roles', 'system.settings']),
        }),
        'Only an admin can grant a system permission: system.settings',
      );
      const beyond = await manager().post('/api/admin/roles', {
        id: 'sidekick',
        ...definition([], 'instructor'),
      });
      expect(beyond.statusCode).toBe(403);
      expect(beyond.json().message).toMatch(/^Cannot grant permissions you do not hold: /);
      const within = await manager().post('/api/admin/roles', {
        id: 'sidekick',
        ...definition(['user.view']),
      });
      expect(within.statusCode).toBe(201);
      const roles = (await admin().get('/api/admin/roles')).json().items as { id: string }[];
      expect(roles.map((r) => r.id)).toContain('sidekick');
      const own = roles.find((r) => r.id === 'role-manager') as unknown as {
        permissions: string[];
      };
      expect(own.permissions).toEqual(['user.view', 'user.manage_roles']);
    });

    it('a role manager cannot edit or delete a role with permissions they lack', async () => {
      await admin().post('/api/admin/roles', {
        id: 'grader',
        ...definition(['grade.export']),
      });
      const edit = await manager().put('/api/admin/roles/grader', definition([]));
      expectRefused(
        edit,
        'Cannot change the role grader: Cannot grant a permission you do not hold: grade.export',
      );
      expectRefused(
        await manager().delete('/api/admin/roles/grader'),
        'Cannot change the role grader: Cannot grant a permission you do not hold: grade.export',
      );
      expect((await admin().put('/api/admin/roles/grader', definition([]))).statusCode).toBe(200);
    });
  });
});
