/**
 * The grant rules: a truth table of who may give what to whom, and fast-check properties — a
 * non-admin never gives a permission they do not hold, and nobody ever changes themselves.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSION_IDS,
  assignContext,
  assignmentGrantDenial,
  assignmentRemoveDenial,
  assignmentReplaceDenial,
  CONTEXT_ROLE_IDS,
  CONTEXT_ROLES,
  currentRoleDenial,
  customRoleDenial,
  effectivePermissions,
  GRANT_DENIAL,
  grantableContextPermissions,
  grantableContextRoles,
  grantablePermissions,
  grantableRoles,
  isAdmin,
  permissionGrantDenial,
  permissionRevokeDenial,
  removeContextAssignment,
  roleChangeDenial,
  roleGrantDenial,
  RoleRegistry,
  sameContext,
  SYSTEM_CONTEXT,
  systemPermissionDenial,
  unheldPermissionDenial,
  unheldRevokeDenial,
  adminTargetDenial,
  type AccessContext,
  type AccessSubject,
  type AssignmentGrant,
  type ContextAssignment,
  type ContextRoleId,
  type PermissionId,
  type Role,
} from '.';

const NOW = Date.parse('2026-11-22T12:00:00.000Z');
const HOUR = 3_600_000;

const custom = (id: string, inherits: string, permissions: PermissionId[]): Role => ({
  id,
  name: id,
  displayName: id,
  description: '',
  permissions,
  inherits,
  context: 'global',
  isSystemRole: false,
  priority: 20,
});
const REGISTRY = new RoleRegistry([
  custom('user-manager', 'student', ['user.view', 'user.manage_roles']),
  custom('wiki-editor', 'student', ['wiki.create', 'wiki.edit']),
  custom('senior-instructor', 'instructor', ['analytics.export']),
  custom('sysop', 'student', ['system.view', 'user.manage_roles']),
]);
const opts = { now: NOW };

const C1: AccessContext = { type: 'course', courseId: 'c1' };
const C2: AccessContext = { type: 'course', courseId: 'c2' };

const assignment = (
  userId: string,
  context: AccessContext,
  roles: ContextRoleId[],
  directPermissions: PermissionId[] = [],
  expiresAt: string | null = null,
): ContextAssignment => ({
  userId,
  context,
  roles,
  directPermissions,
  assignedBy: 'admin',
  assignedAt: new Date(NOW - HOUR).toISOString(),
  expiresAt,
  isActive: true,
});

const manager: AccessSubject = { id: 'm', role: 'user-manager' };
const admin: AccessSubject = { id: 'a', role: 'admin' };
const student = { id: 's', role: 'student' };
const instructor = { id: 'i', role: 'instructor' };
const otherAdmin = { id: 'a2', role: 'admin' };
const superAdmin = { id: 'sa', role: 'student', isSuperAdmin: true };

describe('changing a system role', () => {
  it.each([
    [
      'anyone, their own role',
      manager,
      { id: 'm', role: 'user-manager' },
      'student',
      GRANT_DENIAL.ownRole,
    ],
    [
      'an admin, their own role',
      admin,
      { id: 'a', role: 'admin' },
      'student',
      GRANT_DENIAL.ownRole,
    ],
    [
      'an admin, their own role to admin',
      admin,
      { id: 'a', role: 'admin' },
      'admin',
      GRANT_DENIAL.ownRole,
    ],
    [
      'the exploit: a manager making themselves admin',
      manager,
      { id: 'm', role: 'user-manager' },
      'admin',
      GRANT_DENIAL.ownRole,
    ],
    ['a manager giving the admin role', manager, student, 'admin', GRANT_DENIAL.adminRole],
    ['a manager giving super_admin', manager, student, 'super_admin', GRANT_DENIAL.adminRole],
    ['a manager changing an admin', manager, otherAdmin, 'student', GRANT_DENIAL.adminTarget],
    ['a manager changing a super admin', manager, superAdmin, 'student', GRANT_DENIAL.adminTarget],
    [
      'a manager giving a role with permissions they lack',
      manager,
      student,
      'wiki-editor',
      unheldPermissionDenial(['wiki.create', 'wiki.edit']),
    ],
    [
      'a manager giving a role with a system permission',
      manager,
      student,
      'sysop',
      systemPermissionDenial('system.view'),
    ],
    [
      'a manager demoting a user whose role they could not give',
      manager,
      instructor,
      'student',
      currentRoleDenial(
        'instructor',
        unheldPermissionDenial([
          'course.create',
          'course.edit',
          'course.view_participants',
          'course.manage_participants',
          'assignment.create',
          'assignment.edit',
          'assignment.delete',
          'assignment.grade',
          'assignment.view_submissions',
          'grade.view_all',
          'grade.edit',
          'grade.export',
          'library.upload',
          'library.edit',
          'wiki.create',
          'wiki.edit',
          'analytics.view',
          'nav.instructor',
        ]),
      ),
    ],
    ['a manager giving a role whose permissions they hold', manager, student, 'user-manager', null],
    [
      'a manager giving student (inherited by their role)',
      manager,
      { id: 'x', role: 'user-manager' },
      'student',
      null,
    ],
    ['a manager setting the same role again', manager, student, 'student', null],
    ['a manager choosing the role of an account being created', manager, null, 'student', null],
    ['a manager creating an admin', manager, null, 'admin', GRANT_DENIAL.adminRole],
    ['an admin giving admin', admin, student, 'admin', null],
    ['an admin demoting another admin', admin, otherAdmin, 'student', null],
    ['an admin giving a role with a system permission', admin, instructor, 'sysop', null],
    [
      'a super admin (flag) giving admin',
      { id: 'z', role: 'student', isSuperAdmin: true },
      student,
      'admin',
      null,
    ],
  ] as const)('%s', (_label, actor, target, role, expected) => {
    expect(roleGrantDenial(actor, target, role, REGISTRY, opts)).toBe(expected);
  });

  it('counts direct permissions and system-context assignments as held system-wide', () => {
    const withDirect: AccessSubject = { ...manager, directPermissions: ['wiki.create'] };
    expect(roleGrantDenial(withDirect, student, 'wiki-editor', REGISTRY, opts)).toBe(
      unheldPermissionDenial(['wiki.edit']),
    );
    const withSystem: AccessSubject = {
      ...withDirect,
      contextAssignments: [assignment('m', SYSTEM_CONTEXT, [], ['wiki.edit'])],
    };
    expect(roleGrantDenial(withSystem, student, 'wiki-editor', REGISTRY, opts)).toBeNull();
    // ...but not a course assignment, nor an expired one.
    const inCourse: AccessSubject = {
      ...withDirect,
      contextAssignments: [
        assignment('m', C1, [], ['wiki.edit']),
        assignment('m', SYSTEM_CONTEXT, [], ['wiki.edit'], new Date(NOW - 1).toISOString()),
      ],
    };
    expect(roleGrantDenial(inCourse, student, 'wiki-editor', REGISTRY, opts)).toBe(
      unheldPermissionDenial(['wiki.edit']),
    );
  });

  it('a custom role built on admin is not admin: it can give neither admin nor system.*', () => {
    const registry = new RoleRegistry([custom('almost', 'admin', [])]);
    const almost: AccessSubject = { id: 'al', role: 'almost' };
    expect(roleGrantDenial(almost, student, 'admin', registry, opts)).toBe(GRANT_DENIAL.adminRole);
    expect(roleGrantDenial(almost, student, 'almost', registry, opts)).toBe(
      systemPermissionDenial('system.admin'),
    );
    expect(roleGrantDenial(almost, student, 'instructor', registry, opts)).toBeNull();
  });

  it('says whether a role can be changed at all', () => {
    expect(roleChangeDenial(manager, student, REGISTRY, opts)).toBeNull();
    expect(roleChangeDenial(manager, { id: 'm', role: 'user-manager' }, REGISTRY, opts)).toBe(
      GRANT_DENIAL.ownRole,
    );
    expect(roleChangeDenial(manager, otherAdmin, REGISTRY, opts)).toBe(GRANT_DENIAL.adminTarget);
    expect(roleChangeDenial(manager, { id: 'w', role: 'wiki-editor' }, REGISTRY, opts)).toBe(
      currentRoleDenial('wiki-editor', unheldPermissionDenial(['wiki.create', 'wiki.edit'])),
    );
    expect(roleChangeDenial(admin, otherAdmin, REGISTRY, opts)).toBeNull();
    expect(roleChangeDenial(manager, null, REGISTRY, opts)).toBeNull();
  });

  it('offers only the roles the server would accept', () => {
    expect(grantableRoles(manager, student, REGISTRY, opts)).toEqual(['student', 'user-manager']);
    expect(grantableRoles(manager, otherAdmin, REGISTRY, opts)).toEqual([]);
    expect(grantableRoles(manager, { id: 'm', role: 'user-manager' }, REGISTRY, opts)).toEqual([]);
    expect(grantableRoles(admin, student, REGISTRY, opts)).toEqual(REGISTRY.all().map((r) => r.id));
    expect(grantableRoles(admin, { id: 'a', role: 'admin' }, REGISTRY, opts)).toEqual([]);
  });
});

describe('direct permissions', () => {
  it.each([
    [
      'anyone, to themselves',
      manager,
      { id: 'm', role: 'user-manager' },
      'user.view',
      GRANT_DENIAL.ownPermissions,
    ],
    [
      'an admin, to themselves',
      admin,
      { id: 'a', role: 'admin' },
      'system.admin',
      GRANT_DENIAL.ownPermissions,
    ],
    ['a manager, one they hold', manager, student, 'user.view', null],
    [
      'a manager, one they lack',
      manager,
      student,
      'course.create',
      unheldPermissionDenial(['course.create']),
    ],
    [
      'a manager, a system permission',
      manager,
      student,
      'system.admin',
      systemPermissionDenial('system.admin'),
    ],
    [
      'a sysop, the system permission they hold',
      { id: 'o', role: 'sysop' },
      student,
      'system.view',
      systemPermissionDenial('system.view'),
    ],
    ['a manager, to an admin', manager, otherAdmin, 'user.view', GRANT_DENIAL.adminTarget],
    [
      'a manager, an unknown permission',
      manager,
      student,
      'course.fly',
      unheldPermissionDenial(['course.fly']),
    ],
    ['an admin, a system permission', admin, student, 'system.admin', null],
  ] as const)('granting: %s', (_label, actor, target, permission, expected) => {
    expect(permissionGrantDenial(actor, target, permission, REGISTRY, opts)).toBe(expected);
  });

  it('taking away follows the same rule', () => {
    expect(permissionRevokeDenial(manager, student, 'user.view', REGISTRY, opts)).toBeNull();
    expect(permissionRevokeDenial(manager, student, 'grade.export', REGISTRY, opts)).toBe(
      unheldRevokeDenial(['grade.export']),
    );
    expect(permissionRevokeDenial(manager, manager, 'user.view', REGISTRY, opts)).toBe(
      GRANT_DENIAL.ownPermissions,
    );
    expect(permissionRevokeDenial(manager, otherAdmin, 'user.view', REGISTRY, opts)).toBe(
      GRANT_DENIAL.adminTarget,
    );
    expect(permissionRevokeDenial(admin, student, 'grade.export', REGISTRY, opts)).toBeNull();
  });

  it('offers only the permissions the server would accept', () => {
    expect(grantablePermissions(manager, student, ALL_PERMISSION_IDS, REGISTRY, opts)).toEqual(
      [...REGISTRY.permissionsOf('user-manager')].sort(
        (a, b) => ALL_PERMISSION_IDS.indexOf(a) - ALL_PERMISSION_IDS.indexOf(b),
      ),
    );
    expect(grantablePermissions(admin, student, ALL_PERMISSION_IDS, REGISTRY, opts)).toEqual([
      ...ALL_PERMISSION_IDS,
    ]);
    expect(grantablePermissions(admin, admin, ALL_PERMISSION_IDS, REGISTRY, opts)).toEqual([]);
  });
});

describe('context assignments', () => {
  const teacher: AccessSubject = {
    id: 't',
    role: 'user-manager',
    contextAssignments: [assignment('t', C1, ['course-instructor'])],
  };
  const grant = (
    context: AccessContext,
    roles: string[],
    directPermissions: string[] = [],
  ): AssignmentGrant => ({ context, roles, directPermissions });

  it.each([
    [
      'anyone, to themselves',
      teacher,
      { id: 't', role: 'user-manager' },
      grant(C1, ['course-assistant']),
      GRANT_DENIAL.ownAssignments,
    ],
    [
      'an admin, to themselves',
      admin,
      { id: 'a', role: 'admin' },
      grant(C1, ['course-assistant']),
      GRANT_DENIAL.ownAssignments,
    ],
    [
      'a course instructor, a lesser role in their course',
      teacher,
      student,
      grant(C1, ['course-assistant']),
      null,
    ],
    [
      'a course instructor, their own role in their course',
      teacher,
      student,
      grant(C1, ['course-instructor']),
      null,
    ],
    [
      'a course instructor, a role in another course',
      teacher,
      student,
      grant(C2, ['course-assistant']),
      `${unheldPermissionDenial(['course.view_participants', 'assignment.view_submissions', 'assignment.grade', 'grade.view_all'])} (in course c2)`,
    ],
    [
      'a course instructor, a permission they lack there',
      teacher,
      student,
      grant(C1, [], ['assignment.delete']),
      `${unheldPermissionDenial(['assignment.delete'])} (in course c1)`,
    ],
    [
      'a manager, what their system role holds, in any course',
      manager,
      student,
      grant(C2, [], ['user.view']),
      null,
    ],
    [
      'a manager, a system permission in a course',
      manager,
      student,
      grant(C1, [], ['system.view']),
      `${systemPermissionDenial('system.view')} (in course c1)`,
    ],
    [
      'a manager, an unknown context role',
      manager,
      student,
      grant(C1, ['course-owner']),
      'Invalid context role: course-owner',
    ],
    [
      'a manager, to an admin',
      teacher,
      otherAdmin,
      grant(C1, ['course-assistant']),
      GRANT_DENIAL.adminTarget,
    ],
    [
      'an admin, anything',
      admin,
      student,
      grant(C2, ['course-instructor'], ['system.settings']),
      null,
    ],
  ] as const)('giving: %s', (_label, actor, target, g, expected) => {
    expect(assignmentGrantDenial(actor, target, g, REGISTRY, opts)).toBe(expected);
  });

  it('a parent-context (system) assignment counts in every course', () => {
    const sys: AccessSubject = {
      id: 'y',
      role: 'student',
      contextAssignments: [assignment('y', SYSTEM_CONTEXT, ['course-assistant'])],
    };
    expect(
      assignmentGrantDenial(sys, student, grant(C2, ['course-assistant']), REGISTRY, opts),
    ).toBeNull();
  });

  it('taking away and replacing need the old assignment to be one the actor could give', () => {
    const held = grant(C1, ['course-assistant']);
    const foreign = grant(C2, ['course-assistant']);
    expect(assignmentRemoveDenial(teacher, student, held, REGISTRY, opts)).toBeNull();
    expect(assignmentRemoveDenial(teacher, student, foreign, REGISTRY, opts)).toBe(
      `${unheldRevokeDenial(['course.view_participants', 'assignment.view_submissions', 'assignment.grade', 'grade.view_all'])} (in course c2)`,
    );
    const richer = grant(C1, [], ['assignment.delete']);
    expect(assignmentReplaceDenial(teacher, student, richer, held, REGISTRY, opts)).toBe(
      `${unheldRevokeDenial(['assignment.delete'])} (in course c1)`,
    );
    expect(assignmentReplaceDenial(teacher, student, null, held, REGISTRY, opts)).toBeNull();
    expect(
      assignmentReplaceDenial(
        teacher,
        student,
        held,
        grant(C1, ['course-instructor']),
        REGISTRY,
        opts,
      ),
    ).toBeNull();
  });

  it('offers only the context roles and permissions the server would accept', () => {
    // Course student from their system role (built on student), the others from course c1.
    expect(grantableContextRoles(teacher, student, C1, CONTEXT_ROLE_IDS, REGISTRY, opts)).toEqual([
      'course-instructor',
      'course-assistant',
      'course-student',
    ]);
    expect(grantableContextRoles(teacher, student, C2, CONTEXT_ROLE_IDS, REGISTRY, opts)).toEqual([
      'course-student',
    ]);
    expect(
      grantableContextPermissions(
        teacher,
        student,
        C1,
        ['grade.edit', 'grade.export', 'system.view'],
        REGISTRY,
        opts,
      ),
    ).toEqual(['grade.edit']);
    expect(grantableContextRoles(admin, student, C2, CONTEXT_ROLE_IDS, REGISTRY, opts)).toEqual([
      ...CONTEXT_ROLE_IDS,
    ]);
  });
});

describe('only admins change admins', () => {
  it('refuses a non-admin on an admin or super admin, and nobody else', () => {
    expect(adminTargetDenial(manager, otherAdmin)).toBe(GRANT_DENIAL.adminTarget);
    expect(adminTargetDenial(manager, superAdmin)).toBe(GRANT_DENIAL.adminTarget);
    expect(adminTargetDenial(manager, { id: 'x', role: 'super_admin' })).toBe(
      GRANT_DENIAL.adminTarget,
    );
    expect(adminTargetDenial(manager, student)).toBeNull();
    expect(adminTargetDenial(manager, null)).toBeNull();
    expect(adminTargetDenial(admin, otherAdmin)).toBeNull();
  });
});

describe('custom roles', () => {
  const def = (id: string, inherits: string | null, permissions: string[]) => ({
    id,
    inherits,
    permissions,
  });
  const userManager = def('user-manager', 'student', ['user.view', 'user.manage_roles']);

  it.each([
    [
      'a manager adding a system permission to their own role',
      manager,
      userManager,
      def('user-manager', 'student', ['system.admin']),
      GRANT_DENIAL.ownRole,
    ],
    ['a manager deleting their own role', manager, userManager, null, GRANT_DENIAL.ownRole],
    [
      'a manager editing a role their role inherits from',
      { id: 'q', role: 'senior-instructor' },
      def('instructor', 'student', []),
      def('instructor', 'student', ['system.admin']),
      GRANT_DENIAL.ownRole,
    ],
    [
      'a manager creating a role with permissions they hold',
      manager,
      null,
      def('helper', 'student', ['user.view']),
      null,
    ],
    [
      'a manager creating a role with a system permission',
      manager,
      null,
      def('helper', 'student', ['system.view']),
      systemPermissionDenial('system.view'),
    ],
    [
      'a manager creating a role on instructor',
      manager,
      null,
      def('helper', 'instructor', []),
      unheldPermissionDenial(
        REGISTRY.permissionsOf('instructor').filter(
          (p) => !REGISTRY.permissionsOf('user-manager').includes(p),
        ),
      ),
    ],
    [
      'a manager creating a role on admin',
      manager,
      null,
      def('helper', 'admin', []),
      GRANT_DENIAL.adminRole,
    ],
    [
      'a manager editing a role with permissions they lack',
      manager,
      def('wiki-editor', 'student', ['wiki.create', 'wiki.edit']),
      def('wiki-editor', 'student', []),
      currentRoleDenial('wiki-editor', unheldPermissionDenial(['wiki.create', 'wiki.edit'])),
    ],
    [
      'a manager deleting a role with a system permission',
      manager,
      def('sysop', 'student', ['system.view']),
      null,
      currentRoleDenial('sysop', systemPermissionDenial('system.view')),
    ],
    [
      'an admin adding a system permission to any role',
      admin,
      userManager,
      def('user-manager', 'student', ['system.admin']),
      null,
    ],
  ] as const)('%s', (_label, actor, before, after, expected) => {
    expect(customRoleDenial(actor, before, after, REGISTRY, opts)).toBe(expected);
  });
});

// ------------------------------------------------------------------------------ properties

const ROLE_IDS = REGISTRY.all()
  .map((r) => r.id)
  .concat('super_admin');
const contexts: AccessContext[] = [
  SYSTEM_CONTEXT,
  C1,
  C2,
  { type: 'department', departmentId: 'd1' },
  { type: 'user', userId: 'u3' },
];
const context = fc.constantFrom(...contexts);
const permission = fc.constantFrom(...ALL_PERMISSION_IDS);
const USER_IDS = ['u0', 'u1', 'u2', 'u3'];

const assignmentOf = (userId: string): fc.Arbitrary<ContextAssignment> =>
  fc.record({
    userId: fc.constant(userId),
    context,
    roles: fc.subarray([...CONTEXT_ROLE_IDS]),
    directPermissions: fc.subarray([...ALL_PERMISSION_IDS], { maxLength: 4 }),
    assignedBy: fc.constant('admin'),
    assignedAt: fc.constant(new Date(NOW - 10 * HOUR).toISOString()),
    expiresAt: fc.constantFrom(
      null,
      new Date(NOW - HOUR).toISOString(),
      new Date(NOW + HOUR).toISOString(),
    ),
    isActive: fc.boolean(),
  });
const subjectOf = (id: string): fc.Arbitrary<AccessSubject> =>
  fc.record({
    id: fc.constant(id),
    role: fc.constantFrom(...ROLE_IDS),
    isSuperAdmin: fc.constantFrom(false, false, false, true),
    directPermissions: fc.subarray([...ALL_PERMISSION_IDS], { maxLength: 4 }),
    contextAssignments: fc.array(assignmentOf(id), { maxLength: 4 }),
  });
const grantArb: fc.Arbitrary<AssignmentGrant> = fc.record({
  context,
  roles: fc.subarray([...CONTEXT_ROLE_IDS]),
  directPermissions: fc.subarray([...ALL_PERMISSION_IDS], { maxLength: 4 }),
});

const conveyed = (g: AssignmentGrant) => [
  ...g.roles.flatMap((r) => CONTEXT_ROLES[r as ContextRoleId]?.permissions ?? []),
  ...g.directPermissions,
];

type Op =
  | { kind: 'role'; role: string }
  | { kind: 'grant' | 'revoke'; permission: PermissionId }
  | { kind: 'assign'; grant: AssignmentGrant }
  | { kind: 'remove'; context: AccessContext };
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.constantFrom(...ROLE_IDS).map((role) => ({ kind: 'role' as const, role })),
  permission.map((p) => ({ kind: 'grant' as const, permission: p })),
  permission.map((p) => ({ kind: 'revoke' as const, permission: p })),
  grantArb.map((g) => ({ kind: 'assign' as const, grant: g })),
  context.map((c) => ({ kind: 'remove' as const, context: c })),
);

/** The denial for `op` by `actor` on `target`, and the target after it when allowed. */
function apply(actor: AccessSubject, target: AccessSubject, o: Op): [string | null, AccessSubject] {
  switch (o.kind) {
    case 'role':
      return [roleGrantDenial(actor, target, o.role, REGISTRY, opts), { ...target, role: o.role }];
    case 'grant':
      return [
        permissionGrantDenial(actor, target, o.permission, REGISTRY, opts),
        { ...target, directPermissions: [...(target.directPermissions ?? []), o.permission] },
      ];
    case 'revoke':
      return [
        permissionRevokeDenial(actor, target, o.permission, REGISTRY, opts),
        {
          ...target,
          directPermissions: (target.directPermissions ?? []).filter((p) => p !== o.permission),
        },
      ];
    case 'assign': {
      const previous =
        (target.contextAssignments ?? []).find((a) => sameContext(a.context, o.grant.context)) ??
        null;
      return [
        assignmentReplaceDenial(actor, target, previous, o.grant, REGISTRY, opts),
        {
          ...target,
          contextAssignments: assignContext(target.contextAssignments ?? [], {
            ...assignment(target.id, o.grant.context, [...o.grant.roles] as ContextRoleId[]),
            directPermissions: o.grant.directPermissions as PermissionId[],
          }),
        },
      ];
    }
    case 'remove': {
      const previous = (target.contextAssignments ?? []).find((a) =>
        sameContext(a.context, o.context),
      );
      const removed = previous ?? { context: o.context, roles: [], directPermissions: [] };
      return [
        assignmentRemoveDenial(actor, target, removed, REGISTRY, opts),
        {
          ...target,
          contextAssignments: removeContextAssignment(
            target.contextAssignments ?? [],
            target.id,
            o.context,
          ),
        },
      ];
    }
  }
}

describe('properties', () => {
  it('whatever a non-admin may give, they hold in that context, never admin nor system.*', () => {
    fc.assert(
      fc.property(
        subjectOf('u0'),
        subjectOf('u1'),
        fc.constantFrom(...ROLE_IDS),
        permission,
        grantArb,
        (actor, target, role, p, g) => {
          if (isAdmin(actor)) return;
          const system = effectivePermissions(actor, { roles: REGISTRY, now: NOW });
          if (roleGrantDenial(actor, target, role, REGISTRY, opts) === null) {
            expect(isAdmin({ role })).toBe(false);
            expect(isAdmin(target)).toBe(false);
            for (const q of REGISTRY.permissionsOf(role)) {
              expect(q.startsWith('system.')).toBe(false);
              expect(system.has(q)).toBe(true);
            }
          }
          if (permissionGrantDenial(actor, target, p, REGISTRY, opts) === null) {
            expect(p.startsWith('system.')).toBe(false);
            expect(system.has(p)).toBe(true);
          }
          if (assignmentGrantDenial(actor, target, g, REGISTRY, opts) === null) {
            const there = effectivePermissions(actor, {
              roles: REGISTRY,
              now: NOW,
              scope: g.context,
            });
            for (const q of conveyed(g)) {
              expect(q.startsWith('system.')).toBe(false);
              expect(there.has(q as PermissionId)).toBe(true);
            }
          }
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('through any sequence of changes by non-admins, nobody gains what no non-admin held', () => {
    const population = fc.tuple(...USER_IDS.map(subjectOf));
    const step = fc.record({
      actor: fc.nat({ max: USER_IDS.length - 1 }),
      target: fc.nat({ max: USER_IDS.length - 1 }),
      op,
    });
    fc.assert(
      fc.property(population, fc.array(step, { maxLength: 25 }), (initial, steps) => {
        const users = [...initial];
        const heldAt = (c: AccessContext, list: AccessSubject[]) =>
          list.map((u) => effectivePermissions(u, { roles: REGISTRY, now: NOW, scope: c }));
        // What non-admins held to begin with, per context (system.* never passes on).
        const pool = new Map(
          contexts.map((c) => {
            const set = new Set<string>();
            initial.forEach((u) => {
              if (!isAdmin(u))
                for (const q of effectivePermissions(u, { roles: REGISTRY, now: NOW, scope: c }))
                  set.add(q);
            });
            return [c, set] as const;
          }),
        );
        const before = new Map(contexts.map((c) => [c, heldAt(c, initial)] as const));
        for (const s of steps) {
          const actor = users[s.actor]!;
          const [denial, after] = apply(actor, users[s.target]!, s.op);
          if (s.actor === s.target) {
            expect(denial).not.toBeNull();
            continue;
          }
          if (denial === null && !isAdmin(actor)) users[s.target] = after;
        }
        users.forEach((u, i) => expect(isAdmin(u)).toBe(isAdmin(initial[i]!)));
        for (const c of contexts) {
          const now = heldAt(c, users);
          now.forEach((set, i) => {
            for (const q of set) {
              if (before.get(c)![i]!.has(q)) continue;
              expect(q.startsWith('system.')).toBe(false);
              expect(pool.get(c)!.has(q)).toBe(true);
            }
          });
        }
      }),
      { numRuns: 400 },
    );
  });

  it('a custom role a non-admin may define gives only what they hold, and is not their own', () => {
    const definition = fc.record({
      id: fc.constantFrom('user-manager', 'wiki-editor', 'senior-instructor', 'sysop', 'fresh'),
      inherits: fc.constantFrom(null, 'student', 'instructor', 'user-manager', 'wiki-editor'),
      permissions: fc.subarray([...ALL_PERMISSION_IDS], { maxLength: 4 }),
    });
    fc.assert(
      fc.property(subjectOf('u0'), definition, (actor, after) => {
        if (isAdmin(actor)) return;
        const before = REGISTRY.get(after.id) ?? null;
        if (customRoleDenial(actor, before, after, REGISTRY, opts) !== null) return;
        expect(REGISTRY.holds(actor.role, after.id)).toBe(false);
        const held = effectivePermissions(actor, { roles: REGISTRY, now: NOW });
        const gives = [
          ...(before ? REGISTRY.permissionsOf(before.id) : []),
          ...(after.inherits ? REGISTRY.permissionsOf(after.inherits) : []),
          ...after.permissions,
        ];
        for (const q of gives) {
          expect(q.startsWith('system.')).toBe(false);
          expect(held.has(q)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('nobody, admins included, changes themselves in any way', () => {
    fc.assert(
      fc.property(subjectOf('u0'), op, (actor, o) => {
        const [denial] = apply(actor, actor, o);
        expect(denial).not.toBeNull();
      }),
      { numRuns: 1000 },
    );
  });
});
