/**
 * Admin API to understand the permission model at work: the check audit (the in-memory ring of
 * the last 1000 checks on this instance), the durable audit trail of access changes, and the
 * permission simulator behind /admin-test.
 */
import {
  AccessAuditQuerySchema,
  AccessAuditSchema,
  AppError,
  AUDIT_ALL_VIEW_DEFAULT,
  AUDIT_USER_VIEW_DEFAULT,
  CheckAuditQuerySchema,
  CheckAuditSchema,
  checkRequirement,
  contextKey,
  matchRoute,
  parseContextKey,
  permissionGrants,
  routeCheckScope,
  SimulateRequestSchema,
  SimulateResponseSchema,
  isPermissionId,
  type AccessRequirement,
  type AccessAuditEntry,
  type CheckScope,
  type PermissionId,
} from '@learning-hub/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listAccessAudit } from '../../platform/access/access-repository';
import { findUserById, findUsernames } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import { pageWindow, sendPage } from '../../platform/paging';

const scopeOf = (scope: string): CheckScope => {
  if (scope === 'any') return 'any';
  if (scope === 'system') return undefined;
  const context = parseContextKey(scope);
  if (!context) throw new AppError('VALIDATION_ERROR', 'Unknown context');
  return context;
};
const scopeName = (scope: CheckScope) =>
  scope === undefined ? 'system' : scope === 'any' ? 'any' : contextKey(scope);

const adminAccessRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => number }> = async (
  app,
  { db, now },
) => {
  app.get(
    '/api/admin/access/checks',
    {
      config: { access: { permissions: ['system.admin'] } },
      schema: {
        operationId: 'listAccessChecks',
        tags: ['access'],
        summary: 'Recent access checks',
        querystring: CheckAuditQuerySchema,
        response: { 200: CheckAuditSchema },
      },
    },
    async (request, reply) => {
      const { userId, page } = request.query;
      const pageSize =
        request.query.pageSize ?? (userId ? AUDIT_USER_VIEW_DEFAULT : AUDIT_ALL_VIEW_DEFAULT);
      const entries = app.access.audit.list({ userId, ...pageWindow({ page, pageSize }) });
      const names = await findUsernames(
        db,
        entries.map((e) => e.userId),
      );
      return sendPage(request, reply, {
        items: entries.map((e) => ({ ...e, username: names.get(e.userId) ?? null })),
        total: app.access.audit.countMatching(userId),
        page,
        pageSize,
      });
    },
  );

  app.get(
    '/api/admin/access/audit',
    {
      config: { access: { permissions: ['system.admin'] } },
      schema: {
        operationId: 'listAccessAudit',
        tags: ['access'],
        summary: 'The access audit log',
        querystring: AccessAuditQuerySchema,
        response: { 200: AccessAuditSchema },
      },
    },
    async (request, reply) => {
      const { page, pageSize, ...filter } = request.query;
      const size = pageSize ?? (filter.userId ? AUDIT_USER_VIEW_DEFAULT : AUDIT_ALL_VIEW_DEFAULT);
      const { entries, total } = await listAccessAudit(db, {
        ...filter,
        ...pageWindow({ page, pageSize: size }),
      });
      const items = entries as AccessAuditEntry[];
      return sendPage(request, reply, { items, total, page, pageSize: size });
    },
  );

  app.post(
    '/api/admin/access/simulate',
    {
      config: {
        access: { permissions: ['system.admin'] },
        responses: {
          400: ['Unknown context'],
          404: ['User not found', 'No page of the app at <route>'],
        },
      },
      schema: {
        operationId: 'simulateAccessCheck',
        tags: ['access'],
        summary: 'Simulate an access check',
        body: SimulateRequestSchema,
        response: { 200: SimulateResponseSchema },
      },
    },
    async (request) => {
      const body = request.body;
      const user = await findUserById(db, body.userId);
      if (!user) throw new AppError('NOT_FOUND', 'User not found');
      const roles = await app.access.refreshRoles();
      const subject = await app.access.loadSubject(user);
      const at = now();

      let requirement: AccessRequirement;
      let scope: CheckScope;
      let routePattern: string | null = null;
      if (body.route !== undefined) {
        const matched = matchRoute(body.route);
        if (!matched) throw new AppError('NOT_FOUND', `No page of the app at ${body.route}`);
        routePattern = matched.route.path;
        requirement = matched.route.access === 'public' ? {} : (matched.route.requirement ?? {});
        scope = routeCheckScope(matched.route, matched.params);
      } else {
        requirement = { permissions: [body.permission as PermissionId] };
        scope = scopeOf(body.scope);
      }

      // A simulation is not a check the user made: it is not written to the check audit.
      const decision = user.isActive
        ? checkRequirement(subject, requirement, { scope, roles, now: at })
        : ({ allowed: false, reason: 'The account is deactivated' } as const);
      const permissions = [...(requirement.permissions ?? [])];
      return {
        allowed: decision.allowed,
        reason: decision.allowed ? null : decision.reason,
        checked: {
          permissions,
          mode: requirement.mode ?? 'all',
          roles: [...(requirement.roles ?? [])],
          scope: scopeName(scope),
          route: routePattern,
        },
        grants: permissions.filter(isPermissionId).map((permission) => ({
          permission,
          grants: permissionGrants(subject, permission, { scope, roles, now: at }),
        })),
      };
    },
  );
};

export default adminAccessRoutes;
