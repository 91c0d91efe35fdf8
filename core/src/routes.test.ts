import { describe, expect, it } from 'vitest';
import {
  canSeeNavItem,
  checkRoute,
  isPermissionId,
  NAV_ITEMS,
  ownDepartmentAssignment,
  permissionsNamedByRoutes,
  ROUTES,
  SYSTEM_ROLE_IDS,
  type AccessSubject,
  type SystemRoleId,
} from '.';

const userOf = (role: SystemRoleId, department = 'customer-support'): AccessSubject => ({
  id: `u-${role}`,
  role,
  contextAssignments: [
    ownDepartmentAssignment(`u-${role}`, department, '2026-01-01T00:00:00.000Z'),
  ],
});

describe('route table (spec §2)', () => {
  it('registers every route the spec lists', () => {
    const paths = ROUTES.map((r) => r.path);
    for (const p of [
      '/login',
      '/',
      '/departments',
      '/departments/:deptName',
      '/library',
      '/classroom',
      '/dashboard',
      '/wiki',
      '/wiki/create',
      '/wiki-creator',
      '/course/create',
      '/course-creator',
      '/admin',
      '/admin-test',
      '/wiki-test',
      '/rich-text-diagnostics',
      '/test-suite',
      '/notification-demo',
      '/announcement-manager',
      '/auth-test',
      '/image-test',
      '/media-test',
      '/profile-settings',
      '/settings',
      '/instructor-settings',
    ]) {
      expect(paths).toContain(p);
    }
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('names only permissions of the catalogue', () => {
    for (const p of permissionsNamedByRoutes()) expect(isPermissionId(p)).toBe(true);
  });

  // The expected outcome per role, straight from the spec's table.
  const EXPECT: Record<string, [student: boolean, instructor: boolean, admin: boolean]> = {
    '/': [true, true, true],
    '/departments': [true, true, true],
    '/library': [true, true, true],
    '/classroom': [true, true, true],
    '/learning-management': [true, true, true],
    '/dashboard': [true, true, true],
    '/wiki': [true, true, true],
    '/wiki/create': [false, true, true],
    '/wiki-creator': [false, true, true],
    '/course/create': [false, true, true],
    '/course-creator': [false, true, true],
    '/admin': [false, false, true],
    '/admin-test': [false, false, true],
    '/auth-test': [false, false, true],
    '/media-test': [false, false, true],
    '/profile-settings': [true, true, true],
    '/settings': [true, true, true],
    '/instructor-settings': [false, true, true],
  };

  for (const [path, outcomes] of Object.entries(EXPECT)) {
    it(`${path}: student ${outcomes[0]}, instructor ${outcomes[1]}, admin ${outcomes[2]}`, () => {
      const route = ROUTES.find((r) => r.path === path);
      expect(route).toBeDefined();
      SYSTEM_ROLE_IDS.forEach((role, i) => {
        expect(checkRoute(userOf(role), route!).allowed).toBe(outcomes[i]);
      });
    });
  }

  it('gives exact reasons for denied routes', () => {
    const find = (p: string) => ROUTES.find((r) => r.path === p)!;
    expect(checkRoute(userOf('student'), find('/wiki/create'))).toEqual({
      allowed: false,
      reason: 'Missing required permission: wiki.create',
    });
    expect(checkRoute(userOf('student'), find('/instructor-settings'))).toEqual({
      allowed: false,
      reason: 'Missing any of required permissions: course.create, library.upload',
    });
    expect(checkRoute(userOf('instructor'), find('/admin'))).toEqual({
      allowed: false,
      reason: 'Missing required permission: system.admin',
    });
  });

  it('checks /departments/:deptName in that department', () => {
    const route = ROUTES.find((r) => r.path === '/departments/:deptName')!;
    const student = userOf('student', 'field-operations');
    expect(checkRoute(student, route, { deptName: 'field-operations' }).allowed).toBe(true);
    expect(checkRoute(student, route, { deptName: 'network-engineering' }).allowed).toBe(false);
    expect(checkRoute(userOf('admin'), route, { deptName: 'network-engineering' }).allowed).toBe(
      true,
    );
  });

  it('denies a user with no department the departments pages', () => {
    const loner: AccessSubject = { id: 'x', role: 'student' };
    expect(
      checkRoute(
        loner,
        ROUTES.find((r) => r.path === '/departments')!,
      ).allowed,
    ).toBe(false);
  });
});

describe('navigation table (spec §2)', () => {
  it('has the spec items in order', () => {
    expect(NAV_ITEMS.map((i) => [i.label, i.path])).toEqual([
      ['Home', '/'],
      ['Departments', '/departments'],
      ['Courses', '/classroom'],
      ['Learning Management', '/learning-management'],
      ['Library', '/library'],
      ['Admin Settings', '/admin'],
      ['Instructor Settings', '/instructor-settings'],
      ['Settings', '/settings'],
    ]);
  });

  for (const role of SYSTEM_ROLE_IDS) {
    it(`shows ${role} exactly the items the spec lists for the role, through nav.* permissions`, () => {
      const seen = NAV_ITEMS.filter((i) => canSeeNavItem(userOf(role), i)).map((i) => i.label);
      const expected = NAV_ITEMS.filter(
        (i) => i.visibleTo === 'everyone' || i.visibleTo.includes(role),
      ).map((i) => i.label);
      expect(seen).toEqual(expected);
    });
  }

  it('shows the everyone items when signed out', () => {
    expect(NAV_ITEMS.filter((i) => canSeeNavItem(null, i)).map((i) => i.label)).toEqual([
      'Home',
      'Departments',
    ]);
  });
});
