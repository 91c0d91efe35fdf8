/**
 * Admin API for managing accounts: create a local account (its one-time password is in the answer
 * once and nowhere else), edit names, email and department, deactivate and reactivate. Each route
 * is checked with its permission in the target user's context (`user.create`, `user.edit`,
 * `user.delete`), the grant rules of core/access apply (the role given at creation, and only
 * admins change admins), and the account-management domain writes every change to the durable
 * access audit trail.
 */
import {
  AdminUserSchema,
  adminTargetDenial,
  AppError,
  isAdminRole,
  NEW_USER_DEFAULT_ROLE,
  roleGrantDenial,
  UserAccountSchema,
  UserActiveResultSchema,
  UserActiveSchema,
  UserCreatedSchema,
  UserCreateSchema,
  UserUpdateSchema,
  type Ability,
  type AdminUser,
  type PermissionId,
} from '@learning-hub/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countAssignments, listPermissionsOf } from '../../platform/access/access-repository';
import {
  accountSource,
  createLocalAccount,
  DEACTIVATION_REFUSALS,
  requireKnownRole,
  setAccountActive,
  updateAccount,
  usernameTaken,
} from '../../platform/auth/account-management';
import {
  countActiveAdmins,
  findUserById,
  toPublicUser,
  type UserRecord,
} from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import { actorOf, type RequestAuth } from '../../platform/http/access';
import { createdAnswer } from '../../platform/http/openapi';

const UserParams = z.object({ userId: z.string().min(1).max(200) });

/** The target user's context: where `user.edit` and `user.delete` are checked. */
const USER_SCOPE = { type: 'user', param: 'userId' } as const;

const ALLOWED: Ability = { allowed: true, reason: null };
const refused = (reason: string): Ability => ({ allowed: false, reason });

/** Only admins change admins: a non-admin may not edit or deactivate an admin account. */
const adminTargetRefusal = (actor: UserRecord, target: UserRecord) =>
  adminTargetDenial(actor, { id: target.id, role: target.role, isSuperAdmin: target.isSuperAdmin });

const manageUsersRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => number }> = async (
  app,
  { db, now },
) => {
  const iso = () => new Date(now()).toISOString();

  function authOf(request: FastifyRequest): RequestAuth {
    if (!request.auth) throw new AppError('UNAUTHENTICATED', 'User not authenticated');
    return request.auth;
  }

  async function targetUser(userId: string): Promise<UserRecord> {
    const user = await findUserById(db, userId);
    if (!user) throw new AppError('NOT_FOUND', 'User not found');
    return user;
  }

  async function toAdminUser(user: UserRecord): Promise<AdminUser> {
    const [permissions, counts] = await Promise.all([
      listPermissionsOf(db, [user.id]),
      countAssignments(db, [user.id]),
    ]);
    return {
      ...toPublicUser(user),
      createdAt: user.createdAt,
      directPermissions: permissions.get(user.id) ?? [],
      assignmentCount: counts.get(user.id) ?? 0,
    };
  }

  /** Why the caller may not give `role` to a new account (core's grant rules), or null. */
  async function roleGrantRefusal(actor: UserRecord, role: string): Promise<string | null> {
    await requireKnownRole(db, role);
    const registry = await app.access.refreshRoles();
    const subject = await app.access.loadSubject(actor);
    return roleGrantDenial(subject, null, role, registry, { now: now() });
  }

  /** The caller's permission in the target user's context. */
  const permitted = (actor: UserRecord, permission: PermissionId, target: string): Ability => {
    const decision = app.access.decide(
      actor.id,
      { permissions: [permission], mode: 'all', roles: [] },
      { type: 'user', userId: target },
    );
    return decision.allowed ? ALLOWED : refused(decision.reason);
  };

  app.post(
    '/api/admin/users',
    {
      config: {
        access: { permissions: ['user.create'] },
        responses: {
          201: createdAnswer('/api/admin/users/<id>'),
          400: ['No such department: <id>'],
          403: ['The grant rules refuse the role (the message gives the rule).'],
          409: [usernameTaken('<username>')],
        },
      },
      schema: {
        operationId: 'createUser',
        tags: ['users'],
        summary: 'Create a user',
        body: UserCreateSchema,
        response: { 201: UserCreatedSchema },
      },
    },
    async (request, reply) => {
      const { user: actor } = authOf(request);
      const input = request.body;
      if (input.role !== NEW_USER_DEFAULT_ROLE) {
        const denial = await roleGrantRefusal(actor, input.role);
        if (denial) throw new AppError('FORBIDDEN', denial);
      }
      const { user, oneTimePassword } = await createLocalAccount(
        db,
        {
          username: input.username,
          firstname: input.firstname,
          lastname: input.lastname,
          email: input.email,
          departmentId: input.departmentId,
          role: input.role,
        },
        actorOf(request),
        iso(),
      );
      // The one-time password is in this answer only: no cache may keep it.
      reply.header('cache-control', 'no-store');
      return reply
        .code(201)
        .header('location', `/api/admin/users/${encodeURIComponent(user.id)}`)
        .send({ ...(await toAdminUser(user)), oneTimePassword: oneTimePassword as string });
    },
  );

  app.get(
    '/api/admin/users/:userId/account',
    {
      config: { access: { permissions: ['user.view'], scope: USER_SCOPE } },
      schema: {
        operationId: 'getUserAccount',
        tags: ['users'],
        summary: 'A user’s account: its sign-in source and what may be done to it',
        params: UserParams,
        response: { 200: UserAccountSchema },
      },
    },
    async (request) => {
      const { user: actor } = authOf(request);
      const user = await targetUser(request.params.userId);
      const { provider, providerOwned } = await accountSource(db, user);
      const adminRule = adminTargetRefusal(actor, user);
      const edit = adminRule ? refused(adminRule) : permitted(actor, 'user.edit', user.id);
      let deactivate = adminRule ? refused(adminRule) : permitted(actor, 'user.delete', user.id);
      const reactivate = !user.isActive ? deactivate : refused('The account is active.');
      if (!user.isActive) deactivate = refused('The account is already deactivated.');
      else if (deactivate.allowed) {
        if (actor.id === user.id) deactivate = refused(DEACTIVATION_REFUSALS.self);
        else if (user.authMethod === 'disabled') {
          deactivate = refused(DEACTIVATION_REFUSALS.developer);
        } else if (isAdminRole(user.role) && (await countActiveAdmins(db)) <= 1) {
          deactivate = refused(DEACTIVATION_REFUSALS.lastAdmin);
        }
      }
      return {
        userId: user.id,
        authMethod: user.authMethod,
        provider,
        providerOwned,
        abilities: { edit, deactivate, reactivate },
      };
    },
  );

  app.patch(
    '/api/admin/users/:userId',
    {
      config: {
        access: { permissions: ['user.edit'], scope: USER_SCOPE },
        responses: {
          400: ['No such department: <id>'],
          403: ['Only admins change admins (the message gives the rule).'],
          409: [
            usernameTaken('<username>'),
            'The <field> of this account comes from <its provider> and can only be changed there.',
          ],
        },
      },
      schema: {
        operationId: 'updateUser',
        tags: ['users'],
        summary: 'Change a user',
        params: UserParams,
        body: UserUpdateSchema,
        response: { 200: AdminUserSchema },
      },
    },
    async (request) => {
      const { user: actor } = authOf(request);
      const user = await targetUser(request.params.userId);
      const denial = adminTargetRefusal(actor, user);
      if (denial) throw new AppError('FORBIDDEN', denial);
      const updated = await updateAccount(db, user, request.body, actorOf(request), iso());
      return toAdminUser(updated);
    },
  );

  app.put(
    '/api/admin/users/:userId/active',
    {
      config: {
        access: { permissions: ['user.delete'], scope: USER_SCOPE },
        responses: {
          403: ['Only admins change admins (the message gives the rule).'],
          409: Object.values(DEACTIVATION_REFUSALS),
        },
      },
      schema: {
        operationId: 'updateUserActive',
        tags: ['users'],
        summary: 'Activate or deactivate a user',
        params: UserParams,
        body: UserActiveSchema,
        response: { 200: UserActiveResultSchema },
      },
    },
    async (request) => {
      const { user: actor } = authOf(request);
      const user = await targetUser(request.params.userId);
      const denial = adminTargetRefusal(actor, user);
      if (denial) throw new AppError('FORBIDDEN', denial);
      const result = await setAccountActive(db, user, request.body.active, actorOf(request), iso());
      if (!request.body.active) app.live.endUserSessions(user.id, { reason: 'UNAUTHENTICATED' });
      return { ...(await toAdminUser(result.user)), endedSessions: result.endedSessions };
    },
  );
};

export default manageUsersRoutes;
