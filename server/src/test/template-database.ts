/**
 * Migrated template databases for the server tests. Migrating a database costs a third of a
 * second to a second (more on PostgreSQL, and on a loaded machine); the suite needs hundreds of
 * fresh databases. So the schema is migrated once per run, by the Vitest global setup
 * (`global-setup.ts`), and every test gets a copy of that template:
 *
 * - SQLite: the template file, copied (a few milliseconds).
 * - PostgreSQL: `CREATE DATABASE … TEMPLATE …` (tens of milliseconds), dropped again on close.
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
    // Not awaited: the next test need not wait for the server to delete files. Not forced: a
    // connection of the test's pool that is still closing would be cut (`57P01`), an uncaught
    // error in the worker; a copy still in use is left to the global teardown (dropTestCopies),
    // as is what a killed worker leaves behind.
    remove: async () => {
      void withClient(template.serverUrl, (client) =>
        client.query(`drop database if exists ${quoted(name)}`),
      ).catch(() => undefined);
    },
  };
}

/**
 * PostgreSQL: the copy made ahead for this worker's next test. Making a database is mostly the
 * server writing files, so it overlaps with the test that runs meanwhile.
 */
let nextCopy: { template: string; name: Promise<string> } | undefined;

async function takePostgresCopy(template: TemplateDatabase & { kind: 'postgres' }) {
  const ready = nextCopy?.template === template.name ? nextCopy.name : makeCopy(template);
  const next = makeCopy(template);
  next.catch(() => undefined); // its failure shows when it is taken
  nextCopy = { template: template.name, name: next };
  return ready;
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
