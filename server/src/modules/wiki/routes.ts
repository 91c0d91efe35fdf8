/**
 * The wiki (docs/wiki.md): spaces, the tree, the list (with search and the trash), pages with
 * their revisions, diffs and restores, saving with conflict detection, the trash, moving,
 * following and views. The rules live in server/src/modules/wiki; who sees what is wiki-access.ts, asked
 * by every route here, by the file owner `wiki-page` and by search. Anything the caller may not
 * open answers 404.
 */
import {
  AppError,
  PageQuerySchema,
  WIKI_TREE_MAX,
  WikiDiffQuerySchema,
  WikiDiffSchema,
  WikiFollowSchema,
  WikiListQuerySchema,
  WikiPageCreateSchema,
  WikiPageListSchema,
  WikiPageMoveSchema,
  WikiPageSchema,
  WikiPageUpdateSchema,
  WikiResolveQuerySchema,
  WikiResolveSchema,
  WikiRestoreRevisionSchema,
  WikiRevisionListSchema,
  WikiRevisionParamsSchema,
  WikiRevisionSchema,
  WikiSpaceListQuerySchema,
  WikiSpaceListSchema,
  WikiTreeQuerySchema,
  WikiTreeSchema,
  type WikiConflict,
  type WikiPage,
  type WikiPageSummary,
  type WikiSpace,
} from '@learning-hub/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { UserRecord } from '../../platform/auth/user-repository';
import { findCourseRecords } from '../courses/public';
import type { Db } from '../../platform/db';
import { currentUser } from '../../platform/http/access';
import { nextTurn } from '../../platform/http/lanes';
import { createdAnswer } from '../../platform/http/openapi';
import { applyPlan, targetKey } from './links';
import { planOf } from './render-cache';
import { titleKey } from './title-key';
import { pageWindow, sendPage, slicePage } from '../../platform/paging';
import { TaskStopped } from '../../workers/process-pool';
import {
  courseSpaceFor,
  pageAbilities,
  pageVisible,
  spaceAbilities,
  spaceOfKey,
  spaceVisibleSql,
  wikiViewerOf,
  type WikiSpaceRef,
  type WikiViewer,
} from './wiki-access';
import {
  COMPANY_SPACE_NAME,
  countPagesBySpace,
  findByTitle,
  findPage,
  findPageView,
  findRevision,
  listAncestry,
  listBacklinks,
  listChildren,
  listCourseIdsWithPages,
  listDepartmentsForSpaces,
  listPages,
  listRevisions,
  listTree,
  openableTargets,
  type PageRecord,
  type PageView,
} from './wiki-repository';
import {
  createPageFor,
  mayAttach,
  movePageFor,
  readableSpace,
  restoreRevisionFor,
  savePageFor,
  WIKI_MESSAGES as M,
  WIKI_OWNER,
} from './wiki-service';
import { wikiPageLifecycle } from './page-lifecycle';

const VIEW = { permissions: ['wiki.view' as const], scope: 'any' as const };
const MANAGE = { permissions: ['wiki.manage' as const] };
const PageParamsSchema = z.object({ pageId: z.string().min(1).max(64) });

/** Most course spaces the space list names (courses with pages, and the viewer's own). */
const COURSE_SPACES_MAX = 200;
/** The longest a comparison of two revisions may take in its compute worker. */
const DIFF_TIME_LIMIT_MS = 10_000;

const titleTakenMessage = M.titleTaken('<title>');

function toSummary(page: PageRecord): WikiPageSummary {
  return {
    id: page.id,
    title: page.title,
    spaceKey: page.spaceKey,
    spaceName: page.spaceName,
    parentId: page.parentId,
    position: page.position,
    status: page.status,
    revision: page.revision,
    viewCount: page.viewCount,
    createdBy: page.createdBy,
    updatedBy: page.updatedBy,
    createdAt: page.createdAt,
    updatedAt: page.updatedAt,
    deletedAt: page.deletedAt,
  };
}

const wikiRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => number }> = async (
  app,
  { db, now },
) => {
  // A save lets what arrived meanwhile run between its preparation and its write (lanes.ts).
  const deps = {
    db,
    access: app.access,
    files: app.files,
    pause: nextTurn,
    notifications: app.notifications,
  };
  const pages = wikiPageLifecycle({ db, files: app.files });
  /** Whether the viewer may move the page to the trash and back (its space's wiki.delete). */
  const mayDelete = (page: PageRecord, viewer: WikiViewer) => async () =>
    (await pageAbilities(db, app.access, viewer, page, now())).delete;

  /** The page and the viewer when the user may see it (drafts and trash rules included). */
  async function gate(
    user: UserRecord,
    pageId: string,
  ): Promise<{ page: PageRecord; viewer: WikiViewer } | null> {
    const page = await findPage(db, pageId);
    if (!page) return null;
    const at = now();
    const viewer = wikiViewerOf(app.access, user, at);
    return (await pageVisible(db, app.access, viewer, page, at)) ? { page, viewer } : null;
  }

  // Images and files in a page: read by whoever may open the page (a file URL in a page opens
  // nothing to anyone else), attached by whoever may edit it (its author, creating it).
  app.files.registerFileOwner(WIKI_OWNER, {
    canRead: async (user, pageId) => (await gate(user, pageId)) !== null,
    canAttach: async (user, pageId) => {
      const found = await gate(user, pageId);
      return found !== null && (await mayAttach(deps, found.page, found.viewer, now()));
    },
  });

  // Who has a page open in the editor now (the editor's "… is editing this page now"): only
  // those who may edit it are let in, and taken out when that changes (platform/live).
  app.live.topic('wiki-editing', {
    presence: true,
    mayJoin: async (user, pageId) => {
      const found = await gate(user, pageId);
      if (!found || found.page.deletedAt !== null) return false;
      return (await pageAbilities(db, app.access, found.viewer, found.page, now())).edit;
    },
  });

  /** The page the caller may see (404 otherwise: a page one may not see is not there). */
  async function visiblePage(request: FastifyRequest, pageId: string) {
    const user = currentUser(request);
    const found = await gate(user, pageId);
    if (!found) throw new AppError('NOT_FOUND', M.notFound);
    return { ...found, user };
  }

  const sign = (request: FastifyRequest, html: string) =>
    app.urlSigner.signHtml(html, request.auth?.session.id ?? '');

  /** One page with everything its view shows, for this viewer. */
  async function toPage(
    request: FastifyRequest,
    view: PageView,
    viewer: WikiViewer,
  ): Promise<WikiPage> {
    const { page, html, current } = view;
    if (!current) throw new AppError('NOT_FOUND', M.notFound);
    const at = now();
    // The links and headings of this revision were worked out once (render-cache.ts).
    const plan = planOf(page.id, page.revision, html);
    const [openable, ancestry, children, backlinks, can] = await Promise.all([
      openableTargets(db, viewer, plan.targets),
      page.parentId ? listAncestry(db, page.parentId) : Promise.resolve([]),
      listChildren(db, viewer, page.id),
      listBacklinks(db, viewer, page),
      pageAbilities(db, app.access, viewer, page, at),
    ]);
    const served = applyPlan(html, plan, (t) => !openable.has(targetKey(t)));
    // From the parent up, as far as the viewer may open (the space is the page's own).
    const ancestors: { id: string; title: string }[] = [];
    for (const a of ancestry) {
      const opens =
        a.deletedAt === null &&
        (a.status === 'published' || a.createdBy === viewer.userId || viewer.manage);
      if (!opens) break;
      ancestors.unshift({ id: a.id, title: a.title });
    }
    return {
      ...toSummary(page),
      html: sign(request, served),
      headings: plan.headings,
      ancestors,
      children,
      backlinks,
      currentRevision: current,
      following: view.following,
      followerCount: view.followerCount,
      can,
    };
  }

  async function pageAnswer(request: FastifyRequest, pageId: string, viewer: WikiViewer) {
    const view = await findPageView(db, pageId, viewer.userId);
    if (!view) throw new AppError('NOT_FOUND', M.notFound);
    return toPage(request, view, viewer);
  }

  async function toSpace(
    viewer: WikiViewer,
    space: WikiSpaceRef,
    name: string,
    pageCount: number,
    can?: WikiSpace['can'],
  ): Promise<WikiSpace> {
    return {
      key: space.key,
      type: space.type,
      name,
      departmentId: space.type === 'department' ? space.departmentId : null,
      courseId: space.type === 'course' ? space.courseId : null,
      pageCount,
      can: can ?? (await spaceAbilities(db, app.access, viewer, space, now())),
    };
  }

  app.get(
    '/api/wiki/spaces',
    {
      config: { access: VIEW },
      schema: {
        operationId: 'listWikiSpaces',
        tags: ['wiki'],
        summary:
          'The spaces the caller may read: the company’s, their departments’, and the courses they learn in that have pages or where they may add one',
        querystring: WikiSpaceListQuerySchema,
        response: { 200: WikiSpaceListSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const at = now();
      const viewer = wikiViewerOf(app.access, user, at);
      const departments = (await listDepartmentsForSpaces(db)).filter(
        (d) => viewer.allDepartments || viewer.departmentIds.includes(d.id),
      );
      // Courses: those with pages the viewer may read, and their own (assignments) where they
      // may add one; a system-wide editor adds pages to other courses from the course's space.
      const withPages = await listCourseIdsWithPages(
        db,
        spaceVisibleSql(db, viewer, { department: 'p.department_id', course: 'p.course_id' }),
        COURSE_SPACES_MAX,
      );
      const own = [...viewer.courses.participantIds, ...viewer.courses.editableIds];
      const courseIds = [...new Set([...withPages, ...own])].slice(0, COURSE_SPACES_MAX);
      const courses = await findCourseRecords(db, courseIds);
      const withPagesSet = new Set(withPages);
      const keys = [
        'company',
        ...departments.map((d) => `department:${d.id}`),
        ...courses.map((c) => `course:${c.id}`),
      ];
      const counts = await countPagesBySpace(db, keys);
      const spaces: WikiSpace[] = [
        await toSpace(
          viewer,
          spaceOfKey('company'),
          COMPANY_SPACE_NAME,
          counts.get('company') ?? 0,
        ),
      ];
      for (const d of departments) {
        const key = `department:${d.id}`;
        // An archived department's space is listed while it still has pages.
        if (d.archived_at !== null && !counts.get(key)) continue;
        spaces.push(await toSpace(viewer, spaceOfKey(key), d.name, counts.get(key) ?? 0));
      }
      for (const c of courses) {
        const { space, visible, can } = courseSpaceFor(app.access, viewer, c, at);
        if (!visible || !(withPagesSet.has(c.id) || can.create)) continue;
        spaces.push(await toSpace(viewer, space, c.title, counts.get(space.key) ?? 0, can));
      }
      return sendPage(request, reply, slicePage(spaces, request.query));
    },
  );

  app.get(
    '/api/wiki/tree',
    {
      config: { access: VIEW, responses: { 404: [M.noSpace] } },
      schema: {
        operationId: 'getWikiTree',
        tags: ['wiki'],
        summary: 'Every page of a space the caller may open, for the tree',
        querystring: WikiTreeQuerySchema,
        response: { 200: WikiTreeSchema },
      },
    },
    async (request) => {
      const viewer = wikiViewerOf(app.access, currentUser(request), now());
      const { space, name } = await readableSpace(deps, viewer, request.query.space, now());
      const [tree, counts] = await Promise.all([
        listTree(db, viewer, space.key, WIKI_TREE_MAX),
        countPagesBySpace(db, [space.key]),
      ]);
      return {
        space: await toSpace(viewer, space, name, counts.get(space.key) ?? 0),
        ...tree,
      };
    },
  );

  app.get(
    '/api/wiki/resolve',
    {
      config: {
        access: VIEW,
        responses: { 404: [`${M.notFound} (no page of that title the caller may open)`] },
      },
      schema: {
        operationId: 'resolveWikiLink',
        tags: ['wiki'],
        summary: 'The page a link by title names (its title in any case, within the space)',
        querystring: WikiResolveQuerySchema,
        response: { 200: WikiResolveSchema },
      },
    },
    async (request) => {
      const viewer = wikiViewerOf(app.access, currentUser(request), now());
      const found = await findByTitle(
        db,
        viewer,
        request.query.space,
        titleKey(request.query.title),
      );
      if (!found) throw new AppError('NOT_FOUND', M.notFound);
      return found;
    },
  );

  app.get(
    '/api/wiki/pages',
    {
      config: { access: VIEW },
      schema: {
        operationId: 'listWikiPages',
        tags: ['wiki'],
        summary:
          'The pages the caller may open (or the trash they may restore from), filtered, searched, sorted and paged',
        querystring: WikiListQuerySchema,
        response: { 200: WikiPageListSchema },
      },
    },
    async (request, reply) => {
      const viewer = wikiViewerOf(app.access, currentUser(request), now());
      const q = request.query;
      const { pages, total } = await listPages(db, {
        viewer,
        trash: q.trash ?? false,
        space: q.space,
        status: q.status,
        following: q.following ?? false,
        search: q.search || undefined,
        sort: q.sort,
        order: q.order ?? (q.sort === 'title' ? 'asc' : 'desc'),
        ...pageWindow(q),
      });
      const items = pages.map(toSummary);
      return sendPage(request, reply, { items, total, page: q.page, pageSize: q.pageSize });
    },
  );

  app.post(
    '/api/wiki/pages',
    {
      config: {
        access: { permissions: ['wiki.create'], scope: 'any' },
        // Sanitising, parsing and one synchronous write transaction (plugins/lanes.ts).
        lane: 'writes',
        responses: {
          201: createdAnswer('/api/wiki/pages/<id>'),
          400: [M.parentElsewhere],
          403: [M.mayNotCreate],
          404: [`${M.noSpace} (the space)`, `${M.noParent} (the parent)`],
          409: [titleTakenMessage],
        },
      },
      schema: {
        operationId: 'createWikiPage',
        tags: ['wiki'],
        summary: 'Add a page (its first revision) to a space',
        body: WikiPageCreateSchema,
        response: { 201: WikiPageSchema },
      },
    },
    async (request, reply) => {
      const viewer = wikiViewerOf(app.access, currentUser(request), now());
      const id = await createPageFor(deps, { body: request.body, viewer, now: now() });
      await nextTurn();
      return reply
        .code(201)
        .header('location', `/api/wiki/pages/${encodeURIComponent(id)}`)
        .send(await pageAnswer(request, id, viewer));
    },
  );

  app.get(
    '/api/wiki/pages/:pageId',
    {
      config: { access: VIEW, responses: { 404: [M.notFound] } },
      schema: {
        operationId: 'getWikiPage',
        tags: ['wiki'],
        summary:
          'One page: its HTML (headings with ids, missing links marked), tree place, backlinks and what the caller may do',
        params: PageParamsSchema,
        response: { 200: WikiPageSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const at = now();
      const viewer = wikiViewerOf(app.access, user, at);
      // The page and what its view shows of itself in one read, then the gate of visiblePage.
      const view = await findPageView(db, request.params.pageId, viewer.userId);
      if (!view || !(await pageVisible(db, app.access, viewer, view.page, at))) {
        throw new AppError('NOT_FOUND', M.notFound);
      }
      return toPage(request, view, viewer);
    },
  );

  app.put(
    '/api/wiki/pages/:pageId',
    {
      config: {
        access: { permissions: ['wiki.edit'], scope: 'any' },
        lane: 'writes',
        responses: {
          400: [M.noRevision, M.backToDraft],
          403: [M.mayNotEdit],
          404: [M.notFound],
          409: [
            `${M.conflict} (code WIKI_EDIT_CONFLICT; details: the WikiConflict — the current revision and a merge)`,
            titleTakenMessage,
            M.trashed,
          ],
        },
      },
      schema: {
        operationId: 'updateWikiPage',
        tags: ['wiki'],
        summary:
          'Save a page from the revision the editor started from; a stale save is refused with a merge, never overwrites',
        params: PageParamsSchema,
        body: WikiPageUpdateSchema,
        response: { 200: WikiPageSchema },
      },
    },
    async (request) => {
      const { page, viewer } = await visiblePage(request, request.params.pageId);
      try {
        await savePageFor(deps, { page, body: request.body, viewer, now: now() });
      } catch (error) {
        if (error instanceof AppError && error.code === 'WIKI_EDIT_CONFLICT') {
          // What the editor shows has its files signed for this session.
          const details = error.details as WikiConflict;
          throw new AppError(error.code, error.message, signConflict(request, details));
        }
        throw error;
      }
      // The write is done: what was read meanwhile is answered before the page is read back.
      await nextTurn();
      return pageAnswer(request, page.id, viewer);
    },
  );

  function signConflict(request: FastifyRequest, c: WikiConflict): WikiConflict {
    const s = (html: string) => sign(request, html);
    return {
      ...c,
      current: { ...c.current, html: s(c.current.html) },
      mine: { ...c.mine, html: s(c.mine.html) },
      merge: {
        ...c.merge,
        blocks: c.merge.blocks.map((b) =>
          b.kind === 'merged'
            ? { kind: 'merged', html: s(b.html) }
            : { kind: 'conflict', base: s(b.base), mine: s(b.mine), theirs: s(b.theirs) },
        ),
      },
    };
  }

  app.delete(
    '/api/wiki/pages/:pageId',
    {
      config: {
        access: { permissions: ['wiki.delete'], scope: 'any' },
        responses: {
          204: 'In the trash (`GET` it, or list the trash, to see it there).',
          403: [M.mayNotDelete],
          404: [M.notFound],
          409: [M.trashed],
        },
      },
      schema: {
        operationId: 'deleteWikiPage',
        tags: ['wiki'],
        summary:
          'Move a page to the trash; its subpages stay, shown at the top level until it is restored',
        params: PageParamsSchema,
      },
    },
    async (request, reply) => {
      const { page, viewer } = await visiblePage(request, request.params.pageId);
      await pages.trash(page, viewer.userId, now(), mayDelete(page, viewer));
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/wiki/pages/:pageId/restore',
    {
      config: {
        access: { permissions: ['wiki.delete'], scope: 'any' },
        responses: {
          403: [M.mayNotDelete],
          404: [M.notFound],
          409: [M.notTrashed, M.restoreTaken('<title>')],
        },
      },
      schema: {
        operationId: 'restoreWikiPage',
        tags: ['wiki'],
        summary: 'Take a page out of the trash',
        params: PageParamsSchema,
        response: { 200: WikiPageSchema },
      },
    },
    async (request) => {
      const { page, viewer } = await visiblePage(request, request.params.pageId);
      await pages.restore(page, viewer.userId, now(), mayDelete(page, viewer));
      return pageAnswer(request, page.id, viewer);
    },
  );

  app.post(
    '/api/wiki/pages/:pageId/move',
    {
      config: {
        access: MANAGE,
        responses: {
          400: [M.parentElsewhere],
          404: [M.notFound, `${M.noSpace} (the space)`, `${M.noParent} (the parent)`],
          409: [M.cycle, M.moveTaken, M.trashed],
        },
      },
      schema: {
        operationId: 'moveWikiPage',
        tags: ['wiki'],
        summary: 'Move a page to another parent, place or space (everything below it goes with it)',
        params: PageParamsSchema,
        body: WikiPageMoveSchema,
        response: { 200: WikiPageSchema },
      },
    },
    async (request) => {
      const { page, viewer } = await visiblePage(request, request.params.pageId);
      await movePageFor(deps, { page, body: request.body, viewer, now: now() });
      return pageAnswer(request, page.id, viewer);
    },
  );

  app.delete(
    '/api/wiki/trash/:pageId',
    {
      config: {
        access: MANAGE,
        responses: {
          204: 'Deleted for good, with its revisions and files.',
          404: [M.notFound],
          409: [M.notTrashed],
        },
      },
      schema: {
        operationId: 'purgeWikiPage',
        tags: ['wiki'],
        summary: 'Delete a page in the trash for good, with its revisions and files',
        params: PageParamsSchema,
      },
    },
    async (request, reply) => {
      const { page } = await visiblePage(request, request.params.pageId);
      await pages.purge(page);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/wiki/trash',
    {
      config: { access: MANAGE, responses: { 204: 'The trash is empty.' } },
      schema: {
        operationId: 'emptyWikiTrash',
        tags: ['wiki'],
        summary: 'Empty the trash: delete every page in it for good, with its files',
      },
    },
    async (_request, reply) => {
      await pages.emptyTrash();
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/wiki/pages/:pageId/revisions',
    {
      config: { access: VIEW, responses: { 404: [M.notFound] } },
      schema: {
        operationId: 'listWikiRevisions',
        tags: ['wiki'],
        summary: 'The revisions of a page, newest first, paged',
        params: PageParamsSchema,
        querystring: PageQuerySchema,
        response: { 200: WikiRevisionListSchema },
      },
    },
    async (request, reply) => {
      const { page } = await visiblePage(request, request.params.pageId);
      const { page: n, pageSize } = request.query;
      const { offset, limit } = pageWindow(request.query);
      const { revisions, total } = await listRevisions(db, page.id, offset, limit);
      return sendPage(request, reply, { items: revisions, total, page: n, pageSize });
    },
  );

  app.get(
    '/api/wiki/pages/:pageId/revisions/:revisionId',
    {
      config: { access: VIEW, responses: { 404: [M.notFound, M.noRevision] } },
      schema: {
        operationId: 'getWikiRevision',
        tags: ['wiki'],
        summary: 'One revision of a page by its number, with its HTML',
        params: WikiRevisionParamsSchema,
        response: { 200: WikiRevisionSchema },
      },
    },
    async (request) => {
      const { page } = await visiblePage(request, request.params.pageId);
      const revision = await findRevision(db, page.id, request.params.revisionId);
      if (!revision) throw new AppError('NOT_FOUND', M.noRevision);
      return { ...revision, html: sign(request, revision.html) };
    },
  );

  /** Two revisions compared by a compute worker; a comparison past its time is a 503. */
  async function compare(
    pageId: string,
    fromNumber: number,
    fromHtml: string,
    toNumber: number,
    toHtml: string,
  ) {
    try {
      return await app.computeWorkers.run(
        'wiki.diff',
        {
          from: { pageId, number: fromNumber, html: fromHtml },
          to: { pageId, number: toNumber, html: toHtml },
        },
        { timeoutMs: DIFF_TIME_LIMIT_MS },
      );
    } catch (error) {
      if (!(error instanceof TaskStopped)) throw error;
      throw new AppError('SERVICE_UNAVAILABLE', M.diffTooLong);
    }
  }

  app.get(
    '/api/wiki/pages/:pageId/diff',
    {
      config: {
        access: VIEW,
        responses: { 404: [M.notFound, M.noRevision], 503: [M.diffTooLong] },
      },
      schema: {
        operationId: 'getWikiDiff',
        tags: ['wiki'],
        summary:
          'Compare two revisions by number: blocks aligned, changed blocks with word-level parts',
        params: PageParamsSchema,
        querystring: WikiDiffQuerySchema,
        response: { 200: WikiDiffSchema },
      },
    },
    async (request) => {
      const { page } = await visiblePage(request, request.params.pageId);
      const [from, to] = await Promise.all([
        findRevision(db, page.id, request.query.from),
        findRevision(db, page.id, request.query.to),
      ]);
      if (!from || !to) throw new AppError('NOT_FOUND', M.noRevision);
      const { html: fromHtml, ...fromSummary } = from;
      const { html: toHtml, ...toSummary } = to;
      return {
        from: fromSummary,
        to: toSummary,
        title: from.title === to.title ? null : { from: from.title, to: to.title },
        // Compared in a compute worker, off the thread that answers requests (docs/wiki.md).
        ...(await compare(page.id, from.number, fromHtml, to.number, toHtml)),
      };
    },
  );

  app.post(
    '/api/wiki/pages/:pageId/revisions/:revisionId/restore',
    {
      config: {
        access: { permissions: ['wiki.edit'], scope: 'any' },
        responses: {
          403: [M.mayNotEdit],
          404: [M.notFound, M.noRevision],
          409: [M.busy, M.alreadyCurrent('<n>'), M.trashed, titleTakenMessage],
        },
      },
      schema: {
        operationId: 'restoreWikiRevision',
        tags: ['wiki'],
        summary: 'Restore a revision: a new revision with its title and text',
        params: WikiRevisionParamsSchema,
        // The body is optional (no summary): none, or null, is an empty one; the API description
        // shows it as an optional request body (plugins/openapi.ts).
        body: WikiRestoreRevisionSchema.nullish(),
        response: { 200: WikiPageSchema },
      },
    },
    async (request) => {
      const { page, viewer } = await visiblePage(request, request.params.pageId);
      await restoreRevisionFor(deps, {
        page,
        number: request.params.revisionId,
        ...(request.body?.summary ? { summary: request.body.summary } : {}),
        viewer,
        now: now(),
      });
      return pageAnswer(request, page.id, viewer);
    },
  );

  app.put(
    '/api/wiki/pages/:pageId/follow',
    {
      config: {
        access: VIEW,
        responses: {
          201: createdAnswer('/api/wiki/pages/<id>/follow', 'Now following it.'),
          404: [M.notFound],
        },
      },
      schema: {
        operationId: 'followWikiPage',
        tags: ['wiki'],
        summary: 'Follow a page (201 when this starts it, 200 when one already did)',
        params: PageParamsSchema,
        response: { 200: WikiFollowSchema, 201: WikiFollowSchema },
      },
    },
    async (request, reply) => {
      const { page, viewer } = await visiblePage(request, request.params.pageId);
      const { created, ...state } = await pages.setFollowing(page, viewer.userId, true, now());
      if (created) reply.code(201).header('location', request.url);
      return state;
    },
  );

  app.delete(
    '/api/wiki/pages/:pageId/follow',
    {
      config: {
        access: VIEW,
        responses: { 204: 'Not following it (any more).', 404: [M.notFound] },
      },
      schema: {
        operationId: 'unfollowWikiPage',
        tags: ['wiki'],
        summary: 'Stop following a page',
        params: PageParamsSchema,
      },
    },
    async (request, reply) => {
      const { page, viewer } = await visiblePage(request, request.params.pageId);
      await pages.setFollowing(page, viewer.userId, false, now());
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/wiki/pages/:pageId/view',
    {
      config: { access: VIEW, responses: { 204: 'Counted.', 404: [M.notFound] } },
      schema: {
        operationId: 'countWikiPageView',
        tags: ['wiki'],
        summary:
          "Count one view of a page (its page calls it once); the author's own visits are not counted",
        params: PageParamsSchema,
      },
    },
    async (request, reply) => {
      const { page, user } = await visiblePage(request, request.params.pageId);
      await pages.view(page, user.id);
      return reply.code(204).send();
    },
  );
};

export default wikiRoutes;
