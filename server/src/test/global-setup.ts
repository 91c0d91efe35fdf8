/**
 * Vitest global setup of the server projects: migrates one template database of the kind the
 * project tests (TEST_DB) and hands it to the test files, which copy it (template-database.ts).
 * PostgreSQL missing fails the run under CI=true; elsewhere the test files skip with a notice.
 */
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import {
  createPostgresTemplate,
  createSqliteTemplate,
  type TemplateDatabase,
} from './template-database';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated template, or null when its database server is unreachable. */
    templateDatabase: TemplateDatabase | null;
  }
}

const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const kind = project.config.env?.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
  if (kind === 'sqlite') {
    const { template, remove } = await createSqliteTemplate();
    project.provide('templateDatabase', template);
    return async () => remove();
  }
  const url = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  if (!(await postgresReachable(url))) {
    // The test files' own probe skips them loudly (helpers.ts), or fails them under CI=true.
    if (IN_CI) throw new Error(`PostgreSQL is required under CI=true but ${url} is unreachable`);
    project.provide('templateDatabase', null);
    return async () => {};
  }
  const { template, remove } = await createPostgresTemplate(url);
  project.provide('templateDatabase', template);
  return remove;
}

async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
