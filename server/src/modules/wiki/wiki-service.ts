/**
 * The wiki's rules that span repositories and transactions (docs/wiki.md): creating a page with
 * its first revision, saving (one conditional update plus the revision, the links and the search
 * document in one transaction; a stale save answers a merge), restoring a revision, and moving
 * pages in and between spaces. The trash, the view counter and following are the platform's
 * content lifecycle (page-lifecycle.ts). The routes stay thin.
 */
import {
  AppError,
  type WikiConflict,
  type WikiPageCreate,
  type WikiPageStatus,
} from '@learning-hub/core';
import { getRolesVersion } from '../../platform/access/access-repository';
import type { AccessService } from '../../platform/access/access-service';
import { findUserById } from '../../platform/auth/user-repository';
import type { NotificationService } from '../../platform/notifications/notification-service';
import type { Db } from '../../platform/db';
import { isUniqueViolation } from '../../platform/db/errors';
import { sortableId } from '../../platform/ids';
import { richTextToPlainText, sanitizeRichText } from '../../platform/rich-text/sanitize';
import type { FileService } from '../../platform/storage/file-service';
import { renderPlan } from './links';
import { mergePage } from './merge';
import { rememberPlan } from './render-cache';
import { titleKey } from './title-key';
import {
  pageAbilities,
  pageVisible,
  spaceAbilities,
  spaceOfKey,
  spaceOfPage,
  spaceVisible,
  wikiViewerOf,
  type WikiSpaceRef,
  type WikiViewer,
} from './wiki-access';
import {
  advancePage,
  findPage,
  findRevision,
  findSpaceName,
  indexPage,
  indexPageAs,
  insertPage,
  insertRevision,
  listSubtreeIds,
  listFollowerIds,
  lockTree,
  nextPosition,
  placePage,
  replaceLinks,
  setSpace,
  WIKI_PAGE,
  type PageRecord,
} from './wiki-repository';

/** The file owner type of wiki pages (images and files in a page). */
export const WIKI_OWNER = WIKI_PAGE;

/** The answers of the wiki's rules, word for word. */
export const WIKI_MESSAGES = {
  notFound: 'Wiki page not found',
  noSpace: 'Space not found',
  noParent: 'There is no such parent page.',
  parentElsewhere: 'The parent page must be in the same space.',
  mayNotCreate: 'You may not add pages to this space.',
  mayNotEdit: 'You may not change this page.',
  mayNotDelete: 'You may not delete this page.',
  conflict: 'Someone else saved this page while you were editing it.',
  busy: 'Someone else saved this page at the same moment. Try again.',
  noRevision: 'This page has no such revision.',
  diffTooLong:
    'Comparing these two revisions took too long. Try two revisions closer to each other.',
  alreadyCurrent: (n: number | string) =>
    `The page already has the title and text of revision ${n}: there is nothing to restore.`,
  backToDraft: 'A published page cannot go back to being a draft.',
  trashed: 'This page is in the trash; restore it first.',
  notTrashed: 'This page is not in the trash.',
  cycle: 'A page cannot be moved under itself or under one of its own subpages.',
  moveTaken:
    'A page with the same title as this page (or as one below it) already exists in that space.',
  titleTaken: (title: string) => `A page called “${title}” already exists in this space.`,
  restoreTaken: (title: string) =>
    `A page called “${title}” already exists in this space. Rename or move that page, then restore this one.`,
} as const;
const M = WIKI_MESSAGES;

export interface WikiDeps {
  db: Db;
  access: AccessService;
  files: FileService;
  /**
   * Called between a save's preparation (sanitising, parsing) and its write transaction, so the
   * caller can let what arrived meanwhile run first (the routes: the event loop's next turn,
   * plugins/lanes.ts). None: the write follows at once.
   */
  pause?: () => Promise<void>;
  /** Tells a page's followers of a change (docs/notifications.md); none: nobody is told. */
  notifications?: NotificationService;
}

/**
 * The followers of a page who may see it as the save leaves it, but its author: each judged
 * with their own permissions now (a follower who lost the space is not told).
 */
async function followersToTell(
  deps: WikiDeps,
  page: PageRecord,
  authorId: string,
  now: number,
): Promise<string[]> {
  if (!deps.notifications) return [];
  const ids = (await listFollowerIds(deps.db, page.id)).filter((id) => id !== authorId);
  if (ids.length === 0) return [];
  const rolesVersion = await getRolesVersion(deps.db);
  const told: string[] = [];
  for (const id of ids) {
    const user = await findUserById(deps.db, id);
    if (!user?.isActive) continue;
    await deps.access.ensureUser(user, rolesVersion);
    const viewer = wikiViewerOf(deps.access, user, now);
    if (await pageVisible(deps.db, deps.access, viewer, page, now)) told.push(id);
  }
  return told;
}

/** A stale save: another save (or the trash) came first; nothing was written. */
class StaleSave extends Error {}

/**
 * The space a key names if it exists and the viewer may read it: 404 otherwise, unknown or hidden
 * alike, whether the key came in the path, the query or a body (docs/spec-readings.md, "Rows a
 * caller may not see").
 */
export async function readableSpace(
  deps: WikiDeps,
  v: WikiViewer,
  key: string,
  now: number,
): Promise<{ space: WikiSpaceRef; name: string }> {
  const space = spaceOfKey(key);
  const name = await findSpaceName(deps.db, space);
  if (name === null || !(await spaceVisible(deps.db, deps.access, v, space, now))) {
    throw new AppError('NOT_FOUND', M.noSpace);
  }
  return { space, name };
}

/**
 * A parent for a page of `space`: a page the viewer may open there, out of the trash (404 for any
 * other, unknown or hidden alike; 400 for one in another space).
 */
async function checkParent(
  deps: WikiDeps,
  v: WikiViewer,
  space: WikiSpaceRef,
  parentId: string | null,
  now: number,
): Promise<PageRecord | null> {
  if (parentId === null) return null;
  const parent = await findPage(deps.db, parentId);
  if (
    !parent ||
    parent.deletedAt !== null ||
    !(await pageVisible(deps.db, deps.access, v, parent, now))
  ) {
    throw new AppError('NOT_FOUND', M.noParent);
  }
  if (parent.spaceKey !== space.key) throw new AppError('VALIDATION_ERROR', M.parentElsewhere);
  return parent;
}

const titleTaken = (error: unknown, title: string) =>
  isUniqueViolation(error) ? new AppError('CONFLICT', M.titleTaken(title)) : error;

/** A new page and its first revision; answers its id. */
export async function createPageFor(
  deps: WikiDeps,
  input: { body: WikiPageCreate; viewer: WikiViewer; now: number },
): Promise<string> {
  const { db } = deps;
  const v = input.viewer;
  const body = input.body as Required<WikiPageCreate>;
  const at = new Date(input.now).toISOString();
  const { space } = await readableSpace(deps, v, body.space, input.now);
  if (!(await spaceAbilities(db, deps.access, v, space, input.now)).create) {
    throw new AppError('FORBIDDEN', M.mayNotCreate);
  }
  await checkParent(deps, v, space, body.parentId ?? null, input.now);
  const html = sanitizeRichText(body.html);
  const title = body.title;
  const id = sortableId();
  // Its links, and how it is served (kept for the answer and the reads after it): one parse.
  const plan = renderPlan(html);
  await deps.pause?.();
  try {
    await db.transaction().execute(async (trx) => {
      const position = await nextPosition(trx, space.key, body.parentId ?? null);
      await insertPage(
        trx,
        {
          id,
          space,
          parentId: body.parentId ?? null,
          title,
          titleKey: titleKey(title),
          status: body.status ?? 'published',
          html,
          createdBy: v.userId,
        },
        position,
        at,
      );
      await insertRevision(
        trx,
        {
          pageId: id,
          id: sortableId(),
          number: 1,
          title,
          html,
          summary: body.summary ?? '',
          status: body.status ?? 'published',
          authorId: v.userId,
          restoredFrom: null,
        },
        at,
      );
      await replaceLinks(trx, id, plan.targets);
      await indexPage(trx, id);
    });
  } catch (error) {
    throw titleTaken(error, title);
  }
  rememberPlan(id, 1, html, plan);
  await deps.files.attachReferenced(v.user, html, { type: WIKI_OWNER, id });
  return id;
}

/**
 * Writes the next revision of a page in one transaction: the conditional update from
 * `baseRevision`, the revision row, the links and the search document. Throws StaleSave when
 * another save (or the trash) came first, and nothing is written.
 */
async function writeRevision(
  deps: WikiDeps,
  change: {
    page: PageRecord;
    baseRevision: number;
    title: string;
    html: string;
    summary: string;
    status: WikiPageStatus;
    restoredFrom: number | null;
    by: string;
  },
  at: string,
): Promise<void> {
  const { page } = change;
  // Its links, and how it is served (kept for the answer and the reads after it): one parse.
  const plan = renderPlan(change.html);
  // Its text for the index, made before the transaction: the write holds the thread alone.
  const text = richTextToPlainText(change.html);
  const followers = await followersToTell(
    deps,
    { ...page, status: change.status, title: change.title },
    change.by,
    Date.parse(at),
  );
  await deps.pause?.();
  try {
    await deps.db.transaction().execute(async (trx) => {
      const advanced = await advancePage(
        trx,
        {
          pageId: page.id,
          baseRevision: change.baseRevision,
          title: change.title,
          titleKey: titleKey(change.title),
          html: change.html,
          status: change.status,
          by: change.by,
        },
        at,
      );
      if (!advanced) throw new StaleSave();
      await insertRevision(
        trx,
        {
          pageId: page.id,
          id: sortableId(),
          number: change.baseRevision + 1,
          title: change.title,
          html: change.html,
          summary: change.summary,
          status: change.status,
          authorId: change.by,
          restoredFrom: change.restoredFrom,
        },
        at,
      );
      await replaceLinks(trx, page.id, plan.targets);
      // The row as the update left it (its space as it is now), not read again.
      await indexPageAs(trx, {
        id: page.id,
        title: change.title,
        html: change.html,
        status: change.status,
        ...advanced,
        deletedAt: null,
        text,
      });
      if (followers.length > 0) {
        await deps.notifications?.notify(trx, {
          kind: 'wiki.page-changed',
          title: `“${change.title}” was changed`,
          body: change.summary || text.slice(0, 200),
          link: `/wiki/pages/${page.id}`,
          source: { type: WIKI_PAGE, id: page.id },
          actorId: change.by,
          recipients: followers,
        });
      }
    });
    if (followers.length > 0) void deps.notifications?.dispatch();
  } catch (error) {
    if (error instanceof StaleSave) throw error;
    // The title index refuses a title taken in the space (after the conditional update, the
    // revision's number is this save's alone).
    throw titleTaken(error, change.title);
  }
  rememberPlan(page.id, change.baseRevision + 1, change.html, plan);
}

/** What a stale save answers: 404 / 409 trashed, or the conflict with its merge. */
async function staleAnswer(
  deps: WikiDeps,
  v: WikiViewer,
  pageId: string,
  base: number,
  mine: { title: string; html: string },
  now: number,
): Promise<AppError> {
  const page = await findPage(deps.db, pageId);
  if (!page || !(await pageVisible(deps.db, deps.access, v, page, now))) {
    return new AppError('NOT_FOUND', M.notFound);
  }
  if (page.deletedAt !== null) return new AppError('CONFLICT', M.trashed);
  const [baseRevision, current] = await Promise.all([
    findRevision(deps.db, pageId, base),
    findRevision(deps.db, pageId, page.revision),
  ]);
  if (!baseRevision || !current) return new AppError('CONFLICT', M.busy);
  const details: WikiConflict = {
    baseRevision: base,
    current,
    mine,
    merge: mergePage({ base: baseRevision, mine, theirs: current }),
  };
  return new AppError('WIKI_EDIT_CONFLICT', M.conflict, details);
}

/**
 * A save of a page the viewer may edit, from `baseRevision`. Never overwrites: when another save
 * came first, 409 WIKI_EDIT_CONFLICT with a WikiConflict (signed by the caller for display).
 */
export async function savePageFor(
  deps: WikiDeps,
  input: {
    page: PageRecord;
    body: {
      baseRevision: number;
      title: string;
      html: string;
      summary?: string;
      status?: WikiPageStatus;
    };
    viewer: WikiViewer;
    now: number;
  },
): Promise<void> {
  const { page, body, viewer: v } = input;
  if (page.deletedAt !== null) throw new AppError('CONFLICT', M.trashed);
  if (!(await pageAbilities(deps.db, deps.access, v, page, input.now)).edit) {
    throw new AppError('FORBIDDEN', M.mayNotEdit);
  }
  if (body.baseRevision > page.revision) throw new AppError('VALIDATION_ERROR', M.noRevision);
  const status = body.status ?? page.status;
  if (page.status === 'published' && status === 'draft') {
    throw new AppError('VALIDATION_ERROR', M.backToDraft);
  }
  const html = sanitizeRichText(body.html);
  const at = new Date(input.now).toISOString();
  try {
    await writeRevision(
      deps,
      {
        page,
        baseRevision: body.baseRevision,
        title: body.title,
        html,
        summary: body.summary ?? '',
        status,
        restoredFrom: null,
        by: v.userId,
      },
      at,
    );
  } catch (error) {
    if (!(error instanceof StaleSave)) throw error;
    throw await staleAnswer(
      deps,
      v,
      page.id,
      body.baseRevision,
      { title: body.title, html },
      input.now,
    );
  }
  await deps.files.attachReferenced(v.user, html, { type: WIKI_OWNER, id: page.id });
}

/**
 * A new revision with an earlier one's title and text (wiki.edit); 404 for no such revision.
 * Like a save, it is the conditional update from the revision the request found current, and a
 * page that already has the revision's title and text is refused (409, nothing to restore): of
 * several restores of one revision at once exactly one writes and the others get a 409, whether
 * they overlap (PostgreSQL: the conditional update) or run one after another (SQLite: the page
 * already has that text).
 */
export async function restoreRevisionFor(
  deps: WikiDeps,
  input: { page: PageRecord; number: number; summary?: string; viewer: WikiViewer; now: number },
): Promise<void> {
  const { page, viewer: v } = input;
  if (page.deletedAt !== null) throw new AppError('CONFLICT', M.trashed);
  if (!(await pageAbilities(deps.db, deps.access, v, page, input.now)).edit) {
    throw new AppError('FORBIDDEN', M.mayNotEdit);
  }
  const [revision, current] = await Promise.all([
    findRevision(deps.db, page.id, input.number),
    findRevision(deps.db, page.id, page.revision),
  ]);
  if (!revision) throw new AppError('NOT_FOUND', M.noRevision);
  // Stored sanitised; sanitised again in case the allow-list changed since.
  const html = sanitizeRichText(revision.html);
  if (current && current.title === revision.title && current.html === html) {
    throw new AppError('CONFLICT', M.alreadyCurrent(revision.number));
  }
  try {
    await writeRevision(
      deps,
      {
        page,
        baseRevision: page.revision,
        title: revision.title,
        html,
        summary: input.summary || `Restored revision ${revision.number}`,
        status: page.status,
        restoredFrom: revision.number,
        by: v.userId,
      },
      new Date(input.now).toISOString(),
    );
  } catch (error) {
    if (error instanceof StaleSave) throw new AppError('CONFLICT', M.busy);
    throw error;
  }
}

/**
 * Moves a page (wiki.manage) under another parent, to another place among its siblings, or to
 * another space with everything below it. Refuses a parent below the page itself (a cycle),
 * atomically: moves take the tree's lock (lockTree) before the check.
 */
export async function movePageFor(
  deps: WikiDeps,
  input: {
    page: PageRecord;
    body: { space: string; parentId: string | null; position: number };
    viewer: WikiViewer;
    now: number;
  },
): Promise<void> {
  const { page, body, viewer: v } = input;
  if (page.deletedAt !== null) throw new AppError('CONFLICT', M.trashed);
  const { space } = await readableSpace(deps, v, body.space, input.now);
  const parent = await checkParent(deps, v, space, body.parentId, input.now);
  try {
    await deps.db.transaction().execute(async (trx) => {
      await lockTree(trx);
      const subtree = await listSubtreeIds(trx, page.id);
      if (parent && subtree.includes(parent.id)) throw new AppError('CONFLICT', M.cycle);
      if (space.key !== page.spaceKey) {
        await setSpace(trx, subtree, space);
        for (const id of subtree) await indexPage(trx, id);
      }
      await placePage(trx, {
        id: page.id,
        spaceKey: space.key,
        parentId: parent?.id ?? null,
        position: body.position,
      });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', M.moveTaken);
    throw error;
  }
}

/** Whether the page may have `user`'s files attached: they may edit it, or made it and may create there. */
export async function mayAttach(
  deps: WikiDeps,
  page: PageRecord,
  v: WikiViewer,
  now: number,
): Promise<boolean> {
  if (page.deletedAt !== null) return false;
  if ((await pageAbilities(deps.db, deps.access, v, page, now)).edit) return true;
  return (
    page.createdBy.id === v.userId &&
    (await spaceAbilities(deps.db, deps.access, v, spaceOfPage(page), now)).create
  );
}
