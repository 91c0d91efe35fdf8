/**
 * Who may give what to whom ("allow assign", made simple). A grant is a
 * system role, a direct permission, or a context assignment (context roles and direct permissions
 * in one context). The rules:
 *
 * - Nobody changes their own role, direct permissions or context assignments, admins included
 *   (another admin can; the last-active-admin protection of the server still applies).
 * - Only admins change admins: a non-admin may not touch the role, grants, assignments or
 *   account of an admin user.
 * - A non-admin may give (and take away) only what they could hold out themselves: never the
 *   admin role, never a `system.*` permission, and otherwise only permissions they hold in the
 *   context of the grant — system-wide for a role or a global direct permission (every permission
 *   of the role, inherited ones included), in the assignment's context (parent contexts counting)
 *   for a context assignment. Taking a grant away, or changing a role away from one, needs the
 *   same: a non-admin cannot remove what they could not have given.
 *
 * A custom role is a grant to everyone who holds it, so defining one follows the same rule: a
 * non-admin may create, edit or delete only custom roles whose permissions (inherited ones
 * included) they hold system-wide, before and after the change, and never one they hold
 * themselves (that would change their own permissions).
 *
 * Each function answers null when the change is allowed, else the reason for refusing it, worded
 * like the denial reasons of spec §6. The server refuses with 403 and that reason; the web client
 * runs the same functions to offer only what the server would accept.
 */
import { isPermissionId, type PermissionId } from './catalogue';
import { effectivePermissions, isAdmin, type AccessSubject } from './check';
import { CONTEXT_ROLES, describeContext, isContextRoleId, type AccessContext } from './context';
import { isAdminRole, SYSTEM_ROLE_REGISTRY, type RoleRegistry } from './roles';

/** The user who would receive (or lose) a grant; null for an account not created yet. */
export interface GrantTarget {
  id: string;
  role: string;
  isSuperAdmin?: boolean;
}

/** What a context assignment gives in its context. */
export interface AssignmentGrant {
  context: AccessContext;
  roles: readonly string[];
  directPermissions: readonly string[];
}

export interface GrantOptions {
  /** Epoch ms used to judge the actor's assignment expiry; defaults to the current time. */
  now?: number;
}

/** The reasons for refusing a grant, shared by the server (403 messages) and the web client. */
export const GRANT_DENIAL = {
  ownRole: 'Cannot change your own role',
  ownPermissions: 'Cannot change your own permissions',
  ownAssignments: 'Cannot change your own context assignments',
  adminRole: 'Only an admin can grant the admin role',
  adminTarget: 'Only an admin can change an admin',
} as const;

/** A system permission only an admin may give. */
export const systemPermissionDenial = (permission: string) =>
  `Only an admin can grant a system permission: ${permission}`;

/** Permissions the actor lacks for a grant, in the wording of spec §6. */
export const unheldPermissionDenial = (permissions: readonly string[]) =>
  permissions.length === 1
    ? `Cannot grant a permission you do not hold: ${permissions[0]}`
    : `Cannot grant permissions you do not hold: ${permissions.join(', ')}`;

/** Taking away a grant the actor could not have given. */
export const unheldRevokeDenial = (permissions: readonly string[]) =>
  permissions.length === 1
    ? `Cannot take away a permission you do not hold: ${permissions[0]}`
    : `Cannot take away permissions you do not hold: ${permissions.join(', ')}`;

/** Changing the role of a user whose current role the actor could not have given. */
export const currentRoleDenial = (role: string, reason: string) =>
  `Cannot change the role ${role}: ${reason}`;

const isSystemPermission = (permission: string) => permission.startsWith('system.');

/** True when `actor` and `target` are the same user. */
const isSelf = (actor: AccessSubject, target: GrantTarget | null) =>
  target !== null && target.id === actor.id;

/**
 * Only admins change admins: the reason a non-admin may not act on `target` at all (role,
 * grants, assignments, names, deactivation), or null.
 */
export function adminTargetDenial(
  actor: Pick<AccessSubject, 'role' | 'isSuperAdmin'>,
  target: GrantTarget | null,
): string | null {
  if (target && isAdmin(target) && !isAdmin(actor)) return GRANT_DENIAL.adminTarget;
  return null;
}

/** What a change is to: a user's role, their direct permissions or their context assignments. */
export type GrantKind = 'role' | 'permissions' | 'assignments';

const OWN: Record<GrantKind, string> = {
  role: GRANT_DENIAL.ownRole,
  permissions: GRANT_DENIAL.ownPermissions,
  assignments: GRANT_DENIAL.ownAssignments,
};

/**
 * The part of the rules that depends only on who acts on whom: nobody changes themselves, only
 * admins change admins (null: `actor` may change this kind of grant of `target`, subject to what
 * is given). A route can answer this before looking up what would be changed.
 */
export function grantTargetDenial(
  actor: AccessSubject,
  target: GrantTarget | null,
  kind: GrantKind,
): string | null {
  if (isSelf(actor, target)) return OWN[kind];
  return adminTargetDenial(actor, target);
}

/**
 * Whether a non-admin actor may hand out `permissions` where `held` are the permissions they
 * hold in that context; null when they may. `verb` picks the giving or the taking-away wording.
 */
function permissionsDenial(
  permissions: readonly string[],
  held: ReadonlySet<PermissionId>,
  verb: 'grant' | 'revoke',
): string | null {
  const system = permissions.find(isSystemPermission);
  if (system !== undefined) return systemPermissionDenial(system);
  const missing = [...new Set(permissions.filter((p) => !isPermissionId(p) || !held.has(p)))];
  if (missing.length === 0) return null;
  return verb === 'grant' ? unheldPermissionDenial(missing) : unheldRevokeDenial(missing);
}

/**
 * Why a non-admin may not give the system role `role` (the admin role, a system permission, or
 * one they do not hold system-wide), or null. Admins may give any role.
 */
function roleItselfDenial(
  actor: AccessSubject,
  role: string,
  registry: RoleRegistry,
  options: GrantOptions,
): string | null {
  if (isAdmin(actor)) return null;
  if (isAdminRole(role)) return GRANT_DENIAL.adminRole;
  const held = effectivePermissions(actor, { roles: registry, now: options.now });
  return permissionsDenial(registry.permissionsOf(role), held, 'grant');
}

/**
 * Whether `actor` may change `target`'s role at all, whatever the new one (null: allowed): not
 * their own, only an admin's if they are admin, and for a non-admin only a role they could have
 * given. A role select shows this reason when it cannot offer anything.
 */
export function roleChangeDenial(
  actor: AccessSubject,
  target: GrantTarget | null,
  registry: RoleRegistry = SYSTEM_ROLE_REGISTRY,
  options: GrantOptions = {},
): string | null {
  const onTarget = grantTargetDenial(actor, target, 'role');
  if (onTarget || !target) return onTarget;
  const current = roleItselfDenial(actor, target.role, registry, options);
  return current && currentRoleDenial(target.role, current);
}

/**
 * Whether `actor` may give `target` the system role `newRole` (null: allowed). `target` null is
 * an account being created. A non-admin must also have been able to give the target's current
 * role. The role is assumed known: callers reject an unknown role as invalid input first.
 */
export function roleGrantDenial(
  actor: AccessSubject,
  target: GrantTarget | null,
  newRole: string,
  registry: RoleRegistry = SYSTEM_ROLE_REGISTRY,
  options: GrantOptions = {},
): string | null {
  if (target && target.role === newRole) {
    const onTarget = grantTargetDenial(actor, target, 'role');
    if (onTarget) return onTarget;
  } else {
    const change = roleChangeDenial(actor, target, registry, options);
    if (change) return change;
  }
  return roleItselfDenial(actor, newRole, registry, options);
}

/** The roles of `registry` that `actor` may give `target` (all of them, in registry order). */
export function grantableRoles(
  actor: AccessSubject,
  target: GrantTarget | null,
  registry: RoleRegistry = SYSTEM_ROLE_REGISTRY,
  options: GrantOptions = {},
): string[] {
  return registry
    .all()
    .map((r) => r.id)
    .filter((id) => roleGrantDenial(actor, target, id, registry, options) === null);
}

function directPermissionDenial(
  actor: AccessSubject,
  target: GrantTarget | null,
  permission: string,
  verb: 'grant' | 'revoke',
  registry: RoleRegistry,
  options: GrantOptions,
): string | null {
  const onTarget = grantTargetDenial(actor, target, 'permissions');
  if (onTarget) return onTarget;
  if (isAdmin(actor)) return null;
  const held = effectivePermissions(actor, { roles: registry, now: options.now });
  return permissionsDenial([permission], held, verb);
}

/**
 * Whether `actor` may grant `target` the global direct permission `permission` (null: allowed):
 * a non-admin must hold it system-wide, and it must not be a system permission.
 */
export function permissionGrantDenial(
  actor: AccessSubject,
  target: GrantTarget | null,
  permission: string,
  registry: RoleRegistry = SYSTEM_ROLE_REGISTRY,
  options: GrantOptions = {},
): string | null {
  return directPermissionDenial(actor, target, permission, 'grant', registry, options);
}

/** Whether `actor` may revoke `target`'s global direct permission `permission` (null: allowed). */
export function permissionRevokeDenial(
  actor: AccessSubject,
  target: GrantTarget | null,
  permission: string,
  registry: RoleRegistry = SYSTEM_ROLE_REGISTRY,
  options: GrantOptions = {},
): string | null {
  return directPermissionDenial(actor, target, permission, 'revoke', registry, options);
}

/** The permissions an assignment would give: its context roles' and its direct ones. */
function assignmentGrantPermissions(assignment: AssignmentGrant): string[] {
  const out: string[] = [];
  for (const role of assignment.roles) {
    if (isContextRoleId(role)) out.push(...CONTEXT_ROLES[role].permissions);
  }
  out.push(...assignment.directPermissions);
  return out;
}

function assignmentDenial(
  actor: AccessSubject,
  target: GrantTarget | null,
  assignment: AssignmentGrant,
  verb: 'grant' | 'revoke',
  registry: RoleRegistry,
  options: GrantOptions,
): string | null {
  const onTarget = grantTargetDenial(actor, target, 'assignments');
  if (onTarget) return onTarget;
  if (isAdmin(actor)) return null;
  const unknown = assignment.roles.find((role) => !isContextRoleId(role));
  if (unknown !== undefined) return `Invalid context role: ${unknown}`;
  const held = effectivePermissions(actor, {
    roles: registry,
    now: options.now,
    scope: assignment.context,
  });
  const reason = permissionsDenial(assignmentGrantPermissions(assignment), held, verb);
  return reason && `${reason} (in ${describeContext(assignment.context)})`;
}

/**
 * Whether `actor` may give `target` a context assignment (create, or the new side of a replace;
 * null: allowed): a non-admin must hold every permission of its context roles and every direct
 * permission in its context (parent contexts counting), none of them a system permission. A
 * non-admin is refused an unknown context role.
 */
export function assignmentGrantDenial(
  actor: AccessSubject,
  target: GrantTarget | null,
  assignment: AssignmentGrant,
  registry: RoleRegistry = SYSTEM_ROLE_REGISTRY,
  options: GrantOptions = {},
): string | null {
  return assignmentDenial(actor, target, assignment, 'grant', registry, options);
}

/**
 * Whether `actor` may take away `target`'s context assignment `previous` (remove, or the old side
 * of a replace; null: allowed): the same rule as giving it.
 */
export function assignmentRemoveDenial(
  actor: AccessSubject,
  target: GrantTarget | null,
  previous: AssignmentGrant,
  registry: RoleRegistry = SYSTEM_ROLE_REGISTRY,
  options: GrantOptions = {},
): string | null {
  return assignmentDenial(actor, target, previous, 'revoke', registry, options);
}

/**
 * Whether `actor` may replace `target`'s assignment in a context: both taking away `previous`
 * (when there is one) and giving `next` must be allowed.
 */
export function assignmentReplaceDenial(
  actor: AccessSubject,
  target: GrantTarget | null,
  previous: AssignmentGrant | null,
  next: AssignmentGrant,
  registry: RoleRegistry = SYSTEM_ROLE_REGISTRY,
  options: GrantOptions = {},
): string | null {
  if (previous) {
    const removal = assignmentRemoveDenial(actor, target, previous, registry, options);
    if (removal) return removal;
  }
  return assignmentGrantDenial(actor, target, next, registry, options);
}

/** The permissions (catalogue order) `actor` may grant `target` directly, system-wide. */
export function grantablePermissions(
  actor: AccessSubject,
  target: GrantTarget | null,
  candidates: readonly string[],
  registry: RoleRegistry = SYSTEM_ROLE_REGISTRY,
  options: GrantOptions = {},
): string[] {
  return candidates.filter(
    (p) => permissionGrantDenial(actor, target, p, registry, options) === null,
  );
}

/** The context roles `actor` may give `target` in `context`. */
export function grantableContextRoles(
  actor: AccessSubject,
  target: GrantTarget | null,
  context: AccessContext,
  candidates: readonly string[],
  registry: RoleRegistry = SYSTEM_ROLE_REGISTRY,
  options: GrantOptions = {},
): string[] {
  return candidates.filter(
    (role) =>
      assignmentGrantDenial(
        actor,
        target,
        { context, roles: [role], directPermissions: [] },
        registry,
        options,
      ) === null,
  );
}

/** The direct permissions `actor` may give `target` in `context`. */
export function grantableContextPermissions(
  actor: AccessSubject,
  target: GrantTarget | null,
  context: AccessContext,
  candidates: readonly string[],
  registry: RoleRegistry = SYSTEM_ROLE_REGISTRY,
  options: GrantOptions = {},
): string[] {
  return candidates.filter(
    (permission) =>
      assignmentGrantDenial(
        actor,
        target,
        { context, roles: [], directPermissions: [permission] },
        registry,
        options,
      ) === null,
  );
}

/** A custom role's definition as the grant rules see it. */
export interface CustomRoleGrant {
  id: string;
  inherits: string | null;
  permissions: readonly string[];
}

/**
 * Whether `actor` may change a custom role from `before` (null: it is being created) to `after`
 * (null: it is being deleted); null when allowed. Admins may change any custom role. A non-admin
 * may not change a role they hold (their own, or one it inherits from), nor one whose permissions
 * they could not give, nor give it permissions they could not give.
 */
export function customRoleDenial(
  actor: AccessSubject,
  before: CustomRoleGrant | null,
  after: CustomRoleGrant | null,
  registry: RoleRegistry = SYSTEM_ROLE_REGISTRY,
  options: GrantOptions = {},
): string | null {
  if (isAdmin(actor)) return null;
  const id = before?.id ?? after?.id;
  if (id !== undefined && registry.holds(actor.role, id)) return GRANT_DENIAL.ownRole;
  const held = effectivePermissions(actor, { roles: registry, now: options.now });
  if (before) {
    const reason = permissionsDenial(registry.permissionsOf(before.id), held, 'grant');
    if (reason) return currentRoleDenial(before.id, reason);
  }
  if (after) {
    if (after.inherits !== null && isAdminRole(after.inherits)) return GRANT_DENIAL.adminRole;
    const inherited = after.inherits === null ? [] : registry.permissionsOf(after.inherits);
    return permissionsDenial([...inherited, ...after.permissions], held, 'grant');
  }
  return null;
}
