/**
 * The authorization matrix, generated from the route declarations: every API route × anonymous,
 * student, instructor, admin, a custom-role user, a department manager, a course assistant and a
 * user whose assignment expired. Each gets exactly what the permission model (core's reference
 * functions, fed the fixture data written here, not what the server loaded) says: 401 without a
 * session, 403 with the model's exact reason when denied, and anything but 401/403 when allowed.
 *
 * Then the grant rules on top: every route that changes what a user may do (role, direct
 * permissions, context assignments, custom roles) × every principal (a role manager holding
 * `user.manage_roles` among them) × themselves, an admin and a student × grants from harmless to
 * `admin` and `system.*`: each answers exactly what core's grant rules say, and the changes that
 * are allowed are undone so every case starts from the same data.
 */
import {
  assignmentRemoveDenial,
  isAdmin,
  isAssignmentInForce,
  assignmentReplaceDenial,
  checkRequirement,
  customRoleDenial,
  ownDepartmentAssignment,
  permissionGrantDenial,
  permissionRevokeDenial,
  roleGrantDenial,
  resolveScope,
  RoleRegistry,
  type AccessSubject,
  type ContextAssignment,
  type PermissionId,
  type Role,
} from '@learning-hub/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  deleteCustomRole,
  grantUserPermission,
  insertCustomRole,
  revokeUserPermission,
  updateCustomRole,
  upsertAssignment,
} from './platform/access/access-repository';
import { setRole } from './platform/auth/user-repository';
import { createSession } from './platform/auth/session-repository';
import { insertCourse } from './modules/courses/course-repository';
import { NOT_A_PARTICIPANT, ONLY_ENROLLED_SUBMIT } from './modules/assignments/shared';
import {
  createTestApp,
  createTestUser,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from './test/helpers';
import type { RouteAccess } from './platform/http/access';

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

/** The role of issue 7, item 2: enough to reach every grant route, and nothing else. */
const ROLE_MANAGER: Role = {
  ...CUSTOM_ROLE,
  id: 'role-manager',
  name: 'role-manager',
  displayName: 'Role manager',
  description: 'Gives roles.',
  permissions: ['user.view', 'user.manage_roles'],
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
  const registry = new RoleRegistry([CUSTOM_ROLE, ROLE_MANAGER]);
  /** Users the grant cases act on besides the principals themselves. */
  const targets: { name: string; id: string; role: string }[] = [];

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
    // Handed-in work keeps the course: DELETE /api/courses/:courseId answers 409 even to an admin.
    await db
      .insertInto('assignments')
      .values({
        id: 'matrix-assignment',
        course_id: COURSE,
        title: 'Splice report',
        instructions_html: '',
        due_at: null,
        points: 10,
        submission_kinds: '["text"]',
        file_kinds: '[]',
        max_file_bytes: 1_000_000,
        late_policy: 'accept',
        max_attempts: null,
        grades_released: 0,
        position: 0,
        created_at: at,
        updated_at: at,
      })
      .execute();
    await db
      .insertInto('submissions')
      .values({
        id: 'matrix-submission',
        assignment_id: 'matrix-assignment',
        course_id: COURSE,
        user_id: target.user.id,
        attempt: 1,
        status: 'submitted',
        text_html: '<p>Done.</p>',
        submitted_at: at,
        is_late: 0,
        created_at: at,
        updated_at: at,
      })
      .execute();
    for (const role of [CUSTOM_ROLE, ROLE_MANAGER]) {
      await insertCustomRole(
        db,
        role.id,
        { ...role, inherits: 'student', permissions: [...role.permissions] },
        null,
        at,
      );
    }
    const targetAdmin = await createTestUser(ctx, { username: 'matrix-admin', role: 'admin' });
    targets.push(
      { name: 'a student', id: target.user.id, role: 'student' },
      { name: 'an admin', id: targetAdmin.user.id, role: 'admin' },
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
      fileId: 'no-such-file',
      uploadId: 'no-such-upload',
      sectionId: 'no-such-section',
      lessonId: 'no-such-lesson',
      assignmentId: 'matrix-assignment',
      submissionId: 'matrix-submission',
      jobId: 'no-such-job',
      itemId: 'no-such-item',
      categoryId: 'no-such-category',
      pageId: 'no-such-page',
      notificationId: '0'.repeat(32),
      revisionId: '1',
      name: DEPARTMENT,
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
    await add('role manager', ROLE_MANAGER.id, 'Customer Support', 'customer-support');
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

  // Every route × principal, one request after the other: it grows with the API, so it has
  // more time than the default for one behaviour.
  it('covers every declared route for every principal with the status the model gives', async () => {
    const routes = [...ctx.app.routeAccess.entries()].filter(([key]) => !key.startsWith('HEAD '));
    expect(routes.length).toBeGreaterThan(20);
    const failures: string[] = [];
    let requests = 0;
    const tally = new Map<
      string,
      // `ruled`: refused by a course rule after the permission check passed (see COURSE_RULES).
      { allowed: number; forbidden: number; unauthenticated: number; ruled: number }
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
        const gate = expectedOutcome(access, principal, params, registry, ctx.clock.now());
        const expected = afterTheGate(key, principal, gate, registry, ctx.clock.now());
        const status = response.statusCode;
        const label = `${key} as ${principal.name}`;
        const counts = tally.get(principal.name) ?? {
          allowed: 0,
          forbidden: 0,
          unauthenticated: 0,
          ruled: 0,
        };
        if (status === 401) counts.unauthenticated += 1;
        else if (status === 403 && gate.status === 'allowed') counts.ruled += 1;
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
  }, 120_000);

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

  // Every route × principal, one request after the other: it grows with the API, so it has
  // more time than the default for one behaviour.
  it('applies the grant rules: each grant × principal × target answers what core says', async () => {
    const db = ctx.database.db;
    const at = () => new Date(ctx.clock.now()).toISOString();
    const COURSE_CONTEXT = { type: 'course', courseId: COURSE } as const;
    const SEEDED: ContextAssignment = {
      userId: '',
      context: COURSE_CONTEXT,
      roles: ['course-student'],
      directPermissions: [],
      assignedBy: 'matrix',
      assignedAt: at(),
      expiresAt: null,
      isActive: true,
    };
    const SPARE: Role = { ...CUSTOM_ROLE, id: 'matrix-spare', permissions: ['grade.export'] };
    const roleFields = (role: Role) => ({
      displayName: role.displayName,
      description: role.description,
      inherits: role.inherits ?? 'student',
      permissions: [...role.permissions],
      priority: role.priority,
    });
    // What the revoke and remove cases take away.
    for (const t of targets) {
      await grantUserPermission(db, t.id, 'grade.export', null, at());
      await upsertAssignment(db, { ...SEEDED, userId: t.id });
    }
    await insertCustomRole(db, SPARE.id, roleFields(SPARE), null, at());

    type Target = { id: string; role: string };
    interface Case {
      route: string;
      label: string;
      /** Whom it acts on: a user (self, a student, an admin), or none (custom roles). */
      onUsers: boolean;
      url: (target: Target | null) => string;
      payload?: object;
      denial: (actor: AccessSubject, target: Target | null) => string | null;
      status: number;
      undo: (target: Target | null) => Promise<unknown>;
    }
    const user = (t: Target | null) => t as Target;
    const opts = { now: ctx.clock.now() };
    const withSpare = new RoleRegistry([CUSTOM_ROLE, ROLE_MANAGER, SPARE]);
    const roleCase = (role: string): Case => ({
      route: 'PUT /api/admin/users/:userId/role',
      label: `role ${role}`,
      onUsers: true,
      url: (t) => `/api/admin/users/${user(t).id}/role`,
      payload: { role },
      denial: (a, t) => roleGrantDenial(a, t, role, registry, opts),
      status: 200,
      undo: (t) => setRole(db, user(t).id, user(t).role, at()),
    });
    const grantCase = (permission: PermissionId): Case => ({
      route: 'POST /api/admin/users/:userId/permissions',
      label: `direct permission ${permission}`,
      onUsers: true,
      url: (t) => `/api/admin/users/${user(t).id}/permissions`,
      payload: { permission },
      denial: (a, t) => permissionGrantDenial(a, t, permission, registry, opts),
      status: 201,
      undo: (t) => revokeUserPermission(db, user(t).id, permission),
    });
    const assignCase = (roles: ContextAssignment['roles'], direct: PermissionId[]): Case => ({
      route: 'PUT /api/admin/users/:userId/assignments',
      label: `assignment ${[...roles, ...direct].join('+')} in ${COURSE}`,
      onUsers: true,
      url: (t) => `/api/admin/users/${user(t).id}/assignments`,
      payload: { context: COURSE_CONTEXT, roles, directPermissions: direct },
      denial: (a, t) =>
        assignmentReplaceDenial(
          a,
          t,
          SEEDED,
          { context: COURSE_CONTEXT, roles, directPermissions: direct },
          registry,
          opts,
        ),
      status: 200,
      undo: (t) => upsertAssignment(db, { ...SEEDED, userId: user(t).id }),
    });
    const cases: Case[] = [
      ...['admin', 'instructor', ROLE_MANAGER.id, CUSTOM_ROLE.id, 'student'].map(roleCase),
      ...(['system.admin', 'user.view', 'wiki.create'] as const).map(grantCase),
      {
        route: 'DELETE /api/admin/users/:userId/permissions/:permission',
        label: 'revoking grade.export',
        onUsers: true,
        url: (t) => `/api/admin/users/${user(t).id}/permissions/grade.export`,
        denial: (a, t) => permissionRevokeDenial(a, t, 'grade.export', registry, opts),
        status: 204,
        undo: (t) => grantUserPermission(db, user(t).id, 'grade.export', null, at()),
      },
      assignCase(['course-assistant'], []),
      assignCase(['course-student'], ['user.view']),
      assignCase([], ['system.view']),
      {
        route: 'DELETE /api/admin/users/:userId/assignments/:contextKey',
        label: `removing course-student in ${COURSE}`,
        onUsers: true,
        url: (t) => `/api/admin/users/${user(t).id}/assignments/course:${COURSE}`,
        denial: (a, t) => assignmentRemoveDenial(a, t, SEEDED, registry, opts),
        status: 204,
        undo: (t) => upsertAssignment(db, { ...SEEDED, userId: user(t).id }),
      },
      ...[
        ['user.view', 'user.manage_roles', 'system.admin'],
        ['user.view', 'user.manage_roles', 'wiki.create'],
      ].map((permissions): Case => ({
        route: 'PUT /api/admin/roles/:roleId',
        label: `editing role-manager to ${permissions.join(', ')}`,
        onUsers: false,
        url: () => `/api/admin/roles/${ROLE_MANAGER.id}`,
        payload: { ...roleFields(ROLE_MANAGER), permissions },
        denial: (a) =>
          customRoleDenial(
            a,
            ROLE_MANAGER,
            { id: ROLE_MANAGER.id, inherits: 'student', permissions },
            registry,
            opts,
          ),
        status: 200,
        undo: () => updateCustomRole(db, ROLE_MANAGER.id, roleFields(ROLE_MANAGER), at()),
      })),
      ...[['user.view'], ['system.settings']].map((permissions): Case => ({
        route: 'POST /api/admin/roles',
        label: `creating a role with ${permissions.join(', ')}`,
        onUsers: false,
        url: () => '/api/admin/roles',
        payload: { id: 'matrix-made', ...roleFields(CUSTOM_ROLE), permissions },
        denial: (a) =>
          customRoleDenial(
            a,
            null,
            { id: 'matrix-made', inherits: 'student', permissions },
            registry,
            opts,
          ),
        status: 201,
        undo: () => deleteCustomRole(db, 'matrix-made'),
      })),
      {
        route: 'DELETE /api/admin/roles/:roleId',
        label: 'deleting a role with grade.export',
        onUsers: false,
        url: () => `/api/admin/roles/${SPARE.id}`,
        denial: (a) => customRoleDenial(a, SPARE, null, withSpare, opts),
        status: 204,
        undo: () => insertCustomRole(db, SPARE.id, roleFields(SPARE), null, at()),
      },
    ];

    // Every route that hands out or takes away permissions has its cases.
    const grantRoutes = [...ctx.app.routeAccess.entries()]
      .filter(([key, access]) => {
        if (key.startsWith('GET ') || key.startsWith('HEAD ') || access.public) return false;
        const gives = key.includes('/api/admin/users/:userId/') || key.includes('/api/admin/roles');
        return gives && (access.permissions ?? []).includes('user.manage_roles');
      })
      .map(([key]) => key);
    expect(grantRoutes.length).toBeGreaterThanOrEqual(8);
    expect([...new Set(cases.map((c) => c.route))].sort()).toEqual([...grantRoutes].sort());

    const failures: string[] = [];
    let allowed = 0;
    let refusedByRule = 0;
    let requests = 0;
    for (const principal of principals) {
      if (!principal.userId || !principal.subject) continue;
      const self: Target = { id: principal.userId, role: principal.subject.role };
      for (const c of cases) {
        const access = ctx.app.routeAccess.get(c.route) as RouteAccess;
        const whom: { name: string; target: Target | null }[] = c.onUsers
          ? [
              { name: 'themselves', target: self },
              ...targets.map((t) => ({ name: t.name, target: t })),
            ]
          : [{ name: '-', target: null }];
        for (const { name, target } of whom) {
          const { token } = await createSession(db, {
            userId: principal.userId,
            method: 'local',
            now: new Date(ctx.clock.now()),
            lifetimeMs: HOUR,
            ipAddress: '127.0.0.1',
            userAgent: 'matrix',
          });
          const [method] = c.route.split(' ') as [string];
          const response = await ctx.app.inject({
            method: method as 'GET',
            url: c.url(target),
            headers: { authorization: `Bearer ${token}` },
            remoteAddress: `10.8.${principals.indexOf(principal)}.${(requests += 1) % 250}`,
            ...(c.payload ? { payload: c.payload } : {}),
          });
          const gate = expectedOutcome(
            access,
            principal,
            { ...params, userId: target?.id ?? params.userId!, roleId: 'x' },
            registry,
            ctx.clock.now(),
          );
          const reason = gate.status === 403 ? gate.reason : c.denial(principal.subject, target);
          const label = `${c.label} for ${name} as ${principal.name}`;
          // A 204 has no body to read.
          const body = (response.body ? response.json() : {}) as {
            code?: string;
            message?: string;
          };
          if (reason === null) {
            allowed += 1;
            if (response.statusCode !== c.status) {
              failures.push(
                `${label}: expected ${c.status}, got ${response.statusCode} ${response.body}`,
              );
            }
            if (response.statusCode < 300) await c.undo(target);
          } else {
            if (gate.status !== 403) refusedByRule += 1;
            if (
              response.statusCode !== 403 ||
              body.code !== 'FORBIDDEN' ||
              body.message !== reason
            ) {
              failures.push(
                `${label}: expected 403 "${reason}", got ${response.statusCode} ${response.body}`,
              );
              if (response.statusCode < 300) await c.undo(target);
            }
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // Both sides were exercised, and the rules (not only the route check) refused some.
    expect(allowed).toBeGreaterThan(10);
    expect(refusedByRule).toBeGreaterThan(20);
  }, 120_000);
});

/**
 * The course rules some routes apply after the route's permission check (docs/classroom.md):
 * reading a course's content needs learn access (a participant, or course.edit there), handing
 * in work needs an enrolment in force. Keyed by route; the reason a principal is refused, or null.
 */
type Rule = (p: Principal, roles: RoleRegistry, now: number) => string | null;
const COURSE_RULES: Record<string, Rule> = {
  'GET /api/courses/:courseId/assignments': (p, roles, now) =>
    learns(p, roles, now) ? null : NOT_A_PARTICIPANT,
  'GET /api/assignments/:assignmentId': (p, roles, now) =>
    learns(p, roles, now) ? null : NOT_A_PARTICIPANT,
  'GET /api/assignments/:assignmentId/submissions': (p, roles, now) =>
    learns(p, roles, now) ? null : NOT_A_PARTICIPANT,
  'GET /api/submissions/:submissionId': (p, roles, now) =>
    learns(p, roles, now) ? null : NOT_A_PARTICIPANT,
  'GET /api/courses/:courseId/grades': (p, roles, now) =>
    learns(p, roles, now) ? null : NOT_A_PARTICIPANT,
  'GET /api/assignments/:assignmentId/grades/:userId/history': (p, roles, now) =>
    learns(p, roles, now) ? null : NOT_A_PARTICIPANT,
  'POST /api/assignments/:assignmentId/submissions': (p, roles, now) =>
    courseRoles(p, now).includes('course-student') ? null : ONLY_ENROLLED_SUBMIT,
};

/** The principal's course roles in force in the matrix course. */
function courseRoles(p: Principal, now: number): readonly string[] {
  const held = p.subject?.contextAssignments?.find(
    (a) =>
      a.context.type === 'course' && a.context.courseId === COURSE && isAssignmentInForce(a, now),
  );
  return held?.roles ?? [];
}

/** Learn access in the matrix course: admin, course.edit there, or any course role in force. */
function learns(p: Principal, roles: RoleRegistry, now: number): boolean {
  if (!p.subject) return false;
  if (isAdmin(p.subject) || courseRoles(p, now).length > 0) return true;
  return checkRequirement(
    p.subject,
    { permissions: ['course.edit'], mode: 'all', roles: [] },
    { scope: { type: 'course', courseId: COURSE }, roles, now },
  ).allowed;
}

function afterTheGate(
  key: string,
  principal: Principal,
  gate: ReturnType<typeof expectedOutcome>,
  roles: RoleRegistry,
  now: number,
): ReturnType<typeof expectedOutcome> {
  if (gate.status !== 'allowed') return gate;
  const reason = COURSE_RULES[key]?.(principal, roles, now) ?? null;
  return reason === null ? gate : { status: 403, reason };
}

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
