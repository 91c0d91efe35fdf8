/**
 * Migrated template databases for the server tests. Migrating a database costs a third of a
 * second to a second (more on PostgreSQL, and on a loaded machine); the suite needs hundreds of
 * fresh databases. So the schema is migrated once per run, by the Vitest global setup
 * (`global-setup.ts`), and every test gets a copy of that template:
 *
 * - SQLite: the template file, copied (a few milliseconds).
 * - PostgreSQL: `CREATE DATABASE … TEMPLATE …` (a few hundred milliseconds), and when the test is
 *   done, put back as the template was and given to the worker's next test (tens of
 *   milliseconds; see takePostgresCopy).
 *
 * Test databases and templates carry the time they were made in their names, so a run that was
 * killed halfway leaves nothing that a later run cannot recognise as stale and drop.
 * See docs/testing.md.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { migrateToLatest, openDatabase } from '../platform/db';
import { installPgBossSchema } from '../platform/jobs/pg-boss-job-service';

/** What the global setup hands to the test files (through Vitest's `provide`/`inject`). */
export type TemplateDatabase =
  { kind: 'sqlite'; path: string } | { kind: 'postgres'; serverUrl: string; name: string };

/**
 * Names of PostgreSQL databases made by the tests: templates `lh_tpl_<epoch seconds>_<random>`,
 * copies `lh_t_<the template's seconds and random>_<random>`.
 */
const PREFIX = { template: 'lh_tpl', test: 'lh_t' } as const;
/** Older than this, a test database or template is a leftover of a run that was killed. */
const STALE_AFTER_MS = 6 * 3_600_000;

function newTemplateName(): string {
  return `${PREFIX.template}_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
}

/** `url` with its database replaced by `database`. */
export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

const quoted = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Migrates a new SQLite template in a temporary folder; returns it and its removal. */
export async function createSqliteTemplate(): Promise<{
  template: TemplateDatabase;
  remove(): void;
}> {
  const dir = mkdtempSync(join(tmpdir(), 'lh-test-template-'));
  const path = join(dir, 'template.db');
  const handle = openDatabase({ kind: 'sqlite', path });
  await migrateToLatest(handle.db);
  // Closing the last connection checkpoints the write-ahead log into the file and removes it, so
  // the file alone is the whole database.
  await handle.close();
  return {
    template: { kind: 'sqlite', path },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * Migrates a new PostgreSQL template database on the server of `url` (any database there to
 * connect to first) and drops the leftovers of killed runs; returns it and its removal.
 */
export async function createPostgresTemplate(url: string): Promise<{
  template: TemplateDatabase;
  remove(): Promise<void>;
}> {
  const name = newTemplateName();
  await withClient(url, async (client) => {
    await dropStaleDatabases(client);
    await client.query(`create database ${quoted(name)}`);
  });
  const handle = openDatabase({ kind: 'postgres', url: withDatabase(url, name) });
  try {
    await migrateToLatest(handle.db);
    // What pg-boss's first start would install (jobs/pg-boss-job-service.ts): once, not per test.
    await installPgBossSchema(handle.db);
  } finally {
    // A template must have no connections while it is copied.
    await handle.close();
  }
  return {
    template: { kind: 'postgres', serverUrl: url, name },
    remove: () =>
      withClient(url, async (client) => {
        await dropTestCopies(client, name);
        await client.query(`drop database if exists ${quoted(name)} with (force)`);
      }),
  };
}

async function dropStaleDatabases(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `select datname as name from pg_database where datname like 'lh\\_tpl\\_%' or datname like 'lh\\_t\\_%'`,
  );
  const cutoff = (Date.now() - STALE_AFTER_MS) / 1000;
  for (const { name } of rows) {
    const made = Number(/^lh_(?:tpl|t)_(\d+)_/.exec(name)?.[1]);
    if (Number.isFinite(made) && made < cutoff) {
      await client.query(`drop database if exists ${quoted(name)} with (force)`).catch(() => {});
    }
  }
}

/** A fresh copy of the template: where it is, and how to remove it. */
export async function copyTemplate(
  template: TemplateDatabase,
): Promise<
  | { kind: 'sqlite'; path: string; remove(): Promise<void> }
  | { kind: 'postgres'; url: string; remove(): Promise<void> }
> {
  if (template.kind === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'lh-test-'));
    const path = join(dir, 'test.db');
    copyFileSync(template.path, path);
    return {
      kind: 'sqlite',
      path,
      remove: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = await takePostgresCopy(template);
  return {
    kind: 'postgres',
    url: withDatabase(template.serverUrl, name),
    // Not awaited: the next test need not wait. The copy is put back as the template was and
    // handed to this worker's next test (resetCopy); one that cannot be is dropped.
    remove: async () => {
      giveBack(template, name);
    },
  };
}

/**
 * PostgreSQL copies are reused. Making a database from the template costs the server a few
 * hundred milliseconds of writing files and dropping it about a hundred more: most of a
 * PostgreSQL test's time, and on the two-core CI machine the CPU every other test waits for. So a
 * copy a test is done with is put back as the template was (its rows deleted, the template's own
 * rows written again: tens of milliseconds) and given to this worker's next test. A copy whose
 * schema a test changed, or that something still holds open, is dropped instead.
 *
 * A worker's copies: those ready for a test, and those being put back.
 */
const pool = { template: '', ready: [] as string[], resetting: new Set<Promise<string | null>>() };

/** What a fresh copy of the template holds: its relations, and the rows of its tables. */
interface Snapshot {
  /** Every relation outside the system schemas (name and kind), in order: a changed schema shows. */
  relations: string;
  /** The SQL that deletes every row and writes the template's rows again. */
  reset: string;
}
let snapshot: { template: string; value: Promise<Snapshot> } | undefined;

async function takePostgresCopy(template: TemplateDatabase & { kind: 'postgres' }) {
  if (pool.template !== template.name) {
    pool.template = template.name;
    pool.ready = [];
    pool.resetting.clear();
  }
  const ready = pool.ready.pop();
  if (ready) return ready;
  // A copy being put back is ready sooner than a new one is made.
  while (pool.resetting.size > 0) {
    const name = await Promise.race(pool.resetting);
    const index = name === null ? -1 : pool.ready.indexOf(name);
    if (index >= 0) return pool.ready.splice(index, 1)[0]!;
  }
  const name = await makeCopy(template);
  if (snapshot?.template !== template.name) {
    // Read from the first fresh copy, which is the template (the template itself must have no
    // connections while it is copied).
    const value = readSnapshot(template, name);
    snapshot = { template: template.name, value };
    value.catch(() => {
      if (snapshot?.value === value) snapshot = undefined; // read again by the next test
    });
  }
  await snapshot.value;
  return name;
}

function giveBack(template: TemplateDatabase & { kind: 'postgres' }, name: string): void {
  const resetting: Promise<string | null> = resetCopy(template, name)
    .then(() => {
      if (pool.template === template.name) pool.ready.push(name);
      return name;
    })
    .catch(async () => {
      await withClient(template.serverUrl, (client) =>
        client.query(`drop database if exists ${quoted(name)} with (force)`),
      ).catch(() => undefined); // left to the global teardown (dropTestCopies)
      return null;
    })
    .finally(() => pool.resetting.delete(resetting));
  pool.resetting.add(resetting);
}

const RELATIONS_SQL = `
  select coalesce(string_agg(n.nspname || '.' || c.relname || ':' || c.relkind::text, ',' order by n.nspname, c.relname), '')
    as relations
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
    -- pg-boss's statistics, partitioned by day: made by its maintenance whenever it runs.
    and c.relname !~ '^queue_stats_[0-9]'`;

async function readSnapshot(
  template: TemplateDatabase & { kind: 'postgres' },
  name: string,
): Promise<Snapshot> {
  return withClient(withDatabase(template.serverUrl, name), async (client) => {
    const { rows: relations } = await client.query<{ relations: string }>(RELATIONS_SQL);
    // The tables (a partitioned one stands for its partitions), and the rows of those that have.
    const { rows: tables } = await client.query<{ name: string }>(`
      select format('%I.%I', n.nspname, c.relname) as name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p') and not c.relispartition
        and n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_%'
      order by 1`);
    const statements = ['set local session_replication_role = replica'];
    for (const { name: table } of tables) statements.push(`delete from ${table}`);
    for (const { name: table } of tables) {
      const { rows } = await client.query<{ json: string | null }>(
        `select json_agg(t)::text as json from ${table} t`,
      );
      const json = rows[0]?.json;
      if (json) {
        statements.push(
          `insert into ${table} select * from json_populate_recordset(null::${table}, ${client.escapeLiteral(json)})`,
        );
      }
    }
    return { relations: relations[0]?.relations ?? '', reset: statements.join(';\n') };
  });
}

/**
 * Puts a used copy back as the template was, in one transaction: every row deleted (foreign keys
 * not checked: `session_replication_role = replica`, so the order does not matter) and the
 * template's rows written again. Fails, and the copy is dropped, when a test changed its schema or
 * a connection other than this one is still on it after a moment (a closing pool's connection
 * ends within milliseconds, a few hundred on a loaded machine; one that stays is a second app the
 * test left open).
 */
async function resetCopy(template: TemplateDatabase & { kind: 'postgres' }, name: string) {
  const { relations, reset } = await snapshot!.value;
  await withClient(withDatabase(template.serverUrl, name), async (client) => {
    for (let attempt = 0; ; attempt += 1) {
      const { rows } = await client.query<{ others: number }>(
        `select count(*)::int as others from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()`,
      );
      if (rows[0]?.others === 0) break;
      // A closed pool's backends end within milliseconds on a quiet server, but a loaded
      // two-core machine has taken a few hundred (the copy was then dropped, and the test that
      // checks reuse failed): wait up to 1.5 s.
      if (attempt >= 60) throw new Error(`${name} is still in use`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const { rows } = await client.query<{ relations: string }>(RELATIONS_SQL);
    if (rows[0]?.relations !== relations) throw new Error(`${name}: its schema was changed`);
    await client.query(`begin;\n${reset};\ncommit`);
  });
}

/** `lh_t_<template's time and random part>_<random>`: dropTestCopies finds them by the prefix. */
const copyPrefix = (template: string) => `${PREFIX.test}${template.slice(PREFIX.template.length)}_`;

async function makeCopy(template: TemplateDatabase & { kind: 'postgres' }): Promise<string> {
  const name = `${copyPrefix(template.name)}${randomBytes(4).toString('hex')}`;
  await withClient(template.serverUrl, async (client) => {
    await client.query(`create database ${quoted(name)} template ${quoted(template.name)}`);
    // A test database is thrown away: commits need not wait for the disk. (A database setting,
    // so every connection to this database has it; templates do not pass settings on.)
    await client.query(`alter database ${quoted(name)} set synchronous_commit = off`);
  });
  return name;
}

/** Drops the copies of `template` still there (made ahead and never used, or not yet dropped). */
async function dropTestCopies(client: pg.Client, template: string): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    'select datname as name from pg_database where starts_with(datname, $1)',
    [copyPrefix(template)],
  );
  for (const { name } of rows) {
    // Unforced first (every test has ended by now); forced only for one still held open.
    await client
      .query(`drop database if exists ${quoted(name)}`)
      .catch(() => client.query(`drop database if exists ${quoted(name)} with (force)`));
  }
}
