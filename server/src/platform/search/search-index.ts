/**
 * The one search index every area uses (docs/search.md): SQLite FTS5 on the embedded database,
 * PostgreSQL full-text search (a weighted `tsvector` with a GIN index) on PostgreSQL, behind one
 * interface. An area indexes its rows with `upsert`/`remove` in the transaction that writes them,
 * and searches with the SQL predicates of its own list rules (`SearchScope`), so a result is
 * never stale and never something the caller may not open. All SQL is here and in the area's
 * scope builders; user text reaches it only as the terms of `searchTerms`.
 */
import type { HighlightedText } from '@learning-hub/core';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { databaseKind, type Db } from '../db';
import { scopeTextOf, typeToken } from './scope-tokens';
import {
  highlightAll,
  indexable,
  MARK_END,
  MARK_START,
  searchTerms,
  snippetOf,
  termMatcher,
  toHighlighted,
} from './terms';

/** One searchable thing: its type and id, its scope columns and its plain text. */
export interface SearchDocument {
  type: string;
  id: string;
  /** The course it belongs to (courses and lessons), else null. */
  courseId: string | null;
  /** The department it belongs to (department-scoped library items), else null. */
  departmentId?: string | null;
  title: string;
  /** Plain text (rich text stripped of its tags by the area). */
  body: string;
}

/**
 * Which documents of one type the caller may open: a predicate over `search_documents` as `d`
 * (its scope columns), written by the area with the same rules its lists use.
 */
export interface SearchScope {
  type: string;
  where: RawBuilder<SqlBool>;
}

export interface SearchRequest {
  query: string;
  /** The types searched, each with its visibility predicate; none means no results. */
  scopes: readonly SearchScope[];
  offset: number;
  limit: number;
}

export interface SearchHit {
  type: string;
  id: string;
  courseId: string | null;
  courseTitle: string | null;
  title: HighlightedText;
  snippet: HighlightedText;
  /** Higher is better. */
  rank: number;
}

export interface SearchIndex {
  /** Adds or replaces a document (run it in the transaction that writes the row). */
  upsert(db: Db, doc: SearchDocument): Promise<void>;
  remove(db: Db, type: string, id: string): Promise<void>;
  /** Removes every document of a course (deleting the course). */
  removeCourse(db: Db, courseId: string): Promise<void>;
  /** One ranked page of what matches and the caller may open, with the total. */
  search(db: Db, request: SearchRequest): Promise<{ hits: SearchHit[]; total: number }>;
  /**
   * A subquery (in parentheses) of the ids of `type` that match `terms` (non-empty), for a list
   * that filters by search but keeps its own order and rules (the course catalogue).
   */
  matchingIds(type: string, terms: readonly string[]): RawBuilder<unknown>;
}

/** A page's row on SQLite: the document's own text, marked up in JavaScript. */
interface PageRow {
  doc_type: string;
  doc_id: string;
  course_id: string | null;
  course_title: string | null;
  title: string;
  body: string;
  score: number | string;
  total: number | string;
}

interface Row {
  doc_type: string;
  doc_id: string;
  course_id: string | null;
  course_title: string | null;
  title_marked: string | null;
  snippet_marked: string | null;
  score: number | string;
}

const toHit = (r: Row, rank: number): SearchHit => ({
  type: r.doc_type,
  id: r.doc_id,
  courseId: r.course_id,
  courseTitle: r.course_title,
  title: toHighlighted(r.title_marked),
  snippet: toHighlighted(r.snippet_marked),
  rank,
});

async function upsertRow(db: Db, doc: SearchDocument): Promise<void> {
  const row = {
    doc_type: doc.type,
    doc_id: doc.id,
    course_id: doc.courseId,
    department_id: doc.departmentId ?? null,
    title: indexable(doc.title),
    body: indexable(doc.body),
  };
  await db
    .insertInto('search_documents')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['doc_type', 'doc_id']).doUpdateSet({
        course_id: row.course_id,
        department_id: row.department_id,
        title: row.title,
        body: row.body,
      }),
    )
    .execute();
}

const common = {
  upsert: upsertRow,
  async remove(db: Db, type: string, id: string) {
    await db
      .deleteFrom('search_documents')
      .where('doc_type', '=', type)
      .where('doc_id', '=', id)
      .execute();
  },
  async removeCourse(db: Db, courseId: string) {
    await db.deleteFrom('search_documents').where('course_id', '=', courseId).execute();
  },
};

const scopeSql = (scopes: readonly SearchScope[]) =>
  sql.join(
    scopes.map((s) => sql`(d.doc_type = ${s.type} and ${s.where})`),
    sql` or `,
  );

/** FTS5: every term a quoted prefix phrase (`"term"*`), all required; bm25, title weighs 10. */
const ftsMatch = (terms: readonly string[]) =>
  `{title body} : (${terms.map((t) => `"${t}"*`).join(' ')})`;

/**
 * The documents of one type, as an FTS5 query of its scope token (migration 0017): a list asking
 * for one type's matches (the catalogue) or a search of one type skips every other type inside
 * the index. (Tokens of where a document belongs are in the column too; asking for them would
 * filter by visibility inside the index, but bm25 then pays for every one of those words in
 * every row, which cost more than it saved: docs/search.md.)
 */
const ftsType = (type: string) => `scope : "${typeToken(type)}"`;

/** SQLite's upsert also writes the document's scope tokens (migration 0017). */
async function upsertSqlite(db: Db, doc: SearchDocument): Promise<void> {
  const scope = scopeTextOf(doc);
  await sql`
    insert into search_documents (doc_type, doc_id, course_id, department_id, title, body, scope)
    values (${doc.type}, ${doc.id}, ${doc.courseId}, ${doc.departmentId ?? null},
            ${indexable(doc.title)}, ${indexable(doc.body)}, ${scope})
    on conflict (doc_type, doc_id) do update set
      course_id = excluded.course_id, department_id = excluded.department_id,
      title = excluded.title, body = excluded.body, scope = excluded.scope`.execute(db);
}

const sqliteIndex: SearchIndex = {
  ...common,
  upsert: upsertSqlite,
  async search(db, { query, scopes, offset, limit }) {
    const terms = searchTerms(query);
    if (terms.length === 0 || scopes.length === 0) return { hits: [], total: 0 };
    const only = scopes.length === 1 ? scopes[0]?.type : undefined;
    const match = only ? `${ftsMatch(terms)} AND ${ftsType(only)}` : ftsMatch(terms);
    const where = sql<SqlBool>`search_fts match ${match} and (${scopeSql(scopes)})`;
    // The scope columns of each match come from the covering index search_documents_scope
    // (migration 0016), never from the document's row with its long body. One pass over what
    // matches and may be opened ranks and counts it (bm25 in the innermost query: FTS5 refuses
    // it beside a window function); only the page's rows are read whole, in the outer query,
    // and marked up here (termMatcher): asking FTS5 for highlight() and snippet() runs the
    // match again for each row and cost more than the ranking itself (docs/search.md).
    const { rows } = await sql<PageRow>`
      select d.doc_type, d.doc_id, d.course_id, c.title as course_title, d.title, d.body,
        p.score, p.total
      from (
        select m.seq, m.doc_id, m.score, count(*) over () as total
        from (
          select d.seq, d.doc_id, bm25(search_fts, 10.0, 1.0, 0.0) as score
          from search_fts
          join search_documents d indexed by search_documents_scope on d.seq = search_fts.rowid
          where ${where}
        ) m
        order by m.score, m.doc_id
        limit ${limit} offset ${offset}
      ) p
      join search_documents d on d.seq = p.seq
      left join courses c on c.id = d.course_id
      order by p.score, p.doc_id`.execute(db);
    const matches = termMatcher(terms);
    const total =
      rows.length > 0
        ? Number(rows[0]?.total ?? 0)
        : offset === 0
          ? 0
          : await countOf(
              db,
              sql`select count(*) as n from search_fts
                join search_documents d indexed by search_documents_scope
                  on d.seq = search_fts.rowid
                where ${where}`,
            );
    const hits = rows.map((r) => ({
      type: r.doc_type,
      id: r.doc_id,
      courseId: r.course_id,
      courseTitle: r.course_title,
      title: highlightAll(r.title, matches),
      snippet: snippetOf(r.body, matches),
      rank: -Number(r.score),
    }));
    return { hits, total };
  },
  matchingIds(type, terms) {
    // The documents of the type, read from the (doc_type, doc_id) index, which holds their
    // rowid, kept when the match has their rowid. The `+` stops SQLite from looking up every
    // match's row (title and whole body) by rowid instead, which costs 4–5 times more when a
    // common word matches thousands of documents of other types.
    return sql`(select d.doc_id from search_documents d
      where d.doc_type = ${type}
        and +d.seq in (select rowid from search_fts where search_fts match ${`${ftsMatch(terms)} AND ${ftsType(type)}`}))`;
  },
};

/** PostgreSQL: `'term':*` joined by `&` (stemmed by the english configuration), ts_rank. */
const tsQuery = (terms: readonly string[]) => terms.map((t) => `'${t}':*`).join(' & ');
const TITLE_HEADLINE = `StartSel="${MARK_START}", StopSel="${MARK_END}", HighlightAll=true`;
const BODY_HEADLINE = `StartSel="${MARK_START}", StopSel="${MARK_END}", MaxWords=28, MinWords=12, MaxFragments=2, FragmentDelimiter=" … "`;

const postgresIndex: SearchIndex = {
  ...common,
  async search(db, { query, scopes, offset, limit }) {
    const terms = searchTerms(query);
    if (terms.length === 0 || scopes.length === 0) return { hits: [], total: 0 };
    const tsq = tsQuery(terms);
    const from = sql`from search_documents d
      cross join to_tsquery('english', ${tsq}) as q
      left join courses c on c.id = d.course_id
      where d.tsv @@ q and (${scopeSql(scopes)})`;
    // Headlines are costly: made only for the page, in the outer query.
    const { rows } = await sql<Row & { total: number | string }>`
      select p.doc_type, p.doc_id, p.course_id, p.course_title, p.score, p.total,
        ts_headline('english', p.title, q, ${TITLE_HEADLINE}) as title_marked,
        ts_headline('english', p.body, q, ${BODY_HEADLINE}) as snippet_marked
      from (
        select d.doc_type, d.doc_id, d.course_id, c.title as course_title, d.title, d.body,
          ts_rank(d.tsv, q) as score, count(*) over () as total
        ${from}
        order by score desc, d.doc_id
        limit ${limit} offset ${offset}
      ) p cross join to_tsquery('english', ${tsq}) as q
      order by p.score desc, p.doc_id`.execute(db);
    const total =
      rows.length > 0
        ? Number(rows[0]?.total ?? 0)
        : offset === 0
          ? 0
          : await countOf(db, sql`select count(*) as n ${from}`);
    return { hits: rows.map((r) => toHit(r, Number(r.score))), total };
  },
  matchingIds(type, terms) {
    return sql`(select d.doc_id from search_documents d
      where d.doc_type = ${type} and d.tsv @@ to_tsquery('english', ${tsQuery(terms)}))`;
  },
};

async function countOf(db: Db, query: RawBuilder<unknown>): Promise<number> {
  const { rows } = await sql<{ n: number | string }>`${query}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/** The index of the database `db` talks to. */
export function searchIndex(db: Db): SearchIndex {
  return databaseKind(db) === 'postgres' ? postgresIndex : sqliteIndex;
}
