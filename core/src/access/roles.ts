/**
 * The three system roles of spec §6 with their inheritance: student ⊂ instructor ⊂ admin, and
 * admin holds every permission and always passes permission checks.
 */
import { ALL_PERMISSION_IDS, type PermissionId } from './catalogue';

/** The system roles a user may hold (spec §3). */
export const SYSTEM_ROLE_IDS = ['student', 'instructor', 'admin'] as const;
export type SystemRoleId = (typeof SYSTEM_ROLE_IDS)[number];

/** The Role entity of spec §3. */
export interface Role {
  id: string;
  name: string;
  displayName: string;
  description: string;
  /** Permissions granted by this role itself, not counting inherited ones. */
  permissions: readonly PermissionId[];
  /** The role this one inherits every permission from, if any. */
  inherits: string | null;
  context: 'global';
  isSystemRole: boolean;
  /** Higher is more privileged. */
  priority: number;
}

const STUDENT_PERMISSIONS: readonly PermissionId[] = [
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

const INSTRUCTOR_OWN_PERMISSIONS: readonly PermissionId[] = [
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

/** The system roles, keyed by id. */
export const SYSTEM_ROLES: Readonly<Record<SystemRoleId, Role>> = {
  student: {
    id: 'student',
    name: 'student',
    displayName: 'Student',
    description: 'Takes courses, submits assignments and reads the library and the wiki.',
    permissions: STUDENT_PERMISSIONS,
    inherits: null,
    context: 'global',
    isSystemRole: true,
    priority: 10,
  },
  instructor: {
    id: 'instructor',
    name: 'instructor',
    displayName: 'Instructor',
    description: 'Everything a student can do, plus creating and teaching courses and content.',
    permissions: INSTRUCTOR_OWN_PERMISSIONS,
    inherits: 'student',
    context: 'global',
    isSystemRole: true,
    priority: 50,
  },
  admin: {
    id: 'admin',
    name: 'admin',
    displayName: 'Administrator',
    description: 'Every permission; always passes permission checks.',
    permissions: ALL_PERMISSION_IDS,
    inherits: 'instructor',
    context: 'global',
    isSystemRole: true,
    priority: 100,
  },
};

/** True for a system role id. */
export function isSystemRoleId(role: unknown): role is SystemRoleId {
  return typeof role === 'string' && (SYSTEM_ROLE_IDS as readonly string[]).includes(role);
}

/**
 * isAdmin of spec §6: true for role `admin` or `super_admin`.
 */
export function isAdminRole(role: string | null | undefined): boolean {
  return role === 'admin' || role === 'super_admin';
}

/** A custom role id: lower-case words joined by hyphens, not a system role's id. */
export const CUSTOM_ROLE_ID_PATTERN = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/**
 * The roles a deployment knows: the three system roles plus any custom roles an admin made, each
 * inheriting from a system role or another custom role. Resolution follows `inherits` to the
 * root; a cycle or a missing parent stops resolution there.
 */
export class RoleRegistry {
  private readonly roles = new Map<string, Role>();
  private readonly resolved = new Map<string, readonly PermissionId[]>();

  constructor(customRoles: readonly Role[] = []) {
    for (const role of Object.values(SYSTEM_ROLES)) this.roles.set(role.id, role);
    for (const role of customRoles) {
      if (!isSystemRoleId(role.id) && role.id !== 'super_admin') this.roles.set(role.id, role);
    }
  }

  /** The role, system or custom; undefined for an unknown id. */
  get(id: string): Role | undefined {
    return this.roles.get(id);
  }

  /** Every role, system roles first, then custom roles by priority (highest first). */
  all(): Role[] {
    return [...this.roles.values()].sort(
      (a, b) => Number(b.isSystemRole) - Number(a.isSystemRole) || b.priority - a.priority,
    );
  }

  /** The role and its ancestors, nearest first (stops at a cycle or an unknown parent). */
  chain(id: string): Role[] {
    const out: Role[] = [];
    const seen = new Set<string>();
    for (let role = this.roles.get(id); role && !seen.has(role.id);) {
      out.push(role);
      seen.add(role.id);
      role = role.inherits ? this.roles.get(role.inherits) : undefined;
    }
    return out;
  }

  /**
   * Every permission the role grants, inherited ones included, without duplicates. `admin` and
   * `super_admin` hold the whole catalogue. An unknown role yields an empty list and a console
   * warning (spec §5).
   */
  permissionsOf(id: string): readonly PermissionId[] {
    const cached = this.resolved.get(id);
    if (cached) return cached;
    let result: readonly PermissionId[];
    if (isAdminRole(id)) {
      result = ALL_PERMISSION_IDS;
    } else {
      const chain = this.chain(id);
      if (chain.length === 0) {
        console.warn(`[access] Unknown role "${id}": it grants no permissions.`);
        return [];
      }
      const set = new Set<PermissionId>();
      for (let i = chain.length - 1; i >= 0; i--) for (const p of chain[i]!.permissions) set.add(p);
      result = Object.freeze([...set]);
    }
    this.resolved.set(id, result);
    return result;
  }

  /**
   * Whether a user with role `id` holds `required`: the same role, or one it inherits from
   * (a custom role built on instructor holds instructor). Admin holds every role.
   */
  holds(id: string, required: string): boolean {
    if (isAdminRole(id)) return true;
    return this.chain(id).some((r) => r.id === required);
  }

  /** Whether the role itself (not through inheritance) grants `permission`. */
  grantsDirectly(id: string, permission: PermissionId): boolean {
    return this.roles.get(id)?.permissions.includes(permission) ?? false;
  }
}

/** The registry of the three system roles only. */
export const SYSTEM_ROLE_REGISTRY = new RoleRegistry();

/**
 * Every permission a system role grants, inherited ones included, without duplicates.
 * An unknown role yields an empty list and a console warning (spec §5).
 */
export function getRolePermissions(roleId: string): readonly PermissionId[] {
  return SYSTEM_ROLE_REGISTRY.permissionsOf(roleId);
}
