/**
 * The department pages (docs/departments.md): the departments the user may open, creating one
 * (admins), finding one by its URL name (current or former), one department's page (courses with
 * the members' progress, library, wiki), changing it (description: department.manage there; name
 * and archiving: admins), its members paged and searched, and adding, changing and removing
 * members and managers — context assignments in the department, through
 * server/src/modules/departments/department-service.ts.
 */
import {
  AppError,
  DepartmentCandidateListSchema,
  DepartmentCandidateQuerySchema,
  DepartmentCreateSchema,
  DepartmentDetailSchema,
  DepartmentListQuerySchema,
  DepartmentListSchema,
  DepartmentLookupParamsSchema,
  DepartmentLookupSchema,
  DepartmentMemberInputSchema,
  DepartmentMemberListSchema,
  DepartmentMemberParamsSchema,
  DepartmentMemberQuerySchema,
  DepartmentMemberSchema,
  DepartmentMemberUpdateSchema,
  DepartmentParamsSchema,
  DepartmentSchema,
  DepartmentUpdateSchema,
  isAdmin,
  STALE_REVISION_MESSAGE,
  type DepartmentDetail,
} from '@learning-hub/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { departmentSlug, findDepartmentBySlug } from '../../platform/auth/departments';
import { coursesOfDepartment, progressOfGroup, type GroupProgress } from '../courses/public';
import { itemsOfDepartment } from '../library/public';
import { pagesOfDepartment } from '../wiki/public';
import type { Db } from '../../platform/db';
import type { ChangeTracker } from '../../platform/db/change-tracker';
import { pageWindow, sendPage, slicePage } from '../../platform/paging';
import {
  countMembers,
  findDepartmentRow,
  listCandidates,
  listDepartmentRows,
  listManagers,
  listMembersPage,
  memberIds,
  type DepartmentRow,
} from './department-repository';
import {
  DEPARTMENT_ADMIN,
  departmentAbilities,
  departmentViewerOf,
  managesIn,
  mayOpen,
} from './department-access';
import { FiguresCache } from './figures-cache';
import {
  createDepartmentFor,
  DEPARTMENT_MESSAGES as M,
  DEPARTMENT_OWNER,
  removeMember,
  setMember,
  updateDepartmentFor,
} from './department-service';
import { actorOf, currentUser } from '../../platform/http/access';
import { createdAnswer } from '../../platform/http/openapi';

/** Where a department's own permissions are checked: the department of the path. */
const IN_DEPARTMENT = { type: 'department', param: 'departmentId' } as const;
/** Opening a department: its members (department.view) and its managers (department.manage). */
const VIEW = {
  permissions: ['department.view' as const, 'department.manage' as const],
  mode: 'any' as const,
  scope: IN_DEPARTMENT,
};
const MANAGE = { permissions: ['department.manage' as const], scope: IN_DEPARTMENT };
const ADMIN = {
  permissions: [...DEPARTMENT_ADMIN.permissions],
  roles: [...DEPARTMENT_ADMIN.roles],
};

/** The refusals of a member change (API description). */
const MEMBER_REFUSALS = {
  400: [M.expiryPast],
  403: [
    M.ownMembership,
    'The grant rules refuse the change (the message gives the rule, e.g. “Only an admin can change an admin”).',
  ],
  404: [M.notFound, M.userNotFound],
  409: [M.archived('<department>'), M.inactive('<name>')],
};

/** Courses, library items and wiki pages a department page lists at most. */
const COURSES_MAX = 100;
const LATEST_MAX = 8;

const departmentRoutes: FastifyPluginAsyncZod<{
  db: Db;
  now: () => number;
  changes?: ChangeTracker | null;
}> = async (app, { db, now, changes = null }) => {
  const deps = { db, access: app.access, now, notifications: app.notifications };
  const progressCache = new FiguresCache<Map<string, GroupProgress>>(
    changes,
    ['users', 'context_assignments', 'lessons', 'lesson_progress'],
    now,
  );
  const iso = () => new Date(now()).toISOString();

  async function department(id: string): Promise<DepartmentRow> {
    const found = await findDepartmentRow(db, id);
    if (!found) throw new AppError('NOT_FOUND', M.notFound);
    return found;
  }

  /**
   * Departments as the list shows them (their members counted, their managers in force); `ids`
   * limits the counting to them (all departments when absent). The description's pictures and
   * files are signed for the caller's session, as every rich text served is.
   */
  async function summaries(
    request: FastifyRequest,
    rows: readonly DepartmentRow[],
    ids?: readonly string[],
  ) {
    const at = iso();
    const sessionId = request.auth?.session.id ?? '';
    const [counts, managers] = await Promise.all([
      countMembers(db, at, ids),
      listManagers(db, at, ids),
    ]);
    return rows.map((d) => ({
      id: d.id,
      name: d.name,
      description: app.urlSigner.signHtml(d.description, sessionId),
      slug: d.slug,
      memberCount: counts.get(d.id) ?? 0,
      managers: managers.get(d.id) ?? [],
      archivedAt: d.archivedAt,
      revision: d.revision,
    }));
  }

  /** One department as the list shows it. */
  async function summaryOf(request: FastifyRequest, row: DepartmentRow) {
    const [summary] = await summaries(request, [row], [row.id]);
    return summary as NonNullable<typeof summary>;
  }

  // Pictures and files in a department's description: read by whoever may open the department,
  // attached by whoever may change its description (department.manage there).
  app.files.registerFileOwner(DEPARTMENT_OWNER, {
    canRead: async (user, departmentId) =>
      (await findDepartmentRow(db, departmentId)) !== null &&
      mayOpen(departmentViewerOf(app.access, user, now()), departmentId),
    canAttach: async (user, departmentId) => managesIn(app.access, user.id, departmentId),
  });

  app.get(
    '/api/departments',
    {
      config: { access: { permissions: ['department.view'], scope: 'any' } },
      schema: {
        operationId: 'listDepartments',
        tags: ['departments'],
        summary: 'The departments the user may open (archived ones: admins, with archived=true)',
        querystring: DepartmentListQuerySchema,
        response: { 200: DepartmentListSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const admin = isAdmin(user);
      const viewer = departmentViewerOf(app.access, user, now());
      const rows = await listDepartmentRows(db, {
        archived: admin && request.query.archived === true,
      });
      // Filtering a list is a query, not an access decision: the route's own check is the
      // audited one, so the rows use the department rule without an audit entry each.
      const visible = admin ? rows : rows.filter((d) => mayOpen(viewer, d.id));
      const { items, ...page } = slicePage(visible, request.query);
      const shown = items.length === visible.length && admin ? undefined : items.map((d) => d.id);
      return sendPage(request, reply, { items: await summaries(request, items, shown), ...page });
    },
  );

  app.post(
    '/api/departments',
    {
      config: {
        access: ADMIN,
        responses: { 201: createdAnswer('/api/departments/<id>'), 409: [M.nameTaken('<name>')] },
      },
      schema: {
        operationId: 'createDepartment',
        tags: ['departments'],
        summary: 'Create a department (its URL name is the slug of its name)',
        body: DepartmentCreateSchema,
        response: { 201: DepartmentSchema },
      },
    },
    async (request, reply) => {
      const created = await createDepartmentFor(deps, request.body);
      await app.files.attachReferenced(currentUser(request), created.description, {
        type: DEPARTMENT_OWNER,
        id: created.id,
      });
      return reply
        .code(201)
        .header('location', `/api/departments/${encodeURIComponent(created.id)}`)
        .send(await summaryOf(request, created));
    },
  );

  app.get(
    '/api/departments/lookup/:name',
    {
      config: {
        access: { permissions: ['department.view'], scope: 'any' },
        responses: { 404: [M.notFound] },
      },
      schema: {
        operationId: 'getDepartmentByName',
        tags: ['departments'],
        summary:
          'The department a URL name names (its current one, or one it had before a rename), if the caller may open it',
        params: DepartmentLookupParamsSchema,
        response: { 200: DepartmentLookupSchema },
      },
    },
    async (request) => {
      const { name } = request.params;
      const slug = departmentSlug(name);
      const found =
        (await findDepartmentBySlug(db, name)) ??
        (slug && slug !== name ? await findDepartmentBySlug(db, slug) : null);
      // A department the caller may not open is not there for them: the same 404 as a name no
      // department has or had, so neither its existence nor its new name after a rename shows.
      if (
        !found ||
        !mayOpen(departmentViewerOf(app.access, currentUser(request), now()), found.id)
      ) {
        throw new AppError('NOT_FOUND', M.notFound);
      }
      return found;
    },
  );

  app.get(
    '/api/departments/:departmentId',
    {
      config: { access: VIEW, responses: { 404: [M.notFound] } },
      schema: {
        operationId: 'getDepartment',
        tags: ['departments'],
        summary: 'One department: its courses with its members’ progress, library and wiki',
        params: DepartmentParamsSchema,
        response: { 200: DepartmentDetailSchema },
      },
    },
    async (request): Promise<DepartmentDetail> => {
      const user = currentUser(request);
      const found = await department(request.params.departmentId);
      const at = now();
      // The page composes the other areas' parts through their public.ts, each deciding for the
      // viewer by its own rules (the dashboard composes the same way).
      const [summary, courses, library, wiki] = await Promise.all([
        summaryOf(request, found),
        coursesOfDepartment(app.reads, app.access, user, found.id, at, COURSES_MAX),
        itemsOfDepartment(app.reads, app.access, user, found.id, at, LATEST_MAX),
        pagesOfDepartment(app.reads, app.access, user, found.id, at, LATEST_MAX),
      ]);
      const courseIds = courses.map((c) => c.id);
      const nowIso = new Date(at).toISOString();
      const progress = await progressCache.get(`${found.id} ${courseIds.join(' ')}`, () =>
        progressOfGroup(app.reads, memberIds(app.reads, found.id, nowIso), courseIds, nowIso),
      );
      return {
        ...summary,
        createdAt: found.createdAt,
        courses: courses.map((c) => {
          const p = progress.get(c.id);
          return {
            id: c.id,
            code: c.code,
            title: c.title,
            status: c.state,
            enrolledMembers: p?.enrolled ?? 0,
            completedMembers: p?.completed ?? 0,
            averageProgress: p?.averageProgress ?? 0,
          };
        }),
        library,
        wiki,
        can: departmentAbilities(app.access, user.id, found),
      };
    },
  );

  app.patch(
    '/api/departments/:departmentId',
    {
      config: {
        access: MANAGE,
        responses: {
          403: [M.adminOnly],
          404: [M.notFound],
          409: [STALE_REVISION_MESSAGE, M.nameTaken('<name>'), M.archived('<department>')],
        },
      },
      schema: {
        operationId: 'updateDepartment',
        tags: ['departments'],
        summary:
          'Change the description (managers), the name or archiving (admins), at the revision read',
        params: DepartmentParamsSchema,
        body: DepartmentUpdateSchema,
        response: { 200: DepartmentSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const updated = await updateDepartmentFor(
        deps,
        user,
        request.params.departmentId,
        request.body,
      );
      if (request.body.description !== undefined) {
        await app.files.attachReferenced(user, updated.description, {
          type: DEPARTMENT_OWNER,
          id: updated.id,
        });
      }
      return summaryOf(request, updated);
    },
  );

  app.get(
    '/api/departments/:departmentId/members',
    {
      config: { access: VIEW, responses: { 404: [M.notFound] } },
      schema: {
        operationId: 'listDepartmentMembers',
        tags: ['departments'],
        summary: 'A page of the members: by account and by assignment, with their roles there',
        params: DepartmentParamsSchema,
        querystring: DepartmentMemberQuerySchema,
        response: { 200: DepartmentMemberListSchema },
      },
    },
    async (request, reply) => {
      const found = await department(request.params.departmentId);
      const { page, pageSize, search, role } = request.query;
      const { members, total } = await listMembersPage(app.reads, {
        departmentId: found.id,
        nowIso: iso(),
        search,
        role,
        ...pageWindow({ page, pageSize }),
      });
      return sendPage(request, reply, { items: members, total, page, pageSize });
    },
  );

  app.post(
    '/api/departments/:departmentId/members',
    {
      config: {
        access: MANAGE,
        responses: {
          ...MEMBER_REFUSALS,
          201: createdAnswer('/api/departments/<departmentId>/members/<userId>'),
        },
      },
      schema: {
        operationId: 'createDepartmentMember',
        tags: ['departments'],
        summary: 'Add a member or manager (an existing assignment there is replaced)',
        params: DepartmentParamsSchema,
        body: DepartmentMemberInputSchema,
        response: { 201: DepartmentMemberSchema },
      },
    },
    async (request, reply) => {
      const member = await setMember(
        deps,
        currentUser(request),
        actorOf(request),
        request.params.departmentId,
        request.body,
        'add',
      );
      const { departmentId } = request.params;
      return reply
        .code(201)
        .header(
          'location',
          `/api/departments/${encodeURIComponent(departmentId)}/members/${encodeURIComponent(member.id)}`,
        )
        .send(member);
    },
  );

  app.patch(
    '/api/departments/:departmentId/members/:userId',
    {
      config: {
        access: MANAGE,
        responses: {
          ...MEMBER_REFUSALS,
          404: [...MEMBER_REFUSALS[404], M.notMember('<name>', '<department>')],
        },
      },
      schema: {
        operationId: 'updateDepartmentMember',
        tags: ['departments'],
        summary: 'Change a member’s role (member or manager) and end date',
        params: DepartmentMemberParamsSchema,
        body: DepartmentMemberUpdateSchema,
        response: { 200: DepartmentMemberSchema },
      },
    },
    async (request) =>
      setMember(
        deps,
        currentUser(request),
        actorOf(request),
        request.params.departmentId,
        { ...request.body, userId: request.params.userId },
        'update',
      ),
  );

  app.delete(
    '/api/departments/:departmentId/members/:userId',
    {
      config: {
        access: MANAGE,
        responses: {
          204: 'Removed.',
          403: MEMBER_REFUSALS[403],
          404: [...MEMBER_REFUSALS[404], M.notMember('<name>', '<department>')],
          409: [M.byAccount('<First Last>'), M.archived('<department>')],
        },
      },
      schema: {
        operationId: 'deleteDepartmentMember',
        tags: ['departments'],
        summary: 'Remove a member’s assignment (a member by account stays one)',
        params: DepartmentMemberParamsSchema,
      },
    },
    async (request, reply) => {
      await removeMember(
        deps,
        currentUser(request),
        actorOf(request),
        request.params.departmentId,
        request.params.userId,
      );
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/departments/:departmentId/candidates',
    {
      config: { access: MANAGE, responses: { 404: [M.notFound] } },
      schema: {
        operationId: 'listDepartmentCandidates',
        tags: ['departments'],
        summary: 'Active people to add (at most 10), each with whether they are a member already',
        params: DepartmentParamsSchema,
        querystring: DepartmentCandidateQuerySchema,
        response: { 200: DepartmentCandidateListSchema },
      },
    },
    async (request, reply) => {
      const found = await department(request.params.departmentId);
      const { page, pageSize, search } = request.query;
      const { people, total } = await listCandidates(
        db,
        found.id,
        search,
        iso(),
        pageWindow({ page, pageSize }),
      );
      return sendPage(request, reply, { items: people, total, page, pageSize });
    },
  );
};

export default departmentRoutes;
