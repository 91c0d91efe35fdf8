/**
 * Changing one user's context assignment as one step of a transaction, the same way wherever it
 * is done (the admin area's user pages, the department pages): lock the user's row, read the
 * assignment the change replaces, let the caller's rules judge it, write it — which bumps the
 * user's `access_version`, so every server instance reloads their permissions on their next
 * request — and record it in the durable access audit trail with the same action names and
 * details everywhere (`assignment.create`, `assignment.replace`, `assignment.remove`).
 */
import {
  AppError,
  contextKey,
  type AccessContext,
  type ContextAssignment,
} from '@learning-hub/core';
import type { Db } from '../db';
import {
  deleteAssignment,
  findAssignment,
  lockAccessTarget,
  recordAccessAudit,
  upsertAssignment,
  type AccessTarget,
} from './access-repository';
import { auditedActor, type Actor } from '../actor';

/** The user a change is for, as read under the lock of their row. */
export type LockedTarget = AccessTarget & { id: string };

/**
 * The caller's rules: null allows the change, a string refuses it with 403 and these words.
 * `previous` is the assignment the change replaces or removes (null: none; a removal of nothing
 * then does nothing), `next` the one it stores (null: a removal).
 */
export type AssignmentJudge = (
  target: LockedTarget,
  previous: ContextAssignment | null,
  next: ContextAssignment | null,
) => string | null;

interface ChangeBase {
  /** The target's username, for the audit row. */
  targetUsername: string;
  actor: Actor;
  /** ISO instant of the audit row. */
  at: string;
  judge?: AssignmentJudge;
  /**
   * Runs after the write and before the audit row, in the same transaction: `next` is what was
   * stored (null: a removal). The notices of new roles are written here (access/role-notices.ts).
   */
  afterWrite?: (
    trx: Db,
    previous: ContextAssignment | null,
    next: ContextAssignment | null,
  ) => Promise<void>;
}

const summary = (a: ContextAssignment) => ({
  roles: a.roles,
  directPermissions: a.directPermissions,
  expiresAt: a.expiresAt,
});

/** Locks the user's row and reads them as the rules see them; 404 when they do not exist. */
async function lockTarget(trx: Db, userId: string): Promise<LockedTarget> {
  const current = await lockAccessTarget(trx, userId);
  if (!current) throw new AppError('NOT_FOUND', 'User not found');
  return { id: userId, ...current };
}

/**
 * Stores an assignment, replacing the user's assignment in the same context if there is one (an
 * upsert on the primary key, under the lock of the user's row: of two concurrent changes, the
 * second replaces the first). `next` is the assignment, or makes it from the one it replaces.
 * Call it inside a transaction. Returns the assignment it replaced (null: it created one).
 */
export async function replaceContextAssignment(
  trx: Db,
  target: { userId: string; context: AccessContext },
  next: ContextAssignment | ((previous: ContextAssignment | null) => ContextAssignment),
  change: ChangeBase,
): Promise<{ previous: ContextAssignment | null; assignment: ContextAssignment }> {
  const locked = await lockTarget(trx, target.userId);
  const previous = await findAssignment(trx, target.userId, target.context);
  const assignment = typeof next === 'function' ? next(previous) : next;
  const reason = change.judge?.(locked, previous, assignment) ?? null;
  if (reason !== null) throw new AppError('FORBIDDEN', reason);
  await upsertAssignment(trx, assignment);
  await change.afterWrite?.(trx, previous, assignment);
  await recordAccessAudit(trx, change.at, {
    action: previous ? 'assignment.replace' : 'assignment.create',
    ...auditedActor(change.actor),
    targetUserId: assignment.userId,
    targetUsername: change.targetUsername,
    context: contextKey(assignment.context),
    details: {
      ...summary(assignment),
      ...(previous ? { previous: summary(previous) } : {}),
    },
  });
  return { previous, assignment };
}

/**
 * Removes the user's assignment in `context`. Call it inside a transaction. Returns the
 * assignment it removed, or null when there was none (nothing is written then).
 */
export async function removeContextAssignment(
  trx: Db,
  userId: string,
  context: AccessContext,
  change: ChangeBase,
): Promise<ContextAssignment | null> {
  const target = await lockTarget(trx, userId);
  const previous = await findAssignment(trx, userId, context);
  const reason = change.judge?.(target, previous, null) ?? null;
  if (reason !== null) throw new AppError('FORBIDDEN', reason);
  if (!previous) return null;
  await deleteAssignment(trx, userId, context);
  await change.afterWrite?.(trx, previous, null);
  await recordAccessAudit(trx, change.at, {
    action: 'assignment.remove',
    ...auditedActor(change.actor),
    targetUserId: userId,
    targetUsername: change.targetUsername,
    context: contextKey(context),
    details: summary(previous),
  });
  return previous;
}
