import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ALL_PERMISSION_IDS,
  AuditRing,
  CONTEXT_ROLES,
  checkAllPermissions,
  checkAnyPermission,
  checkPermission,
  checkRequirement,
  checkRole,
  effectivePermissions,
  getRolePermissions,
  isAdmin,
  isPermissionId,
  ownDepartmentAssignment,
  PERMISSIONS,
  SYSTEM_ROLE_IDS,
  type AccessSubject,
  type ContextAssignment,
  type PermissionId,
} from '.';

const STUDENT: PermissionId[] = [
  'user.view_profile',
  'user.edit_profile',
  'course.view',
  'course.enroll',
  'course.unenroll',
  'assignment.view',
  'assignment.submit',
  'grade.view_own',
  'library.view',
  'wiki.view',
  'nav.student',
];
const INSTRUCTOR_ONLY: PermissionId[] = [
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
];
const EXPECTED: Record<string, ReadonlySet<string>> = {
  student: new Set(STUDENT),
  instructor: new Set([...STUDENT, ...INSTRUCTOR_ONLY]),
  admin: new Set(ALL_PERMISSION_IDS),
};

const subject = (role: string, extra: Partial<AccessSubject> = {}): AccessSubject => ({
  id: `u-${role}`,
  role,
  ...extra,
});

afterEach(() => vi.restoreAllMocks());

describe('permission catalogue (spec §6)', () => {
  it('holds exactly the permissions of the spec, as resource.action', () => {
    expect(ALL_PERMISSION_IDS).toEqual([
      'system.admin',
      'system.view',
      'system.settings',
      'user.view',
      'user.create',
      'user.edit',
      'user.delete',
      'user.manage_roles',
      'user.view_profile',
      'user.edit_profile',
      'course.view',
      'course.create',
      'course.edit',
      'course.delete',
      'course.enroll',
      'course.unenroll',
      'course.view_participants',
      'course.manage_participants',
      'assignment.view',
      'assignment.create',
      'assignment.edit',
      'assignment.delete',
      'assignment.submit',
      'assignment.grade',
      'assignment.view_submissions',
      'grade.view_own',
      'grade.view_all',
      'grade.edit',
      'grade.export',
      'library.view',
      'library.upload',
      'library.edit',
      'library.delete',
      'library.manage',
      'wiki.view',
      'wiki.create',
      'wiki.edit',
      'wiki.delete',
      'wiki.manage',
      'analytics.view',
      'analytics.export',
      'analytics.manage',
      'department.view',
      'department.manage',
      'nav.admin',
      'nav.instructor',
      'nav.student',
    ]);
  });

  it('describes each permission with the fields of the Permission entity', () => {
    for (const p of PERMISSIONS) {
      expect(p.id).toBe(`${p.resource}.${p.action}`);
      expect(p.name.length).toBeGreaterThan(0);
      expect(p.description.length).toBeGreaterThan(0);
    }
  });

  it('rejects unknown permission ids as invalid', () => {
    expect(isPermissionId('course.view')).toBe(true);
    for (const bad of ['course.fly', 'course', '', 'COURSE.VIEW', 'nav.*', 42, null]) {
      expect(isPermissionId(bad)).toBe(false);
    }
  });
});

describe('system roles (spec §6)', () => {
  it('inherit student ⊂ instructor ⊂ admin with exactly the listed permissions', () => {
    for (const role of SYSTEM_ROLE_IDS) {
      expect(new Set(getRolePermissions(role))).toEqual(EXPECTED[role]);
      expect(getRolePermissions(role)).toHaveLength(EXPECTED[role]?.size ?? -1);
    }
  });

  it('treats super_admin as admin', () => {
    expect(new Set(getRolePermissions('super_admin'))).toEqual(EXPECTED.admin);
    expect(isAdmin({ role: 'super_admin' })).toBe(true);
    expect(isAdmin({ role: 'admin' })).toBe(true);
    expect(isAdmin({ role: 'instructor' })).toBe(false);
    expect(isAdmin({ role: 'student', isSuperAdmin: true })).toBe(true);
  });

  it('gives an unknown role an empty permission list with a console warning', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    expect(getRolePermissions('janitor')).toEqual([]);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('Unknown role "janitor"'));
  });
});

describe('truth table: every system role × every permission', () => {
  for (const role of [...SYSTEM_ROLE_IDS, 'super_admin']) {
    for (const permission of ALL_PERMISSION_IDS) {
      const expected = role === 'super_admin' || (EXPECTED[role]?.has(permission) ?? false);
      it(`${role} ${expected ? 'holds' : 'lacks'} ${permission}`, () => {
        const decision = checkPermission(subject(role), permission);
        expect(decision).toEqual(
          expected
            ? { allowed: true }
            : { allowed: false, reason: `Missing required permission: ${permission}` },
        );
      });
    }
  }

  it('denies everything to an unknown role', () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    for (const p of ALL_PERMISSION_IDS)
      expect(checkPermission(subject('ghost'), p).allowed).toBe(false);
  });
});

describe('denial reasons (spec §6, word for word)', () => {
  it('Invalid permission: X — for everyone, admin included', () => {
    expect(checkPermission(subject('admin'), 'course.fly')).toEqual({
      allowed: false,
      reason: 'Invalid permission: course.fly',
    });
    expect(checkAllPermissions(subject('student'), ['course.view', 'bogus'])).toEqual({
      allowed: false,
      reason: 'Invalid permission: bogus',
    });
    expect(checkAnyPermission(subject('student'), ['nope', 'course.view'])).toEqual({
      allowed: false,
      reason: 'Invalid permission: nope',
    });
  });

  it('Missing required permissions: lists the missing ones', () => {
    expect(
      checkAllPermissions(subject('student'), ['course.view', 'course.create', 'wiki.create']),
    ).toEqual({
      allowed: false,
      reason: 'Missing required permissions: course.create, wiki.create',
    });
    expect(checkAllPermissions(subject('instructor'), ['course.view', 'course.create'])).toEqual({
      allowed: true,
    });
  });

  it('Missing any of required permissions: lists the required ones', () => {
    expect(checkAnyPermission(subject('student'), ['course.create', 'library.upload'])).toEqual({
      allowed: false,
      reason: 'Missing any of required permissions: course.create, library.upload',
    });
    expect(checkAnyPermission(subject('student'), ['course.create', 'course.view'])).toEqual({
      allowed: true,
    });
  });

  it('Required role: A or B, but user has role: R — admin always passes', () => {
    expect(checkRole(subject('student'), ['instructor', 'admin'])).toEqual({
      allowed: false,
      reason: 'Required role: instructor or admin, but user has role: student',
    });
    expect(checkRole(subject('instructor'), ['instructor'])).toEqual({ allowed: true });
    expect(checkRole(subject('admin'), ['instructor'])).toEqual({ allowed: true });
    expect(checkRole(subject('super_admin'), ['student'])).toEqual({ allowed: true });
  });

  it('checks a requirement: permissions first, then roles', () => {
    const req = { permissions: ['system.admin'] as PermissionId[], roles: ['admin'] };
    expect(checkRequirement(subject('instructor'), req)).toEqual({
      allowed: false,
      reason: 'Missing required permission: system.admin',
    });
    const custom = subject('instructor', { directPermissions: ['system.admin'] });
    expect(checkRequirement(custom, req)).toEqual({
      allowed: false,
      reason: 'Required role: admin, but user has role: instructor',
    });
    expect(checkRequirement(subject('admin'), req)).toEqual({ allowed: true });
  });
});

describe('context roles and assignments (spec §3, §4, §6)', () => {
  it('defines the five context roles with exactly their permissions', () => {
    expect(
      Object.fromEntries(
        Object.values(CONTEXT_ROLES).map((r) => [r.id, [...r.permissions].sort()]),
      ),
    ).toEqual({
      'course-instructor': [
        'assignment.create',
        'assignment.edit',
        'assignment.grade',
        'assignment.view_submissions',
        'course.edit',
        'course.manage_participants',
        'course.view_participants',
        'grade.edit',
        'grade.view_all',
      ],
      'course-assistant': [
        'assignment.grade',
        'assignment.view_submissions',
        'course.view_participants',
        'grade.view_all',
      ],
      'course-student': ['assignment.submit', 'assignment.view', 'course.view', 'grade.view_own'],
      'department-manager': [
        'analytics.view',
        'course.create',
        'department.manage',
        'user.edit',
        'user.view',
      ],
      'department-member': ['course.view', 'department.view', 'library.view'],
    });
  });

  const member = (
    departmentId: string,
    extra: Partial<ContextAssignment> = {},
  ): ContextAssignment => ({
    ...ownDepartmentAssignment('u1', departmentId, '2026-01-01T00:00:00.000Z'),
    ...extra,
  });

  it('grants a department member department.view in that department and in "any", not elsewhere', () => {
    const s = subject('student', { contextAssignments: [member('field-ops')] });
    const dept = (id: string) => ({ type: 'department', departmentId: id }) as const;
    expect(checkPermission(s, 'department.view', { scope: dept('field-ops') }).allowed).toBe(true);
    expect(checkPermission(s, 'department.view', { scope: 'any' }).allowed).toBe(true);
    expect(checkPermission(s, 'department.view', { scope: dept('support') })).toEqual({
      allowed: false,
      reason: 'Missing required permission: department.view',
    });
    expect(checkPermission(s, 'department.view').allowed).toBe(false);
  });

  it('ignores an assignment past its expiry, judged at the moment of the check', () => {
    const s = subject('student', {
      contextAssignments: [member('field-ops', { expiresAt: '2026-06-01T00:00:00.000Z' })],
    });
    const scope = { type: 'department', departmentId: 'field-ops' } as const;
    expect(
      checkPermission(s, 'department.view', { scope, now: Date.parse('2026-05-31T23:59:59.999Z') })
        .allowed,
    ).toBe(true);
    expect(
      checkPermission(s, 'department.view', { scope, now: Date.parse('2026-06-01T00:00:00.000Z') })
        .allowed,
    ).toBe(false);
  });

  it('ignores an inactive assignment', () => {
    const s = subject('student', { contextAssignments: [member('x', { isActive: false })] });
    expect(checkPermission(s, 'department.view', { scope: 'any' }).allowed).toBe(false);
  });

  it('lets a context inherit from the system context, without duplicates', () => {
    const s = subject('student', {
      contextAssignments: [
        {
          ...member('x'),
          context: { type: 'system' },
          roles: [],
          directPermissions: ['wiki.create', 'course.view'],
        },
      ],
    });
    const inCourse = effectivePermissions(s, { scope: { type: 'course', courseId: 'c1' } });
    expect(inCourse.has('wiki.create')).toBe(true);
    expect([...inCourse].filter((p) => p === 'course.view')).toHaveLength(1);
  });
});

describe('audit ring (spec §6, §9)', () => {
  const entry = (userId: string, i: number) => ({
    userId,
    permission: 'course.view',
    context: 'system',
    timestamp: new Date(i).toISOString(),
    result: i % 2 === 0,
    reason: i % 2 === 0 ? null : 'Missing required permission: course.view',
  });

  it('keeps the last 1000 checks, newest first, with the entry fields of spec §3', () => {
    const ring = new AuditRing();
    for (let i = 0; i < 1500; i++) ring.record(entry(i % 3 === 0 ? 'a' : 'b', i));
    expect(ring.size).toBe(1000);
    const all = ring.list({ limit: 1000 });
    expect(all).toHaveLength(1000);
    expect(all[0]?.timestamp).toBe(new Date(1499).toISOString());
    expect(all[999]?.timestamp).toBe(new Date(500).toISOString());
    expect(all[0]).toMatchObject({
      action: 'checked',
      permission: 'course.view',
      context: 'system',
    });
    expect(new Set(all.map((e) => e.id)).size).toBe(1000);
  });

  it('defaults to 50 entries for a user view and 100 for the all-logs view', () => {
    const ring = new AuditRing();
    for (let i = 0; i < 300; i++) ring.record(entry(i % 2 ? 'a' : 'b', i));
    expect(ring.list()).toHaveLength(100);
    const mine = ring.list({ userId: 'a' });
    expect(mine).toHaveLength(50);
    expect(mine.every((e) => e.userId === 'a')).toBe(true);
  });
});
