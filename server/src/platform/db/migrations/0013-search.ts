import { PostgresAdapter, sql, type Kysely } from 'kysely';
import sanitizeHtml from 'sanitize-html';

/**
 * The one search index (docs/search.md): `search_documents`, one row per searchable thing
 * (`doc_type`, `doc_id`) with its scope columns (`course_id` for now) and its plain text
 * (`title`, `body`). On SQLite an FTS5 table (porter stemming, prefix indexes) is kept in step
 * with it by triggers; on PostgreSQL a generated, weighted `tsvector` column with a GIN index.
 * Existing courses and lessons are indexed here; from now on each area indexes its rows in the
 * transaction that writes them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgres(db);
  if (postgres) {
    await sql`
      create table search_documents (
        doc_type text not null,
        doc_id text not null,
        course_id text,
        title text not null,
        body text not null,
        tsv tsvector generated always as (
          setweight(to_tsvector('english'::regconfig, title), 'A') ||
          setweight(to_tsvector('english'::regconfig, body), 'B')
        ) stored,
        primary key (doc_type, doc_id)
      )`.execute(db);
    await sql`create index search_documents_tsv on search_documents using gin (tsv)`.execute(db);
  } else {
    await sql`
      create table search_documents (
        seq integer primary key,
        doc_type text not null,
        doc_id text not null,
        course_id text,
        title text not null,
        body text not null,
        unique (doc_type, doc_id)
      )`.execute(db);
    await sql`
      create virtual table search_fts using fts5(
        title, body,
        content = 'search_documents', content_rowid = 'seq',
        tokenize = 'porter unicode61 remove_diacritics 2',
        prefix = '2 3'
      )`.execute(db);
    await sql`
      create trigger search_documents_ai after insert on search_documents begin
        insert into search_fts (rowid, title, body) values (new.seq, new.title, new.body);
      end`.execute(db);
    await sql`
      create trigger search_documents_ad after delete on search_documents begin
        insert into search_fts (search_fts, rowid, title, body)
          values ('delete', old.seq, old.title, old.body);
      end`.execute(db);
    await sql`
      create trigger search_documents_au after update on search_documents begin
        insert into search_fts (search_fts, rowid, title, body)
          values ('delete', old.seq, old.title, old.body);
        insert into search_fts (rowid, title, body) values (new.seq, new.title, new.body);
      end`.execute(db);
  }
  await sql`create index search_documents_course on search_documents (course_id)`.execute(db);

  // Backfill: courses (title; code and plain summary) and lessons (title; body without tags).
  const strip = (text: string) => text.replace(/[\uE000\uE001]/g, '');
  const courses = await sql<{ id: string; code: string; title: string; description: string }>`
    select id, code, title, description from courses`.execute(db);
  for (const c of courses.rows) {
    await sql`
      insert into search_documents (doc_type, doc_id, course_id, title, body)
      values ('course', ${c.id}, ${c.id}, ${strip(c.title)},
              ${strip(`${c.code} ${c.code.replace(/[^\p{L}\p{N}]+/gu, ' ')}\n${c.description}`)})`.execute(
      db,
    );
  }
  let after = '';
  for (;;) {
    const lessons = await sql<{ id: string; course_id: string; title: string; body_html: string }>`
      select id, course_id, title, body_html from lessons where id > ${after}
      order by id limit 200`.execute(db);
    for (const l of lessons.rows) {
      await sql`
        insert into search_documents (doc_type, doc_id, course_id, title, body)
        values ('lesson', ${l.id}, ${l.course_id}, ${strip(l.title)},
                ${strip(plainTextOf(l.body_html))})`.execute(db);
    }
    const last = lessons.rows.at(-1);
    if (!last) break;
    after = last.id;
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgres(db)) await sql`drop table search_fts`.execute(db);
  await sql`drop table search_documents`.execute(db);
}

function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

const ENTITIES: Record<string, string> = {
  nbsp: ' ',
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  '#39': "'",
};

/**
 * A lesson's text without its tags, as the live code made it when this migration was written (a
 * frozen copy of rich-text/sanitize.ts `richTextToPlainText` then): a later change of the live
 * code cannot change what this migration did. 0013-search.test.ts holds it to the live one while
 * they agree.
 */
export function plainTextOf(html: string): string {
  return sanitizeHtml(html.replace(/<\/(p|h[1-6]|li|tr|blockquote|pre)>|<br\s*\/?>/gi, '$&\n'), {
    allowedTags: [],
    allowedAttributes: {},
  })
    .replace(/&(nbsp|amp|lt|gt|quot|#39);/g, (_m, entity: string) => ENTITIES[entity] ?? '')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
