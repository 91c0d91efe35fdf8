/**
 * The spec's route table (§2) and navigation table (§2) as data. The web router registers every
 * route from here with its guard, and the tests compare menus and redirects against it.
 */
import {
  NAV_SECTION_PERMISSION,
  checkPermission,
  checkRequirement,
  type AccessRequirement,
  type AccessSubject,
  type CheckOptions,
  type CheckScope,
  type Decision,
  type NavSection,
  type PermissionId,
  type SystemRoleId,
} from './access';

/**
 * Where a route's permissions are checked: `any` (held in any context the user has), or the
 * context named by a path parameter (e.g. the department of `/departments/:deptName`).
 * Absent: the system context.
 */
export type RouteScope = 'any' | { type: 'course' | 'department' | 'user'; param: string };

export interface RouteDef {
  /** React Router path pattern. */
  path: string;
  /** Page title, also the heading of pages not built yet. */
  title: string;
  /** `public` routes need no sign-in; all others need a signed-in user. */
  access: 'public' | 'authenticated';
  /**
   * What a signed-in user needs. One lacking it is sent to `/`, which says which page was refused
   * and why (the web route guard; docs/spec-readings.md, "Access denials").
   */
  requirement?: AccessRequirement;
  scope?: RouteScope;
  /** True once the page is a real feature; false shows the "not available yet" notice. */
  built: boolean;
}

const ADMIN_ONLY: AccessRequirement = { permissions: ['system.admin'], roles: ['admin'] };
const admin = (path: string, title: string): RouteDef => ({
  path,
  title,
  access: 'authenticated',
  requirement: ADMIN_ONLY,
  built: false,
});

/** Every route of spec §2, plus /learning-management and /learning/logout (docs/spec-readings.md). */
export const ROUTES: readonly RouteDef[] = [
  { path: '/login', title: 'Sign in', access: 'public', built: true },
  { path: '/learning/logout', title: 'Signing out', access: 'public', built: true },
  { path: '/', title: 'Home', access: 'authenticated', built: true },
  {
    path: '/departments',
    title: 'Departments',
    access: 'authenticated',
    requirement: { permissions: ['department.view'] },
    scope: 'any',
    built: true,
  },
  {
    path: '/departments/:deptName',
    title: 'Department',
    access: 'authenticated',
    requirement: { permissions: ['department.view'] },
    scope: { type: 'department', param: 'deptName' },
    built: true,
  },
  {
    path: '/library',
    title: 'Library',
    access: 'authenticated',
    requirement: { permissions: ['library.view'] },
    built: true,
  },
  {
    path: '/classroom',
    title: 'Courses',
    access: 'authenticated',
    requirement: { permissions: ['course.view'] },
    built: true,
  },
  // Not in the spec's table: the full results of the header's search (docs/spec-readings.md).
  { path: '/search', title: 'Search', access: 'authenticated', built: true },
  {
    path: '/learning-management',
    title: 'Learning Management',
    access: 'authenticated',
    requirement: { permissions: ['course.view'] },
    built: true,
  },
  {
    path: '/dashboard',
    title: 'Dashboard',
    access: 'authenticated',
    requirement: { permissions: ['course.view', 'analytics.view'], mode: 'any' },
    built: false,
  },
  {
    path: '/wiki',
    title: 'Wiki',
    access: 'authenticated',
    requirement: { permissions: ['library.view'] },
    built: true,
  },
  ...['/wiki/create', '/wiki-creator'].map((path): RouteDef => ({
    path,
    title: 'Wiki Page Creator',
    access: 'authenticated',
    requirement: { permissions: ['wiki.create'], roles: ['instructor', 'admin'] },
    built: true,
  })),
  ...['/course/create', '/course-creator'].map((path): RouteDef => ({
    path,
    title: 'Course Creator',
    access: 'authenticated',
    requirement: { permissions: ['course.create'], roles: ['instructor', 'admin'] },
    built: true,
  })),
  { ...admin('/admin', 'Admin Settings'), built: true },
  { ...admin('/admin-test', 'Permission Simulator'), built: true },
  admin('/wiki-test', 'Wiki Test'),
  admin('/rich-text-diagnostics', 'Rich Text Diagnostics'),
  admin('/test-suite', 'Test Suite'),
  { ...admin('/notification-demo', 'Notification Demo'), built: true },
  { ...admin('/announcement-manager', 'Announcement Manager'), built: true },
  { ...admin('/auth-test', 'Authentication Test'), built: true },
  admin('/image-test', 'Image Test'),
  admin('/media-test', 'Media Test'),
  {
    path: '/profile-settings',
    title: 'Profile Settings',
    access: 'authenticated',
    requirement: { permissions: ['user.view_profile'] },
    built: true,
  },
  {
    path: '/settings',
    title: 'Settings',
    access: 'authenticated',
    requirement: { permissions: ['user.view_profile'] },
    built: true,
  },
  {
    path: '/instructor-settings',
    title: 'Instructor Settings',
    access: 'authenticated',
    requirement: {
      permissions: ['course.create', 'library.upload'],
      mode: 'any',
      roles: ['instructor', 'admin'],
    },
    built: false,
  },
];

export interface NavItem {
  label: string;
  path: string;
  /** The nav section, mapped to a `nav.*` permission by NAV_SECTION_PERMISSION. */
  section: NavSection;
  /** The roles spec §2 lists as seeing the item, kept as data so tests can compare. */
  visibleTo: readonly SystemRoleId[] | 'everyone';
}

/** The navigation table of spec §2, in menu order. */
export const NAV_ITEMS: readonly NavItem[] = [
  { label: 'Home', path: '/', section: 'everyone', visibleTo: 'everyone' },
  { label: 'Departments', path: '/departments', section: 'everyone', visibleTo: 'everyone' },
  {
    label: 'Courses',
    path: '/classroom',
    section: 'student',
    visibleTo: ['student', 'instructor', 'admin'],
  },
  {
    label: 'Learning Management',
    path: '/learning-management',
    section: 'student',
    visibleTo: ['student', 'instructor', 'admin'],
  },
  {
    label: 'Library',
    path: '/library',
    section: 'student',
    visibleTo: ['student', 'instructor', 'admin'],
  },
  { label: 'Admin Settings', path: '/admin', section: 'admin', visibleTo: ['admin'] },
  {
    label: 'Instructor Settings',
    path: '/instructor-settings',
    section: 'instructor',
    visibleTo: ['instructor', 'admin'],
  },
  {
    label: 'Settings',
    path: '/settings',
    section: 'student',
    visibleTo: ['student', 'instructor', 'admin'],
  },
];

/** The route definition whose pattern matches `path` exactly (pattern text, not a URL). */
export function findRoute(path: string): RouteDef | undefined {
  return ROUTES.find((r) => r.path === path);
}

/** Permissions named anywhere in the tables, so tests can assert each one is in the catalogue. */
export function permissionsNamedByRoutes(): PermissionId[] {
  return [...new Set(ROUTES.flatMap((r) => [...(r.requirement?.permissions ?? [])]))];
}

/** Resolves a route's scope to the scope of its permission check, given the URL's parameters. */
export function routeCheckScope(
  route: Pick<RouteDef, 'scope'>,
  params: Readonly<Record<string, string | undefined>>,
): CheckScope {
  return resolveScope(route.scope, params);
}

/** Resolves a declared scope (route table or API route) against a request's parameters. */
export function resolveScope(
  scope: RouteScope | undefined,
  params: Readonly<Record<string, string | undefined>>,
): CheckScope {
  if (!scope) return undefined;
  if (scope === 'any') return 'any';
  const id = params[scope.param] ?? '';
  switch (scope.type) {
    case 'course':
      return { type: 'course', courseId: id };
    case 'department':
      return { type: 'department', departmentId: id };
    case 'user':
      return { type: 'user', userId: id };
  }
}

/** A path segment decoded; one with malformed percent-encoding (`%`, `%zz`, `%E0%A4%A`) as written. */
function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    // React Router matches such a path as written too (its decodePath), so the simulator and the
    // browser's route guard agree; throwing here was a 500 on the server (issue 7, item 6).
    return segment;
  }
}

const MAX_ROUTE_SEGMENTS = Math.max(...ROUTES.map((r) => r.path.split('/').length));

/** `path` without its trailing slashes (a loop: `/\/+$/` is quadratic on `//…//x`). */
function trimTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47 /* '/' */) end--;
  return path.slice(0, end);
}

/**
 * The route of the table a path belongs to and its parameters (`/departments/field-operations`
 * → the `/departments/:deptName` route with `deptName`), or null for a path the app does not have.
 * Never throws, whatever the string: segments are percent-decoded where they can be and taken as
 * written where they cannot, and the work is linear in the length of the path.
 */
export function matchRoute(
  pathname: string,
): { route: RouteDef; params: Record<string, string> } | null {
  const end = pathname.search(/[?#]/);
  const path = trimTrailingSlashes(end === -1 ? pathname : pathname.slice(0, end)) || '/';
  const parts = path.split('/');
  // No route has more than a handful of segments: longer paths need no decoding to be refused.
  if (parts.length > MAX_ROUTE_SEGMENTS) return null;
  const decoded = parts.map(decodeSegment);
  for (const route of ROUTES) {
    const pattern = route.path.split('/');
    if (pattern.length !== decoded.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < pattern.length && ok; i++) {
      const want = pattern[i] as string;
      const got = decoded[i] as string;
      if (want.startsWith(':')) {
        if (got === '') ok = false;
        else params[want.slice(1)] = got;
      } else if (want !== got) ok = false;
    }
    if (ok) return { route, params };
  }
  return null;
}

/**
 * Whether a signed-in subject may open a route (its requirement in its scope). Public routes and
 * routes with no requirement are open to every signed-in user. `options.roles` names the custom
 * roles known, `options.now` the time expiry is judged at.
 */
export function checkRoute(
  subject: AccessSubject,
  route: RouteDef,
  params: Readonly<Record<string, string | undefined>> = {},
  options: Omit<CheckOptions, 'scope'> = {},
): Decision {
  if (route.access === 'public' || !route.requirement) return { allowed: true };
  return checkRequirement(subject, route.requirement, {
    ...options,
    scope: routeCheckScope(route, params),
  });
}

/** Whether a nav item is shown to a subject (null subject: signed out). */
export function canSeeNavItem(
  subject: AccessSubject | null,
  item: NavItem,
  options: Omit<CheckOptions, 'scope'> = {},
): boolean {
  const permission = NAV_SECTION_PERMISSION[item.section];
  if (permission === null) return true;
  if (!subject) return false;
  return checkPermission(subject, permission, options).allowed;
}
