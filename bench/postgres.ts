/**
 * The benches on PostgreSQL (BENCH_DATABASE_URL): a database of their own, created for the run
 * and dropped after it, and the same population as on SQLite. A bench writes its population into
 * a SQLite file as always (the server made its schema and demo accounts there); the server,
 * started once on the new PostgreSQL database, migrates and seeds it; then every table the two
 * share is emptied and filled with the SQLite file's rows, in batches, and analysed. So both
 * databases hold the same rows, ids included, and the same requests find the same things.
 *
 * Left out: the migration tables (each database keeps its own history), SQLite-only tables (the
 * FTS5 index `search_fts` and its shadow tables) and columns (`search_documents.seq` and `scope`,
 * which only SQLite's FTS5 needs), and PostgreSQL's generated columns, which it computes as the
 * rows arrive (`search_documents.tsv`, the weighted tsvector of migration 0013). Foreign keys
 * are not checked while the rows are copied (`session_replication_role = replica`: the rows
 * come from a database that checked them), so the role in BENCH_DATABASE_URL must be allowed
 * to set it and to create databases (the superuser `postgres` of a test server is).
 */
import Database from 'better-sqlite3';
import pg from 'pg';

/** The PostgreSQL server to run on, or undefined for SQLite. */
export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL || undefined;

export interface BenchDatabase {
  /** The new database's URL (the server's DATABASE_URL). */
  url: string;
  name: string;
  /** Drops the database (BENCH_KEEP=1 keeps it). */
  drop(): Promise<void>;
}

/** Creates an empty database `lh_bench_<label>_<pid>_<random>` on the server of `serverUrl`. */
export async function createBenchDatabase(
  serverUrl: string,
  label: string,
): Promise<BenchDatabase> {
  const name = `lh_bench_${label}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`drop database if exists ${name} with (force)`);
      } finally {
        await client.end();
      }
    },
  };
}

export interface CopyReport {
  tables: number;
  rows: number;
  seconds: number;
  /** Rows of `search_documents` per second (the tsvector and its GIN index are written). */
  searchDocsPerS: number;
}

/** Empties the migrated database at `url` and fills it with every shared table of `sqliteFile`. */
export async function copySqliteToPostgres(sqliteFile: string, url: string): Promise<CopyReport> {
  const started = performance.now();
  const source = new Database(sqliteFile, { readonly: true });
  const target = new pg.Client({ connectionString: url });
  await target.connect();
  let rows = 0;
  let searchDocsPerS = NaN;
  try {
    const columns = await target.query<{
      table_name: string;
      column_name: string;
      data_type: string;
    }>(
      `select c.table_name, c.column_name, c.data_type
       from information_schema.columns c
       join information_schema.tables t
         on t.table_schema = c.table_schema and t.table_name = c.table_name
       where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
         and c.is_generated = 'NEVER' and c.table_name not like 'kysely_migration%'
       order by c.table_name, c.ordinal_position`,
    );
    const tables = new Map<string, { name: string; boolean: boolean }[]>();
    for (const c of columns.rows) {
      const list = tables.get(c.table_name) ?? [];
      list.push({ name: c.column_name, boolean: c.data_type === 'boolean' });
      tables.set(c.table_name, list);
    }
    const inSqlite = new Set(
      (
        source.prepare(`select name from sqlite_master where type = 'table'`).all() as {
          name: string;
        }[]
      ).map((t) => t.name),
    );
    const shared = [...tables.keys()].filter((t) => inSqlite.has(t));
    const missing = [...tables.keys()].filter((t) => !inSqlite.has(t));
    if (missing.length > 0) throw new Error(`not in the SQLite file: ${missing.join(', ')}`);

    await target.query('begin');
    await target.query(`set local session_replication_role = replica`);
    await target.query(`truncate ${shared.map((t) => `"${t}"`).join(', ')}`);
    for (const table of shared) {
      const sqliteColumns = new Set(
        (
          source.prepare(`select name from pragma_table_info(?)`).all(table) as { name: string }[]
        ).map((c) => c.name),
      );
      const cols = (tables.get(table) ?? []).filter((c) => sqliteColumns.has(c.name));
      const tableStarted = performance.now();
      const batch = Math.max(1, Math.min(1000, Math.floor(30_000 / cols.length)));
      const list = cols.map((c) => `"${c.name}"`).join(', ');
      let pending: unknown[][] = [];
      let copied = 0;
      const flush = async () => {
        if (pending.length === 0) return;
        const values: unknown[] = [];
        const tuples = pending.map((row) => {
          const marks = row.map((v) => {
            values.push(v);
            return `$${values.length}`;
          });
          return `(${marks.join(', ')})`;
        });
        await target.query(`insert into "${table}" (${list}) values ${tuples.join(', ')}`, values);
        copied += pending.length;
        pending = [];
      };
      const select = source.prepare<[], unknown[]>(`select ${list} from "${table}"`).raw(true);
      for (const row of select.iterate()) {
        pending.push(
          row.map((v, i) =>
            cols[i]?.boolean && v !== null ? Boolean(v) : typeof v === 'bigint' ? String(v) : v,
          ),
        );
        if (pending.length >= batch) await flush();
      }
      await flush();
      rows += copied;
      if (table === 'search_documents') {
        searchDocsPerS = copied / ((performance.now() - tableStarted) / 1000);
      }
    }
    await target.query('commit');
    await target.query('analyze');
    return {
      tables: shared.length,
      rows,
      seconds: (performance.now() - started) / 1000,
      searchDocsPerS,
    };
  } catch (error) {
    await target.query('rollback').catch(() => {});
    throw error;
  } finally {
    await target.end();
    source.close();
  }
}
