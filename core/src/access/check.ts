/**
 * Permission resolution and checks (spec §6). Pure functions over plain data: the server runs
 * them to explain and simulate (its hot path is the compiled engine, which must agree with them),
 * and the web client runs the same ones to decide what to show.
 */
import { isPermissionId, type PermissionId } from './catalogue';
import {
  CONTEXT_ROLES,
  contextKey,
  isAssignmentInForce,
  parentContext,
  SYSTEM_CONTEXT,
  type AccessContext,
  type ContextAssignment,
  type ContextRoleId,
} from './context';
import { isAdminRole, SYSTEM_ROLE_REGISTRY, type RoleRegistry } from './roles';

/** What the checks need to know about a user (the permission side of spec §3). */
export interface AccessSubject {
  id: string;
  role: string;
  isSuperAdmin?: boolean;
  /** Global direct grants on top of the role. */
  directPermissions?: readonly string[];
  contextAssignments?: readonly ContextAssignment[];
}

/**
 * Where a check is made: a context, or `any` (the permission held in any context the user has),
 * or nothing (the system context).
 */
export type CheckScope = AccessContext | 'any' | undefined;

export interface CheckOptions {
  scope?: CheckScope;
  /** Epoch ms used to judge assignment expiry; defaults to the current time. */
  now?: number;
  /** The roles known (system + custom); defaults to the system roles. */
  roles?: RoleRegistry;
}

/** The outcome of a check: allowed, or denied with the exact reason of spec §6. */
export type Decision = { allowed: true } | { allowed: false; reason: string };

const ALLOWED: Decision = Object.freeze({ allowed: true });

/** True for role admin or super_admin, or a super-admin user (spec §6 isAdmin). */
export function isAdmin(subject: Pick<AccessSubject, 'role' | 'isSuperAdmin'>): boolean {
  return isAdminRole(subject.role) || subject.isSuperAdmin === true;
}

/** The permissions an assignment grants: its roles' plus its direct ones (valid ids only). */
export function assignmentPermissions(assignment: ContextAssignment): PermissionId[] {
  const out: PermissionId[] = [];
  for (const role of assignment.roles) out.push(...(CONTEXT_ROLES[role]?.permissions ?? []));
  for (const p of assignment.directPermissions) if (isPermissionId(p)) out.push(p);
  return out;
}

/** Context keys whose assignments count in a scope: the scope's context and its parents. */
function scopeKeys(scope: CheckScope): Set<string> | 'all' {
  if (scope === 'any') return 'all';
  const keys = new Set<string>();
  for (let c: AccessContext | null = scope ?? SYSTEM_CONTEXT; c; c = parentContext(c)) {
    keys.add(contextKey(c));
  }
  return keys;
}

/**
 * Effective permissions of `subject` in a scope: role permissions + direct permissions + the
 * permissions of assignments in the scope's context and in its parent contexts, without
 * duplicates. With scope `any`, assignments in every context count.
 */
export function effectivePermissions(
  subject: AccessSubject,
  options: CheckOptions = {},
): Set<PermissionId> {
  const now = options.now ?? Date.now();
  const roles = options.roles ?? SYSTEM_ROLE_REGISTRY;
  const result = new Set<PermissionId>(roles.permissionsOf(subject.role));
  for (const p of subject.directPermissions ?? []) if (isPermissionId(p)) result.add(p);
  const keys = scopeKeys(options.scope);
  for (const assignment of subject.contextAssignments ?? []) {
    if (!isAssignmentInForce(assignment, now)) continue;
    if (keys === 'all' || keys.has(contextKey(assignment.context))) {
      for (const p of assignmentPermissions(assignment)) result.add(p);
    }
  }
  return result;
}

function firstInvalid(permissions: readonly string[]): string | undefined {
  return permissions.find((p) => !isPermissionId(p));
}

/** The reason for lacking one permission (spec §6). */
export const missingPermissionReason = (permission: string) =>
  `Missing required permission: ${permission}`;

/** Checks one permission. */
export function checkPermission(
  subject: AccessSubject,
  permission: string,
  options: CheckOptions = {},
): Decision {
  if (!isPermissionId(permission)) {
    return { allowed: false, reason: `Invalid permission: ${permission}` };
  }
  if (isAdmin(subject)) return ALLOWED;
  if (effectivePermissions(subject, options).has(permission)) return ALLOWED;
  return { allowed: false, reason: missingPermissionReason(permission) };
}

/** Checks that the subject holds every permission listed. */
export function checkAllPermissions(
  subject: AccessSubject,
  permissions: readonly string[],
  options: CheckOptions = {},
): Decision {
  const invalid = firstInvalid(permissions);
  if (invalid !== undefined) return { allowed: false, reason: `Invalid permission: ${invalid}` };
  if (isAdmin(subject)) return ALLOWED;
  const held = effectivePermissions(subject, options);
  const missing = permissions.filter((p) => !held.has(p as PermissionId));
  if (missing.length === 0) return ALLOWED;
  return { allowed: false, reason: `Missing required permissions: ${missing.join(', ')}` };
}

/** Checks that the subject holds at least one of the permissions listed. */
export function checkAnyPermission(
  subject: AccessSubject,
  permissions: readonly string[],
  options: CheckOptions = {},
): Decision {
  const invalid = firstInvalid(permissions);
  if (invalid !== undefined) return { allowed: false, reason: `Invalid permission: ${invalid}` };
  if (isAdmin(subject)) return ALLOWED;
  const held = effectivePermissions(subject, options);
  if (permissions.some((p) => held.has(p as PermissionId))) return ALLOWED;
  return {
    allowed: false,
    reason: `Missing any of required permissions: ${permissions.join(', ')}`,
  };
}

/**
 * A role requirement passes if the user is admin or holds one of the listed roles (spec §6); a
 * custom role holds the roles it inherits from.
 */
export function checkRole(
  subject: Pick<AccessSubject, 'role' | 'isSuperAdmin'>,
  roles: readonly string[],
  registry: RoleRegistry = SYSTEM_ROLE_REGISTRY,
): Decision {
  if (roles.length === 0 || isAdmin(subject)) return ALLOWED;
  if (roles.some((r) => registry.holds(subject.role, r))) return ALLOWED;
  return {
    allowed: false,
    reason: `Required role: ${roles.join(' or ')}, but user has role: ${subject.role}`,
  };
}

/** The authorisation a route or an action declares. */
export interface AccessRequirement {
  /** Permissions to hold; none means "any signed-in user". */
  permissions?: readonly PermissionId[];
  /** `all` (default) or `any` of the permissions. */
  mode?: 'all' | 'any';
  /** System roles of which the user must hold one (admin always passes). */
  roles?: readonly string[];
}

/**
 * Checks a requirement: permissions first (one → singular reason, several in `all` mode → the
 * missing ones, `any` mode → the listed ones), then roles.
 */
export function checkRequirement(
  subject: AccessSubject,
  requirement: AccessRequirement,
  options: CheckOptions = {},
): Decision {
  const permissions = requirement.permissions ?? [];
  let decision: Decision = ALLOWED;
  if (permissions.length === 1) {
    decision = checkPermission(subject, permissions[0] as string, options);
  } else if (permissions.length > 1) {
    decision =
      requirement.mode === 'any'
        ? checkAnyPermission(subject, permissions, options)
        : checkAllPermissions(subject, permissions, options);
  }
  if (!decision.allowed) return decision;
  return checkRole(subject, requirement.roles ?? [], options.roles);
}

/** Where an allowed permission comes from. */
export type Grant =
  /** Admin (or super admin) passes every check. */
  | { source: 'admin'; roleId: string }
  /** The user's own system or custom role grants it. */
  | { source: 'role'; roleId: string }
  /** A role the user's role inherits from grants it. */
  | { source: 'inherited-role'; roleId: string; via: string }
  /** Granted to the user directly, everywhere. */
  | { source: 'direct' }
  /** A context role the user holds in the context checked. */
  | {
      source: 'context-role';
      context: AccessContext;
      roleId: ContextRoleId;
      expiresAt: string | null;
    }
  /** Granted directly in the context checked. */
  | { source: 'context-direct'; context: AccessContext; expiresAt: string | null }
  /**
   * An assignment in a parent context (the system context) of the one checked: through one of its
   * roles (`roleId`) or directly (no `roleId`).
   */
  | {
      source: 'parent-context';
      context: AccessContext;
      roleId?: ContextRoleId;
      expiresAt: string | null;
    };

function assignmentGrants(
  assignment: ContextAssignment,
  permission: PermissionId,
  inScope: boolean,
): Grant[] {
  const out: Grant[] = [];
  const { context, expiresAt } = assignment;
  for (const roleId of assignment.roles) {
    if (!CONTEXT_ROLES[roleId]?.permissions.includes(permission)) continue;
    out.push(
      inScope
        ? { source: 'context-role', context, roleId, expiresAt }
        : { source: 'parent-context', context, roleId, expiresAt },
    );
  }
  if (assignment.directPermissions.includes(permission)) {
    out.push(
      inScope
        ? { source: 'context-direct', context, expiresAt }
        : { source: 'parent-context', context, expiresAt },
    );
  }
  return out;
}

/**
 * Every grant through which the subject holds `permission` in the scope (empty when it does
 * not). With scope `any`, assignments in every context are named as context grants.
 */
export function permissionGrants(
  subject: AccessSubject,
  permission: PermissionId,
  options: CheckOptions = {},
): Grant[] {
  const roles = options.roles ?? SYSTEM_ROLE_REGISTRY;
  const now = options.now ?? Date.now();
  const grants: Grant[] = [];
  if (isAdmin(subject)) grants.push({ source: 'admin', roleId: subject.role });
  const chain = roles.chain(subject.role);
  const own = chain[0];
  if (own?.permissions.includes(permission) && !isAdminRole(own.id)) {
    grants.push({ source: 'role', roleId: own.id });
  }
  for (const ancestor of chain.slice(1)) {
    if (ancestor.permissions.includes(permission) && !isAdminRole(ancestor.id)) {
      grants.push({ source: 'inherited-role', roleId: ancestor.id, via: subject.role });
    }
  }
  if (subject.directPermissions?.includes(permission)) grants.push({ source: 'direct' });

  const scope = options.scope;
  const checkedKey = scope === undefined || scope === 'any' ? 'system' : contextKey(scope);
  const keys = scopeKeys(scope);
  for (const assignment of subject.contextAssignments ?? []) {
    if (!isAssignmentInForce(assignment, now)) continue;
    const key = contextKey(assignment.context);
    if (keys !== 'all' && !keys.has(key)) continue;
    grants.push(...assignmentGrants(assignment, permission, keys === 'all' || key === checkedKey));
  }
  return grants;
}

/** A decision with the grants that allow it (empty when denied). */
export type Explanation = Decision & { grants: Grant[] };

/** Checks one permission and names where it comes from. */
export function explainPermission(
  subject: AccessSubject,
  permission: string,
  options: CheckOptions = {},
): Explanation {
  const decision = checkPermission(subject, permission, options);
  if (!decision.allowed) return { ...decision, grants: [] };
  return { ...decision, grants: permissionGrants(subject, permission as PermissionId, options) };
}

/** Every effective permission in the scope with its grants, in catalogue order. */
export function explainEffectivePermissions(
  subject: AccessSubject,
  options: CheckOptions = {},
): { permission: PermissionId; grants: Grant[] }[] {
  const held = isAdmin(subject)
    ? new Set((options.roles ?? SYSTEM_ROLE_REGISTRY).permissionsOf('admin'))
    : effectivePermissions(subject, options);
  return [...held].map((permission) => ({
    permission,
    grants: permissionGrants(subject, permission, options),
  }));
}

/** A short name for each kind of grant, for labels and group headings. */
export const GRANT_SOURCE_LABELS: Readonly<Record<Grant['source'], string>> = {
  admin: 'Admin',
  role: 'Role',
  'inherited-role': 'Inherited role',
  direct: 'Direct',
  'context-role': 'Context role',
  'context-direct': 'Direct in context',
  'parent-context': 'Parent context',
};

/** A readable sentence for a grant, e.g. "context role course-assistant in course c1". */
export function describeGrant(grant: Grant): string {
  const ctx = (c: AccessContext) => contextKey(c).replace(':', ' ');
  const until = (e: string | null) => (e ? ` (until ${e})` : '');
  switch (grant.source) {
    case 'admin':
      return `role ${grant.roleId} (admin passes every check)`;
    case 'role':
      return `role ${grant.roleId}`;
    case 'inherited-role':
      return `role ${grant.roleId}, inherited by ${grant.via}`;
    case 'direct':
      return 'direct grant';
    case 'context-role':
      return `context role ${grant.roleId} in ${ctx(grant.context)}${until(grant.expiresAt)}`;
    case 'context-direct':
      return `direct grant in ${ctx(grant.context)}${until(grant.expiresAt)}`;
    case 'parent-context':
      return `${grant.roleId ? `context role ${grant.roleId}` : 'direct grant'} in parent context ${ctx(grant.context)}${until(grant.expiresAt)}`;
  }
}
