import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * SQLite: the scope columns of every search document beside its rowid, in one covering index,
 * so a search reads what it filters on (type, course, department) for each match from the index
 * and never the document's row — whose body (the text of a whole PDF) comes before
 * `department_id`, added after it, and sits on overflow pages. A search of two common words
 * over 30,000 documents went from 8.7 to 3.4 ms (bench:library, docs/search.md). PostgreSQL
 * filters in the same scan as its GIN index and has no such column order: nothing to do there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`create index search_documents_scope
    on search_documents (seq, doc_type, course_id, department_id, doc_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await sql`drop index search_documents_scope`.execute(db);
}
