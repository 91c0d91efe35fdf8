/**
 * Departments: the ones the user may open (department.view held there), one department and its
 * members (its people by their own record, plus anyone assigned a role in it).
 */
import {
  AppError,
  checkPermission,
  DepartmentListSchema,
  DepartmentSchema,
  isAssignmentInForce,
  MemberListSchema,
} from '@learning-hub/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listContextMembers } from '../../access/access-repository';
import {
  countUsersByDepartment,
  findDepartment,
  listDepartmentUsers,
  listDepartments,
} from '../../auth/user-repository';
import type { Db } from '../../db';

const DepartmentParams = z.object({ departmentId: z.string().min(1).max(200) });

const departmentRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => number }> = async (
  app,
  { db, now },
) => {
  async function department(id: string) {
    const found = await findDepartment(db, id);
    if (!found || found.id !== id) throw new AppError('NOT_FOUND', 'Department not found');
    return found;
  }

  app.get(
    '/api/departments',
    {
      config: { access: { permissions: ['department.view'], scope: 'any' } },
      schema: { response: { 200: DepartmentListSchema } },
    },
    async (request) => {
      const userId = request.auth?.user.id ?? '';
      const subject = app.access.engine.subjectOf(userId);
      const roles = app.access.roles;
      const at = now();
      const counts = await countUsersByDepartment(db);
      const all = await listDepartments(db);
      // Filtering a list is a query, not an access decision: the route's own check is the
      // audited one, so these use the reference functions directly.
      const visible = subject
        ? all.filter(
            (d) =>
              checkPermission(subject, 'department.view', {
                scope: { type: 'department', departmentId: d.id },
                roles,
                now: at,
              }).allowed,
          )
        : [];
      return {
        departments: visible.map((d) => ({
          ...d,
          memberCount: counts.get(d.id) ?? 0,
          managers: [],
          archivedAt: null,
        })),
      };
    },
  );

  app.get(
    '/api/departments/:departmentId',
    {
      config: {
        access: {
          permissions: ['department.view'],
          scope: { type: 'department', param: 'departmentId' },
        },
      },
      schema: { params: DepartmentParams, response: { 200: DepartmentSchema } },
    },
    async (request) => {
      const found = await department(request.params.departmentId);
      const counts = await countUsersByDepartment(db);
      return { ...found, memberCount: counts.get(found.id) ?? 0, managers: [], archivedAt: null };
    },
  );

  app.get(
    '/api/departments/:departmentId/members',
    {
      config: {
        access: {
          permissions: ['department.view', 'department.manage'],
          mode: 'any',
          scope: { type: 'department', param: 'departmentId' },
        },
      },
      schema: { params: DepartmentParams, response: { 200: MemberListSchema } },
    },
    async (request) => {
      const found = await department(request.params.departmentId);
      const at = now();
      const [own, assigned] = await Promise.all([
        listDepartmentUsers(db, found.id),
        listContextMembers(db, { type: 'department', departmentId: found.id }),
      ]);
      const members = new Map<
        string,
        {
          id: string;
          username: string;
          firstname: string;
          lastname: string;
          roles: string[];
          expiresAt: string | null;
        }
      >();
      for (const u of own) {
        members.set(u.id, {
          id: u.id,
          username: u.username,
          firstname: u.firstname,
          lastname: u.lastname,
          roles: ['department-member'],
          expiresAt: null,
        });
      }
      for (const m of assigned) {
        if (!isAssignmentInForce(m.assignment, at)) continue;
        const entry = members.get(m.id) ?? {
          id: m.id,
          username: m.username,
          firstname: m.firstname,
          lastname: m.lastname,
          roles: [],
          expiresAt: m.assignment.expiresAt,
        };
        entry.roles = [...new Set([...entry.roles, ...m.assignment.roles])];
        members.set(m.id, entry);
      }
      return {
        members: [...members.values()].sort(
          (a, b) => a.lastname.localeCompare(b.lastname) || a.firstname.localeCompare(b.firstname),
        ),
      };
    },
  );
};

export default departmentRoutes;
