import fc from 'fast-check';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  ALL_PERMISSION_IDS,
  canSeeNavItem,
  checkRoute,
  CONTEXT_ROLE_IDS,
  findRoute,
  isPermissionId,
  matchRoute,
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

describe('matchRoute', () => {
  it('matches paths of the table with their decoded parameters', () => {
    expect(matchRoute('/departments/field-operations')).toEqual({
      route: findRoute('/departments/:deptName'),
      params: { deptName: 'field-operations' },
    });
    expect(matchRoute('/departments/caf%C3%A9%2Fbar?tab=1#top')?.params).toEqual({
      deptName: 'café/bar',
    });
    expect(matchRoute('/wiki/create/')?.route.path).toBe('/wiki/create');
    expect(matchRoute('/')?.route.path).toBe('/');
    expect(matchRoute('/%61dmin')?.route.path).toBe('/admin');
    expect(matchRoute('/departments/')?.route.path).toBe('/departments');
    expect(matchRoute('/no-such-page')).toBeNull();
    expect(matchRoute('/departments/a/b')).toBeNull();
  });

  it('takes a segment with malformed percent-encoding as written instead of throwing', () => {
    expect(matchRoute('/departments/%')).toEqual({
      route: findRoute('/departments/:deptName'),
      params: { deptName: '%' },
    });
    expect(matchRoute('/departments/%E0%A4%A')?.params).toEqual({ deptName: '%E0%A4%A' });
    expect(matchRoute('/departments/%zz%')?.params).toEqual({ deptName: '%zz%' });
    expect(matchRoute('/%')).toBeNull();
    expect(matchRoute('/departments/%D8%00')?.params).toEqual({ deptName: '%D8%00' });
  });

  it('stays linear on hostile paths (no quadratic trailing-slash trim)', () => {
    const started = Date.now();
    for (const path of [
      `${'/'.repeat(200_000)}x`,
      `/departments/${'%'.repeat(200_000)}`,
      `/${'a/'.repeat(100_000)}`,
      `/departments/${'%E0'.repeat(100_000)}`,
    ]) {
      expect(() => matchRoute(path)).not.toThrow();
    }
    expect(Date.now() - started).toBeLessThan(1000);
  });

  // Characters that make URLs interesting: percent signs, separators, surrogates, controls.
  const urlChar = fc.oneof(
    fc.constantFrom('%', '/', '?', '#', '.', ':', '\\', '%2F', '%25', '%E0', '%C3%A9', '%zz'),
    fc.constantFrom('\u0000', '\u202e', '\ud800', '\udc00', '\ud83d\ude00', 'é', ' ', '\n'),
    fc.string({ unit: 'grapheme-ascii', maxLength: 3 }),
    fc.integer({ min: 0, max: 255 }).map((n) => `%${n.toString(16).padStart(2, '0')}`),
  );
  const urlish = fc.oneof(
    fc.array(urlChar, { maxLength: 40 }).map((parts) => parts.join('')),
    fc
      .tuple(fc.constantFrom(...ROUTES.map((r) => r.path)), fc.array(urlChar, { maxLength: 8 }))
      .map(([path, extra]) => path.replace(/:\w+/g, extra.join('')) + extra.join('')),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.string({ unit: 'binary-ascii', maxLength: 200 }),
  );

  it('never throws and returns a route of the table with string parameters (fuzz)', () => {
    fc.assert(
      fc.property(urlish, (path) => {
        const matched = matchRoute(path);
        if (matched === null) return;
        expect(ROUTES).toContain(matched.route);
        for (const value of Object.values(matched.params)) expect(typeof value).toBe('string');
      }),
      { numRuns: 5000 },
    );
  });

  it('agrees with decodeURIComponent wherever that succeeds (fuzz)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', minLength: 1, maxLength: 40 }), (name) => {
        const encoded = encodeURIComponent(name.replace(/[\ud800-\udfff]/g, 'x'));
        const matched = matchRoute(`/departments/${encoded}`);
        expect(matched?.route.path).toBe('/departments/:deptName');
        expect(matched?.params.deptName).toBe(decodeURIComponent(encoded));
      }),
      { numRuns: 2000 },
    );
  });

  const anyString = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 30 }),
    fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', '', '%', 'admin'),
  );
  const subject: fc.Arbitrary<AccessSubject> = fc.record({
    id: anyString,
    role: fc.oneof(fc.constantFrom(...SYSTEM_ROLE_IDS, 'super_admin'), anyString),
    isSuperAdmin: fc.boolean(),
    directPermissions: fc.array(fc.oneof(fc.constantFrom(...ALL_PERMISSION_IDS), anyString), {
      maxLength: 3,
    }),
    contextAssignments: fc.array(
      fc.record({
        userId: anyString,
        context: fc.oneof(
          anyString.map((departmentId) => ({ type: 'department' as const, departmentId })),
          anyString.map((courseId) => ({ type: 'course' as const, courseId })),
          anyString.map((userId) => ({ type: 'user' as const, userId })),
          fc.constant({ type: 'system' as const }),
        ),
        roles: fc.subarray([...CONTEXT_ROLE_IDS]),
        directPermissions: fc.subarray([...ALL_PERMISSION_IDS], { maxLength: 3 }),
        assignedBy: fc.constant('fuzz'),
        assignedAt: fc.constant('2026-01-01T00:00:00.000Z'),
        expiresAt: fc.option(fc.constantFrom('2025-01-01T00:00:00.000Z', 'not a date'), {
          nil: null,
        }),
        isActive: fc.boolean(),
      }),
      { maxLength: 4 },
    ),
  });

  it('checkRoute never throws on any route, parameters or subject (fuzz)', () => {
    // Unknown roles are warned about (spec §5); thousands of them are noise here.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    onTestFinished(() => warn.mockRestore());
    fc.assert(
      fc.property(
        subject,
        fc.constantFrom(...ROUTES),
        fc.oneof(
          fc.dictionary(anyString, anyString, { maxKeys: 4 }),
          anyString.map((deptName) => ({ deptName })),
          urlish.map((path) => matchRoute(path)?.params ?? {}),
        ),
        (s, route, params) => {
          const decision = checkRoute(s, route, params);
          expect(typeof decision.allowed).toBe('boolean');
          if (!decision.allowed) expect(typeof decision.reason).toBe('string');
        },
      ),
      { numRuns: 3000 },
    );
  });
});
