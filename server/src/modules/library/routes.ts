/**
 * The library (docs/library.md): the list with its filters, sorts and paging (and the trash),
 * one item, adding and changing items (a new file is a new version), the trash, the versions,
 * the view and download counters, and the categories. The rules live in server/src/modules/library;
 * who sees what is library-access.ts, asked by the list (SQL), the item routes, the files of an
 * item and search.
 */
import { libraryAudience } from './library-notices';
import {
  AppError,
  LibraryCategoryInputSchema,
  LibraryCategoryListQuerySchema,
  LibraryCategoryListSchema,
  LibraryCategoryParamsSchema,
  LibraryCategorySchema,
  LibraryDownloadQuerySchema,
  LibraryItemCreateSchema,
  LibraryItemParamsSchema,
  LibraryItemSchema,
  LibraryItemUpdateSchema,
  LibraryListQuerySchema,
  LibraryListSchema,
  LibraryVersionListQuerySchema,
  LibraryVersionListSchema,
  LINK_URL_MESSAGES,
  STALE_REVISION_MESSAGE,
  type LibraryItem,
  type LibraryFile,
  type LibraryItemSummary,
  type LibraryScope,
} from '@learning-hub/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { UserRecord } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import { isUniqueViolation } from '../../platform/db/errors';
import { abilitiesOf, itemVisible, libraryViewerOf, type LibraryViewer } from './library-access';
import { pageWindow, sendPage, slicePage } from '../../platform/paging';
import {
  deleteCategory,
  findCategory,
  findItem,
  findVersionFile,
  insertCategory,
  listCategories,
  listItems,
  listVersions,
  renameCategory,
  type ItemRecord,
} from './library-repository';
import { libraryItemLifecycle } from './item-lifecycle';
import {
  createItemFor,
  LIBRARY_MESSAGES as M,
  LIBRARY_OWNER,
  updateItemFor,
} from './library-service';
import { checkLinkAddress } from './link-address';
import { currentUser } from '../../platform/http/access';
import { createdAnswer } from '../../platform/http/openapi';
import type { UrlSigner } from '../../platform/storage/signed-urls';

const VIEW = { permissions: ['library.view' as const], scope: 'any' as const };
const MANAGE = { permissions: ['library.manage' as const] };

/** The refusals of a link's address (API description). */
const LINK_REFUSALS = { notPublic: LINK_URL_MESSAGES.notPublic('<host>') };

/** The refusals of an item's fields (API description). */
const INPUT_REFUSALS = {
  400: [M.noCategory, LINK_REFUSALS.notPublic],
  403: [M.course],
  404: [`${M.noDepartment} (the scope's)`, `${M.noCourse} (the scope's)`],
};

function scopeOf(item: ItemRecord): LibraryScope {
  if (item.scopeType === 'department' && item.departmentId) {
    return { type: 'department', departmentId: item.departmentId };
  }
  if (item.scopeType === 'course' && item.courseId) {
    return { type: 'course', courseId: item.courseId };
  }
  return { type: 'everyone' };
}

/** A file with its routes signed for one session (for `<img>`, `<video>` and links). */
function signedFile(
  signer: UrlSigner,
  file: LibraryFile | null,
  sessionId: string,
): LibraryFile | null {
  if (!file) return null;
  const path = `/api/files/${file.fileId}`;
  return {
    ...file,
    url: signer.sign(path, sessionId),
    thumbnailUrl: file.hasThumbnail ? signer.sign(`${path}/thumbnail`, sessionId) : null,
  };
}

/** The counting download route of an item (a version of it), signed for one session. */
function signedDownload(signer: UrlSigner, itemId: string, sessionId: string, version?: number) {
  const url = signer.sign(`/api/library/items/${itemId}/download`, sessionId);
  return version === undefined ? url : `${url}&version=${version}`;
}

function toSummary(item: ItemRecord, signer: UrlSigner, sessionId: string): LibraryItemSummary {
  return {
    id: item.id,
    kind: item.kind,
    title: item.title,
    tags: item.tags,
    category: item.category,
    scope: scopeOf(item),
    scopeLabel: item.scopeLabel,
    file: signedFile(signer, item.file, sessionId),
    url: item.url,
    version: item.version,
    textState: item.textState,
    viewCount: item.viewCount,
    downloadCount: item.downloadCount,
    createdBy: item.createdBy,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    deletedAt: item.deletedAt,
  };
}

const libraryRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => number }> = async (
  app,
  { db, now },
) => {
  const deps = {
    db,
    access: app.access,
    files: app.files,
    jobs: app.jobs,
    notices: {
      audience: (scope: LibraryScope, at: number) => libraryAudience(app, db, scope, at),
      notifications: app.notifications,
    },
  };
  const items = libraryItemLifecycle({ db, files: app.files });

  /** The item and the viewer when the user may see it (the trash rule included), else null. */
  async function gate(
    user: UserRecord,
    itemId: string,
  ): Promise<{ item: ItemRecord; viewer: LibraryViewer } | null> {
    const item = await findItem(db, itemId);
    if (!item) return null;
    const at = now();
    const viewer = libraryViewerOf(app.access, user, at);
    return (await itemVisible(db, app.access, user, viewer, item, at)) ? { item, viewer } : null;
  }

  // The files of an item (every version's, and its description's media): read by whoever may
  // see the item; attached by whoever may change it (its creator, adding it).
  app.files.registerFileOwner(LIBRARY_OWNER, {
    canRead: async (user, itemId) => (await gate(user, itemId)) !== null,
    canAttach: async (user, itemId) => {
      const found = await gate(user, itemId);
      if (!found || found.item.deletedAt !== null) return false;
      const own = found.item.createdBy.id === user.id;
      return abilitiesOf(found.viewer, found.item).edit || (own && found.viewer.upload);
    },
  });

  /** The item the caller may see (404 otherwise: an item one may not see is not there). */
  async function visibleItem(request: FastifyRequest, itemId: string) {
    const user = currentUser(request);
    const found = await gate(user, itemId);
    if (!found) throw new AppError('NOT_FOUND', M.notFound);
    return { ...found, user };
  }

  function toItem(request: FastifyRequest, item: ItemRecord, viewer: LibraryViewer): LibraryItem {
    const sessionId = request.auth?.session.id ?? '';
    return {
      ...toSummary(item, app.urlSigner, sessionId),
      downloadUrl:
        item.deletedAt === null && (item.file || item.url)
          ? signedDownload(app.urlSigner, item.id, sessionId)
          : null,
      descriptionHtml: app.urlSigner.signHtml(item.descriptionHtml, sessionId),
      textError: item.textError,
      deletedBy: item.deletedBy,
      revision: item.revision,
      can: abilitiesOf(viewer, item),
    };
  }

  app.get(
    '/api/library/items',
    {
      config: { access: VIEW },
      schema: {
        operationId: 'listLibraryItems',
        tags: ['library'],
        summary:
          'The library items the caller may see (or the trash they may restore), filtered, sorted and paged',
        querystring: LibraryListQuerySchema,
        response: { 200: LibraryListSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const viewer = libraryViewerOf(app.access, user, now());
      const q = request.query;
      const { items, total } = await listItems(app.reads, {
        viewer,
        trash: q.trash ?? false,
        kind: q.kind,
        categoryId: q.categoryId,
        tag: q.tag || undefined,
        scope: q.scope,
        departmentId: q.departmentId,
        courseId: q.courseId,
        mine: q.mine ?? false,
        search: q.search || undefined,
        sort: q.sort,
        order: q.order ?? (q.sort === 'title' ? 'asc' : 'desc'),
        ...pageWindow(q),
      });
      return sendPage(request, reply, {
        items: items.map((i) => toSummary(i, app.urlSigner, request.auth?.session.id ?? '')),
        total,
        page: q.page,
        pageSize: q.pageSize,
        canUpload: viewer.upload,
        canManage: viewer.manage,
      });
    },
  );

  app.post(
    '/api/library/items',
    {
      config: {
        access: { permissions: ['library.upload'] },
        responses: {
          ...INPUT_REFUSALS,
          201: createdAnswer('/api/library/items/<id>'),
          404: [
            ...INPUT_REFUSALS[404],
            `${M.fileNotFound} (the fileId names no upload of the caller’s).`,
          ],
          409: [M.attached],
        },
      },
      schema: {
        operationId: 'createLibraryItem',
        tags: ['library'],
        summary: 'Add an item: the caller’s upload (its first version) or a link',
        body: LibraryItemCreateSchema,
        response: { 201: LibraryItemSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const viewer = libraryViewerOf(app.access, user, now());
      const item = await createItemFor(deps, { body: request.body, user, viewer, now: now() });
      return reply
        .code(201)
        .header('location', `/api/library/items/${encodeURIComponent(item.id)}`)
        .send(toItem(request, item, viewer));
    },
  );

  app.get(
    '/api/library/items/:itemId',
    {
      config: { access: VIEW },
      schema: {
        operationId: 'getLibraryItem',
        tags: ['library'],
        summary: 'One item with its description and what the caller may do with it',
        params: LibraryItemParamsSchema,
        response: { 200: LibraryItemSchema },
      },
    },
    async (request) => {
      const { item, viewer } = await visibleItem(request, request.params.itemId);
      return toItem(request, item, viewer);
    },
  );

  app.patch(
    '/api/library/items/:itemId',
    {
      config: {
        access: { permissions: ['library.edit', 'library.manage'], mode: 'any', scope: 'any' },
        responses: {
          ...INPUT_REFUSALS,
          400: [...INPUT_REFUSALS[400], M.linkHasNoFile, M.fileHasNoUrl],
          403: [...INPUT_REFUSALS[403], 'You may not change this item.'],
          404: [
            M.notFound,
            ...INPUT_REFUSALS[404],
            `${M.fileNotFound} (the fileId names no upload of the caller’s).`,
          ],
          409: [STALE_REVISION_MESSAGE, M.trashed, M.attached, M.busy],
        },
      },
      schema: {
        operationId: 'updateLibraryItem',
        tags: ['library'],
        summary:
          'Change an item at the revision read (409 when stale); a fileId replaces its file with a new version',
        params: LibraryItemParamsSchema,
        body: LibraryItemUpdateSchema,
        response: { 200: LibraryItemSchema },
      },
    },
    async (request) => {
      const { item, viewer, user } = await visibleItem(request, request.params.itemId);
      if (item.deletedAt !== null) throw new AppError('CONFLICT', M.trashed);
      if (!abilitiesOf(viewer, item).edit) {
        throw new AppError('FORBIDDEN', 'You may not change this item.');
      }
      const updated = await updateItemFor(deps, {
        item,
        body: request.body,
        user,
        viewer,
        now: now(),
      });
      return toItem(request, updated, viewer);
    },
  );

  app.delete(
    '/api/library/items/:itemId',
    {
      config: {
        access: { permissions: ['library.delete', 'library.manage'], mode: 'any', scope: 'any' },
        responses: {
          204: 'In the trash (`GET` it, or list the trash, to see it there).',
          403: [M.mayNotDelete],
          409: [M.trashed],
        },
      },
      schema: {
        operationId: 'deleteLibraryItem',
        tags: ['library'],
        summary: 'Move an item to the trash',
        params: LibraryItemParamsSchema,
      },
    },
    async (request, reply) => {
      const { item, viewer, user } = await visibleItem(request, request.params.itemId);
      await items.trash(item, user.id, now(), () => abilitiesOf(viewer, item).delete);
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/library/items/:itemId/restore',
    {
      config: {
        access: { permissions: ['library.delete', 'library.manage'], mode: 'any', scope: 'any' },
        responses: { 409: [M.notTrashed] },
      },
      schema: {
        operationId: 'restoreLibraryItem',
        tags: ['library'],
        summary: 'Take an item out of the trash',
        params: LibraryItemParamsSchema,
        response: { 200: LibraryItemSchema },
      },
    },
    async (request) => {
      const { item, viewer, user } = await visibleItem(request, request.params.itemId);
      // Only who may restore it sees a trashed item at all (itemVisible).
      await items.restore(item, user.id, now());
      return toItem(request, (await findItem(db, item.id)) as ItemRecord, viewer);
    },
  );

  app.get(
    '/api/library/items/:itemId/versions',
    {
      config: { access: VIEW },
      schema: {
        operationId: 'listLibraryItemVersions',
        tags: ['library'],
        summary: 'The versions of an item’s file, newest first (none for a link)',
        params: LibraryItemParamsSchema,
        querystring: LibraryVersionListQuerySchema,
        response: { 200: LibraryVersionListSchema },
      },
    },
    async (request, reply) => {
      const { item } = await visibleItem(request, request.params.itemId);
      const sessionId = request.auth?.session.id ?? '';
      const { items: versions, ...page } = slicePage(
        await listVersions(db, item.id),
        request.query,
      );
      return sendPage(request, reply, {
        ...page,
        items: versions.map((v) => ({
          ...v,
          file: signedFile(app.urlSigner, v.file, sessionId) ?? v.file,
          downloadUrl:
            item.deletedAt === null
              ? signedDownload(app.urlSigner, item.id, sessionId, v.version)
              : null,
        })),
      });
    },
  );

  app.post(
    '/api/library/items/:itemId/view',
    {
      config: { access: VIEW, responses: { 204: 'Counted.' } },
      schema: {
        operationId: 'countLibraryItemView',
        tags: ['library'],
        summary:
          "Count one view of an item (its page calls it once); the owner's own visits are not counted",
        params: LibraryItemParamsSchema,
      },
    },
    async (request, reply) => {
      const { item, user } = await visibleItem(request, request.params.itemId);
      await items.view(item, user.id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/library/items/:itemId/download',
    {
      config: {
        access: { ...VIEW, allowSignedUrl: true },
        responses: {
          303: 'To a signed URL of the version’s file that downloads it as an attachment (to the address of a link).',
          403: [LINK_REFUSALS.notPublic],
          404: [M.notFound, M.noVersion],
        },
      },
      schema: {
        operationId: 'downloadLibraryItem',
        tags: ['library'],
        summary: 'Download an item’s file (the current version, or ?version=): counts a download',
        params: LibraryItemParamsSchema,
        querystring: LibraryDownloadQuerySchema,
      },
    },
    async (request, reply) => {
      const { item } = await visibleItem(request, request.params.itemId);
      if (item.deletedAt !== null) throw new AppError('NOT_FOUND', M.notFound);
      let location: string;
      if (item.url !== null && item.kind === 'link') {
        // Checked again when followed: an item saved before the rule, or whose host an admin has
        // taken off the allowed internal hosts since, is refused rather than followed.
        const refusal = await checkLinkAddress(db, item.url);
        if (refusal) throw new AppError('FORBIDDEN', refusal);
        location = item.url;
      } else {
        const found = await findVersionFile(db, item.id, request.query.version);
        if (!found) throw new AppError('NOT_FOUND', M.noVersion);
        const sessionId = request.auth?.session.id ?? '';
        location = `${app.urlSigner.sign(`/api/files/${found.fileId}`, sessionId)}&download=1`;
      }
      await items.count(item.id, 'download_count');
      return reply.code(303).header('location', location).send();
    },
  );

  app.delete(
    '/api/library/trash/:itemId',
    {
      config: {
        access: MANAGE,
        responses: { 204: 'Deleted for good, with its files.', 409: [M.notTrashed] },
      },
      schema: {
        operationId: 'purgeLibraryItem',
        tags: ['library'],
        summary: 'Delete an item in the trash for good, with every version’s file',
        params: LibraryItemParamsSchema,
      },
    },
    async (request, reply) => {
      const { item } = await visibleItem(request, request.params.itemId);
      await items.purge(item);
      return reply.code(204).send();
    },
  );

  app.delete(
    '/api/library/trash',
    {
      config: { access: MANAGE, responses: { 204: 'The trash is empty.' } },
      schema: {
        operationId: 'emptyLibraryTrash',
        tags: ['library'],
        summary: 'Empty the trash: delete every item in it for good, with its files',
      },
    },
    async (_request, reply) => {
      await items.emptyTrash();
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/library/categories',
    {
      config: { access: VIEW },
      schema: {
        operationId: 'listLibraryCategories',
        tags: ['library'],
        summary: 'The categories, with how many of their items the caller may open',
        querystring: LibraryCategoryListQuerySchema,
        response: { 200: LibraryCategoryListSchema },
      },
    },
    async (request, reply) => {
      // Counting each category's visible items reads the whole library: a read thread's work.
      const categories = await listCategories(
        app.reads,
        libraryViewerOf(app.access, currentUser(request), now()),
      );
      return sendPage(request, reply, slicePage(categories, request.query));
    },
  );

  app.post(
    '/api/library/categories',
    {
      config: {
        access: MANAGE,
        responses: {
          201: createdAnswer('/api/library/categories/<id>'),
          409: [M.categoryTaken],
        },
      },
      schema: {
        operationId: 'createLibraryCategory',
        tags: ['library'],
        summary: 'Add a category (names are unique whatever their case)',
        body: LibraryCategoryInputSchema,
        response: { 201: LibraryCategorySchema },
      },
    },
    async (request, reply) => {
      try {
        const category = await insertCategory(db, request.body.name, new Date(now()).toISOString());
        return await reply
          .code(201)
          .header('location', `/api/library/categories/${encodeURIComponent(category.id)}`)
          .send(category);
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('CONFLICT', M.categoryTaken);
        throw error;
      }
    },
  );

  app.patch(
    '/api/library/categories/:categoryId',
    {
      config: { access: MANAGE, responses: { 409: [M.categoryTaken] } },
      schema: {
        operationId: 'updateLibraryCategory',
        tags: ['library'],
        summary: 'Rename a category',
        params: LibraryCategoryParamsSchema,
        body: LibraryCategoryInputSchema,
        response: { 200: LibraryCategorySchema },
      },
    },
    async (request) => {
      const { categoryId } = request.params;
      try {
        if (!(await renameCategory(db, categoryId, request.body.name))) {
          throw new AppError('NOT_FOUND', M.categoryNotFound);
        }
      } catch (error) {
        if (isUniqueViolation(error)) throw new AppError('CONFLICT', M.categoryTaken);
        throw error;
      }
      const viewer = libraryViewerOf(app.access, currentUser(request), now());
      const category = await findCategory(db, categoryId, viewer);
      if (!category) throw new AppError('NOT_FOUND', M.categoryNotFound);
      return category;
    },
  );

  app.delete(
    '/api/library/categories/:categoryId',
    {
      config: { access: MANAGE, responses: { 204: 'Deleted; its items have no category now.' } },
      schema: {
        operationId: 'deleteLibraryCategory',
        tags: ['library'],
        summary: 'Delete a category (its items stay)',
        params: LibraryCategoryParamsSchema,
      },
    },
    async (request, reply) => {
      const removed = await db
        .transaction()
        .execute((trx) => deleteCategory(trx, request.params.categoryId));
      if (!removed) throw new AppError('NOT_FOUND', M.categoryNotFound);
      return reply.code(204).send();
    },
  );
};

export default libraryRoutes;
