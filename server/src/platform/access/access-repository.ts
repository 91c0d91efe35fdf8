/**
 * All SQL of the permission model: custom roles, direct permissions, context assignments, the
 * access versions that invalidate permission caches, and the durable audit trail of changes.
 * Every change that affects a user's permissions bumps their `access_version`, in the same
 * transaction; every change to a custom role bumps `access_epoch.roles_version`.
 */
import {
  contextKey,
  isContextRoleId,
  isPermissionId,
  parseContextKey,
  type AccessContext,
  type ContextAssignment,
  type ContextRoleId,
  type PermissionId,
  type Role,
} from '@learning-hub/core';
import { sql } from 'kysely';
import type { Db } from '../db';
import { sortableId } from '../ids';

const parseList = <T extends string>(json: string, valid: (v: unknown) => v is T): T[] => {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter(valid) : [];
  } catch {
    return [];
  }
};

// ---------------------------------------------------------------- versions

export async function getRolesVersion(db: Db): Promise<number> {
  const row = await db
    .selectFrom('access_epoch')
    .select('roles_version')
    .where('id', '=', 1)
    .executeTakeFirst();
  return Number(row?.roles_version ?? 0);
}

async function bumpRolesVersion(db: Db): Promise<void> {
  await db
    .updateTable('access_epoch')
    .set({ roles_version: sql`roles_version + 1` })
    .where('id', '=', 1)
    .execute();
}

/** Marks a user's permissions as changed (every instance reloads them on the next request). */
export async function bumpAccessVersion(db: Db, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ access_version: sql`access_version + 1` })
    .where('id', '=', userId)
    .execute();
}

// ---------------------------------------------------------------- custom roles

type CustomRoleRow = {
  id: string;
  display_name: string;
  description: string;
  inherits: string;
  permissions: string;
  priority: number;
};

function toRole(row: CustomRoleRow): Role {
  return {
    id: row.id,
    name: row.id,
    displayName: row.display_name,
    description: row.description,
    permissions: parseList(row.permissions, isPermissionId),
    inherits: row.inherits,
    context: 'global',
    isSystemRole: false,
    priority: Number(row.priority),
  };
}

export async function listCustomRoles(db: Db): Promise<Role[]> {
  const rows = await db.selectFrom('custom_roles').selectAll().orderBy('id').execute();
  return rows.map(toRole);
}

export async function findCustomRole(db: Db, id: string): Promise<Role | null> {
  const row = await db
    .selectFrom('custom_roles')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toRole(row) : null;
}

/**
 * Locks a custom role's row for the rest of the transaction and reads it as it is now (null: no
 * such role), so a change is judged on the definition it really replaces (see lockAccessTarget).
 */
export async function lockCustomRole(db: Db, id: string): Promise<Role | null> {
  const row = await db
    .updateTable('custom_roles')
    .set({ updated_at: sql`updated_at` })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ? toRole(row) : null;
}

export interface CustomRoleFields {
  displayName: string;
  description: string;
  inherits: string;
  permissions: readonly PermissionId[];
  priority: number;
}

export async function insertCustomRole(
  db: Db,
  id: string,
  fields: CustomRoleFields,
  actorId: string | null,
  at: string,
): Promise<void> {
  await db
    .insertInto('custom_roles')
    .values({
      id,
      display_name: fields.displayName,
      description: fields.description,
      inherits: fields.inherits,
      permissions: JSON.stringify(fields.permissions),
      priority: fields.priority,
      created_by: actorId,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await bumpRolesVersion(db);
}

export async function updateCustomRole(
  db: Db,
  id: string,
  fields: CustomRoleFields,
  at: string,
): Promise<void> {
  await db
    .updateTable('custom_roles')
    .set({
      display_name: fields.displayName,
      description: fields.description,
      inherits: fields.inherits,
      permissions: JSON.stringify(fields.permissions),
      priority: fields.priority,
      updated_at: at,
    })
    .where('id', '=', id)
    .execute();
  await bumpRolesVersion(db);
}

export async function deleteCustomRole(db: Db, id: string): Promise<void> {
  await db.deleteFrom('custom_roles').where('id', '=', id).execute();
  await bumpRolesVersion(db);
}

/** How many users hold each role id. */
export async function countUsersByRole(db: Db): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom('users')
    .select(['role', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('role')
    .execute();
  return new Map(rows.map((r) => [r.role, Number(r.n)]));
}

/** Custom roles that inherit directly from `id`. */
export async function findRolesInheriting(db: Db, id: string): Promise<string[]> {
  const rows = await db
    .selectFrom('custom_roles')
    .select('id')
    .where('inherits', '=', id)
    .execute();
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------- locks for access changes

/** What the grant rules need to know about the user a change is for, read under its lock. */
export interface AccessTarget {
  role: string;
  isSuperAdmin: boolean;
  isActive: boolean;
}

/**
 * Locks a user's row for the rest of the transaction and reads their role as it is now (null:
 * no such user). Every change to a user's role, direct permissions or assignments takes this lock
 * first, so the grant rules judge what the change really replaces and two changes to one user run
 * one after the other: on PostgreSQL the row lock makes a concurrent one wait and then read this
 * one's outcome; SQLite runs write transactions one at a time anyway. (A no-op update is the
 * portable lock: SQLite has no SELECT … FOR UPDATE.)
 */
export async function lockAccessTarget(db: Db, userId: string): Promise<AccessTarget | null> {
  const row = await db
    .updateTable('users')
    .set({ access_version: sql`access_version` })
    .where('id', '=', userId)
    .returning(['role', 'is_super_admin', 'is_active'])
    .executeTakeFirst();
  if (!row) return null;
  return {
    role: row.role,
    isSuperAdmin: Boolean(row.is_super_admin),
    isActive: Boolean(row.is_active),
  };
}

/**
 * Locks the rows of every active admin for the rest of the transaction and returns how many
 * there are, so changes that could leave no active admin run one after the other.
 */
export async function lockActiveAdminCount(db: Db): Promise<number> {
  const rows = await db
    .updateTable('users')
    .set({ access_version: sql`access_version` })
    .where('role', 'in', ['admin', 'super_admin'])
    .where('is_active', '=', 1)
    .returning('id')
    .execute();
  return rows.length;
}

// ---------------------------------------------------------------- direct permissions

export async function listUserPermissions(db: Db, userId: string): Promise<PermissionId[]> {
  const rows = await db
    .selectFrom('user_permissions')
    .select('permission')
    .where('user_id', '=', userId)
    .orderBy('permission')
    .execute();
  return rows.map((r) => r.permission).filter(isPermissionId);
}

/** Grants a permission; false when the user already had it. */
export async function grantUserPermission(
  db: Db,
  userId: string,
  permission: PermissionId,
  actorId: string | null,
  at: string,
): Promise<boolean> {
  const result = await db
    .insertInto('user_permissions')
    .values({ user_id: userId, permission, granted_by: actorId, granted_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'permission']).doNothing())
    .executeTakeFirst();
  const added = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  if (added) await bumpAccessVersion(db, userId);
  return added;
}

/** Revokes a permission; false when the user did not have it. */
export async function revokeUserPermission(
  db: Db,
  userId: string,
  permission: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('user_permissions')
    .where('user_id', '=', userId)
    .where('permission', '=', permission)
    .executeTakeFirst();
  const removed = Number(result.numDeletedRows) > 0;
  if (removed) await bumpAccessVersion(db, userId);
  return removed;
}

// ---------------------------------------------------------------- context assignments

type AssignmentRow = {
  user_id: string;
  context_key: string;
  roles: string;
  direct_permissions: string;
  assigned_by: string;
  assigned_at: string;
  expires_at: string | null;
  is_active: number;
};

function toAssignment(row: AssignmentRow): ContextAssignment | null {
  const context = parseContextKey(row.context_key);
  if (!context) return null;
  return {
    userId: row.user_id,
    context,
    roles: parseList<ContextRoleId>(row.roles, isContextRoleId),
    directPermissions: parseList(row.direct_permissions, isPermissionId),
    assignedBy: row.assigned_by,
    assignedAt: row.assigned_at,
    expiresAt: row.expires_at,
    isActive: Boolean(row.is_active),
  };
}

/** A user's stored assignments (in force or not), by context key. */
export async function listAssignments(db: Db, userId: string): Promise<ContextAssignment[]> {
  const rows = await db
    .selectFrom('context_assignments')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('context_key')
    .execute();
  return rows.map(toAssignment).filter((a): a is ContextAssignment => a !== null);
}

/** The active assignments of active users that end after `from` and at or before `to`. */
export async function listAssignmentsEndingBetween(
  db: Db,
  from: string,
  to: string,
): Promise<ContextAssignment[]> {
  const rows = await db
    .selectFrom('context_assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .selectAll('a')
    .where('a.is_active', '=', 1)
    .where('u.is_active', '=', 1)
    .where('a.expires_at', '>', from)
    .where('a.expires_at', '<=', to)
    .execute();
  return rows.map(toAssignment).filter((a): a is ContextAssignment => a !== null);
}

export async function findAssignment(
  db: Db,
  userId: string,
  context: AccessContext,
): Promise<ContextAssignment | null> {
  const row = await db
    .selectFrom('context_assignments')
    .selectAll()
    .where('user_id', '=', userId)
    .where('context_key', '=', contextKey(context))
    .executeTakeFirst();
  return row ? toAssignment(row) : null;
}

/** Stores an assignment, replacing the user's previous one for the same context (spec §4). */
export async function upsertAssignment(db: Db, assignment: ContextAssignment): Promise<void> {
  const values = {
    roles: JSON.stringify(assignment.roles),
    direct_permissions: JSON.stringify(assignment.directPermissions),
    assigned_by: assignment.assignedBy,
    assigned_at: assignment.assignedAt,
    expires_at: assignment.expiresAt,
    is_active: assignment.isActive ? 1 : 0,
  };
  await db
    .insertInto('context_assignments')
    .values({
      user_id: assignment.userId,
      context_key: contextKey(assignment.context),
      context_type: assignment.context.type,
      ...values,
    })
    .onConflict((oc) => oc.columns(['user_id', 'context_key']).doUpdateSet(values))
    .execute();
  await bumpAccessVersion(db, assignment.userId);
}

/** Removes the user's assignment for a context (spec §4); false when there was none. */
export async function deleteAssignment(
  db: Db,
  userId: string,
  context: AccessContext,
): Promise<boolean> {
  const result = await db
    .deleteFrom('context_assignments')
    .where('user_id', '=', userId)
    .where('context_key', '=', contextKey(context))
    .executeTakeFirst();
  const removed = Number(result.numDeletedRows) > 0;
  if (removed) await bumpAccessVersion(db, userId);
  return removed;
}

/** Users with an active assignment in a context (participants, members). */
export async function listContextMembers(
  db: Db,
  context: AccessContext,
): Promise<
  {
    id: string;
    username: string;
    firstname: string;
    lastname: string;
    assignment: ContextAssignment;
  }[]
> {
  const rows = await db
    .selectFrom('context_assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select([
      'u.id',
      'u.username',
      'u.firstname',
      'u.lastname',
      'a.user_id',
      'a.context_key',
      'a.roles',
      'a.direct_permissions',
      'a.assigned_by',
      'a.assigned_at',
      'a.expires_at',
      'a.is_active',
    ])
    .where('a.context_key', '=', contextKey(context))
    .where('u.is_active', '=', 1)
    .orderBy('u.lastname')
    .orderBy('u.firstname')
    .execute();
  return rows.flatMap((r) => {
    const assignment = toAssignment(r);
    return assignment
      ? [
          {
            id: r.id,
            username: r.username,
            firstname: r.firstname,
            lastname: r.lastname,
            assignment,
          },
        ]
      : [];
  });
}

/** Number of assignments per user (for the admin list). */
export async function countAssignments(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('context_assignments')
    .select(['user_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('user_id', 'in', [...userIds])
    .where('is_active', '=', 1)
    .groupBy('user_id')
    .execute();
  return new Map(rows.map((r) => [r.user_id, Number(r.n)]));
}

/** Direct permissions of several users (for the admin list). */
export async function listPermissionsOf(
  db: Db,
  userIds: readonly string[],
): Promise<Map<string, PermissionId[]>> {
  const out = new Map<string, PermissionId[]>();
  if (userIds.length === 0) return out;
  const rows = await db
    .selectFrom('user_permissions')
    .select(['user_id', 'permission'])
    .where('user_id', 'in', [...userIds])
    .orderBy('permission')
    .execute();
  for (const r of rows) {
    if (!isPermissionId(r.permission)) continue;
    const list = out.get(r.user_id) ?? [];
    list.push(r.permission);
    out.set(r.user_id, list);
  }
  return out;
}

// ---------------------------------------------------------------- audit trail

export interface AccessAuditInput {
  action: string;
  actorId: string | null;
  actorUsername: string | null;
  targetUserId?: string | null;
  targetUsername?: string | null;
  roleId?: string | null;
  permission?: string | null;
  context?: string | null;
  details?: Record<string, unknown>;
  requestId?: string | null;
}

export async function recordAccessAudit(db: Db, at: string, e: AccessAuditInput): Promise<void> {
  await db
    .insertInto('access_audit')
    .values({
      id: sortableId(),
      occurred_at: at,
      action: e.action,
      actor_id: e.actorId,
      actor_username: e.actorUsername,
      target_user_id: e.targetUserId ?? null,
      target_username: e.targetUsername ?? null,
      role_id: e.roleId ?? null,
      permission: e.permission ?? null,
      context_key: e.context ?? null,
      details: JSON.stringify(e.details ?? {}),
      request_id: e.requestId ?? null,
    })
    .execute();
}

export interface AccessAuditFilter {
  actorId?: string;
  userId?: string;
  action?: string;
  from?: string;
  to?: string;
  offset: number;
  limit: number;
}

export async function listAccessAudit(db: Db, filter: AccessAuditFilter) {
  let query = db.selectFrom('access_audit');
  if (filter.actorId) query = query.where('actor_id', '=', filter.actorId);
  if (filter.userId) query = query.where('target_user_id', '=', filter.userId);
  if (filter.action) query = query.where('action', '=', filter.action);
  if (filter.from) query = query.where('occurred_at', '>=', filter.from);
  if (filter.to) query = query.where('occurred_at', '<=', filter.to);
  const total = await query
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .selectAll()
    .orderBy('occurred_at', 'desc')
    .orderBy('id', 'desc')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return {
    total: Number(total.n),
    entries: rows.map((r) => {
      let details: Record<string, unknown> = {};
      try {
        const parsed: unknown = JSON.parse(r.details);
        if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
          details = parsed as Record<string, unknown>;
        }
      } catch {
        // keep {}
      }
      return {
        id: r.id,
        occurredAt: r.occurred_at,
        action: r.action,
        actorId: r.actor_id,
        actorUsername: r.actor_username,
        targetUserId: r.target_user_id,
        targetUsername: r.target_username,
        roleId: r.role_id,
        permission: r.permission,
        context: r.context_key,
        details,
      };
    }),
  };
}
