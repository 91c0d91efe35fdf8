/**
 * Test factories shared by the server's integration tests: a real database (SQLite in a temp
 * file, or a throwaway schema in PostgreSQL when TEST_DB=postgres), an app on it with a movable
 * clock, users, and sign-in through the API.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../app';
import { hashPassword } from '../auth/passwords';
import {
  createDepartment,
  createUser,
  findDepartment,
  type NewUser,
  type UserRecord,
} from '../auth/user-repository';
import { loadConfig, type AppConfig } from '../config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from '../db';

export const TEST_DB_KIND: 'sqlite' | 'postgres' =
  process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

let probe: Promise<boolean> | undefined;

/**
 * Whether the test database can be used. PostgreSQL missing fails the run under CI=true and
 * skips (with a loud notice) elsewhere.
 */
export function testDatabaseAvailable(): Promise<boolean> {
  if (TEST_DB_KIND === 'sqlite') return Promise.resolve(true);
  probe ??= (async () => {
    const client = new pg.Client({ connectionString: PG_URL, connectionTimeoutMillis: 3000 });
    try {
      await client.connect();
      await client.query('select 1');
      return true;
    } catch (error) {
      if (IN_CI) {
        throw new Error(
          `PostgreSQL is required under CI=true but ${PG_URL} is unreachable: ${String(error)}`,
        );
      }
      process.stderr.write(
        `\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n` +
          `!! SKIPPING the PostgreSQL run of the server tests: ${PG_URL} is unreachable.\n` +
          `!! Start PostgreSQL or set TEST_DATABASE_URL. (Under CI=true this fails.)\n` +
          `!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\n`,
      );
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  })();
  return probe;
}

/** A fresh, migrated database of the kind under test; `close` removes it. */
export type TestDatabase = DatabaseHandle & {
  path?: string;
  /** Where it lives, to open a second connection (another server instance) on it. */
  location: AppConfig['database'];
};

export async function createTestDatabase(): Promise<TestDatabase> {
  if (TEST_DB_KIND === 'postgres') {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const handle = openDatabase({ kind: 'postgres', url: PG_URL, schema });
    await migrateToLatest(handle.db);
    return {
      ...handle,
      location: { kind: 'postgres', url: PG_URL, schema },
      close: async () => {
        await handle.close();
        const cleanup = new pg.Client({ connectionString: PG_URL });
        await cleanup.connect();
        await cleanup.query(`drop schema ${schema} cascade`);
        await cleanup.end();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), 'lh-test-'));
  const path = join(dir, 'test.db');
  const handle = openDatabase({ kind: 'sqlite', path });
  await migrateToLatest(handle.db);
  return {
    ...handle,
    path,
    location: { kind: 'sqlite', path },
    close: async () => {
      await handle.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface TestClock {
  now: () => number;
  advance(ms: number): void;
  set(epochMs: number): void;
}

export function createClock(start = Date.parse('2026-11-22T09:00:00.000Z')): TestClock {
  let t = start;
  return {
    now: () => t,
    advance: (ms) => {
      t += ms;
    },
    set: (ms) => {
      t = ms;
    },
  };
}

export interface TestContext {
  app: FastifyInstance;
  database: TestDatabase;
  clock: TestClock;
  /** The app's stored files on local disk (a temporary directory, removed on close). */
  filesDir: string;
  close(): Promise<void>;
}

/**
 * An app on a fresh database. `beforeReady` may register extra routes (e.g. probes of the access
 * plugin) before the app is sealed.
 */
export async function createTestApp(
  options: {
    beforeReady?: (app: FastifyInstance) => void | Promise<void>;
    /** Extra configuration (environment variables), e.g. PUBLIC_URL. */
    env?: Record<string, string>;
  } = {},
): Promise<TestContext> {
  const database = await createTestDatabase();
  const clock = createClock();
  const filesDir = mkdtempSync(join(tmpdir(), 'lh-test-files-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: '/nonexistent',
    ...(options.env?.S3_BUCKET ? {} : { FILES_DIR: filesDir }),
    ...options.env,
  });
  const app = await buildApp({
    config,
    db: database.db,
    changes: database.changes,
    now: clock.now,
    logger: false,
  });
  await options.beforeReady?.(app);
  await app.ready();
  return {
    app,
    database,
    clock,
    filesDir,
    close: async () => {
      await app.close();
      await database.close();
      rmSync(filesDir, { recursive: true, force: true });
    },
  };
}

/**
 * Another server instance on the same database (its own connection, caches and engine), as when
 * several instances run behind a load balancer. Closed with the returned function.
 */
export async function createSecondInstance(
  ctx: TestContext,
): Promise<{ app: FastifyInstance; close(): Promise<void> }> {
  const handle = openDatabase(ctx.database.location);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: '/nonexistent',
    FILES_DIR: ctx.filesDir,
  });
  const app = await buildApp({
    config,
    db: handle.db,
    changes: handle.changes,
    now: ctx.clock.now,
    logger: false,
  });
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await handle.close();
    },
  };
}

let userCounter = 0;

export interface TestUser {
  user: UserRecord;
  password: string;
}

/** Creates a local user with a known password (and its department when named). */
export async function createTestUser(
  ctx: Pick<TestContext, 'database' | 'clock'>,
  overrides: Partial<Omit<NewUser, 'passwordHash'>> & {
    password?: string;
    department?: string;
  } = {},
): Promise<TestUser> {
  userCounter += 1;
  const password = overrides.password ?? `correct horse ${userCounter} battery`;
  const at = new Date(ctx.clock.now()).toISOString();
  let departmentId = overrides.departmentId ?? null;
  if (overrides.department) {
    const existing = await findDepartment(ctx.database.db, overrides.department);
    departmentId = (
      existing ?? (await createDepartment(ctx.database.db, { name: overrides.department }, at))
    ).id;
  }
  const user = await createUser(
    ctx.database.db,
    {
      username: overrides.username ?? `user${userCounter}`,
      firstname: overrides.firstname ?? 'Test',
      lastname: overrides.lastname ?? `User${userCounter}`,
      email: overrides.email ?? null,
      role: overrides.role ?? 'student',
      departmentId,
      passwordHash: await hashPassword(password),
      isDefaultPassword: overrides.isDefaultPassword ?? false,
      mustChangePassword: overrides.mustChangePassword ?? false,
      isSuperAdmin: overrides.isSuperAdmin ?? false,
    },
    at,
  );
  return { user, password };
}

/** Signs in through the API and returns the bearer token. */
export async function signIn(
  app: FastifyInstance,
  username: string,
  password: string,
  remoteAddress = '127.0.0.1',
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/local',
    payload: { username, password },
    remoteAddress,
  });
  if (response.statusCode !== 200) {
    throw new Error(`sign-in as ${username} failed: ${response.statusCode} ${response.body}`);
  }
  return (response.json() as { token: string }).token;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/**
 * Whether an external program a test needs is installed. Missing fails the run under CI=true
 * and skips (with a loud notice) elsewhere.
 */
export function requireTool(name: string, available: boolean, install: string): boolean {
  if (available) return true;
  if (IN_CI)
    throw new Error(`${name} is required under CI=true but is not installed (${install}).`);
  process.stderr.write(
    `\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n` +
      `!! SKIPPING tests that need ${name}: it is not installed (${install}).\n` +
      `!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\n`,
  );
  return false;
}
