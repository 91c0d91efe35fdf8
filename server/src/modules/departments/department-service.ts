/**
 * The department pages' rules that span repositories (docs/departments.md): creating, renaming,
 * describing and archiving a department, and who belongs to it and who manages it — context
 * assignments in the department, changed through the access domain's shared change
 * (access/assignment-changes.ts: the user's row lock, the audit trail, the permission reload on
 * every instance), never a table of their own. The routes stay thin.
 */
import type { NotificationService } from '../../platform/notifications/notification-service';
import { tellOfNewRoles } from '../../platform/access/role-notices';
import {
  AppError,
  assignmentRemoveDenial,
  assignmentReplaceDenial,
  isAdmin,
  type AccessContext,
  type AccessSubject,
  type ContextAssignment,
  type DepartmentMember,
} from '@learning-hub/core';
import type { AccessService } from '../../platform/access/access-service';
import {
  removeContextAssignment,
  replaceContextAssignment,
} from '../../platform/access/assignment-changes';
import { findUserById, type UserRecord } from '../../platform/auth/user-repository';
import {
  createDepartment,
  DepartmentNameTakenError,
  departmentSlug,
} from '../../platform/auth/departments';
import { displayName } from '../../platform/auth/display-name';
import type { Db } from '../../platform/db';
import { updateAtRevision } from '../../platform/db/revision';
import type { SignedInActor } from '../../platform/actor';
import { sanitizeRichText } from '../../platform/rich-text/sanitize';
import { mayAdminister } from './department-access';
import {
  findDepartmentRow,
  findMembership,
  lockDepartment,
  renameDepartment,
  toMember,
  updateDepartmentRow,
  type DepartmentRow,
} from './department-repository';

/** The answers of the department pages' rules, word for word. */
export const DEPARTMENT_MESSAGES = {
  notFound: 'Department not found',
  userNotFound: 'User not found',
  nameTaken: (name: string) => `A department called “${name}” already exists.`,
  adminOnly: 'Only an admin can rename, archive or restore a department.',
  archived: (name: string) =>
    `${name} is archived: it takes no new members and no changes. An admin can restore it.`,
  expiryPast: 'The end date must be in the future.',
  inactive: (name: string) => `${name}'s account is deactivated.`,
  notMember: (name: string, department: string) => `${name} is not a member of ${department}.`,
  byAccount: (name: string) =>
    `${name} belongs to this department by their account. Change the department on their account to remove them.`,
  ownMembership:
    'You cannot change your own membership or role in a department. Ask another manager or an admin.',
} as const;
const M = DEPARTMENT_MESSAGES;

/** The two roles a department page hands out, as the stored assignment's roles. */
export function rolesFor(role: 'department-member' | 'department-manager') {
  // department-manager has no department.view of its own: a manager is a member too.
  return role === 'department-manager'
    ? (['department-member', 'department-manager'] as const)
    : (['department-member'] as const);
}

export interface DepartmentDeps {
  db: Db;
  access: AccessService;
  now: () => number;
  /** Tells people of a role given them (docs/notifications.md); none: nobody is told. */
  notifications?: NotificationService;
}

const departmentContext = (departmentId: string): AccessContext => ({
  type: 'department',
  departmentId,
});

/** The actor's permissions as loaded for this request's check (the grant rules judge them). */
function subjectOf(deps: DepartmentDeps, user: UserRecord): AccessSubject {
  return (
    deps.access.engine.subjectOf(user.id) ?? {
      id: user.id,
      role: user.role,
      isSuperAdmin: user.isSuperAdmin,
    }
  );
}

/** A new department (admins): 409 when a department has or had its URL name. */
export async function createDepartmentFor(
  deps: DepartmentDeps,
  input: { name: string; description: string },
): Promise<DepartmentRow> {
  const at = new Date(deps.now()).toISOString();
  try {
    const created = await createDepartment(
      deps.db,
      { name: input.name, description: sanitizeRichText(input.description) },
      at,
    );
    return (await findDepartmentRow(deps.db, created.id)) as DepartmentRow;
  } catch (error) {
    if (error instanceof DepartmentNameTakenError) {
      throw new AppError('CONFLICT', M.nameTaken(input.name));
    }
    throw error;
  }
}

/**
 * Changes a department: the description (department.manage there, checked by the route), the
 * name and archiving (admins only). All in one transaction under the department's row lock; an
 * archived department's description stays as it is until an admin restores it.
 */
export async function updateDepartmentFor(
  deps: DepartmentDeps,
  user: UserRecord,
  departmentId: string,
  changes: {
    name?: string | undefined;
    description?: string | undefined;
    archived?: boolean | undefined;
    revision: number;
  },
): Promise<DepartmentRow> {
  const at = new Date(deps.now()).toISOString();
  try {
    return await deps.db.transaction().execute(async (trx) => {
      // First the one conditional UPDATE at the revision the caller read (404 gone, 409 changed
      // since): it bumps the revision and locks the row for the rest of the change.
      await updateAtRevision(
        trx,
        { table: 'departments', id: departmentId, revision: changes.revision },
        { notFound: M.notFound },
      );
      const department = await findDepartmentRow(trx, departmentId);
      if (!department) throw new AppError('NOT_FOUND', M.notFound);
      const renames = changes.name !== undefined && changes.name !== department.name;
      const archives =
        changes.archived !== undefined && changes.archived !== (department.archivedAt !== null);
      // A name or archived state sent unchanged (a whole form sent back) is no change. The
      // route lets managers in (department.manage); the rest is the admins' (an audited check).
      if ((renames || archives) && !mayAdminister(deps.access, user.id)) {
        throw new AppError('FORBIDDEN', M.adminOnly);
      }
      const staysArchived = department.archivedAt !== null && changes.archived !== false;
      if (changes.description !== undefined && staysArchived) {
        throw new AppError('CONFLICT', M.archived(department.name));
      }
      if (renames && changes.name !== undefined) {
        const slug = departmentSlug(changes.name) || department.id;
        await renameDepartment(trx, department, changes.name, slug, at);
      }
      const archivedAt = archives ? (changes.archived ? at : null) : undefined;
      await updateDepartmentRow(trx, departmentId, {
        ...(changes.description !== undefined
          ? { description: sanitizeRichText(changes.description) }
          : {}),
        ...(archivedAt !== undefined ? { archivedAt } : {}),
      });
      return (await findDepartmentRow(trx, departmentId)) as DepartmentRow;
    });
  } catch (error) {
    if (error instanceof DepartmentNameTakenError) {
      throw new AppError('CONFLICT', M.nameTaken(error.departmentName));
    }
    throw error;
  }
}

/** The department, locked for the change; 404 when gone, 409 when archived. */
async function openForChanges(trx: Db, departmentId: string): Promise<DepartmentRow> {
  const department = await lockDepartment(trx, departmentId);
  if (!department) throw new AppError('NOT_FOUND', M.notFound);
  if (department.archivedAt !== null) throw new AppError('CONFLICT', M.archived(department.name));
  return department;
}

/**
 * Adds a person to the department or changes their role and end date there (`mode: 'update'`
 * only for someone who already belongs): one assignment in the department's context, replacing
 * theirs there (its direct permissions kept). Non-admins are held to the grant rules of
 * core/access (they give only what they hold there; only admins change admins) and never change
 * themselves; admins may. Answers the member as they are now.
 */
export async function setMember(
  deps: DepartmentDeps,
  user: UserRecord,
  actor: SignedInActor,
  departmentId: string,
  input: {
    userId: string;
    role: 'department-member' | 'department-manager';
    expiresAt: string | null;
  },
  mode: 'add' | 'update',
): Promise<DepartmentMember> {
  const now = deps.now();
  const at = new Date(now).toISOString();
  if (input.expiresAt !== null && Date.parse(input.expiresAt) <= now) {
    throw new AppError('VALIDATION_ERROR', M.expiryPast);
  }
  const admin = isAdmin(user);
  const target = await findUserById(deps.db, input.userId);
  if (!target) throw new AppError('NOT_FOUND', M.userNotFound);
  if (target.id === user.id && !admin) throw new AppError('FORBIDDEN', M.ownMembership);
  const granter = subjectOf(deps, user);
  const roles = await deps.access.refreshRoles();
  const context = departmentContext(departmentId);
  const assignment = await deps.db.transaction().execute(async (trx) => {
    const department = await openForChanges(trx, departmentId);
    const membership = await findMembership(trx, departmentId, target.id, at);
    if (!membership) throw new AppError('NOT_FOUND', M.userNotFound);
    if (!membership.isActive) throw new AppError('CONFLICT', M.inactive(displayName(target)));
    if (mode === 'update' && !membership.member) {
      throw new AppError('NOT_FOUND', M.notMember(displayName(target), department.name));
    }
    const result = await replaceContextAssignment(
      trx,
      { userId: target.id, context },
      (previous): ContextAssignment => ({
        userId: target.id,
        context,
        roles: rolesFor(input.role),
        directPermissions: previous?.directPermissions ?? [],
        assignedBy: user.id,
        assignedAt: at,
        expiresAt: input.expiresAt === null ? null : new Date(input.expiresAt).toISOString(),
        isActive: true,
      }),
      {
        targetUsername: target.username,
        actor,
        at,
        judge: (locked, previous, next) =>
          admin || !next
            ? null
            : assignmentReplaceDenial(granter, locked, previous, next, roles, { now }),
        afterWrite: async (trx, previous, next) => {
          if (next && deps.notifications) {
            await tellOfNewRoles(deps.notifications, trx, {
              previous,
              next,
              actorId: user.id,
              now,
            });
          }
        },
      },
    );
    return result.assignment;
  });
  return toMember(departmentId, {
    id: target.id,
    username: target.username,
    firstname: target.firstname,
    lastname: target.lastname,
    department_id: target.departmentId,
    roles: JSON.stringify(assignment.roles),
    expires_at: assignment.expiresAt,
  });
}

/**
 * Removes a person's assignment in the department (204). Someone who belongs by their account
 * has nothing to remove here (409, saying where to change it); with a manager's assignment on top,
 * removing it leaves them a member by account.
 */
export async function removeMember(
  deps: DepartmentDeps,
  user: UserRecord,
  actor: SignedInActor,
  departmentId: string,
  userId: string,
): Promise<void> {
  const now = deps.now();
  const at = new Date(now).toISOString();
  const admin = isAdmin(user);
  const target = await findUserById(deps.db, userId);
  if (!target) throw new AppError('NOT_FOUND', M.userNotFound);
  if (target.id === user.id && !admin) throw new AppError('FORBIDDEN', M.ownMembership);
  const granter = subjectOf(deps, user);
  const roles = await deps.access.refreshRoles();
  const context = departmentContext(departmentId);
  await deps.db.transaction().execute(async (trx) => {
    const department = await openForChanges(trx, departmentId);
    const removed = await removeContextAssignment(trx, target.id, context, {
      targetUsername: target.username,
      actor,
      at,
      judge: (locked, previous) =>
        admin || !previous
          ? null
          : assignmentRemoveDenial(granter, locked, previous, roles, { now }),
    });
    if (removed) return;
    if (target.departmentId === departmentId) {
      throw new AppError('CONFLICT', M.byAccount(displayName(target)));
    }
    throw new AppError('NOT_FOUND', M.notMember(displayName(target), department.name));
  });
}

/** The owner type of a department page's files (its description's pictures). */
export const DEPARTMENT_OWNER = 'department';
