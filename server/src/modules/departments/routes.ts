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
  checkPermission,
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
  type AccessContext,
  type DepartmentDetail,
} from '@learning-hub/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  departmentSlug,
  findDepartmentBySlug,
  type UserRecord,
} from '../../platform/auth/user-repository';
import { listCataloguePage } from '../courses/public';
import { visibilityOf } from '../courses/public';
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
  memberProgressByCourse,
  wikiSummary,
  type DepartmentRow,
  type MemberProgress,
} from './department-repository';
import { FiguresCache } from './figures-cache';
import {
  createDepartmentFor,
  DEPARTMENT_ADMIN,
  DEPARTMENT_MESSAGES as M,
  DEPARTMENT_OWNER,
  removeMember,
  setMember,
  updateDepartmentFor,
} from './department-service';
import { libraryViewerOf } from '../library/public';
import { listItems } from '../library/public';
import { currentUser } from '../../platform/http/access';

/** Where a department's own permissions are checked: the department of the path. */
const IN_DEPARTMENT = { type: 'department', param: 'departmentId' } as const;
/** Opening a department: its members (department.view) and its managers (department.manage). */
/** The owner type of files in a department's description (storage/file-service.ts). */

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
  const deps = { db, access: app.access, now };
  const progressCache = new FiguresCache<Map<string, MemberProgress>>(
    changes,
    ['users', 'context_assignments', 'lessons', 'lesson_progress'],
    now,
  );
  const iso = () => new Date(now()).toISOString();
  const actorOf = (request: FastifyRequest) => ({
    user: currentUser(request),
    requestId: request.id,
  });

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
    }));
  }

  /** One department as the list shows it. */
  async function summaryOf(request: FastifyRequest, row: DepartmentRow) {
    const [summary] = await summaries(request, [row], [row.id]);
    return summary as NonNullable<typeof summary>;
  }

  /** Whether the user may open `departmentId` (the list's filter: no audit entry per row). */
  function mayOpen(user: UserRecord, departmentId: string, at: number): boolean {
    const subject = app.access.engine.subjectOf(user.id);
    if (!subject) return false;
    const context: AccessContext = { type: 'department', departmentId };
    const options = { scope: context, roles: app.access.roles, now: at };
    return (
      checkPermission(subject, 'department.view', options).allowed ||
      checkPermission(subject, 'department.manage', options).allowed
    );
  }

  // Pictures and files in a department's description: read by whoever may open the department,
  // attached by whoever may change its description (department.manage there).
  app.files.registerFileOwner(DEPARTMENT_OWNER, {
    canRead: async (user, departmentId) =>
      (await findDepartmentRow(db, departmentId)) !== null && mayOpen(user, departmentId, now()),
    canAttach: async (user, departmentId) =>
      app.access.engine.check(user.id, 'department.manage', {
        type: 'department',
        departmentId,
      }),
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
      const at = now();
      const rows = await listDepartmentRows(db, {
        archived: admin && request.query.archived === true,
      });
      // Filtering a list is a query, not an access decision: the route's own check is the
      // audited one, so the rows use the reference functions directly.
      const visible = admin ? rows : rows.filter((d) => mayOpen(user, d.id, at));
      const { items, ...page } = slicePage(visible, request.query);
      const shown = items.length === visible.length && admin ? undefined : items.map((d) => d.id);
      return sendPage(request, reply, { items: await summaries(request, items, shown), ...page });
    },
  );

  app.post(
    '/api/departments',
    {
      config: { access: ADMIN, responses: { 409: [M.nameTaken('<name>')] } },
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
      return reply.code(201).send(await summaryOf(request, created));
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
      if (!found || !mayOpen(currentUser(request), found.id, now())) {
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
      const context: AccessContext = { type: 'department', departmentId: found.id };
      const engine = app.access.engine;
      const [summary, catalogue, library, wiki] = await Promise.all([
        summaryOf(request, found),
        listCataloguePage(app.reads, {
          departmentId: found.id,
          scope: 'all',
          state: 'any',
          visibility: visibilityOf(app.access, user, at),
          offset: 0,
          limit: COURSES_MAX,
        }),
        listItems(app.reads, {
          viewer: libraryViewerOf(app.access, user, at),
          trash: false,
          departmentId: found.id,
          mine: false,
          sort: 'updated',
          order: 'desc',
          offset: 0,
          limit: LATEST_MAX,
        }),
        engine.check(user.id, 'wiki.view', context)
          ? wikiSummary(app.reads, found.id, LATEST_MAX)
          : Promise.resolve({ spaceKey: `department:${found.id}`, pageCount: 0, pages: [] }),
      ]);
      const courseIds = catalogue.courses.map((c) => c.id);
      const progress = await progressCache.get(`${found.id} ${courseIds.join(' ')}`, () =>
        memberProgressByCourse(app.reads, found.id, courseIds, new Date(at).toISOString()),
      );
      return {
        ...summary,
        createdAt: found.createdAt,
        courses: catalogue.courses.map((c) => {
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
        library: {
          items: library.items.map((i) => ({
            id: i.id,
            title: i.title,
            kind: i.kind,
            updatedAt: i.updatedAt,
          })),
          total: library.total,
        },
        wiki,
        can: {
          manage: found.archivedAt === null && engine.check(user.id, 'department.manage', context),
          administer: app.access.decide(user.id, DEPARTMENT_ADMIN, undefined).allowed,
        },
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
          409: [M.nameTaken('<name>'), M.archived('<department>')],
        },
      },
      schema: {
        operationId: 'updateDepartment',
        tags: ['departments'],
        summary: 'Change the description (managers), the name or archiving (admins)',
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
      config: { access: MANAGE, responses: MEMBER_REFUSALS },
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
        actorOf(request),
        request.params.departmentId,
        request.body,
        'add',
      );
      return reply.code(201).send(member);
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
