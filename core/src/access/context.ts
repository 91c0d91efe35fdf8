/**
 * Contexts (spec §3) and the five context roles of spec §6. Course, department, user and custom
 * contexts each sit under the system context.
 */
import type { PermissionId } from './catalogue';

/** Where a permission applies. */
export type AccessContext =
  | { type: 'system' }
  | { type: 'course'; courseId: string }
  | { type: 'department'; departmentId: string }
  | { type: 'user'; userId: string }
  | { type: 'custom'; contextId: string; contextType: string };

export type ContextType = AccessContext['type'];

/** The system context: the root every other context sits under. */
export const SYSTEM_CONTEXT: AccessContext = Object.freeze({ type: 'system' });

/** A stable string key for a context, e.g. `course:42` or `custom:region:north`. */
export function contextKey(context: AccessContext): string {
  switch (context.type) {
    case 'system':
      return 'system';
    case 'course':
      return `course:${context.courseId}`;
    case 'department':
      return `department:${context.departmentId}`;
    case 'user':
      return `user:${context.userId}`;
    case 'custom':
      return `custom:${context.contextType}:${context.contextId}`;
  }
}

/** The parent of a context: the system context for every non-system context, none for system. */
export function parentContext(context: AccessContext): AccessContext | null {
  return context.type === 'system' ? null : SYSTEM_CONTEXT;
}

/** A human label for a context, e.g. `department network-engineering`. */
export function describeContext(context: AccessContext): string {
  switch (context.type) {
    case 'system':
      return 'system';
    case 'course':
      return `course ${context.courseId}`;
    case 'department':
      return `department ${context.departmentId}`;
    case 'user':
      return `user ${context.userId}`;
    case 'custom':
      return `${context.contextType} ${context.contextId}`;
  }
}

export const CONTEXT_ROLE_IDS = [
  'course-instructor',
  'course-assistant',
  'course-student',
  'department-manager',
  'department-member',
] as const;
export type ContextRoleId = (typeof CONTEXT_ROLE_IDS)[number];

/** The Context role entity of spec §3. */
export interface ContextRole {
  id: ContextRoleId;
  name: string;
  displayName: string;
  description: string;
  /** The context type this role is assigned in. */
  context: { type: 'course' | 'department' };
  permissions: readonly PermissionId[];
}

/** The context roles of spec §6, with exactly their permissions. */
export const CONTEXT_ROLES: Readonly<Record<ContextRoleId, ContextRole>> = {
  'course-instructor': {
    id: 'course-instructor',
    name: 'course-instructor',
    displayName: 'Course instructor',
    description: 'Teaches one course: edits it, manages its participants, assignments and grades.',
    context: { type: 'course' },
    permissions: [
      'course.edit',
      'course.view_participants',
      'course.manage_participants',
      'assignment.create',
      'assignment.edit',
      'assignment.grade',
      'assignment.view_submissions',
      'grade.view_all',
      'grade.edit',
    ],
  },
  'course-assistant': {
    id: 'course-assistant',
    name: 'course-assistant',
    displayName: 'Course assistant',
    description: 'Helps in one course: sees participants and submissions, grades assignments.',
    context: { type: 'course' },
    permissions: [
      'course.view_participants',
      'assignment.view_submissions',
      'assignment.grade',
      'grade.view_all',
    ],
  },
  'course-student': {
    id: 'course-student',
    name: 'course-student',
    displayName: 'Course student',
    description: 'Takes one course: views it and its assignments, submits work, sees own grades.',
    context: { type: 'course' },
    permissions: ['course.view', 'assignment.view', 'assignment.submit', 'grade.view_own'],
  },
  'department-manager': {
    id: 'department-manager',
    name: 'department-manager',
    displayName: 'Department manager',
    description: 'Manages one department: its users, its courses and its analytics.',
    context: { type: 'department' },
    permissions: ['department.manage', 'user.view', 'user.edit', 'course.create', 'analytics.view'],
  },
  'department-member': {
    id: 'department-member',
    name: 'department-member',
    displayName: 'Department member',
    description: 'Belongs to one department: sees it, its courses and its library.',
    context: { type: 'department' },
    permissions: ['department.view', 'course.view', 'library.view'],
  },
};

/** True for one of the five context role ids. */
export function isContextRoleId(id: unknown): id is ContextRoleId {
  return typeof id === 'string' && (CONTEXT_ROLE_IDS as readonly string[]).includes(id);
}

/** The Context assignment entity of spec §3. */
export interface ContextAssignment {
  userId: string;
  context: AccessContext;
  roles: readonly ContextRoleId[];
  directPermissions: readonly PermissionId[];
  /** Who made the assignment; `system` for assignments derived from the user's own record. */
  assignedBy: string;
  /** ISO 8601. */
  assignedAt: string;
  /** ISO 8601, or null for no expiry. */
  expiresAt: string | null;
  isActive: boolean;
}

/** An assignment counts only while active and not past its expiry, judged at `now` (spec §4). */
export function isAssignmentInForce(assignment: ContextAssignment, now: number): boolean {
  if (!assignment.isActive) return false;
  return assignment.expiresAt === null || Date.parse(assignment.expiresAt) > now;
}

/**
 * The assignment every user holds in their own department (docs/spec-readings.md): the
 * department-member role, derived from the user's record and kept in step with it.
 */
export function ownDepartmentAssignment(
  userId: string,
  departmentId: string,
  assignedAt: string,
): ContextAssignment {
  return {
    userId,
    context: { type: 'department', departmentId },
    roles: ['department-member'],
    directPermissions: [],
    assignedBy: 'system',
    assignedAt,
    expiresAt: null,
    isActive: true,
  };
}

/** Whether two contexts are the same context. */
export function sameContext(a: AccessContext, b: AccessContext): boolean {
  return contextKey(a) === contextKey(b);
}

/**
 * Adds an assignment; one the user already has for the same context is replaced, not
 * duplicated (spec §4).
 */
export function assignContext(
  assignments: readonly ContextAssignment[],
  assignment: ContextAssignment,
): ContextAssignment[] {
  return [
    ...assignments.filter(
      (a) => !(a.userId === assignment.userId && sameContext(a.context, assignment.context)),
    ),
    assignment,
  ];
}

/** Drops the user's assignment for a context (spec §4). */
export function removeContextAssignment(
  assignments: readonly ContextAssignment[],
  userId: string,
  context: AccessContext,
): ContextAssignment[] {
  return assignments.filter((a) => !(a.userId === userId && sameContext(a.context, context)));
}

/** Parses a context key (`course:42`, `custom:region:north`, `system`); null when malformed. */
export function parseContextKey(key: string): AccessContext | null {
  if (key === 'system') return SYSTEM_CONTEXT;
  const colon = key.indexOf(':');
  if (colon < 1) return null;
  const type = key.slice(0, colon);
  const rest = key.slice(colon + 1);
  if (!rest) return null;
  switch (type) {
    case 'course':
      return { type, courseId: rest };
    case 'department':
      return { type, departmentId: rest };
    case 'user':
      return { type, userId: rest };
    case 'custom': {
      const inner = rest.indexOf(':');
      if (inner < 1 || inner === rest.length - 1) return null;
      return { type, contextType: rest.slice(0, inner), contextId: rest.slice(inner + 1) };
    }
    default:
      return null;
  }
}
