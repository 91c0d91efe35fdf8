/**
 * Admin API for users and their permissions: find users, change their role, grant and revoke
 * direct permissions, create / replace / remove context assignments with expiry, and see their
 * effective permissions with where each comes from. Every change is written to the durable access
 * audit trail and takes effect on the user's next request (see the access service).
 *
 * Holding `user.manage_roles` is not enough to give anything: the grant rules of core/access
 * decide who may give what to whom (nobody changes themselves, only admins change admins, a
 * non-admin gives only what they hold in the context, never admin or `system.*`). They are judged
 * under a lock on the target user's row, on what the change really replaces.
 */
import { tellOfNewRoles } from '../../platform/access/role-notices';
import {
  AdminUserSchema,
  AppError,
  assignmentRemoveDenial,
  assignmentReplaceDenial,
  AssignmentInputSchema,
  AssignmentListQuerySchema,
  AssignmentListSchema,
  contextKey,
  EffectivePermissionsQuerySchema,
  EffectivePermissionsSchema,
  explainEffectivePermissions,
  GrantPermissionSchema,
  grantTargetDenial,
  isAdminRole,
  isAssignmentInForce,
  parseContextKey,
  permissionGrantDenial,
  permissionRevokeDenial,
  roleGrantDenial,
  SetRoleSchema,
  UserListQuerySchema,
  UserListSchema,
  type AccessContext,
  type AccessSubject,
  type AdminUser,
  type CheckScope,
  type ContextAssignment,
} from '@learning-hub/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  countAssignments,
  grantUserPermission,
  listPermissionsOf,
  listUserPermissions,
  lockAccessTarget,
  lockActiveAdminCount,
  recordAccessAudit,
  revokeUserPermission,
  type AccessAuditInput,
} from '../../platform/access/access-repository';
import {
  removeContextAssignment,
  replaceContextAssignment,
} from '../../platform/access/assignment-changes';
import { describeContextTarget, labelContexts } from '../../platform/access/context-labels';
import {
  findUserById,
  listUsersPage,
  setRole,
  toPublicUser,
  type UserRecord,
} from '../../platform/auth/user-repository';
import { applyEnrolmentBlockRule } from '../courses/public';
import type { Db } from '../../platform/db';
import { createdAnswer } from '../../platform/http/openapi';
import { actorOf } from '../../platform/http/access';
import { auditedActor } from '../../platform/actor';
import { pageWindow, sendPage, slicePage } from '../../platform/paging';

const UserParams = z.object({ userId: z.string().min(1).max(200) });

/** `system`, `any` or a context key → the scope of a check. */
export function scopeFromParam(scope: string): CheckScope {
  if (scope === 'any') return 'any';
  if (scope === 'system') return undefined;
  const context = parseContextKey(scope);
  if (!context) throw new AppError('VALIDATION_ERROR', 'Unknown context');
  return context;
}

/** Refuses with 403 and the grant rule's reason when there is one. */
function refuse(reason: string | null): void {
  if (reason !== null) throw new AppError('FORBIDDEN', reason);
}

/** The 403 of a change the grant rules judge (API description). */
const GRANT_RULES = 'The grant rules refuse the change (the message gives the rule).';

const adminUsersRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => number }> = async (
  app,
  { db, now },
) => {
  const iso = () => new Date(now()).toISOString();

  async function recordAccessAuditFor(
    trx: Db,
    request: FastifyRequest,
    user: UserRecord,
    entry: Omit<AccessAuditInput, 'actorId' | 'actorUsername' | 'requestId'>,
  ) {
    await recordAccessAudit(trx, iso(), {
      ...auditedActor(actorOf(request)),
      targetUserId: user.id,
      targetUsername: user.username,
      ...entry,
    });
  }

  /** The shared assignment change's audit fields for a change of `user` in this request. */
  const changeOf = (request: FastifyRequest, user: UserRecord) => {
    return { targetUsername: user.username, actor: actorOf(request), at: iso() };
  };

  /** The signed-in user's permissions as loaded for this request's check. */
  function actorSubject(request: FastifyRequest): AccessSubject {
    const user = request.auth?.user;
    if (!user) throw new AppError('UNAUTHENTICATED', 'User not authenticated');
    return (
      app.access.engine.subjectOf(user.id) ?? {
        id: user.id,
        role: user.role,
        isSuperAdmin: user.isSuperAdmin,
      }
    );
  }

  /** Locks the target's row (see lockAccessTarget) and returns them as the grant rules see them. */
  async function lockTarget(trx: Db, user: UserRecord) {
    const current = await lockAccessTarget(trx, user.id);
    if (!current) throw new AppError('NOT_FOUND', 'User not found');
    return { id: user.id, ...current };
  }

  async function targetUser(userId: string): Promise<UserRecord> {
    const user = await findUserById(db, userId);
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    return user;
  }

  async function toAdminUsers(users: UserRecord[]): Promise<AdminUser[]> {
    const ids = users.map((u) => u.id);
    const [permissions, counts] = await Promise.all([
      listPermissionsOf(db, ids),
      countAssignments(db, ids),
    ]);
    return users.map((u) => ({
      ...toPublicUser(u),
      createdAt: u.createdAt,
      directPermissions: permissions.get(u.id) ?? [],
      assignmentCount: counts.get(u.id) ?? 0,
    }));
  }

  app.get(
    '/api/admin/users',
    {
      config: { access: { permissions: ['user.view'] } },
      schema: {
        operationId: 'listUsers',
        tags: ['users'],
        summary: 'List users',
        querystring: UserListQuerySchema,
        response: { 200: UserListSchema },
      },
    },
    async (request, reply) => {
      const { page, pageSize, search, role, department } = request.query;
      const { users, total } = await listUsersPage(db, {
        search: search || undefined,
        role: role || undefined,
        departmentId: department || undefined,
        ...pageWindow({ page, pageSize }),
      });
      const items = await toAdminUsers(users);
      return sendPage(request, reply, { items, total, page, pageSize });
    },
  );

  app.get(
    '/api/admin/users/:userId',
    {
      config: { access: { permissions: ['user.view'] } },
      schema: {
        operationId: 'getUser',
        tags: ['users'],
        summary: 'One user',
        params: UserParams,
        response: { 200: AdminUserSchema },
      },
    },
    async (request) => {
      const [user] = await toAdminUsers([await targetUser(request.params.userId)]);
      return user as AdminUser;
    },
  );

  app.put(
    '/api/admin/users/:userId/role',
    {
      config: {
        access: { permissions: ['user.manage_roles'] },
        responses: {
          400: ['Unknown role: <role>'],
          403: [GRANT_RULES],
          409: ['At least one active admin must remain.'],
        },
      },
      schema: {
        operationId: 'updateUserRole',
        tags: ['users'],
        summary: 'Set a user’s role',
        params: UserParams,
        body: SetRoleSchema,
        response: { 200: AdminUserSchema },
      },
    },
    async (request) => {
      const user = await targetUser(request.params.userId);
      const { role } = request.body;
      const roles = await app.access.refreshRoles();
      if (!roles.get(role)) throw new AppError('VALIDATION_ERROR', `Unknown role: ${role}`);
      const granter = actorSubject(request);
      await db.transaction().execute(async (trx) => {
        // Always the active admins first, then the target: one lock order for every change.
        const admins = isAdminRole(role) ? null : await lockActiveAdminCount(trx);
        const current = await lockTarget(trx, user);
        refuse(roleGrantDenial(granter, current, role, roles, { now: now() }));
        if (role === current.role) return;
        if (admins !== null && isAdminRole(current.role) && current.isActive && admins <= 1) {
          throw new AppError('CONFLICT', 'At least one active admin must remain.');
        }
        await setRole(trx, user.id, role, iso());
        await recordAccessAuditFor(trx, request, user, {
          action: 'role.set',
          roleId: role,
          details: { from: current.role, to: role },
        });
      });
      const [updated] = await toAdminUsers([await targetUser(user.id)]);
      return updated as AdminUser;
    },
  );

  app.post(
    '/api/admin/users/:userId/permissions',
    {
      config: {
        access: { permissions: ['user.manage_roles'] },
        responses: {
          200: 'The user already held it: nothing changed.',
          201: createdAnswer('/api/admin/users/<userId>/permissions/<permission>', 'Granted.'),
          403: [GRANT_RULES],
        },
      },
      schema: {
        operationId: 'createUserPermission',
        tags: ['users'],
        summary: 'Grant a user a permission (answers the user)',
        params: UserParams,
        body: GrantPermissionSchema,
        response: { 200: AdminUserSchema, 201: AdminUserSchema },
      },
    },
    async (request, reply) => {
      const user = await targetUser(request.params.userId);
      const permission = request.body.permission as Parameters<typeof grantUserPermission>[2];
      const granter = actorSubject(request);
      const roles = await app.access.refreshRoles();
      const granted = await db.transaction().execute(async (trx) => {
        const current = await lockTarget(trx, user);
        refuse(permissionGrantDenial(granter, current, permission, roles, { now: now() }));
        const added = await grantUserPermission(
          trx,
          user.id,
          permission,
          actorOf(request).id,
          iso(),
        );
        if (added) {
          await recordAccessAuditFor(trx, request, user, {
            action: 'permission.grant',
            permission,
          });
        }
        return added;
      });
      const [updated] = await toAdminUsers([await targetUser(user.id)]);
      if (!granted) return reply.code(200).send(updated as AdminUser);
      return reply
        .code(201)
        .header(
          'location',
          `/api/admin/users/${encodeURIComponent(user.id)}/permissions/${encodeURIComponent(permission)}`,
        )
        .send(updated as AdminUser);
    },
  );

  app.delete(
    '/api/admin/users/:userId/permissions/:permission',
    {
      config: {
        access: { permissions: ['user.manage_roles'] },
        responses: {
          204: 'Taken away.',
          403: [GRANT_RULES],
          404: ['The user has no such direct permission'],
        },
      },
      schema: {
        operationId: 'deleteUserPermission',
        tags: ['users'],
        summary: 'Take a permission from a user',
        params: UserParams.extend({ permission: z.string().min(1).max(100) }),
      },
    },
    async (request, reply) => {
      const user = await targetUser(request.params.userId);
      const { permission } = request.params;
      const granter = actorSubject(request);
      const roles = await app.access.refreshRoles();
      const removed = await db.transaction().execute(async (trx) => {
        const current = await lockTarget(trx, user);
        refuse(grantTargetDenial(granter, current, 'permissions'));
        if (!(await listUserPermissions(trx, user.id)).some((p) => p === permission)) return false;
        refuse(permissionRevokeDenial(granter, current, permission, roles, { now: now() }));
        const done = await revokeUserPermission(trx, user.id, permission);
        if (done) {
          await recordAccessAuditFor(trx, request, user, {
            action: 'permission.revoke',
            permission,
          });
        }
        return done;
      });
      if (!removed) throw new AppError('NOT_FOUND', 'The user has no such direct permission');
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/admin/users/:userId/assignments',
    {
      config: { access: { permissions: ['user.view'] } },
      schema: {
        operationId: 'listUserAssignments',
        tags: ['users'],
        summary: 'A user’s role assignments',
        params: UserParams,
        querystring: AssignmentListQuerySchema,
        response: { 200: AssignmentListSchema },
      },
    },
    async (request, reply) => {
      const user = await targetUser(request.params.userId);
      const subject = await app.access.loadSubject(user);
      const at = now();
      const assignments = subject.contextAssignments ?? [];
      const labels = await labelContexts(
        db,
        assignments.map((a) => a.context),
      );
      const all = assignments.map((a, i) => ({
        ...a,
        contextKey: contextKey(a.context),
        contextLabel: labels.get(contextKey(a.context)) ?? contextKey(a.context),
        // loadSubject puts the one derived from the user's department first.
        derived: i === 0 && a.assignedBy === 'system' && user.departmentId !== null,
        inForce: isAssignmentInForce(a, at),
      }));
      return sendPage(request, reply, slicePage(all, request.query));
    },
  );

  app.put(
    '/api/admin/users/:userId/assignments',
    {
      config: {
        access: { permissions: ['user.manage_roles'] },
        responses: {
          400: ['The expiry must be in the future', 'No such <context type>: <id>'],
          403: [GRANT_RULES],
        },
      },
      schema: {
        operationId: 'updateUserAssignment',
        tags: ['users'],
        summary: 'Assign a user a role in a context',
        params: UserParams,
        body: AssignmentInputSchema,
        response: { 200: z.object({ replaced: z.boolean(), contextKey: z.string() }) },
      },
    },
    async (request) => {
      const user = await targetUser(request.params.userId);
      const input = request.body;
      const context = input.context as AccessContext;
      if (input.expiresAt !== null && Date.parse(input.expiresAt) <= now()) {
        throw new AppError('VALIDATION_ERROR', 'The expiry must be in the future');
      }
      if ((await describeContextTarget(db, context)) === null) {
        throw new AppError(
          'VALIDATION_ERROR',
          `No such ${context.type}: ${contextKey(context).split(':').slice(1).join(':')}`,
        );
      }
      const assignment: ContextAssignment = {
        userId: user.id,
        context,
        roles: input.roles,
        directPermissions: input.directPermissions as ContextAssignment['directPermissions'],
        assignedBy: request.auth?.user.id ?? 'unknown',
        assignedAt: iso(),
        expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : null,
        isActive: true,
      };
      const granter = actorSubject(request);
      const roles = await app.access.refreshRoles();
      const { previous } = await db.transaction().execute((trx) =>
        replaceContextAssignment(trx, assignment, assignment, {
          ...changeOf(request, user),
          judge: (current, before) =>
            assignmentReplaceDenial(granter, current, before, assignment, roles, { now: now() }),
          afterWrite: async (trx, before) => {
            await tellOfNewRoles(app.notifications, trx, {
              previous: before,
              next: assignment,
              actorId: request.auth?.user.id ?? null,
              now: now(),
            });
            if (context.type !== 'course') return;
            await applyEnrolmentBlockRule(trx, {
              courseId: context.courseId,
              userId: user.id,
              previous: before && isAssignmentInForce(before, now()) ? before : null,
              next: assignment,
              by: assignment.assignedBy,
              at: assignment.assignedAt,
            });
          },
        }),
      );
      const replaced = previous !== null;
      return { replaced, contextKey: contextKey(context) };
    },
  );

  app.delete(
    '/api/admin/users/:userId/assignments/:contextKey',
    {
      config: {
        access: { permissions: ['user.manage_roles'] },
        responses: {
          204: 'Removed.',
          400: ['Unknown context'],
          403: [GRANT_RULES],
          404: ['No assignment for this context'],
        },
      },
      schema: {
        operationId: 'deleteUserAssignment',
        tags: ['users'],
        summary: 'Remove a user’s role assignment',
        params: UserParams.extend({ contextKey: z.string().min(1).max(300) }),
      },
    },
    async (request, reply) => {
      const user = await targetUser(request.params.userId);
      const context = parseContextKey(request.params.contextKey);
      if (!context) throw new AppError('VALIDATION_ERROR', 'Unknown context');
      const granter = actorSubject(request);
      const roles = await app.access.refreshRoles();
      const removed = await db.transaction().execute((trx) =>
        removeContextAssignment(trx, user.id, context, {
          ...changeOf(request, user),
          judge: (current, previous) =>
            grantTargetDenial(granter, current, 'assignments') ??
            (previous && assignmentRemoveDenial(granter, current, previous, roles, { now: now() })),
          afterWrite: async (trx, previous) => {
            if (context.type !== 'course') return;
            await applyEnrolmentBlockRule(trx, {
              courseId: context.courseId,
              userId: user.id,
              previous,
              next: null,
              by: request.auth?.user.id ?? 'unknown',
              at: iso(),
            });
          },
        }),
      );
      if (!removed) throw new AppError('NOT_FOUND', 'No assignment for this context');
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/admin/users/:userId/effective-permissions',
    {
      config: { access: { permissions: ['user.view'] } },
      schema: {
        operationId: 'getUserEffectivePermissions',
        tags: ['users'],
        summary: 'What a user may do, and why',
        params: UserParams,
        querystring: EffectivePermissionsQuerySchema,
        response: { 200: EffectivePermissionsSchema },
      },
    },
    async (request) => {
      const user = await targetUser(request.params.userId);
      const roles = await app.access.refreshRoles();
      const subject = await app.access.loadSubject(user);
      const scope = scopeFromParam(request.query.scope);
      return {
        userId: user.id,
        role: user.role,
        scope: request.query.scope,
        permissions: explainEffectivePermissions(subject, { scope, roles, now: now() }),
      };
    },
  );
};

export default adminUsersRoutes;
