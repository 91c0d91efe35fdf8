/**
 * Opens the database: SQLite (embedded default, WAL) or PostgreSQL when DATABASE_URL is set, and
 * runs the migrations.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  PostgresAdapter,
  PostgresDialect,
  SqliteDialect,
  sql,
  type SqliteDialectConfig,
} from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { AppConfig } from '../../config';
import { WriteTracker, type ChangeTracker } from './change-tracker';
import { migrationProvider } from './migrations';
import { openReadPool, startCheckpointThread } from './read-pool';
import type { Database } from './schema';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  /**
   * Where expensive reads run: on SQLite a pool of read threads (read-pool.ts) when the
   * configuration asks for any and the database is a file (else `db` itself); on PostgreSQL a
   * pool of connections of their own (the database works them in its own processes).
   */
  reads: Db;
  kind: 'sqlite' | 'postgres';
  /** Tells caches when tables may have changed; null where that cannot be observed. */
  changes: ChangeTracker | null;
  close(): Promise<void>;
}

/** The node-postgres pool under each PostgreSQL `Db` this process opened. */
const pools = new WeakMap<Db, pg.Pool>();

/**
 * The node-postgres pool under `db` (PostgreSQL; undefined on SQLite). For what Kysely cannot
 * carry: pg-boss sends multi-statement SQL and reads the rows of every statement, which Kysely's
 * driver drops (it keeps a single result).
 */
export function postgresPool(db: Db): pg.Pool | undefined {
  return pools.get(db);
}

/**
 * How long a query waits for a connection (a new one, or a free one of the pool) before it fails:
 * while the database is unreachable a request is answered 503 within this time instead of hanging.
 */
export const POSTGRES_CONNECT_TIMEOUT_MS = 5_000;

/** PostgreSQL connections of the expensive reads (`reads`), beside the app's ten. */
const READ_CONNECTIONS = 4;

/**
 * `config` for a short-lived command (the admin command line, the migrations): one connection,
 * no read or checkpoint threads to start and stop again for a single statement or two.
 */
export function withoutThreads(config: AppConfig['database']): AppConfig['database'] {
  return config.kind === 'sqlite' ? { ...config, readThreads: 0, checkpointThread: false } : config;
}

/** Opens a connection pool (PostgreSQL) or file (SQLite) for `config`. */
export function openDatabase(config: AppConfig['database']): DatabaseHandle {
  if (config.kind === 'postgres') {
    const open = (max: number) => {
      const pool = new pg.Pool({
        connectionString: config.url,
        max,
        connectionTimeoutMillis: POSTGRES_CONNECT_TIMEOUT_MS,
        // A peer that vanished without closing (a network cut) is noticed by TCP keep-alive.
        keepAlive: true,
        ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
      });
      // A connection the server ends (a restart: 57P01) emits 'error', and an 'error' nobody
      // listens to ends the process. An idle one is dropped by the pool, which re-emits the
      // error on itself; a checked-out one fails its next query, and the pool drops it when it
      // is released. Neither needs more here: the app (watchDatabase) reports the outage.
      pool.on('error', () => {});
      pool.on('connect', (client) => client.on('error', () => {}));
      const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
      pools.set(db, pool);
      return db;
    };
    const db = open(10);
    // The expensive reads (search, lists, the department page) have connections of their own:
    // twenty searches at once then wait for each other, not every request of the server for a
    // connection (each request reads its session on PostgreSQL).
    const reads = open(READ_CONNECTIONS);
    return {
      db,
      reads,
      kind: 'postgres',
      changes: null,
      close: async () => {
        await reads.destroy();
        await db.destroy();
      },
    };
  }
  if (config.path !== ':memory:') mkdirSync(dirname(config.path), { recursive: true });
  const database = new SQLite(config.path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  const dataVersion = database.prepare('PRAGMA data_version').pluck();
  const changes = new WriteTracker(() => dataVersion.get() as number);
  const db = new Kysely<Database>({
    dialect: new SqliteDialect({ database: withStatementCache(database) }),
    plugins: [changes.plugin()],
  });
  const onDisk = config.path !== ':memory:';
  const threads = config.readThreads ?? 0;
  const reads = threads > 0 && onDisk ? openReadPool(config.path, threads) : db;
  // The WAL is copied into the database file by a thread of its own (read-worker.ts), not in
  // whichever commit crosses SQLite's mark; should that thread stop, the connection does it again.
  let checkpoints: { stop(): Promise<void> } | undefined;
  if (config.checkpointThread && onDisk) {
    database.pragma('wal_autocheckpoint = 0');
    checkpoints = startCheckpointThread(config.path, () => {
      if (database.open) database.pragma('wal_autocheckpoint = 1000');
    });
  }
  return {
    db,
    reads,
    kind: 'sqlite',
    changes,
    close: async () => {
      await checkpoints?.stop();
      if (reads !== db) await reads.destroy();
      await db.destroy();
    },
  };
}

/** Prepared statements kept per SQL text; Kysely generates a bounded set of query shapes. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * better-sqlite3 compiles a statement on every `prepare`, which costs more than running a point
 * query; Kysely prepares per execution. Caching statements by SQL text (LRU, bounded) removes
 * that cost from every request. Schema changes (migrations) clear the cache.
 */
function withStatementCache(database: SQLite.Database): SqliteDialectConfig['database'] {
  const cache = new Map<string, SQLite.Statement>();
  let nothing: SQLite.Statement | undefined;
  return {
    close: () => {
      cache.clear();
      database.close();
    },
    prepare: (sqlText: string) => {
      // SQLite ends a transaction by itself on some errors (SQLITE_FULL, SQLITE_IOERR): Kysely's
      // ROLLBACK would then fail with "no transaction is active" and hide the error that
      // mattered (a full disk answers 507, plugins/errors.ts). Nothing is left to roll back.
      if (!database.inTransaction && /^\s*rollback\s*$/i.test(sqlText)) {
        return (nothing ??= database.prepare('select 1 where 0'));
      }
      const cached = cache.get(sqlText);
      if (cached) {
        cache.delete(sqlText);
        cache.set(sqlText, cached);
        return cached;
      }
      const statement = database.prepare(sqlText);
      if (/^\s*(create|alter|drop)\b/i.test(sqlText)) {
        cache.clear();
        return statement;
      }
      cache.set(sqlText, statement);
      if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
      return statement;
    },
  };
}

/**
 * Brings the schema up to date; throws with the failing migration's error. On PostgreSQL the
 * migration tables live in the connection's `current_schema()`, the first schema of its
 * search_path (each test's own schema, or one a deployment sets in DATABASE_URL). Unless told
 * which schema, Kysely's migrator takes migration tables found in ANY schema of the database as
 * its own, so a second schema migrated on the same database (another test run, another tenant)
 * would skip creating its tables, or read the other schema's history.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrationTableSchema = await currentPostgresSchema(db);
  const migrator = new Migrator({
    db: migrationTableSchema ? withScopedIntrospection(db, migrationTableSchema) : db,
    provider: migrationProvider,
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/**
 * `db` whose introspection (all the migrator uses it for: does the schema exist, do its tables)
 * reads only the catalogue of `schema`. Kysely's own PostgreSQL introspector lists the columns of
 * every schema through functions that take names (has_schema_privilege, pg_get_serial_sequence),
 * which fail with "schema … does not exist" when another connection drops a schema meanwhile, as
 * parallel test runs on one database do all the time.
 */
function withScopedIntrospection(db: Db, schema: string): Db {
  const introspection = {
    getSchemas: async () => {
      const { rows } = await sql<{
        name: string;
      }>`select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    getTables: async () => {
      const { rows } = await sql<{ name: string; schema: string }>`
        select c.relname as name, n.nspname as schema
        from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
        where n.nspname = ${schema} and c.relkind in ('r', 'p')`.execute(db);
      return rows.map((row) => ({ ...row, isView: false, isForeign: false, columns: [] }));
    },
    getMetadata: () => Promise.reject(new Error('not available while migrating')),
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Which kind of database `db` talks to. */
export function databaseKind(db: Db): DatabaseHandle['kind'] {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
}

/** PostgreSQL: the schema unqualified names resolve to; undefined on SQLite or when there is none. */
async function currentPostgresSchema(db: Db): Promise<string | undefined> {
  if (databaseKind(db) !== 'postgres') return undefined;
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(
    db,
  );
  return rows[0]?.schema ?? undefined;
}

/** True when the database answers a trivial query (within `timeoutMs`, when given). */
export async function isDatabaseReachable(db: Db, timeoutMs?: number): Promise<boolean> {
  const query = sql`select 1`.execute(db).then(
    () => true,
    () => false,
  );
  if (timeoutMs === undefined) return query;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([query, late]);
  } finally {
    clearTimeout(timer);
  }
}
