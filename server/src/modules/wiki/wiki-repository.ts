/**
 * All SQL of the wiki (docs/wiki.md): pages with their space, tree place and current revision,
 * the revisions, the links between pages, the list, and the page's document in the search index,
 * written in the same transaction as every change of what it shows. The trash, the view counter
 * and following are the platform's content lifecycle (page-lifecycle.ts).
 */
import type {
  WIKI_SORTS,
  WikiPageStatus,
  WikiRevisionSummary,
  WikiSpaceKey,
} from '@learning-hub/core';
import { sql, type ExpressionBuilder, type RawBuilder, type SqlBool } from 'kysely';
import { displayName } from '../../platform/auth/display-name';
import { databaseKind, type Db } from '../../platform/db';
import type { Database, WikiPagesTable } from '../../platform/db/schema';
import { prepareQuery } from '../../platform/db/prepared';
import { listPage } from '../../platform/db/paging';
import { likePattern } from '../../platform/db/sql';
import { richTextToPlainText } from '../../platform/rich-text/sanitize';
import { searchIndex } from '../../platform/search/search-index';
import { searchTerms } from '../../platform/search/terms';
import { targetKey, type LinkTarget } from './links';
import {
  pageOpenable,
  pagesVisibleSql,
  trashVisibleSql,
  type WikiSpaceRef,
  type WikiViewer,
} from './wiki-access';

/** The search index's type of wiki pages (core's SEARCH_TYPES). */
export const WIKI_PAGE = 'wiki-page';

/** The company space's name. */
export const COMPANY_SPACE_NAME = 'Company';

/** Most backlinks a page shows. */
const BACKLINKS_MAX = 100;
/** How deep the tree is followed (a bound for ancestors and subtrees, never reached in practice). */
const TREE_DEPTH_MAX = 100;

export interface Person {
  id: string;
  name: string;
}

/** A page's row as the domain uses it (its HTML only when asked for). */
export interface PageRecord {
  id: string;
  spaceKey: WikiSpaceKey;
  spaceType: 'company' | 'department' | 'course';
  departmentId: string | null;
  courseId: string | null;
  spaceName: string;
  parentId: string | null;
  position: number;
  title: string;
  titleKey: string;
  status: WikiPageStatus;
  revision: number;
  viewCount: number;
  createdBy: Person;
  updatedBy: Person;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
}

/** A person's name for display (platform/auth/display-name.ts) from a row's three columns. */
const nameOf = (firstname: string | null, lastname: string | null, username: string | null) =>
  displayName({ firstname, lastname, username });

/**
 * A page's row with its space's name and its authors' names, each looked up by a scalar
 * subquery: on SQLite a join here cost several times the whole lookup (the page's row, with its
 * HTML, read again for every joined table), a subquery a point lookup.
 */
function pageQuery(db: Db) {
  return db.selectFrom('wiki_pages as p').select((eb) => {
    const user = (
      column: 'p.created_by' | 'p.updated_by',
      field: 'firstname' | 'lastname' | 'username',
    ) => eb.selectFrom('users as u').select(`u.${field}`).whereRef('u.id', '=', column);
    return [
      'p.id',
      'p.space_key',
      'p.space_type',
      'p.department_id',
      'p.course_id',
      eb
        .selectFrom('departments as dep')
        .select('dep.name')
        .whereRef('dep.id', '=', 'p.department_id')
        .as('department_name'),
      eb
        .selectFrom('courses as crs')
        .select('crs.title')
        .whereRef('crs.id', '=', 'p.course_id')
        .as('course_title'),
      'p.parent_id',
      'p.position',
      'p.title',
      'p.title_key',
      'p.status',
      'p.revision',
      'p.view_count',
      'p.created_by',
      user('p.created_by', 'firstname').as('cu_first'),
      user('p.created_by', 'lastname').as('cu_last'),
      user('p.created_by', 'username').as('cu_username'),
      'p.updated_by',
      user('p.updated_by', 'firstname').as('uu_first'),
      user('p.updated_by', 'lastname').as('uu_last'),
      user('p.updated_by', 'username').as('uu_username'),
      'p.created_at',
      'p.updated_at',
      'p.deleted_at',
    ];
  });
}

type Row = NonNullable<Awaited<ReturnType<ReturnType<typeof pageQuery>['executeTakeFirst']>>>;

/** The name of a space from its joined columns. */
export const spaceNameOf = (
  type: string,
  departmentName: string | null | undefined,
  courseTitle: string | null | undefined,
) =>
  type === 'department'
    ? (departmentName ?? '')
    : type === 'course'
      ? (courseTitle ?? '')
      : COMPANY_SPACE_NAME;

function toRecord(r: Row): PageRecord {
  return {
    id: r.id,
    spaceKey: r.space_key,
    spaceType: r.space_type,
    departmentId: r.department_id,
    courseId: r.course_id,
    spaceName: spaceNameOf(r.space_type, r.department_name, r.course_title),
    parentId: r.parent_id,
    position: Number(r.position),
    title: r.title,
    titleKey: r.title_key,
    status: r.status === 'draft' ? 'draft' : 'published',
    revision: Number(r.revision),
    viewCount: Number(r.view_count),
    createdBy: { id: r.created_by, name: nameOf(r.cu_first, r.cu_last, r.cu_username) },
    updatedBy: { id: r.updated_by, name: nameOf(r.uu_first, r.uu_last, r.uu_username) },
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
  };
}

// Every page route reads its page first: compiled once (db/prepared.ts).
const pageById = prepareQuery(1, (db: Db, id: string) => pageQuery(db).where('p.id', '=', id));

export async function findPage(db: Db, id: string): Promise<PageRecord | null> {
  const [row] = await pageById.execute(db, id);
  return row ? toRecord(row) : null;
}

/** A page with what its view shows of itself for one viewer, read in one query. */
export interface PageView {
  page: PageRecord;
  /** The current revision's HTML. */
  html: string;
  /** The current revision (null only if its row were missing). */
  current: WikiRevisionSummary | null;
  following: boolean;
  followerCount: number;
}

const pageViewById = prepareQuery(2, (db: Db, id: string, userId: string) =>
  pageQuery(db)
    .select((eb) => {
      // The current revision's columns, each a point lookup (see pageQuery: no joins).
      const current = () =>
        eb
          .selectFrom('wiki_revisions as r')
          .whereRef('r.page_id', '=', 'p.id')
          .whereRef('r.number', '=', 'p.revision');
      const author = (field: 'firstname' | 'lastname' | 'username') =>
        eb
          .selectFrom('users as ru')
          .select(`ru.${field}`)
          .where('ru.id', '=', current().select('r.author_id'));
      return [
        'p.html',
        current().select('r.id').as('r_id'),
        current().select('r.title').as('r_title'),
        current().select('r.summary').as('r_summary'),
        current().select('r.status').as('r_status'),
        current().select('r.author_id').as('r_author_id'),
        author('firstname').as('ru_first'),
        author('lastname').as('ru_last'),
        author('username').as('ru_username'),
        current().select('r.created_at').as('r_created_at'),
        current().select('r.size').as('r_size'),
        current().select('r.restored_from').as('r_restored_from'),
        eb
          .selectFrom('wiki_follows as f')
          .select((f) => f.fn.countAll<number | string>().as('n'))
          .whereRef('f.page_id', '=', 'p.id')
          .as('follower_count'),
        eb
          .selectFrom('wiki_follows as f')
          .select('f.user_id')
          .whereRef('f.page_id', '=', 'p.id')
          .where('f.user_id', '=', userId)
          .as('follower_me'),
      ];
    })
    .where('p.id', '=', id),
);

/**
 * The page, its current HTML and revision, and its followers (whether `userId` is one of them):
 * what findPage, the page's HTML, findRevision of its revision and the followers read, in one query.
 */
export async function findPageView(db: Db, id: string, userId: string): Promise<PageView | null> {
  const [row] = await pageViewById.execute(db, id, userId);
  if (!row) return null;
  const page = toRecord(row);
  const current: WikiRevisionSummary | null =
    row.r_id === null
      ? null
      : {
          id: row.r_id,
          number: page.revision,
          title: row.r_title ?? '',
          summary: row.r_summary ?? '',
          author: {
            id: row.r_author_id ?? '',
            name: nameOf(row.ru_first, row.ru_last, row.ru_username),
          },
          createdAt: row.r_created_at ?? '',
          size: Number(row.r_size),
          restoredFrom: row.r_restored_from === null ? null : Number(row.r_restored_from),
          status: row.r_status === 'draft' ? 'draft' : 'published',
        };
  return {
    page,
    html: row.html,
    current,
    following: row.follower_me !== null,
    followerCount: Number(row.follower_count ?? 0),
  };
}

// ---------------------------------------------------------------- lists and the tree

type WikiSort = (typeof WIKI_SORTS)[number];

export interface PageListFilter {
  viewer: WikiViewer;
  trash: boolean;
  space?: string | undefined;
  status?: WikiPageStatus | undefined;
  following: boolean;
  search?: string | undefined;
  sort: WikiSort;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

const SORT_COLUMNS = {
  updated: 'p.updated_at',
  title: 'p.title_key',
  views: 'p.view_count',
  created: 'p.created_at',
} as const;

/** One page of the pages the viewer may open (or of the trash they may see) and the total. */
export async function listPages(
  db: Db,
  filter: PageListFilter,
): Promise<{ pages: PageRecord[]; total: number }> {
  const v = filter.viewer;
  let base = db
    .selectFrom('wiki_pages as p')
    .where(filter.trash ? trashVisibleSql(db, v) : pagesVisibleSql(db, v));
  if (filter.space) base = base.where('p.space_key', '=', filter.space);
  if (filter.status) base = base.where('p.status', '=', filter.status);
  if (filter.following) {
    base = base.where((eb) =>
      eb.exists(
        eb
          .selectFrom('wiki_follows as f')
          .select('f.page_id')
          .whereRef('f.page_id', '=', 'p.id')
          .where('f.user_id', '=', v.userId),
      ),
    );
  }
  let titleFirst: RawBuilder<number> | null = null;
  if (filter.search && filter.trash) {
    // The trash is not in the index: its titles, by substring.
    base = base.where(sql<SqlBool>`p.title_key like ${likePattern(filter.search)} escape '\\'`);
  } else if (filter.search) {
    // The search index (title and text of published pages); nothing to search for finds nothing.
    const terms = searchTerms(filter.search);
    const matching = terms.length > 0 ? searchIndex(db).matchingIds(WIKI_PAGE, terms) : null;
    base = base.where(matching ? sql<SqlBool>`p.id in ${matching}` : sql<SqlBool>`1 = 0`);
    if (terms.length > 0) {
      // Pages whose title has every term come first.
      const inTitle = sql.join(
        terms.map((t) => sql`p.title_key like ${likePattern(t)} escape '\\'`),
        sql` and `,
      );
      titleFirst = sql<number>`case when ${inTitle} then 0 else 1 end`;
    }
  }
  // As the library's list: the page in index order, then the total only when the page does not tell it.
  const { rows, total } = await listPage(
    base,
    {
      id: 'p.id',
      orderBy: [
        ...(titleFirst ? [{ by: titleFirst, direction: 'asc' as const }] : []),
        { by: SORT_COLUMNS[filter.sort], direction: filter.order },
        { by: 'p.id', direction: filter.order },
      ],
      offset: filter.offset,
      limit: filter.limit,
      total: 'after',
    },
    async (ids) => (await pageQuery(db).where('p.id', 'in', ids).execute()).map(toRecord),
    (page) => page.id,
  );
  return { pages: rows, total };
}

export interface TreeNode {
  id: string;
  title: string;
  parentId: string | null;
  position: number;
  status: WikiPageStatus;
}

/**
 * The pages of a space the viewer may open, at most `limit` (in tree order: position, title).
 * A page whose parent the viewer cannot open (a draft of someone else's, a page in the trash)
 * stands at the top level.
 */
export async function listTree(
  db: Db,
  v: WikiViewer,
  spaceKey: string,
  limit: number,
): Promise<{ pages: TreeNode[]; truncated: boolean }> {
  const rows = await db
    .selectFrom('wiki_pages as p')
    .select(['p.id', 'p.title', 'p.parent_id', 'p.position', 'p.status'])
    .where('p.space_key', '=', spaceKey)
    .where(pagesVisibleSql(db, v))
    .orderBy('p.position')
    .orderBy('p.title_key')
    .orderBy('p.id')
    .limit(limit + 1)
    .execute();
  const kept = rows.slice(0, limit);
  const ids = new Set(kept.map((r) => r.id));
  return {
    pages: kept.map((r) => ({
      id: r.id,
      title: r.title,
      parentId: r.parent_id !== null && ids.has(r.parent_id) ? r.parent_id : null,
      position: Number(r.position),
      status: r.status === 'draft' ? 'draft' : 'published',
    })),
    truncated: rows.length > limit,
  };
}

/**
 * The columns the in-memory visibility rule reads (pageOpenable), with the course's state: a
 * page's own queries are fixed and compiled once, and filtered here rather than by the viewer's
 * SQL (pagesVisibleSql), which costs more to build on every request than to run.
 */
function openableQuery(db: Db) {
  return db
    .selectFrom('wiki_pages as p')
    .select((eb) => [
      'p.status',
      'p.created_by',
      'p.deleted_at',
      'p.department_id',
      'p.course_id',
      courseState(eb),
    ]);
}

/** The state of a page's course (null for none), as `course_state`: a point lookup (pageQuery). */
function courseState(eb: ExpressionBuilder<Database & { p: WikiPagesTable }, 'p'>) {
  return eb
    .selectFrom('courses as crs')
    .select('crs.state')
    .whereRef('crs.id', '=', 'p.course_id')
    .as('course_state');
}

const childrenOf = prepareQuery(1, (db: Db, parentId: string) =>
  openableQuery(db)
    .select(['p.id', 'p.title'])
    .where('p.parent_id', '=', parentId)
    .orderBy('p.position')
    .orderBy('p.title_key')
    .orderBy('p.id'),
);

/** A page's children the viewer may open, in order. */
export async function listChildren(db: Db, v: WikiViewer, pageId: string) {
  const rows = await childrenOf.execute(db, pageId);
  return rows
    .filter((r) => pageOpenable(v, r))
    .map((r) => ({
      id: r.id,
      title: r.title,
      status: (r.status === 'draft' ? 'draft' : 'published') as WikiPageStatus,
    }));
}

const ancestryOf = prepareQuery(1, (db: Db, parentId: string) => ({
  compile: () =>
    sql<{
      id: string;
      title: string;
      status: string;
      created_by: string;
      deleted_at: string | null;
      depth: number | string;
    }>`
    with recursive chain (id, parent_id, title, status, created_by, deleted_at, depth) as (
      select id, parent_id, title, status, created_by, deleted_at, 0
      from wiki_pages where id = ${parentId}
      union all
      select p.id, p.parent_id, p.title, p.status, p.created_by, p.deleted_at, c.depth + 1
      from wiki_pages p join chain c on p.id = c.parent_id
      where c.depth < ${TREE_DEPTH_MAX}
    )
    select id, title, status, created_by, deleted_at, depth from chain order by depth`.compile(db),
}));

/** The chain of pages above `parentId` (it first), nearest first, at most TREE_DEPTH_MAX. */
export async function listAncestry(
  db: Db,
  parentId: string,
): Promise<
  { id: string; title: string; status: string; createdBy: string; deletedAt: string | null }[]
> {
  const rows = await ancestryOf.execute(db, parentId);
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    status: r.status,
    createdBy: r.created_by,
    deletedAt: r.deleted_at,
  }));
}

/** The ids of a page and every page below it (in the trash too). */
export async function listSubtreeIds(db: Db, pageId: string): Promise<string[]> {
  const { rows } = await sql<{ id: string }>`
    with recursive sub (id) as (
      select id from wiki_pages where id = ${pageId}
      union
      select p.id from wiki_pages p join sub s on p.parent_id = s.id
    )
    select id from sub`.execute(db);
  return rows.map((r) => r.id);
}

/** The page of a space with a title (folded), not in the trash, that the viewer may open. */
export async function findByTitle(
  db: Db,
  v: WikiViewer,
  spaceKey: string,
  key: string,
): Promise<{ id: string; title: string } | null> {
  const row = await db
    .selectFrom('wiki_pages as p')
    .select(['p.id', 'p.title'])
    .where('p.space_key', '=', spaceKey)
    .where('p.title_key', '=', key)
    .where(pagesVisibleSql(db, v))
    .executeTakeFirst();
  return row ?? null;
}

/**
 * How many targets one query of openableTargets asks about: a slice is padded to the next size
 * with its first target again (asked twice, found once), so each size is one query compiled once.
 */
const SLICE_SIZES = [8, 64];

const pagesById = SLICE_SIZES.map((n) =>
  prepareQuery(n, (db: Db, ...ids: string[]) =>
    openableQuery(db).select('p.id').where('p.id', 'in', ids),
  ),
);

const pagesByTitle = SLICE_SIZES.map((n) =>
  prepareQuery(2 * n, (db: Db, ...pairs: string[]) =>
    openableQuery(db)
      .select(['p.space_key', 'p.title_key'])
      .where((eb) =>
        eb.or(
          // Only pages out of the trash open; in each branch, it lets the (partial) unique title
          // index serve the branch.
          Array.from({ length: n }, (_, i) =>
            eb.and([
              eb('p.space_key', '=', pairs[2 * i] as string),
              eb('p.title_key', '=', pairs[2 * i + 1] as string),
              eb('p.deleted_at', 'is', null),
            ]),
          ),
        ),
      ),
  ),
);

/** `items` in slices of one of SLICE_SIZES (by its index), each padded with its first item. */
function padded<T>(items: readonly T[]): { size: number; slice: T[] }[] {
  const largest = SLICE_SIZES[SLICE_SIZES.length - 1] as number;
  const out: { size: number; slice: T[] }[] = [];
  for (let i = 0; i < items.length; i += largest) {
    const slice = items.slice(i, i + largest);
    const size = SLICE_SIZES.findIndex((n) => n >= slice.length);
    while (slice.length < (SLICE_SIZES[size] as number)) slice.push(slice[0] as T);
    out.push({ size, slice });
  }
  return out;
}

/** Of the link targets, those the viewer may open (by targetKey). */
export async function openableTargets(
  db: Db,
  v: WikiViewer,
  targets: readonly LinkTarget[],
): Promise<Set<string>> {
  const found = new Set<string>();
  const ids = targets.flatMap((t) => (t.kind === 'id' ? [t.pageId] : []));
  const titles = targets.flatMap((t) => (t.kind === 'title' ? [t] : []));
  // A page with hundreds of links asks in slices, so no statement grows without bound.
  for (const { size, slice } of padded(ids)) {
    const rows = await (pagesById[size] as (typeof pagesById)[number]).execute(db, ...slice);
    for (const r of rows) {
      if (pageOpenable(v, r)) found.add(targetKey({ kind: 'id', pageId: r.id }));
    }
  }
  for (const { size, slice } of padded(titles)) {
    const pairs = slice.flatMap((t) => [t.spaceKey, t.titleKey]);
    const rows = await (pagesByTitle[size] as (typeof pagesByTitle)[number]).execute(db, ...pairs);
    for (const r of rows) {
      if (!pageOpenable(v, r)) continue;
      found.add(targetKey({ kind: 'title', spaceKey: r.space_key, titleKey: r.title_key }));
    }
  }
  return found;
}

/**
 * How many pages linking to a page are read for the in-memory rule; when that many are read and
 * fewer than BACKLINKS_MAX of them may be opened, the viewer's SQL decides instead.
 */
const BACKLINK_CANDIDATES = 4 * BACKLINKS_MAX;

const backlinkCandidates = prepareQuery(
  3,
  (db: Db, pageId: string, spaceKey: string, titleKey: string) =>
    db
      .selectFrom('wiki_pages as p')
      .select((eb) => [
        'p.id',
        'p.title',
        'p.space_type',
        eb
          .selectFrom('departments as dep')
          .select('dep.name')
          .whereRef('dep.id', '=', 'p.department_id')
          .as('department_name'),
        eb
          .selectFrom('courses as crs')
          .select('crs.title')
          .whereRef('crs.id', '=', 'p.course_id')
          .as('course_title'),
        'p.status',
        'p.created_by',
        'p.deleted_at',
        'p.department_id',
        'p.course_id',
        courseState(eb),
      ])
      // From the links to the page (by id, by title), not from every page that might have one;
      // the trash is left to the rule in memory (asked here, it led SQLite to read every page
      // out of the trash instead).
      .where((eb) =>
        eb.or([
          eb(
            'p.id',
            'in',
            eb
              .selectFrom('wiki_links as l')
              .select('l.from_page_id')
              .where('l.to_page_id', '=', pageId),
          ),
          eb(
            'p.id',
            'in',
            eb
              .selectFrom('wiki_links as t')
              .select('t.from_page_id')
              .where('t.to_space_key', '=', spaceKey)
              .where('t.to_title_key', '=', titleKey),
          ),
        ]),
      )
      .where('p.id', '<>', pageId)
      .orderBy('p.title_key')
      .orderBy('p.id')
      .limit(BACKLINK_CANDIDATES),
);

/** Pages the viewer may open whose current revision links to `page` (by id or by title). */
export async function listBacklinks(
  db: Db,
  v: WikiViewer,
  page: Pick<PageRecord, 'id' | 'spaceKey' | 'titleKey'>,
): Promise<{ id: string; title: string; spaceName: string }[]> {
  const candidates = await backlinkCandidates.execute(db, page.id, page.spaceKey, page.titleKey);
  let rows: {
    id: string;
    title: string;
    space_type: string;
    department_name: string | null;
    course_title: string | null;
  }[] = candidates.filter((r) => pageOpenable(v, r)).slice(0, BACKLINKS_MAX);
  if (rows.length < BACKLINKS_MAX && candidates.length === BACKLINK_CANDIDATES) {
    rows = await backlinksBySql(db, v, page);
  }
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    spaceName: spaceNameOf(r.space_type, r.department_name, r.course_title),
  }));
}

/** listBacklinks by the viewer's SQL: for a page linked from more pages than are read at once. */
function backlinksBySql(
  db: Db,
  v: WikiViewer,
  page: Pick<PageRecord, 'id' | 'spaceKey' | 'titleKey'>,
) {
  return db
    .selectFrom('wiki_pages as p')
    .leftJoin('departments as dep', 'dep.id', 'p.department_id')
    .leftJoin('courses as crs', 'crs.id', 'p.course_id')
    .select([
      'p.id',
      'p.title',
      'p.space_type',
      'dep.name as department_name',
      'crs.title as course_title',
    ])
    .where('p.id', '<>', page.id)
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('wiki_links as l')
          .select('l.from_page_id')
          .whereRef('l.from_page_id', '=', 'p.id')
          .where((w) =>
            w.or([
              w('l.to_page_id', '=', page.id),
              w.and([
                w('l.to_space_key', '=', page.spaceKey),
                w('l.to_title_key', '=', page.titleKey),
              ]),
            ]),
          ),
      ),
    )
    .where(pagesVisibleSql(db, v))
    .orderBy('p.title_key')
    .orderBy('p.id')
    .limit(BACKLINKS_MAX)
    .execute();
}

// ---------------------------------------------------------------- spaces

/** Published pages (not in the trash) per space key. */
export async function countPagesBySpace(
  db: Db,
  keys: readonly string[],
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (keys.length === 0) return counts;
  const rows = await db
    .selectFrom('wiki_pages')
    .select(['space_key', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('space_key', 'in', [...keys])
    .where('status', '=', 'published')
    .where('deleted_at', 'is', null)
    .groupBy('space_key')
    .execute();
  for (const r of rows) counts.set(r.space_key, Number(r.n));
  return counts;
}

/**
 * A department's space (`department:<id>`): its published pages not in the trash, how many and
 * the latest `limit` of them (the department page's wiki part, through public.ts).
 */
export async function latestPagesOfDepartment(db: Db, departmentId: string, limit: number) {
  const spaceKey = `department:${departmentId}` as const;
  const base = db
    .selectFrom('wiki_pages')
    .where('space_key', '=', spaceKey)
    .where('status', '=', 'published')
    .where('deleted_at', 'is', null);
  const [count, pages] = await Promise.all([
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    base
      .select(['id', 'title', 'updated_at'])
      .orderBy('updated_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute(),
  ]);
  return {
    spaceKey,
    pageCount: Number(count.n),
    pages: pages.map((p) => ({ id: p.id, title: p.title, updatedAt: p.updated_at })),
  };
}

/** Every department (id, name, archived or not), by name. */
export async function listDepartmentsForSpaces(db: Db) {
  return db
    .selectFrom('departments')
    .select(['id', 'name', 'archived_at'])
    .orderBy('name')
    .orderBy('id')
    .execute();
}

/** Courses whose space has published pages and whose content the viewer may open, at most `limit`. */
export async function listCourseIdsWithPages(
  db: Db,
  visible: RawBuilder<SqlBool>,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('wiki_pages as p')
    .select('p.course_id')
    .distinct()
    .where('p.course_id', 'is not', null)
    .where('p.status', '=', 'published')
    .where('p.deleted_at', 'is', null)
    .where(visible)
    .orderBy('p.course_id')
    .limit(limit)
    .execute();
  return rows.flatMap((r) => (r.course_id ? [r.course_id] : []));
}

/** A space's name, or null when its department or course does not exist. */
export async function findSpaceName(db: Db, space: WikiSpaceRef): Promise<string | null> {
  if (space.type === 'department') {
    const row = await db
      .selectFrom('departments')
      .select('name')
      .where('id', '=', space.departmentId)
      .executeTakeFirst();
    return row?.name ?? null;
  }
  if (space.type === 'course') {
    const row = await db
      .selectFrom('courses')
      .select('title')
      .where('id', '=', space.courseId)
      .executeTakeFirst();
    return row?.title ?? null;
  }
  return COMPANY_SPACE_NAME;
}

// ---------------------------------------------------------------- revisions

function revisionQuery(db: Db) {
  return db
    .selectFrom('wiki_revisions as r')
    .leftJoin('users as u', 'u.id', 'r.author_id')
    .select([
      'r.id',
      'r.number',
      'r.title',
      'r.summary',
      'r.status',
      'r.author_id',
      'u.firstname',
      'u.lastname',
      'u.username',
      'r.created_at',
      'r.size',
      'r.restored_from',
    ]);
}

type RevisionRow = NonNullable<
  Awaited<ReturnType<ReturnType<typeof revisionQuery>['executeTakeFirst']>>
>;

const toRevision = (r: RevisionRow): WikiRevisionSummary => ({
  id: r.id,
  number: Number(r.number),
  title: r.title,
  summary: r.summary,
  author: { id: r.author_id, name: nameOf(r.firstname, r.lastname, r.username) },
  createdAt: r.created_at,
  size: Number(r.size),
  restoredFrom: r.restored_from === null ? null : Number(r.restored_from),
  status: r.status === 'draft' ? 'draft' : 'published',
});

/** A page's revisions, newest first, one page of them, and how many there are. */
export async function listRevisions(
  db: Db,
  pageId: string,
  offset: number,
  limit: number,
): Promise<{ revisions: WikiRevisionSummary[]; total: number }> {
  const [rows, count] = await Promise.all([
    revisionQuery(db)
      .where('r.page_id', '=', pageId)
      .orderBy('r.number', 'desc')
      .limit(limit)
      .offset(offset)
      .execute(),
    db
      .selectFrom('wiki_revisions')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('page_id', '=', pageId)
      .executeTakeFirstOrThrow(),
  ]);
  return { revisions: rows.map(toRevision), total: Number(count.n) };
}

/** One revision of a page by its number, with its HTML. */
export async function findRevision(
  db: Db,
  pageId: string,
  number: number,
): Promise<(WikiRevisionSummary & { html: string }) | null> {
  const row = await revisionQuery(db)
    .select('r.html')
    .where('r.page_id', '=', pageId)
    .where('r.number', '=', number)
    .executeTakeFirst();
  return row ? { ...toRevision(row), html: row.html } : null;
}

// ---------------------------------------------------------------- writes

export interface NewPage {
  id: string;
  space: WikiSpaceRef;
  parentId: string | null;
  title: string;
  titleKey: string;
  status: WikiPageStatus;
  html: string;
  createdBy: string;
}

/** The place after the last of a parent's children in a space (not counting the trash). */
export async function nextPosition(
  db: Db,
  spaceKey: string,
  parentId: string | null,
): Promise<number> {
  const row = await db
    .selectFrom('wiki_pages')
    .select((eb) => eb.fn.max('position').as('last'))
    .where('space_key', '=', spaceKey)
    .where('parent_id', parentId === null ? 'is' : '=', parentId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row?.last === null || row?.last === undefined ? 0 : Number(row.last) + 1;
}

const spaceColumns = (space: WikiSpaceRef) => ({
  space_key: space.key,
  space_type: space.type,
  department_id: space.type === 'department' ? space.departmentId : null,
  course_id: space.type === 'course' ? space.courseId : null,
});

/** Inserts a page at revision 1 (its revision row with insertRevision). */
export async function insertPage(db: Db, page: NewPage, position: number, at: string) {
  await db
    .insertInto('wiki_pages')
    .values({
      id: page.id,
      ...spaceColumns(page.space),
      parent_id: page.parentId,
      position,
      title: page.title,
      title_key: page.titleKey,
      status: page.status,
      html: page.html,
      revision: 1,
      view_count: 0,
      created_by: page.createdBy,
      created_at: at,
      updated_by: page.createdBy,
      updated_at: at,
      deleted_at: null,
      deleted_by: null,
    })
    .execute();
}

export interface NewRevision {
  pageId: string;
  id: string;
  number: number;
  title: string;
  html: string;
  summary: string;
  status: WikiPageStatus;
  authorId: string;
  restoredFrom: number | null;
}

/** Inserts a revision; the unique (page_id, number) refuses a number taken. */
export async function insertRevision(db: Db, r: NewRevision, at: string): Promise<void> {
  await db
    .insertInto('wiki_revisions')
    .values({
      id: r.id,
      page_id: r.pageId,
      number: r.number,
      title: r.title,
      html: r.html,
      summary: r.summary,
      status: r.status,
      author_id: r.authorId,
      created_at: at,
      restored_from: r.restoredFrom,
      size: r.html.length,
    })
    .execute();
}

/**
 * A save: ONE conditional update that moves the page from `baseRevision` to the next, only when
 * that is still its revision and it is not in the trash. Null when another save came first (or
 * the page went to the trash or away): nothing was written. Else the page's space as it is now
 * (what its search document needs).
 */
export async function advancePage(
  db: Db,
  change: {
    pageId: string;
    baseRevision: number;
    title: string;
    titleKey: string;
    html: string;
    status: WikiPageStatus;
    by: string;
  },
  at: string,
): Promise<{ departmentId: string | null; courseId: string | null } | null> {
  const rows = await db
    .updateTable('wiki_pages')
    .set((eb) => ({
      title: change.title,
      title_key: change.titleKey,
      html: change.html,
      status: change.status,
      revision: eb('revision', '+', 1),
      updated_by: change.by,
      updated_at: at,
    }))
    .where('id', '=', change.pageId)
    .where('revision', '=', change.baseRevision)
    .where('deleted_at', 'is', null)
    .returning(['department_id', 'course_id'])
    .execute();
  const [row] = rows;
  return rows.length === 1 && row
    ? { departmentId: row.department_id, courseId: row.course_id }
    : null;
}

/** The target a stored link row names (null for a row of no known shape). */
function targetOfRow(r: {
  to_page_id: string | null;
  to_space_key: string | null;
  to_title_key: string | null;
}): LinkTarget | null {
  if (r.to_page_id !== null) {
    return r.to_space_key === null && r.to_title_key === null
      ? { kind: 'id', pageId: r.to_page_id }
      : null;
  }
  return r.to_space_key !== null && r.to_title_key !== null
    ? { kind: 'title', spaceKey: r.to_space_key, titleKey: r.to_title_key }
    : null;
}

/**
 * Replaces the links of a page (from its current revision's HTML) with `targets` (each once).
 * Only what changed is written: most saves keep their links, and rewriting them all touched a
 * page of each of the table's indexes per link.
 */
export async function replaceLinks(
  db: Db,
  pageId: string,
  targets: readonly LinkTarget[],
): Promise<void> {
  const rows = await db
    .selectFrom('wiki_links')
    .select(['to_page_id', 'to_space_key', 'to_title_key'])
    .where('from_page_id', '=', pageId)
    .execute();
  const stored = new Set<string>();
  for (const r of rows) {
    const target = targetOfRow(r);
    if (target) stored.add(targetKey(target));
  }
  const wanted = new Set(targets.map(targetKey));
  const added = targets.filter((t) => !stored.has(targetKey(t)));
  if (stored.size !== rows.length) {
    // Rows twice or of no known shape (never written so): all of them again.
    await db.deleteFrom('wiki_links').where('from_page_id', '=', pageId).execute();
    await insertLinks(db, pageId, targets);
    return;
  }
  for (const r of rows) {
    const target = targetOfRow(r) as LinkTarget;
    if (wanted.has(targetKey(target))) continue;
    let gone = db.deleteFrom('wiki_links').where('from_page_id', '=', pageId);
    gone =
      target.kind === 'id'
        ? gone.where('to_page_id', '=', target.pageId)
        : gone
            .where('to_space_key', '=', target.spaceKey)
            .where('to_title_key', '=', target.titleKey);
    await gone.execute();
  }
  await insertLinks(db, pageId, added);
}

async function insertLinks(db: Db, pageId: string, targets: readonly LinkTarget[]) {
  if (targets.length === 0) return;
  await db
    .insertInto('wiki_links')
    .values(
      targets.map((t) => ({
        from_page_id: pageId,
        to_page_id: t.kind === 'id' ? t.pageId : null,
        to_space_key: t.kind === 'title' ? t.spaceKey : null,
        to_title_key: t.kind === 'title' ? t.titleKey : null,
      })),
    )
    .execute();
}

/** What a page's search document is made of: its row's columns. */
export interface IndexedPage {
  id: string;
  title: string;
  html: string;
  status: string;
  departmentId: string | null;
  courseId: string | null;
  deletedAt: string | null;
  /** Its plain text, when the caller made it already (outside its transaction); else from `html`. */
  text?: string;
}

/**
 * (Re)indexes a page from its row as it is now: title and plain text, its space's department or
 * course. Only published pages out of the trash are in the index; anything else is taken out.
 * Every write of what it shows calls it (or indexPageAs) in its transaction.
 */
export async function indexPage(db: Db, id: string): Promise<void> {
  const row = await db
    .selectFrom('wiki_pages')
    .select(['id', 'title', 'html', 'status', 'department_id', 'course_id', 'deleted_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) {
    await searchIndex(db).remove(db, WIKI_PAGE, id);
    return;
  }
  await indexPageAs(db, {
    id: row.id,
    title: row.title,
    html: row.html,
    status: row.status,
    departmentId: row.department_id,
    courseId: row.course_id,
    deletedAt: row.deleted_at,
  });
}

/** indexPage from the row's values that the caller has just written (a save), not read again. */
export async function indexPageAs(db: Db, page: IndexedPage): Promise<void> {
  const index = searchIndex(db);
  if (page.deletedAt !== null || page.status !== 'published') {
    await index.remove(db, WIKI_PAGE, page.id);
    return;
  }
  await index.upsert(db, {
    type: WIKI_PAGE,
    id: page.id,
    courseId: page.courseId,
    departmentId: page.departmentId,
    title: page.title,
    body: page.text ?? richTextToPlainText(page.html),
  });
}

/**
 * Deletes the rows that go with a page before the page itself is purged: its revisions and its
 * links; its children stay, at the top level.
 */
export async function deletePageDependents(db: Db, id: string): Promise<void> {
  await db.updateTable('wiki_pages').set({ parent_id: null }).where('parent_id', '=', id).execute();
  await db.deleteFrom('wiki_links').where('from_page_id', '=', id).execute();
  await db.deleteFrom('wiki_revisions').where('page_id', '=', id).execute();
}

/** The ids of a course's pages (deleting the course deletes them, by cascade). */
export async function listPageIdsOfCourse(db: Db, courseId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('wiki_pages')
    .select('id')
    .where('course_id', '=', courseId)
    .execute();
  return rows.map((r) => r.id);
}

// ---------------------------------------------------------------- moving

/**
 * Serialises changes of the tree's shape (moves) for the rest of the transaction, so two moves
 * at once cannot both pass the cycle check: PostgreSQL takes a transaction-scoped advisory lock;
 * SQLite runs one write transaction at a time anyway.
 */
export async function lockTree(db: Db): Promise<void> {
  if (databaseKind(db) !== 'postgres') return;
  await sql`select pg_advisory_xact_lock(hashtext('learning-hub:wiki-tree'))`.execute(db);
}

/** Puts pages (a moved subtree) in another space. */
export async function setSpace(db: Db, ids: readonly string[], space: WikiSpaceRef): Promise<void> {
  for (let i = 0; i < ids.length; i += 200) {
    await db
      .updateTable('wiki_pages')
      .set(spaceColumns(space))
      .where('id', 'in', ids.slice(i, i + 200))
      .execute();
  }
}

/**
 * Gives a page its new parent and its place among the new siblings (out of the trash), which
 * are numbered again from 0 in their order with the page at `position` (past the end: last).
 */
export async function placePage(
  db: Db,
  page: { id: string; spaceKey: string; parentId: string | null; position: number },
): Promise<void> {
  const siblings = await db
    .selectFrom('wiki_pages')
    .select(['id', 'position'])
    .where('space_key', '=', page.spaceKey)
    .where('parent_id', page.parentId === null ? 'is' : '=', page.parentId)
    .where('id', '<>', page.id)
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('title_key')
    .orderBy('id')
    .execute();
  const order = siblings.map((s) => s.id);
  order.splice(Math.min(page.position, order.length), 0, page.id);
  const current = new Map(siblings.map((s) => [s.id, Number(s.position)]));
  for (const [index, id] of order.entries()) {
    if (id === page.id) {
      await db
        .updateTable('wiki_pages')
        .set({ parent_id: page.parentId, position: index })
        .where('id', '=', id)
        .execute();
    } else if (current.get(id) !== index) {
      await db.updateTable('wiki_pages').set({ position: index }).where('id', '=', id).execute();
    }
  }
}

/** Who follows a page (the notice of a change goes to them). */
export async function listFollowerIds(db: Db, pageId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('wiki_follows')
    .where('page_id', '=', pageId)
    .select('user_id')
    .execute();
  return rows.map((r) => r.user_id);
}
