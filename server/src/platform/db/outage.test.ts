/**
 * The database going away (docs/architecture.md, "Faults"): which failures count as the database
 * being unavailable (real errors of node-postgres and better-sqlite3), the 503 a request gets
 * while it is, and connections PostgreSQL ends under the pool. The whole story, a real
 * PostgreSQL restarted under load with the server in its own process, is
 * database-restart.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../jobs';
import { getUnusedPort } from '../../../../scripts/fixtures/ports';
import {
  bearer,
  createTestApp,
  createTestUser,
  signIn,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { isDatabaseUnavailable, isUniqueViolation } from './errors';
import { postgresPool } from './index';

/** What `work` rejects with. */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  try {
    await work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

const Echo = defineJob('test.outage-echo', z.object({ n: z.number().int() }));

const contexts: TestContext[] = [];
afterEach(async () => {
  await Promise.all(contexts.splice(0).map((ctx) => ctx.close()));
});

// Neither needs the test database: once per run, in the SQLite project.
describe.runIf(TEST_DB_KIND === 'sqlite')('the database is unavailable', () => {
  it('is told from real failures: a refused connection, SQLite busy; not a refused value', async () => {
    const refused = await failureOf(async () => {
      const client = new pg.Client({
        connectionString: `postgres://postgres@127.0.0.1:${await getUnusedPort()}/x`,
      });
      client.on('error', () => {});
      await client.connect();
    });
    expect(isDatabaseUnavailable(refused)).toBe(true);

    const dir = mkdtempSync(join(tmpdir(), 'lh-busy-'));
    const holder = new SQLite(join(dir, 'busy.db'));
    const other = new SQLite(join(dir, 'busy.db'), { timeout: 0 });
    try {
      holder.exec('create table t (id integer primary key); begin exclusive');
      const busy = await failureOf(async () => other.exec('insert into t values (1)'));
      expect((busy as { code?: string }).code).toMatch(/^SQLITE_BUSY/);
      expect(isDatabaseUnavailable(busy)).toBe(true);

      holder.exec('commit; insert into t values (1)');
      const duplicate = await failureOf(async () => holder.exec('insert into t values (1)'));
      expect(isUniqueViolation(duplicate)).toBe(true);
      expect(isDatabaseUnavailable(duplicate)).toBe(false);
    } finally {
      holder.close();
      other.close();
      rmSync(dir, { recursive: true, force: true });
    }
    expect(isDatabaseUnavailable(new Error('something else'))).toBe(false);
  });

  it('answers requests 503 with Retry-After and { code, message }, never 500', async () => {
    const ctx = await createTestApp({ unreachableDatabase: true });
    contexts.push(ctx);
    for (const request of [
      { method: 'GET' as const, url: '/api/auth/me', headers: bearer('a'.repeat(43)) },
      { method: 'POST' as const, url: '/api/departments', headers: bearer('a'.repeat(43)) },
      { method: 'GET' as const, url: '/readyz' },
    ]) {
      const res = await ctx.app.inject({
        ...request,
        ...(request.method === 'POST' ? { payload: { name: 'Splicing' } } : {}),
      });
      expect(res.statusCode, `${request.method} ${request.url}`).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The database is not reachable right now. Try again in a few seconds.',
      });
    }
    // A sign-in route keeps its own shape around the same answer.
    const signInRes = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/local',
      payload: { username: 'ana', password: 'correct horse battery' },
    });
    expect(signInRes.statusCode).toBe(503);
    expect(signInRes.json()).toMatchObject({ success: false, code: 'SERVICE_UNAVAILABLE' });
    // The API description says so of every operation.
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<string, Record<string, { responses: Record<string, { headers?: object }> }>>;
    };
    for (const [path, method] of [
      ['/readyz', 'get'],
      ['/api/departments', 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.responses['503']?.headers).toHaveProperty('retry-after');
    }
  });
});

const available = TEST_DB_KIND === 'postgres' && (await testDatabaseAvailable());

describe.runIf(available)('connections PostgreSQL ends (postgres)', () => {
  it('drops them without taking the process down; requests and jobs go on', async () => {
    const ctx = await createTestApp({ env: { JOBS_POLL_INTERVAL_MS: '20' } });
    contexts.push(ctx);
    const { user, password } = await createTestUser(ctx);
    const token = await signIn(ctx.app, user.username, password);
    const done: number[] = [];
    ctx.app.jobs.register(Echo, async ({ n }) => {
      done.push(n);
    });
    await ctx.app.jobs.start();
    await ctx.app.jobs.send(Echo, { n: 1 });
    await vi.waitFor(() => expect(done).toEqual([1]), { timeout: 10_000, interval: 20 });
    // Idle in the pool now. Ended as a restart ends them (57P01), from another connection.
    const other = new pg.Client({
      connectionString: ctx.database.location.kind === 'postgres' ? ctx.database.location.url : '',
    });
    await other.connect();
    try {
      const { rows } = await other.query<{ ended: boolean }>(
        `select pg_terminate_backend(pid) as ended from pg_stat_activity
         where datname = current_database() and pid <> pg_backend_pid()`,
      );
      expect(rows.length).toBeGreaterThan(0);
    } finally {
      await other.end();
    }
    // The pool drops them as their ends arrive (an 'error' it must not throw at the process).
    await vi.waitFor(() => expect(postgresPool(ctx.database.db)?.idleCount).toBe(0));
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(200);
    await ctx.app.jobs.send(Echo, { n: 2 });
    await vi.waitFor(() => expect(done).toEqual([1, 2]), { timeout: 10_000, interval: 20 });
  });
});
