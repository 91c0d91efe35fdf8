/**
 * All SQL about the library (docs/library.md): categories, items with their tags and versions,
 * the list with its filters, sorts and paging, and the item's document in the search index,
 * written in the same transaction as every change of what it shows. The trash and the counters
 * are the platform's content lifecycle (item-lifecycle.ts).
 */
import type {
  LibraryCategory,
  LibraryFile,
  LibraryItemKind,
  LibraryScope,
  LibrarySort,
  LibraryTextState,
  LibraryVersion,
} from '@learning-hub/core';
import { sql, type SqlBool } from 'kysely';
import { displayName } from '../../platform/auth/display-name';
import type { Db } from '../../platform/db';
import { listPage } from '../../platform/db/paging';
import { updateAtRevision, type RevisionRefusals } from '../../platform/db/revision';
import { likePattern } from '../../platform/db/sql';
import { sortableId } from '../../platform/ids';
import { richTextToPlainText } from '../../platform/rich-text/sanitize';
import { searchIndex } from '../../platform/search/search-index';
import { searchTerms } from '../../platform/search/terms';
import { listVisibleSql, trashVisibleSql, type LibraryViewer } from './library-access';

/** The search index's type of library items. */
export const LIBRARY_ITEM = 'library-item';

const KINDS = new Set(['document', 'video', 'audio', 'image', 'link']);
const TEXT_STATES = new Set(['none', 'pending', 'extracted', 'failed']);

/** An item's row as the domain uses it (the current version's file joined). */
export interface ItemRecord {
  id: string;
  kind: LibraryItemKind;
  title: string;
  descriptionHtml: string;
  category: { id: string; name: string } | null;
  scopeType: LibraryScope['type'];
  departmentId: string | null;
  courseId: string | null;
  scopeLabel: string | null;
  url: string | null;
  version: number;
  file: LibraryFile | null;
  textState: LibraryTextState;
  textError: string | null;
  viewCount: number;
  downloadCount: number;
  createdBy: { id: string; name: string };
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  deletedBy: { id: string; name: string } | null;
  tags: string[];
  /** One more with every change through PATCH (docs/architecture.md, "Two people editing at once"). */
  revision: number;
}

/** A person's name for display (platform/auth/display-name.ts) from a row's three columns. */
const nameOf = (firstname: string | null, lastname: string | null, username: string | null) =>
  displayName({ firstname, lastname, username });

function itemQuery(db: Db) {
  return db
    .selectFrom('library_items as i')
    .leftJoin('library_categories as cat', 'cat.id', 'i.category_id')
    .leftJoin('departments as dep', 'dep.id', 'i.department_id')
    .leftJoin('courses as crs', 'crs.id', 'i.course_id')
    .leftJoin('library_versions as v', (join) =>
      join.onRef('v.item_id', '=', 'i.id').onRef('v.version', '=', 'i.current_version'),
    )
    .leftJoin('files as f', 'f.id', 'v.file_id')
    .leftJoin('users as cu', 'cu.id', 'i.created_by')
    .leftJoin('users as du', 'du.id', 'i.deleted_by')
    .select([
      'i.id',
      'i.kind',
      'i.title',
      'i.description_html',
      'i.category_id',
      'cat.name as category_name',
      'i.scope_type',
      'i.department_id',
      'i.course_id',
      'dep.name as department_name',
      'crs.title as course_title',
      'i.url',
      'i.current_version',
      'v.text_state',
      'v.text_error',
      'f.id as file_id',
      'f.original_name as file_name',
      'f.mime as file_mime',
      'f.size as file_size',
      'f.thumbnail_key as file_thumbnail',
      'i.view_count',
      'i.download_count',
      'i.created_by',
      'cu.firstname as cu_first',
      'cu.lastname as cu_last',
      'cu.username as cu_username',
      'i.created_at',
      'i.updated_at',
      'i.deleted_at',
      'i.deleted_by',
      'i.revision',
      'du.firstname as du_first',
      'du.lastname as du_last',
      'du.username as du_username',
    ]);
}

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof itemQuery>['executeTakeFirst']>>>;

function toRecord(r: Row, tags: string[]): ItemRecord {
  const scopeType = (
    r.scope_type === 'department' || r.scope_type === 'course' ? r.scope_type : 'everyone'
  ) as LibraryScope['type'];
  return {
    id: r.id,
    kind: (KINDS.has(r.kind) ? r.kind : 'document') as LibraryItemKind,
    title: r.title,
    descriptionHtml: r.description_html,
    category:
      r.category_id !== null && r.category_name !== null
        ? { id: r.category_id, name: r.category_name }
        : null,
    scopeType,
    departmentId: r.department_id,
    courseId: r.course_id,
    scopeLabel:
      scopeType === 'department'
        ? (r.department_name ?? null)
        : scopeType === 'course'
          ? (r.course_title ?? null)
          : null,
    url: r.url,
    version: Number(r.current_version),
    file:
      r.file_id !== null && r.file_id !== undefined
        ? {
            fileId: r.file_id,
            name: r.file_name ?? '',
            mime: r.file_mime ?? 'application/octet-stream',
            size: Number(r.file_size ?? 0),
            hasThumbnail: r.file_thumbnail !== null && r.file_thumbnail !== undefined,
          }
        : null,
    textState: (r.text_state && TEXT_STATES.has(r.text_state)
      ? r.text_state
      : 'none') as LibraryTextState,
    textError: r.text_error ?? null,
    viewCount: Number(r.view_count),
    downloadCount: Number(r.download_count),
    createdBy: { id: r.created_by, name: nameOf(r.cu_first, r.cu_last, r.cu_username) },
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
    deletedBy:
      r.deleted_by !== null
        ? { id: r.deleted_by, name: nameOf(r.du_first, r.du_last, r.du_username) }
        : null,
    tags,
    revision: Number(r.revision),
  };
}

async function tagsOf(db: Db, ids: readonly string[]): Promise<Map<string, string[]>> {
  const tags = new Map<string, string[]>();
  if (ids.length === 0) return tags;
  const rows = await db
    .selectFrom('library_item_tags')
    .select(['item_id', 'tag'])
    .where('item_id', 'in', [...ids])
    .orderBy('tag')
    .execute();
  for (const r of rows) tags.set(r.item_id, [...(tags.get(r.item_id) ?? []), r.tag]);
  return tags;
}

export async function findItem(db: Db, id: string): Promise<ItemRecord | null> {
  const row = await itemQuery(db).where('i.id', '=', id).executeTakeFirst();
  if (!row) return null;
  return toRecord(row, (await tagsOf(db, [id])).get(id) ?? []);
}

// ---------------------------------------------------------------- the list

export interface ItemListFilter {
  viewer: LibraryViewer;
  trash: boolean;
  kind?: LibraryItemKind | undefined;
  categoryId?: string | undefined;
  tag?: string | undefined;
  scope?: LibraryScope['type'] | undefined;
  departmentId?: string | undefined;
  courseId?: string | undefined;
  mine: boolean;
  search?: string | undefined;
  sort: LibrarySort;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const SORT_COLUMNS = {
  updated: 'i.updated_at',
  title: 'i.title',
  created: 'i.created_at',
  views: 'i.view_count',
  downloads: 'i.download_count',
} as const;

/** One page of the items the viewer may see (or of their trash) and the total. */
export async function listItems(
  db: Db,
  filter: ItemListFilter,
): Promise<{ items: ItemRecord[]; total: number }> {
  const v = filter.viewer;
  let base = db
    .selectFrom('library_items as i')
    .where(filter.trash ? trashVisibleSql(db, v) : listVisibleSql(db, v));
  if (filter.kind) base = base.where('i.kind', '=', filter.kind);
  if (filter.categoryId) base = base.where('i.category_id', '=', filter.categoryId);
  if (filter.scope) base = base.where('i.scope_type', '=', filter.scope);
  if (filter.departmentId) base = base.where('i.department_id', '=', filter.departmentId);
  if (filter.courseId) base = base.where('i.course_id', '=', filter.courseId);
  if (filter.mine) base = base.where('i.created_by', '=', v.userId);
  if (filter.tag) {
    const tag = filter.tag.toLowerCase();
    base = base.where((eb) =>
      eb.exists(
        eb
          .selectFrom('library_item_tags as t')
          .select('t.item_id')
          .whereRef('t.item_id', '=', 'i.id')
          .where('t.tag', '=', tag),
      ),
    );
  }
  if (filter.search && filter.trash) {
    // The trash is not in the index: its titles, by substring.
    const pattern = likePattern(filter.search);
    base = base.where(sql<SqlBool>`lower(i.title) like ${pattern} escape '\\'`);
  } else if (filter.search) {
    // The search index (title, description, tags, file name, the document's text); nothing to
    // search for (only symbols) finds nothing.
    const terms = searchTerms(filter.search);
    const matching = terms.length > 0 ? searchIndex(db).matchingIds(LIBRARY_ITEM, terms) : null;
    base = base.where(matching ? sql<SqlBool>`i.id in ${matching}` : sql<SqlBool>`1 = 0`);
  }
  // The page in the sort's index order, then the total counted over an index only when the page
  // does not tell it: cheaper than a window count, which reads and sorts every visible item
  // (bench:library; migration 0015 for the default order).
  const { rows, total } = await listPage(
    base,
    {
      id: 'i.id',
      orderBy: [
        { by: SORT_COLUMNS[filter.sort], direction: filter.order },
        { by: 'i.id', direction: filter.order },
      ],
      offset: filter.offset,
      limit: filter.limit,
      total: 'after',
    },
    async (ids) => {
      const [found, tags] = await Promise.all([
        itemQuery(db).where('i.id', 'in', ids).execute(),
        tagsOf(db, ids),
      ]);
      return found.map((row) => toRecord(row, tags.get(row.id) ?? []));
    },
    (item) => item.id,
  );
  return { items: rows, total };
}

// ---------------------------------------------------------------- the search index

/**
 * (Re)indexes an item from its rows as they are now: title; plain description, tags, the
 * current file's name and its extracted text; its scope columns. An item in the trash (or gone)
 * is taken out. Every write of what it shows calls it in its transaction.
 */
export async function indexItem(db: Db, id: string): Promise<void> {
  const index = searchIndex(db);
  const row = await db
    .selectFrom('library_items as i')
    .leftJoin('library_versions as v', (join) =>
      join.onRef('v.item_id', '=', 'i.id').onRef('v.version', '=', 'i.current_version'),
    )
    .leftJoin('files as f', 'f.id', 'v.file_id')
    .select([
      'i.id',
      'i.title',
      'i.description_html',
      'i.department_id',
      'i.course_id',
      'i.url',
      'i.deleted_at',
      'f.original_name as file_name',
      'v.extracted_text',
    ])
    .where('i.id', '=', id)
    .executeTakeFirst();
  if (!row || row.deleted_at !== null) {
    await index.remove(db, LIBRARY_ITEM, id);
    return;
  }
  const tags = (await tagsOf(db, [id])).get(id) ?? [];
  const body = [
    richTextToPlainText(row.description_html),
    tags.join(' '),
    row.file_name ?? row.url ?? '',
    row.extracted_text ?? '',
  ]
    .filter((part) => part !== '')
    .join('\n');
  await index.upsert(db, {
    type: LIBRARY_ITEM,
    id: row.id,
    courseId: row.course_id,
    departmentId: row.department_id,
    title: row.title,
    body,
  });
}

// ---------------------------------------------------------------- changes

export interface NewItem {
  id: string;
  kind: LibraryItemKind;
  title: string;
  descriptionHtml: string;
  categoryId: string | null;
  scope: LibraryScope;
  url: string | null;
  tags: string[];
  createdBy: string;
}

const scopeColumns = (scope: LibraryScope) => ({
  scope_type: scope.type,
  department_id: scope.type === 'department' ? scope.departmentId : null,
  course_id: scope.type === 'course' ? scope.courseId : null,
});

/** Inserts an item with its tags (its first version, if any, with insertVersion). */
export async function insertItem(db: Db, item: NewItem, at: string): Promise<void> {
  await db
    .insertInto('library_items')
    .values({
      id: item.id,
      kind: item.kind,
      title: item.title,
      description_html: item.descriptionHtml,
      category_id: item.categoryId,
      ...scopeColumns(item.scope),
      url: item.url,
      current_version: 1,
      created_by: item.createdBy,
      created_at: at,
      updated_at: at,
      updated_by: item.createdBy,
      deleted_at: null,
      deleted_by: null,
    })
    .execute();
  await setTags(db, item.id, item.tags);
}

export async function setTags(db: Db, itemId: string, tags: readonly string[]): Promise<void> {
  await db.deleteFrom('library_item_tags').where('item_id', '=', itemId).execute();
  if (tags.length === 0) return;
  await db
    .insertInto('library_item_tags')
    .values([...new Set(tags)].map((tag) => ({ item_id: itemId, tag })))
    .execute();
}

export interface ItemChanges {
  title?: string;
  descriptionHtml?: string;
  categoryId?: string | null;
  scope?: LibraryScope;
  url?: string;
  kind?: LibraryItemKind;
}

/**
 * Changes an item that is not in the trash, only while it is still at `revision` (one conditional
 * UPDATE that bumps it: platform/db/revision.ts), else the refusal that says why (gone, changed
 * by someone else since, or in the trash: `refusals.otherwise`).
 */
export async function updateItem(
  db: Db,
  id: string,
  revision: number,
  changes: ItemChanges,
  by: string,
  at: string,
  refusals: RevisionRefusals,
): Promise<void> {
  await updateAtRevision(
    db,
    {
      table: 'library_items',
      id,
      revision,
      set: {
        ...(changes.title !== undefined ? { title: changes.title } : {}),
        ...(changes.descriptionHtml !== undefined
          ? { description_html: changes.descriptionHtml }
          : {}),
        ...(changes.categoryId !== undefined ? { category_id: changes.categoryId } : {}),
        ...(changes.scope !== undefined ? scopeColumns(changes.scope) : {}),
        ...(changes.url !== undefined ? { url: changes.url } : {}),
        ...(changes.kind !== undefined ? { kind: changes.kind } : {}),
        updated_at: at,
        updated_by: by,
      },
      where: (eb) => eb('deleted_at', 'is', null),
    },
    refusals,
  );
}

/**
 * Adds the next version of an item's file: one conditional insert of max(version) + 1, which the
 * unique (item_id, version) refuses when another version took that number meanwhile (the caller
 * tries again), and makes it current unless a later one already is. Returns the version's number.
 */
export async function insertVersion(
  db: Db,
  version: {
    id: string;
    itemId: string;
    fileId: string;
    createdBy: string;
    textState: LibraryTextState;
  },
  at: string,
): Promise<number> {
  await sql`
    insert into library_versions
      (id, item_id, version, file_id, created_by, created_at, text_state, text_error, extracted_text)
    select ${version.id}, ${version.itemId}, coalesce(max(version), 0) + 1, ${version.fileId},
      ${version.createdBy}, ${at}, ${version.textState}, null, null
    from library_versions where item_id = ${version.itemId}`.execute(db);
  const row = await db
    .selectFrom('library_versions')
    .select('version')
    .where('id', '=', version.id)
    .executeTakeFirstOrThrow();
  const number = Number(row.version);
  await db
    .updateTable('library_items')
    .set({ current_version: number })
    .where('id', '=', version.itemId)
    .where('current_version', '<', number)
    .execute();
  return number;
}

/** Deletes the rows that go with an item (its tags and versions), before the item itself. */
export async function deleteItemDependents(db: Db, id: string): Promise<void> {
  await db.deleteFrom('library_item_tags').where('item_id', '=', id).execute();
  await db.deleteFrom('library_versions').where('item_id', '=', id).execute();
}

/** Deletes an item whatever its state (undoing a create whose file could not be attached). */
export async function deleteItemRow(db: Db, id: string): Promise<void> {
  await deleteItemDependents(db, id);
  await db.deleteFrom('library_items').where('id', '=', id).execute();
}

// ---------------------------------------------------------------- versions

function versionQuery(db: Db) {
  return db
    .selectFrom('library_versions as v')
    .innerJoin('files as f', 'f.id', 'v.file_id')
    .innerJoin('library_items as i', 'i.id', 'v.item_id')
    .leftJoin('users as u', 'u.id', 'v.created_by')
    .select([
      'v.id',
      'v.item_id',
      'v.version',
      'v.file_id',
      'v.created_by',
      'v.created_at',
      'v.text_state',
      'v.text_error',
      'i.current_version',
      'f.original_name',
      'f.mime',
      'f.size',
      'f.thumbnail_key',
      'f.storage_key',
      'u.firstname',
      'u.lastname',
      'u.username',
    ]);
}

/** An item's versions, newest first. */
export async function listVersions(db: Db, itemId: string): Promise<LibraryVersion[]> {
  const rows = await versionQuery(db)
    .where('v.item_id', '=', itemId)
    .orderBy('v.version', 'desc')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    version: Number(r.version),
    file: {
      fileId: r.file_id,
      name: r.original_name,
      mime: r.mime,
      size: Number(r.size),
      hasThumbnail: r.thumbnail_key !== null,
    },
    createdBy: { id: r.created_by, name: nameOf(r.firstname, r.lastname, r.username) },
    createdAt: r.created_at,
    textState: (TEXT_STATES.has(r.text_state) ? r.text_state : 'none') as LibraryTextState,
    textError: r.text_error,
    current: Number(r.version) === Number(r.current_version),
  }));
}

/** The file of an item's version (the current one when `version` is absent). */
export async function findVersionFile(
  db: Db,
  itemId: string,
  version: number | undefined,
): Promise<{ fileId: string; version: number } | null> {
  let query = db
    .selectFrom('library_versions as v')
    .innerJoin('library_items as i', 'i.id', 'v.item_id')
    .select(['v.file_id', 'v.version'])
    .where('v.item_id', '=', itemId);
  query =
    version === undefined
      ? query.whereRef('v.version', '=', 'i.current_version')
      : query.where('v.version', '=', version);
  const row = await query.executeTakeFirst();
  return row ? { fileId: row.file_id, version: Number(row.version) } : null;
}

/** A version with what its text extraction needs. */
export async function findVersionForText(db: Db, versionId: string) {
  const row = await versionQuery(db).where('v.id', '=', versionId).executeTakeFirst();
  return row
    ? {
        id: row.id,
        itemId: row.item_id,
        version: Number(row.version),
        current: Number(row.version) === Number(row.current_version),
        textState: row.text_state,
        file: { id: row.file_id, storageKey: row.storage_key, mime: row.mime },
      }
    : null;
}

/** Records the outcome of a version's text extraction. */
export async function setVersionText(
  db: Db,
  versionId: string,
  outcome: { ok: true; text: string } | { ok: false; reason: string },
): Promise<void> {
  await db
    .updateTable('library_versions')
    .set(
      outcome.ok
        ? { text_state: 'extracted', extracted_text: outcome.text, text_error: null }
        : { text_state: 'failed', text_error: outcome.reason.slice(0, 500), extracted_text: null },
    )
    .where('id', '=', versionId)
    .execute();
}

/** Whether the item's current version is `version` (text of older versions is not indexed). */
export async function isCurrentVersion(db: Db, itemId: string, version: number): Promise<boolean> {
  const row = await db
    .selectFrom('library_items')
    .select('current_version')
    .where('id', '=', itemId)
    .executeTakeFirst();
  return row !== undefined && Number(row.current_version) === version;
}

// ---------------------------------------------------------------- categories

/**
 * The categories, each with the number of items in it that `viewer` may open: the list's own
 * visibility rule (listVisibleSql) in the join, so a count never tells of items someone cannot see.
 */
export async function listCategories(db: Db, viewer: LibraryViewer): Promise<LibraryCategory[]> {
  const rows = await db
    .selectFrom('library_categories as c')
    .leftJoin('library_items as i', (join) =>
      join.onRef('i.category_id', '=', 'c.id').on(listVisibleSql(db, viewer)),
    )
    .select(['c.id', 'c.name', (eb) => eb.fn.count<number | string>('i.id').as('n')])
    .groupBy(['c.id', 'c.name', 'c.name_key'])
    .orderBy('c.name_key')
    .execute();
  return rows.map((r) => ({ id: r.id, name: r.name, itemCount: Number(r.n) }));
}

/** Every category's id and name (no counts). */
export async function listCategoryNames(db: Db): Promise<{ id: string; name: string }[]> {
  return db.selectFrom('library_categories').select(['id', 'name']).execute();
}

export async function findCategory(
  db: Db,
  id: string,
  viewer: LibraryViewer,
): Promise<LibraryCategory | null> {
  const all = await listCategories(db, viewer);
  return all.find((c) => c.id === id) ?? null;
}

export async function categoryExists(db: Db, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('library_categories')
    .select('id')
    .where('id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

/** A new category (the unique name_key refuses a name taken in any case). */
export async function insertCategory(db: Db, name: string, at: string): Promise<LibraryCategory> {
  const id = sortableId();
  await db
    .insertInto('library_categories')
    .values({ id, name, name_key: name.toLowerCase(), created_at: at })
    .execute();
  return { id, name, itemCount: 0 };
}

export async function renameCategory(db: Db, id: string, name: string): Promise<boolean> {
  const result = await db
    .updateTable('library_categories')
    .set({ name, name_key: name.toLowerCase() })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Deletes a category; its items stay, without a category. False when there was none. */
export async function deleteCategory(db: Db, id: string): Promise<boolean> {
  await db
    .updateTable('library_items')
    .set({ category_id: null })
    .where('category_id', '=', id)
    .execute();
  const result = await db.deleteFrom('library_categories').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The ids of a course's library items (deleting the course deletes them, by cascade). */
export async function listItemIdsOfCourse(db: Db, courseId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('library_items')
    .select('id')
    .where('course_id', '=', courseId)
    .execute();
  return rows.map((r) => r.id);
}
