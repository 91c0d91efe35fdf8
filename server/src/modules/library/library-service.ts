/**
 * The library's rules that span repositories (docs/library.md): adding an item (a stored upload
 * of the caller's, or a link) with its first version and changing it (a new file is a new
 * version). The trash and the counters are the platform's content lifecycle (item-lifecycle.ts).
 * The routes stay thin.
 */
import type { NotificationService } from '../../platform/notifications/notification-service';
import {
  AppError,
  type LibraryItemCreate,
  type LibraryItemKind,
  type LibraryItemUpdate,
  type LibraryScope,
} from '@learning-hub/core';
import type { AccessService } from '../../platform/access/access-service';
import { type UserRecord } from '../../platform/auth/user-repository';
import { findDepartment } from '../../platform/auth/departments';
import { courseAccess, findCourseRecord } from '../courses/public';
import type { Transaction } from 'kysely';
import type { Db } from '../../platform/db';
import type { Database } from '../../platform/db/schema';
import { isUniqueViolation } from '../../platform/db/errors';
import type { JobService } from '../../platform/jobs';
import { sortableId } from '../../platform/ids';
import { richTextToPlainText, sanitizeRichText } from '../../platform/rich-text/sanitize';
import { searchIndex } from '../../platform/search/search-index';
import type { FileRecord } from '../../platform/storage/file-repository';
import type { FileService } from '../../platform/storage/file-service';
import { seesDepartment } from '../../platform/visibility/department-visibility';
import type { LibraryViewer } from './library-access';
import { ExtractLibraryText, hasExtractableText, LibraryThumbnail } from './library-jobs';
import { checkLinkAddress } from './link-address';
import {
  categoryExists,
  deleteItemRow,
  findItem,
  indexItem,
  insertItem,
  insertVersion,
  LIBRARY_ITEM,
  setTags,
  updateItem,
  type ItemChanges,
  type ItemRecord,
} from './library-repository';

/** The file owner type of library items. */
export const LIBRARY_OWNER = LIBRARY_ITEM;

/** The answers of the library's rules, word for word. */
export const LIBRARY_MESSAGES = {
  notFound: 'Library item not found',
  noCategory: 'There is no such category.',
  noDepartment: 'There is no such department.',
  noCourse: 'There is no such course.',
  course: 'You may add items only to a course you can edit.',
  trashed: 'This item is in the trash; restore it first.',
  mayNotDelete: 'You may not delete this item.',
  notTrashed: 'This item is not in the trash.',
  linkHasNoFile: 'A link has no file: change its web address instead.',
  fileHasNoUrl: 'This item is a file: upload a new version instead of giving a web address.',
  fileNotFound: 'File not found',
  attached: 'This file is already attached to something else.',
  categoryTaken: 'A category with this name already exists.',
  categoryNotFound: 'Category not found',
  noVersion: 'This item has no such version.',
  busy: 'Another new version was being saved at the same moment. Try again.',
} as const;
const M = LIBRARY_MESSAGES;

export interface LibraryDeps {
  db: Db;
  access: AccessService;
  files: FileService;
  jobs: JobService;
  /**
   * Tells a department's or a course's people of a new item (library-notices.ts): their ids,
   * resolved before the write, and the notifications to write them with. None: nobody is told.
   */
  notices?: {
    audience(scope: LibraryItemCreate['scope'], now: number): Promise<string[]>;
    notifications: NotificationService;
  };
}

/** What an item is, from its stored file's detected type. */
export function kindOfMime(mime: string): LibraryItemKind {
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime.startsWith('image/')) return 'image';
  return 'document';
}

/** A link's address must be one the library lets a link go to (link-address.ts): else a 400. */
async function checkLink(db: Db, url: string | undefined): Promise<void> {
  if (url === undefined) return;
  const refusal = await checkLinkAddress(db, url);
  if (refusal) throw new AppError('VALIDATION_ERROR', refusal);
}

async function checkCategory(db: Db, categoryId: string | null | undefined): Promise<void> {
  if (categoryId && !(await categoryExists(db, categoryId))) {
    throw new AppError('VALIDATION_ERROR', M.noCategory);
  }
}

/**
 * Whether the user may put an item in `scope`: a department they may view (department.view
 * there) and a course they may edit (course.edit there); library.manage anywhere. A department
 * or course the caller may not see is not there for them: 404, as for one that does not exist
 * (docs/spec-readings.md, "Rows a caller may not see"); a course they see but may not edit, 403.
 */
async function checkScope(
  deps: LibraryDeps,
  user: UserRecord,
  v: LibraryViewer,
  scope: LibraryScope,
  now: number,
): Promise<void> {
  if (scope.type === 'department') {
    const found = await findDepartment(deps.db, scope.departmentId);
    // The library sees a department by department.view there (library-access.ts), which is
    // also what adding to it needs.
    if (found?.id !== scope.departmentId || !(v.manage || seesDepartment(v, found.id))) {
      throw new AppError('NOT_FOUND', M.noDepartment);
    }
  } else if (scope.type === 'course') {
    const course = await findCourseRecord(deps.db, scope.courseId);
    if (!course || !(v.manage || courseAccess(deps.access, user, course, now).canSee)) {
      throw new AppError('NOT_FOUND', M.noCourse);
    }
    const may =
      v.manage ||
      deps.access.engine.check(user.id, 'course.edit', {
        type: 'course',
        courseId: scope.courseId,
      });
    if (!may) throw new AppError('FORBIDDEN', M.course);
  }
}

/** The caller's own unattached upload (404 for anyone else's, 409 when already attached). */
async function checkUpload(
  files: FileService,
  userId: string,
  fileId: string,
): Promise<FileRecord> {
  const file = await files.find(fileId);
  if (!file || file.uploadedBy !== userId) throw new AppError('NOT_FOUND', M.fileNotFound);
  if (file.ownerType !== null) throw new AppError('CONFLICT', M.attached);
  return file;
}

/** Writes a new version of a document's file and sends its jobs, in the caller's transaction. */
async function addVersion(
  deps: LibraryDeps,
  trx: Transaction<Database>,
  itemId: string,
  file: FileRecord,
  userId: string,
  at: string,
): Promise<void> {
  const extract = hasExtractableText(file.mime);
  const versionId = sortableId();
  await insertVersion(
    trx,
    {
      id: versionId,
      itemId,
      fileId: file.id,
      createdBy: userId,
      textState: extract ? 'pending' : 'none',
    },
    at,
  );
  const options = { trx };
  if (extract) await deps.jobs.send(ExtractLibraryText, { versionId }, options);
  if (file.mime === 'application/pdf') {
    await deps.jobs.send(
      LibraryThumbnail,
      { fileId: file.id },
      { ...options, singletonKey: file.id },
    );
  }
}

/** How often a write racing another new version of the same item is tried again. */
const VERSION_ATTEMPTS = 5;

/** A new item: the caller's upload (its first version) or a link. */
export async function createItemFor(
  deps: LibraryDeps,
  input: { body: LibraryItemCreate; user: UserRecord; viewer: LibraryViewer; now: number },
): Promise<ItemRecord> {
  const { db, files } = deps;
  const { user, viewer } = input;
  const body = input.body as LibraryItemCreate & { tags?: string[] };
  const at = new Date(input.now).toISOString();
  await checkCategory(db, body.categoryId);
  await checkScope(deps, user, viewer, body.scope, input.now);
  if (!body.fileId) await checkLink(db, body.url);
  const file = body.fileId ? await checkUpload(files, user.id, body.fileId) : null;
  const descriptionHtml = sanitizeRichText(body.descriptionHtml ?? '');
  const id = sortableId();
  const told = deps.notices ? await deps.notices.audience(body.scope, input.now) : [];
  await db.transaction().execute(async (trx) => {
    await insertItem(
      trx,
      {
        id,
        kind: file ? kindOfMime(file.mime) : 'link',
        title: body.title,
        descriptionHtml,
        categoryId: body.categoryId ?? null,
        scope: body.scope,
        url: file ? null : (body.url ?? null),
        tags: body.tags ?? [],
        createdBy: user.id,
      },
      at,
    );
    if (file) await addVersion(deps, trx, id, file, user.id, at);
    await indexItem(trx, id);
    if (told.length > 0) {
      await deps.notices?.notifications.notify(trx, {
        kind: 'library.item-added',
        title: `New in the library: ${body.title}`,
        body: richTextToPlainText(descriptionHtml).slice(0, 200),
        link: `/library/${id}`,
        source: { type: LIBRARY_ITEM, id },
        actorId: user.id,
        recipients: told,
      });
    }
  });
  if (file) {
    try {
      await files.attach(user, file.id, { type: LIBRARY_OWNER, id });
    } catch (error) {
      // Lost the upload to another attach meanwhile: the item was never there.
      await db.transaction().execute(async (trx) => {
        await deleteItemRow(trx, id);
        await searchIndex(trx).remove(trx, LIBRARY_ITEM, id);
      });
      throw error;
    }
  }
  await files.attachReferenced(user, descriptionHtml, { type: LIBRARY_OWNER, id });
  return (await findItem(db, id)) as ItemRecord;
}

/**
 * Changes an item the caller may edit, only while it is at the `revision` the caller read (409
 * otherwise: docs/architecture.md, "Two people editing at once"). A `fileId` attaches the caller's
 * new upload and makes it the next version (the earlier ones stay, with their files); of two
 * changes based on the same revision, a replacement included, one lands and the other is refused.
 */
export async function updateItemFor(
  deps: LibraryDeps,
  input: {
    item: ItemRecord;
    body: LibraryItemUpdate;
    user: UserRecord;
    viewer: LibraryViewer;
    now: number;
  },
): Promise<ItemRecord> {
  const { db, files } = deps;
  const { item, user, viewer } = input;
  const body = input.body as LibraryItemUpdate & { tags?: string[] };
  const at = new Date(input.now).toISOString();
  if (item.deletedAt !== null) throw new AppError('CONFLICT', M.trashed);
  if (body.fileId !== undefined && item.kind === 'link') {
    throw new AppError('VALIDATION_ERROR', M.linkHasNoFile);
  }
  if (body.url !== undefined && item.kind !== 'link') {
    throw new AppError('VALIDATION_ERROR', M.fileHasNoUrl);
  }
  await checkCategory(db, body.categoryId);
  if (body.scope) await checkScope(deps, user, viewer, body.scope, input.now);
  await checkLink(db, body.url);
  const file = body.fileId ? await checkUpload(files, user.id, body.fileId) : null;
  if (file) await files.attach(user, file.id, { type: LIBRARY_OWNER, id: item.id });
  const changes: ItemChanges = {
    ...(body.title !== undefined ? { title: body.title } : {}),
    ...(body.descriptionHtml !== undefined
      ? { descriptionHtml: sanitizeRichText(body.descriptionHtml) }
      : {}),
    ...(body.categoryId !== undefined ? { categoryId: body.categoryId } : {}),
    ...(body.scope !== undefined ? { scope: body.scope } : {}),
    ...(body.url !== undefined ? { url: body.url } : {}),
    ...(file ? { kind: kindOfMime(file.mime) } : {}),
  };
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await db.transaction().execute(async (trx) => {
          await updateItem(trx, item.id, body.revision, changes, user.id, at, {
            notFound: M.notFound,
            otherwise: () => new AppError('CONFLICT', M.trashed),
          });
          if (body.tags !== undefined) await setTags(trx, item.id, body.tags);
          if (file) await addVersion(deps, trx, item.id, file, user.id, at);
          await indexItem(trx, item.id);
        });
        break;
      } catch (error) {
        if (!isUniqueViolation(error)) throw error;
        if (attempt >= VERSION_ATTEMPTS) throw new AppError('CONFLICT', M.busy);
      }
    }
  } catch (error) {
    // The change did not happen: the new file, attached for it, is no version of anything.
    if (file) await files.deleteOwned(file.id);
    throw error;
  }
  if (changes.descriptionHtml) {
    await files.attachReferenced(user, changes.descriptionHtml, {
      type: LIBRARY_OWNER,
      id: item.id,
    });
  }
  return (await findItem(db, item.id)) as ItemRecord;
}
