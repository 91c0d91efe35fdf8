/**
 * Admin API for roles: the system roles (read-only) and custom roles (create, edit, delete), each
 * with every permission it grants and how many users hold it. A custom role builds on student,
 * instructor or another custom role; it never replaces or edits a system role.
 */
import {
  AppError,
  CustomRoleCreateSchema,
  CustomRoleUpdateSchema,
  isAdminRole,
  RoleListSchema,
  RoleWithUsageSchema,
  type Role,
  type RoleRegistry,
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
  recordAccessAudit,
  updateCustomRole,
  type CustomRoleFields,
} from '../../access/access-repository';
import type { Db } from '../../db';

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
      schema: { response: { 200: RoleListSchema } },
    },
    async () => {
      const roles = await app.access.refreshRoles();
      const counts = await countUsersByRole(db);
      return { roles: roles.all().map((r) => withUsage(r, roles, counts)) };
    },
  );

  app.post(
    '/api/admin/roles',
    {
      config: { access: { permissions: ['user.manage_roles'] } },
      schema: { body: CustomRoleCreateSchema, response: { 201: RoleWithUsageSchema } },
    },
    async (request, reply) => {
      const { id, ...fields } = request.body;
      const roles = await app.access.refreshRoles();
      if (roles.get(id))
        throw new AppError('CONFLICT', `A role with the id "${id}" already exists`);
      const problem = inheritanceProblem(roles, id, fields.inherits);
      if (problem) throw new AppError('VALIDATION_ERROR', problem);
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
      return reply.code(201).send(withUsage(fresh.get(id) as Role, fresh, counts));
    },
  );

  app.put(
    '/api/admin/roles/:roleId',
    {
      config: { access: { permissions: ['user.manage_roles'] } },
      schema: {
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
        await updateCustomRole(trx, roleId, request.body as CustomRoleFields, iso());
        await audit(trx, request, 'custom_role.update', roleId, {
          before: {
            displayName: stored.displayName,
            description: stored.description,
            inherits: stored.inherits,
            permissions: stored.permissions,
            priority: stored.priority,
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
      config: { access: { permissions: ['user.manage_roles'] } },
      schema: { params: RoleParams, response: { 200: z.object({ success: z.literal(true) }) } },
    },
    async (request) => {
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
        await deleteCustomRole(trx, roleId);
        await audit(trx, request, 'custom_role.delete', roleId, {
          displayName: stored.displayName,
          inherits: stored.inherits,
          permissions: stored.permissions,
        });
      });
      await app.access.refreshRoles();
      return { success: true as const };
    },
  );
};

export default adminRolesRoutes;
