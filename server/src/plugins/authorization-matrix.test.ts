/**
 * The authorization matrix, generated from the route declarations: every API route × anonymous,
 * student, instructor, admin, a custom-role user, a department manager, a course assistant and a
 * user whose assignment expired. Each gets exactly what the permission model (core's reference
 * functions, fed the fixture data written here, not what the server loaded) says: 401 without a
 * session, 403 with the model's exact reason when denied, and anything but 401/403 when allowed.
 */
import {
  checkRequirement,
  ownDepartmentAssignment,
  resolveScope,
  RoleRegistry,
  type AccessSubject,
  type ContextAssignment,
  type PermissionId,
  type Role,
} from '@learning-hub/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertCustomRole, upsertAssignment } from '../access/access-repository';
import { createSession } from '../auth/session-repository';
import { insertCourse } from '../courses/course-repository';
import {
  createTestApp,
  createTestUser,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../test/helpers';
import type { RouteAccess } from './access';

const available = await testDatabaseAvailable();

const HOUR = 3_600_000;
const COURSE = 'fiber-101';
const DEPARTMENT = 'field-operations';
const CUSTOM_ROLE: Role = {
  id: 'people-coordinator',
  name: 'people-coordinator',
  displayName: 'People coordinator',
  description: 'Looks people up.',
  permissions: ['user.view'],
  inherits: 'student',
  context: 'global',
  isSystemRole: false,
  priority: 20,
};

interface Principal {
  name: string;
  userId: string | null;
  subject: AccessSubject | null;
}

describe.skipIf(!available)(`authorization matrix (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  const principals: Principal[] = [{ name: 'anonymous', userId: null, subject: null }];
  const params: Record<string, string> = {};
  const registry = new RoleRegistry([CUSTOM_ROLE]);

  beforeAll(async () => {
    ctx = await createTestApp();
    const db = ctx.database.db;
    const at = new Date(ctx.clock.now()).toISOString();

    const target = await createTestUser(ctx, {
      username: 'matrix-target',
      department: 'Customer Support',
    });
    await createTestUser(ctx, { username: 'dept-seed', department: 'Field Operations' });
    await insertCourse(
      db,
      { id: COURSE, code: 'FO-1', title: 'Fiber', description: '', departmentId: DEPARTMENT },
      at,
    );
    await insertCustomRole(
      db,
      CUSTOM_ROLE.id,
      { ...CUSTOM_ROLE, inherits: 'student', permissions: [...CUSTOM_ROLE.permissions] },
      null,
      at,
    );
    Object.assign(params, {
      userId: target.user.id,
      courseId: COURSE,
      departmentId: DEPARTMENT,
      roleId: 'no-such-role',
      permission: 'wiki.create',
      contextKey: `course:${COURSE}`,
      id: 'no-such-session',
      method: 'kerberos',
      providerId: 'no-such-provider',
      testId: 'no-such-test-0000',
    });

    const assignment = (userId: string, extra: Partial<ContextAssignment>): ContextAssignment => ({
      userId,
      context: { type: 'course', courseId: COURSE },
      roles: [],
      directPermissions: [],
      assignedBy: 'matrix',
      assignedAt: at,
      expiresAt: null,
      isActive: true,
      ...extra,
    });

    const add = async (
      name: string,
      role: string,
      department: string,
      departmentId: string,
      extra: ContextAssignment[] = [],
    ) => {
      const { user } = await createTestUser(ctx, { username: `m-${name}`, role, department });
      const stored = extra.map((a) => ({ ...a, userId: user.id }));
      for (const a of stored) await upsertAssignment(db, a);
      principals.push({
        name,
        userId: user.id,
        subject: {
          id: user.id,
          role,
          contextAssignments: [ownDepartmentAssignment(user.id, departmentId, at), ...stored],
        },
      });
    };
    await add('student', 'student', 'Customer Support', 'customer-support');
    await add('instructor', 'instructor', 'Field Operations', DEPARTMENT);
    await add('admin', 'admin', 'Network Engineering', 'network-engineering');
    await add('custom role', CUSTOM_ROLE.id, 'Customer Support', 'customer-support');
    await add('department manager', 'student', 'Customer Support', 'customer-support', [
      assignment('', {
        context: { type: 'department', departmentId: DEPARTMENT },
        roles: ['department-manager'],
      }),
    ]);
    await add('course assistant', 'student', 'Customer Support', 'customer-support', [
      assignment('', { roles: ['course-assistant'] }),
    ]);
    await add('expired assignment', 'student', 'Customer Support', 'customer-support', [
      assignment('', {
        roles: ['course-instructor'],
        expiresAt: new Date(ctx.clock.now() - HOUR).toISOString(),
      }),
    ]);
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('covers every declared route for every principal with the status the model gives', async () => {
    const routes = [...ctx.app.routeAccess.entries()].filter(([key]) => !key.startsWith('HEAD '));
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    let requests = 0;
    const tally = new Map<
      string,
      { allowed: number; forbidden: number; unauthenticated: number }
    >();

    for (const [key, access] of routes) {
      const [method, pattern] = key.split(' ') as [string, string];
      const names = [...pattern.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
      for (const name of names) {
        expect(params, `no matrix value for the route parameter :${name} of ${key}`).toHaveProperty(
          name,
        );
      }
      const url = pattern.replace(/:(\w+)/g, (_, name: string) =>
        encodeURIComponent(params[name] as string),
      );

      for (const principal of principals) {
        const headers: Record<string, string> = {};
        if (principal.userId) {
          // A fresh session per request, so routes like logout cannot disturb the others.
          const { token } = await createSession(ctx.database.db, {
            userId: principal.userId,
            method: 'local',
            now: new Date(ctx.clock.now()),
            lifetimeMs: HOUR,
            ipAddress: '127.0.0.1',
            userAgent: 'matrix',
          });
          headers.authorization = `Bearer ${token}`;
        }
        const response = await ctx.app.inject({
          method: method as 'GET',
          url,
          headers,
          remoteAddress: `10.9.${principals.indexOf(principal)}.${(requests += 1) % 250}`,
          ...(method === 'POST' || method === 'PUT' ? { payload: {} } : {}),
        });
        const expected = expectedOutcome(access, principal, params, registry, ctx.clock.now());
        const status = response.statusCode;
        const label = `${key} as ${principal.name}`;
        const counts = tally.get(principal.name) ?? {
          allowed: 0,
          forbidden: 0,
          unauthenticated: 0,
        };
        if (status === 401) counts.unauthenticated += 1;
        else if (status === 403) counts.forbidden += 1;
        else counts.allowed += 1;
        tally.set(principal.name, counts);
        if (expected.status === 'allowed') {
          if (status === 401 || status === 403)
            failures.push(`${label}: expected allowed, got ${status} ${response.body}`);
          if (status >= 500) failures.push(`${label}: server error ${status} ${response.body}`);
        } else if (expected.status === 401) {
          if (status !== 401) failures.push(`${label}: expected 401, got ${status}`);
        } else {
          const body = response.json() as { code?: string; message?: string };
          if (status !== 403 || body.code !== 'FORBIDDEN' || body.message !== expected.reason) {
            failures.push(
              `${label}: expected 403 "${expected.reason}", got ${status} ${response.body}`,
            );
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // The matrix really exercised both sides for each kind of user.
    expect(tally.get('anonymous')?.allowed).toBeGreaterThan(0);
    expect(tally.get('anonymous')?.unauthenticated).toBeGreaterThan(10);
    expect(tally.get('admin')?.forbidden).toBe(0);
    for (const name of [
      'student',
      'instructor',
      'custom role',
      'department manager',
      'course assistant',
      'expired assignment',
    ]) {
      expect(tally.get(name)?.allowed, name).toBeGreaterThan(5);
      expect(tally.get(name)?.forbidden, name).toBeGreaterThan(3);
      expect(tally.get(name)?.unauthenticated, name).toBe(0);
    }
    expect(tally.get('course assistant')?.forbidden).toBeLessThan(
      tally.get('student')?.forbidden ?? 0,
    );
    expect(tally.get('custom role')?.forbidden).toBeLessThan(tally.get('student')?.forbidden ?? 0);
  });

  it('gives the special principals the outcomes they exist for', () => {
    const decide = (name: string, access: RouteAccess, p: Record<string, string>) =>
      expectedOutcome(
        access,
        principals.find((x) => x.name === name)!,
        p,
        registry,
        ctx.clock.now(),
      );
    const participants: RouteAccess = {
      permissions: ['course.view_participants'],
      scope: { type: 'course', param: 'courseId' },
    };
    expect(decide('course assistant', participants, params).status).toBe('allowed');
    expect(decide('expired assignment', participants, params).status).toBe(403);
    expect(decide('student', participants, params).status).toBe(403);
    const members: RouteAccess = {
      permissions: ['department.view', 'department.manage'],
      mode: 'any',
      scope: { type: 'department', param: 'departmentId' },
    };
    expect(decide('department manager', members, params).status).toBe('allowed');
    expect(decide('student', members, params).status).toBe(403);
    expect(decide('custom role', { permissions: ['user.view'] }, params).status).toBe('allowed');
    expect(decide('student', { permissions: ['user.view'] }, params).status).toBe(403);
  });
});

function expectedOutcome(
  access: RouteAccess,
  principal: Principal,
  params: Record<string, string>,
  roles: RoleRegistry,
  now: number,
): { status: 'allowed' } | { status: 401 } | { status: 403; reason: string } {
  if (access.public) return { status: 'allowed' };
  if (!principal.subject) return { status: 401 };
  const decision = checkRequirement(
    principal.subject,
    {
      permissions: (access.permissions ?? []) as PermissionId[],
      mode: access.mode ?? 'all',
      roles: access.roles ?? [],
    },
    { scope: resolveScope(access.scope, params), roles, now },
  );
  return decision.allowed ? { status: 'allowed' } : { status: 403, reason: decision.reason };
}
