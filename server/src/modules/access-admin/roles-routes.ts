/**
 * Admin API for roles: the system roles (read-only) and custom roles (create, edit, delete), each
 * with every permission it grants and how many users hold it. A custom role builds on student,
 * instructor or another custom role; it never replaces or edits a system role.
 *
 * A custom role is a grant to everyone who holds it, so the grant rules of core/access apply: a
 * non-admin holding `user.manage_roles` defines only roles they could give (permissions they
 * hold system-wide, never `system.*`), and never changes a role they hold themselves.
 */
import {
  AppError,
  CustomRoleCreateSchema,
  CustomRoleUpdateSchema,
  customRoleDenial,
  isAdminRole,
  RoleRegistry,
  RoleListQuerySchema,
  RoleListSchema,
  RoleWithUsageSchema,
  type AccessSubject,
  type Role,
} from '@learning-hub/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  countUsersByRole,
  deleteCustomRole,
  findCustomRole,
  findRolesInheriting,
  insertCustomRole,
  lockCustomRole,
  recordAccessAudit,
  updateCustomRole,
  type CustomRoleFields,
} from '../../platform/access/access-repository';
import type { Db } from '../../platform/db';
import { createdAnswer } from '../../platform/http/openapi';
import { sendPage, slicePage } from '../../platform/paging';

const RoleParams = z.object({ roleId: z.string().min(1).max(48) });

const adminRolesRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => number }> = async (
  app,
  { db, now },
) => {
  const iso = () => new Date(now()).toISOString();

  function withUsage(role: Role, roles: RoleRegistry, counts: Map<string, number>) {
    return {
      ...role,
      permissions: [...role.permissions],
      allPermissions: [...roles.permissionsOf(role.id)],
      userCount: counts.get(role.id) ?? 0,
    };
  }

  /** Why `inherits` cannot be the parent of role `id` (null when it can). */
  function inheritanceProblem(roles: RoleRegistry, id: string, inherits: string): string | null {
    if (isAdminRole(inherits)) return 'A custom role cannot inherit from admin';
    if (!roles.get(inherits)) return `Unknown role to inherit from: ${inherits}`;
    if (roles.chain(inherits).some((r) => r.id === id)) {
      return `A role cannot inherit from itself, directly or through ${inherits}`;
    }
    return null;
  }

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

  /** Refuses with 403 when the grant rules refuse the change. */
  function refuseUnlessGrantable(
    request: FastifyRequest,
    before: Role | null,
    after: { id: string; inherits: string; permissions: readonly string[] } | null,
    roles: RoleRegistry,
  ) {
    // Judge `before` as stored under the lock, not as this instance last loaded it.
    const registry = before
      ? new RoleRegistry([
          ...roles.all().filter((r) => !r.isSystemRole && r.id !== before.id),
          before,
        ])
      : roles;
    const reason = customRoleDenial(actorSubject(request), before, after, registry, { now: now() });
    if (reason) throw new AppError('FORBIDDEN', reason);
  }

  const audit = (
    trx: Db,
    request: FastifyRequest,
    action: string,
    roleId: string,
    details: Record<string, unknown>,
  ) =>
    recordAccessAudit(trx, iso(), {
      action,
      actorId: request.auth?.user.id ?? null,
      actorUsername: request.auth?.user.username ?? null,
      roleId,
      details,
      requestId: request.id,
    });

  app.get(
    '/api/admin/roles',
    {
      config: { access: { permissions: ['user.view', 'user.manage_roles'], mode: 'any' } },
      schema: {
        operationId: 'listRoles',
        tags: ['roles'],
        summary: 'List roles',
        querystring: RoleListQuerySchema,
        response: { 200: RoleListSchema },
      },
    },
    async (request, reply) => {
      const roles = await app.access.refreshRoles();
      const counts = await countUsersByRole(db);
      const all = roles.all().map((r) => withUsage(r, roles, counts));
      return sendPage(request, reply, slicePage(all, request.query));
    },
  );

  app.post(
    '/api/admin/roles',
    {
      config: {
        access: { permissions: ['user.manage_roles'] },
        responses: {
          201: createdAnswer('/api/admin/roles/<id>'),
          400: ['The inheritance is not possible (the message says why).'],
          403: ['The grant rules refuse the role (the message gives the rule).'],
          409: ['A role with the id "<id>" already exists'],
        },
      },
      schema: {
        operationId: 'createRole',
        tags: ['roles'],
        summary: 'Create a custom role',
        body: CustomRoleCreateSchema,
        response: { 201: RoleWithUsageSchema },
      },
    },
    async (request, reply) => {
      const { id, ...fields } = request.body;
      const roles = await app.access.refreshRoles();
      if (roles.get(id))
        throw new AppError('CONFLICT', `A role with the id "${id}" already exists`);
      const problem = inheritanceProblem(roles, id, fields.inherits);
      if (problem) throw new AppError('VALIDATION_ERROR', problem);
      refuseUnlessGrantable(request, null, { id, ...fields }, roles);
      await db.transaction().execute(async (trx) => {
        await insertCustomRole(
          trx,
          id,
          fields as CustomRoleFields,
          request.auth?.user.id ?? null,
          iso(),
        );
        await audit(trx, request, 'custom_role.create', id, { ...fields });
      });
      const fresh = await app.access.refreshRoles();
      const counts = await countUsersByRole(db);
      return reply
        .code(201)
        .header('location', `/api/admin/roles/${encodeURIComponent(id)}`)
        .send(withUsage(fresh.get(id) as Role, fresh, counts));
    },
  );

  app.put(
    '/api/admin/roles/:roleId',
    {
      config: {
        access: { permissions: ['user.manage_roles'] },
        responses: {
          400: ['The inheritance is not possible (the message says why).'],
          403: ['The grant rules refuse the change (the message gives the rule).'],
          409: ['System roles cannot be edited'],
        },
      },
      schema: {
        operationId: 'updateRole',
        tags: ['roles'],
        summary: 'Change a custom role',
        params: RoleParams,
        body: CustomRoleUpdateSchema,
        response: { 200: RoleWithUsageSchema },
      },
    },
    async (request) => {
      const { roleId } = request.params;
      const roles = await app.access.refreshRoles();
      const existing = roles.get(roleId);
      if (existing?.isSystemRole || isAdminRole(roleId)) {
        throw new AppError('CONFLICT', 'System roles cannot be edited');
      }
      const stored = await findCustomRole(db, roleId);
      if (!stored) throw new AppError('NOT_FOUND', 'Role not found');
      const problem = inheritanceProblem(roles, roleId, request.body.inherits);
      if (problem) throw new AppError('VALIDATION_ERROR', problem);
      await db.transaction().execute(async (trx) => {
        const locked = await lockCustomRole(trx, roleId);
        if (!locked) throw new AppError('NOT_FOUND', 'Role not found');
        refuseUnlessGrantable(request, locked, { id: roleId, ...request.body }, roles);
        await updateCustomRole(trx, roleId, request.body as CustomRoleFields, iso());
        await audit(trx, request, 'custom_role.update', roleId, {
          before: {
            displayName: locked.displayName,
            description: locked.description,
            inherits: locked.inherits,
            permissions: locked.permissions,
            priority: locked.priority,
          },
          after: { ...request.body },
        });
      });
      const fresh = await app.access.refreshRoles();
      const counts = await countUsersByRole(db);
      return withUsage(fresh.get(roleId) as Role, fresh, counts);
    },
  );

  app.delete(
    '/api/admin/roles/:roleId',
    {
      config: {
        access: { permissions: ['user.manage_roles'] },
        responses: {
          204: 'Deleted.',
          403: ['The grant rules refuse the deletion (the message gives the rule).'],
          409: [
            'System roles cannot be deleted',
            '<n> users still hold this role; give them another role first',
            'Roles inherit from this one: <ids>',
          ],
        },
      },
      schema: {
        operationId: 'deleteRole',
        tags: ['roles'],
        summary: 'Delete a custom role',
        params: RoleParams,
      },
    },
    async (request, reply) => {
      const { roleId } = request.params;
      const roles = await app.access.refreshRoles();
      if (roles.get(roleId)?.isSystemRole || isAdminRole(roleId)) {
        throw new AppError('CONFLICT', 'System roles cannot be deleted');
      }
      const stored = await findCustomRole(db, roleId);
      if (!stored) throw new AppError('NOT_FOUND', 'Role not found');
      const holders = (await countUsersByRole(db)).get(roleId) ?? 0;
      if (holders > 0) {
        throw new AppError(
          'CONFLICT',
          `${holders} user${holders === 1 ? '' : 's'} still hold${holders === 1 ? 's' : ''} this role; give them another role first`,
        );
      }
      const children = await findRolesInheriting(db, roleId);
      if (children.length > 0) {
        throw new AppError('CONFLICT', `Roles inherit from this one: ${children.join(', ')}`);
      }
      await db.transaction().execute(async (trx) => {
        const locked = await lockCustomRole(trx, roleId);
        if (!locked) throw new AppError('NOT_FOUND', 'Role not found');
        refuseUnlessGrantable(request, locked, null, roles);
        await deleteCustomRole(trx, roleId);
        await audit(trx, request, 'custom_role.delete', roleId, {
          displayName: stored.displayName,
          inherits: stored.inherits,
          permissions: stored.permissions,
        });
      });
      await app.access.refreshRoles();
      return reply.code(204).send();
    },
  );
};

export default adminRolesRoutes;
