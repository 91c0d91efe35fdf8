/**
 * Test factories shared by the server's integration tests: a real database (a copy of the run's
 * migrated template: a SQLite file, or a PostgreSQL database when TEST_DB=postgres), an app on it
 * with a movable clock, users, and sign-in through the API. See docs/testing.md.
 */
import type { AreaManifest } from '../platform/areas';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../app';
import { hashPassword } from '../platform/auth/passwords';
import { createUser, type NewUser, type UserRecord } from '../platform/auth/user-repository';
import { findOrCreateDepartment } from '../platform/auth/departments';
import { loadConfig, type AppConfig } from '../config';
import { openDatabase, type DatabaseHandle } from '../platform/db';
import { answersOf, isDescribed, type Answer } from '../platform/http/openapi';
import { getUnusedPort } from '../../../scripts/fixtures/ports';
import { copyTemplate } from './template-database';

export const TEST_DB_KIND: 'sqlite' | 'postgres' =
  process.env.TEST_DB === 'postgres' ? 'postgres' : 'sqlite';
const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const IN_CI = process.env.CI === 'true' || process.env.CI === '1';

let noticeShown = false;

/**
 * Whether the test database can be used: the global setup made a template of it. PostgreSQL
 * missing fails the run under CI=true (in the global setup) and skips, with a loud notice,
 * elsewhere.
 */
export function testDatabaseAvailable(): Promise<boolean> {
  if (inject('templateDatabase')) return Promise.resolve(true);
  if (!noticeShown) {
    noticeShown = true;
    process.stderr.write(
      `\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n` +
        `!! SKIPPING the PostgreSQL run of the server tests: ${PG_URL} is unreachable.\n` +
        `!! Start PostgreSQL or set TEST_DATABASE_URL. (Under CI=true this fails.)\n` +
        `!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n\n`,
    );
  }
  return Promise.resolve(false);
}

/** A fresh, migrated database of the kind under test; `close` removes it. */
export type TestDatabase = DatabaseHandle & {
  path?: string;
  /** Where it lives, to open a second connection (another server instance) on it. */
  location: AppConfig['database'];
};

/**
 * A copy of the run's migrated template (global-setup.ts, template-database.ts): a copied file on
 * SQLite, a database made from the template on PostgreSQL.
 */
export async function createTestDatabase(): Promise<TestDatabase> {
  const template = inject('templateDatabase');
  if (!template || template.kind !== TEST_DB_KIND) {
    throw new Error(
      `no ${TEST_DB_KIND} template database: is the test run's global setup missing?`,
    );
  }
  const copy = await copyTemplate(template);
  const location: AppConfig['database'] =
    copy.kind === 'sqlite'
      ? // One read thread: the server tests run the expensive reads where a server runs them.
        { kind: 'sqlite', path: copy.path, readThreads: 1 }
      : { kind: 'postgres', url: copy.url };
  const handle = openDatabase(location);
  return {
    ...handle,
    ...(copy.kind === 'sqlite' ? { path: copy.path } : {}),
    location,
    close: async () => {
      await handle.close();
      await copy.remove();
    },
  };
}

/** A PostgreSQL database on a port of 127.0.0.1 nothing listens on: every query is refused. */
async function unreachableDatabase(): Promise<TestDatabase> {
  const location: AppConfig['database'] = {
    kind: 'postgres',
    url: `postgres://postgres@127.0.0.1:${await getUnusedPort()}/unreachable`,
  };
  return { ...openDatabase(location), location };
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
    /** The logger (none by default), e.g. the app's options with a stream to read. */
    logger?: FastifyServerOptions['logger'];
    /**
     * A PostgreSQL address nothing listens on instead of a copy of the template: the app as it is
     * while its database is away (needs no database server).
     */
    unreachableDatabase?: boolean;
    /** The areas to register instead of all of them (server/src/modules/index.ts). */
    areas?: readonly AreaManifest[];
  } = {},
): Promise<TestContext> {
  const database = options.unreachableDatabase
    ? await unreachableDatabase()
    : await createTestDatabase();
  const clock = createClock();
  const filesDir = mkdtempSync(join(tmpdir(), 'lh-test-files-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: '/nonexistent',
    ...(options.env?.S3_BUCKET ? {} : { FILES_DIR: filesDir }),
    // Resumable uploads stage in the test's directory whatever the store (never ./data).
    UPLOAD_STAGING_DIR: join(filesDir, 'uploads'),
    ...options.env,
  });
  const app = await buildApp({
    config,
    db: database.db,
    reads: database.reads,
    changes: database.changes,
    now: clock.now,
    logger: options.logger ?? false,
    ...(options.areas ? { areas: options.areas } : {}),
  });
  await options.beforeReady?.(app);
  const undocumented = checkAnswersAgainstDescription(app);
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
      if (undocumented.length > 0) {
        throw new Error(
          `answers the API description does not list (plugins/openapi.ts, docs/adding-an-area.md ` +
            `"OpenAPI"):\n${[...new Set(undocumented)].join('\n')}`,
        );
      }
    },
  };
}

/** `text/csv; charset=utf-8` → `text/csv`. */
const mediaType = (header: unknown) =>
  (String(header ?? '').split(';')[0] ?? '').trim().toLowerCase();

function contentMatches(answer: Answer, type: string): boolean {
  if (answer.content.length === 0) return type === '';
  return answer.content.some(
    (range) =>
      range === '*/*' ||
      range === type ||
      (range.endsWith('/*') && type.startsWith(range.slice(0, -1))),
  );
}

/**
 * The headers a client reads to know what to do next: an answer carrying one must document it
 * (plugins/openapi.ts). (`X-Request-Id`, on every answer, is documented once for all.)
 */
const HEADERS_TO_DOCUMENT = [
  'retry-after',
  'location',
  'etag',
  'content-range',
  'www-authenticate',
  'tus-version',
  'tus-extension',
  'tus-max-size',
  'upload-offset',
  'upload-length',
  'upload-metadata',
  'upload-expires',
  'upload-file-id',
];

/**
 * Holds every answer of the app to the API description (plugins/openapi.ts): its status must be
 * one the operation lists, its body of a media type listed for that status (none where none is
 * listed), and the headers of HEADERS_TO_DOCUMENT it carries listed for that status. What does
 * not match is collected and fails the test when its app is closed.
 */
function checkAnswersAgainstDescription(app: FastifyInstance): string[] {
  const undocumented: string[] = [];
  const answersByRoute = new WeakMap<object, Map<number, Answer>>();
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions;
    // Unknown URLs (the not-found handler), pages and hidden routes are not operations.
    if (!route.url || !isDescribed(route)) return done();
    let answers = answersByRoute.get(route.config);
    if (!answers) {
      answers = answersOf(route);
      answersByRoute.set(route.config, answers);
    }
    const where = `${request.method} ${route.url}`;
    const answer = answers.get(reply.statusCode);
    if (!answer) {
      undocumented.push(
        `${where} answered ${reply.statusCode}; its description lists ${[...answers.keys()].join(', ')}`,
      );
    } else {
      const missing = HEADERS_TO_DOCUMENT.filter(
        (name) => reply.hasHeader(name) && !(name in answer.headers),
      );
      if (missing.length > 0) {
        undocumented.push(
          `${where} answered ${reply.statusCode} with ${missing.join(', ')}; its description does not list ${missing.length > 1 ? 'them' : 'it'}`,
        );
      }
    }
    if (answer && request.method !== 'HEAD') {
      const type = mediaType(reply.getHeader('content-type'));
      if (!contentMatches(answer, type)) {
        undocumented.push(
          `${where} answered ${reply.statusCode} with ${type || 'no body'}; its description says ${
            answer.content.join(', ') || 'no body'
          }`,
        );
      }
    }
    done();
  });
  return undocumented;
}

/**
 * Another server instance on the same database (its own connection, caches and engine), as when
 * several instances run behind a load balancer. Closed with the returned function.
 */
export async function createSecondInstance(
  ctx: TestContext,
  /** Extra configuration (environment variables), as the first instance's. */
  env: Record<string, string> = {},
): Promise<{ app: FastifyInstance; db: DatabaseHandle['db']; close(): Promise<void> }> {
  const handle = openDatabase(ctx.database.location);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    WEB_DIST_DIR: '/nonexistent',
    FILES_DIR: ctx.filesDir,
    UPLOAD_STAGING_DIR: join(ctx.filesDir, 'uploads'),
    ...env,
  });
  const app = await buildApp({
    config,
    db: handle.db,
    reads: handle.reads,
    changes: handle.changes,
    now: ctx.clock.now,
    logger: false,
  });
  await app.ready();
  return {
    app,
    /** Its own connection to the database. */
    db: handle.db,
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
    departmentId = (await findOrCreateDepartment(ctx.database.db, overrides.department, at)).id;
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
