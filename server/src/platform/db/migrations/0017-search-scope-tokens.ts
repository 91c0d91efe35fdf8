import { PostgresAdapter, sql, type Kysely } from 'kysely';
import { scopeTextOf } from '../../search/scope-tokens';

/**
 * SQLite: a third column of the full-text index, `scope`, with each document's type token
 * (search/scope-tokens.ts), so a list filtering by search (the catalogue, the library) or a
 * search of one kind asks FTS5 for one type's matches only. The FTS5 table is made again with the column and rebuilt from
 * `search_documents`; the triggers that keep it in step carry the column. PostgreSQL filters in
 * the same scan as its GIN index: nothing to do there.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  // The old index goes first, so filling the column does not re-index every document twice.
  await dropFts(db);
  await sql`alter table search_documents add column scope text not null default ''`.execute(db);
  let after = -1;
  for (;;) {
    const { rows } = await sql<{ seq: number; doc_type: string }>`
      select seq, doc_type from search_documents
      where seq > ${after} order by seq limit 500`.execute(db);
    for (const r of rows) {
      const scope = scopeTextOf({ type: r.doc_type });
      await sql`update search_documents set scope = ${scope} where seq = ${r.seq}`.execute(db);
    }
    const last = rows.at(-1);
    if (!last) break;
    after = last.seq;
  }
  await createFts(db, ['title', 'body', 'scope']);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) return;
  await dropFts(db);
  await createFts(db, ['title', 'body']);
  await sql`alter table search_documents drop column scope`.execute(db);
}

async function dropFts(db: Kysely<unknown>): Promise<void> {
  for (const trigger of ['search_documents_ai', 'search_documents_ad', 'search_documents_au']) {
    await sql`drop trigger ${sql.raw(trigger)}`.execute(db);
  }
  await sql`drop table search_fts`.execute(db);
}

/** The FTS5 table over `columns` of search_documents, its triggers, and its content rebuilt. */
async function createFts(db: Kysely<unknown>, columns: readonly string[]): Promise<void> {
  const list = sql.raw(columns.join(', '));
  const fresh = sql.raw(columns.map((c) => `new.${c}`).join(', '));
  const old = sql.raw(columns.map((c) => `old.${c}`).join(', '));
  await sql`
    create virtual table search_fts using fts5(
      ${list},
      content = 'search_documents', content_rowid = 'seq',
      tokenize = 'porter unicode61 remove_diacritics 2',
      prefix = '2 3'
    )`.execute(db);
  await sql`
    create trigger search_documents_ai after insert on search_documents begin
      insert into search_fts (rowid, ${list}) values (new.seq, ${fresh});
    end`.execute(db);
  await sql`
    create trigger search_documents_ad after delete on search_documents begin
      insert into search_fts (search_fts, rowid, ${list}) values ('delete', old.seq, ${old});
    end`.execute(db);
  await sql`
    create trigger search_documents_au after update on search_documents begin
      insert into search_fts (search_fts, rowid, ${list}) values ('delete', old.seq, ${old});
      insert into search_fts (rowid, ${list}) values (new.seq, ${fresh});
    end`.execute(db);
  await sql`insert into search_fts (search_fts) values ('rebuild')`.execute(db);
}
