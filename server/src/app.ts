/**
 * Builds the Fastify app: plugins, features and the one error handler. `server.ts` opens the
 * database and listens; tests call `buildApp` and use `app.inject`.
 */
import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import rateLimit from '@fastify/rate-limit';
import fastifyStatic from '@fastify/static';
import { AppError } from '@learning-hub/core';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { AppConfig } from './config';
import type { Db } from './platform/db';
import { AREAS } from './modules';
import { AreaRegistry, type AreaManifest } from './platform/areas';
import type { ChangeTracker } from './platform/db/change-tracker';
import { DatabaseOutage } from './platform/db/outage';
import healthRoutes from './platform/http/health-routes';
import filesRoutes from './platform/storage/files-routes';
import uploadsRoutes from './platform/storage/uploads-routes';
import { createJobService, type JobService } from './platform/jobs';
import searchRoutes from './platform/search/routes';
import { AccessService } from './platform/access/access-service';
import { ensureDevUser } from './platform/auth/dev-user';
import accessPlugin from './platform/http/access';
import compression from './platform/http/compression';
import lanes from './platform/http/lanes';
import errorsPlugin, {
  clientErrorHandler,
  createFrameworkErrorHandler,
  createHttpsCheck,
  fastifyTrustProxy,
  sendError,
} from './platform/http/errors';
import { registerOpenApi } from './platform/http/openapi';
import { LiveChannel } from './platform/live/live-channel';
import { NotificationService } from './platform/notifications/notification-service';
import notificationRoutes from './platform/notifications/routes';
import { notificationChannelChoices } from './platform/settings/user-settings-repository';
import { registerEndingNotices } from './platform/access/expiry-notices';
import { registerEmail } from './platform/notifications/email';
import { logEachRequestOnce, loggerOptions } from './platform/http/request-log';
import { lazyChildLoggerFactory } from './platform/http/request-logger';
import securityHeaders from './platform/http/security-headers';
import { serializerCompiler } from './platform/http/serializer';
import { createFileStore } from './platform/storage';
import { FileService } from './platform/storage/file-service';
import { loadUrlSigningKey, UrlSigner } from './platform/storage/signed-urls';
import type { FileStore } from './platform/storage/file-store';
import {
  createComputeWorkers,
  createContentWorkers,
  type ComputeWorkers,
  type ContentWorkers,
} from './workers/content-workers';

/** The version of the API, as the OpenAPI document states it. */
export const API_VERSION = '0.1.0';

export interface BuildAppOptions {
  config: AppConfig;
  db: Db;
  /**
   * Where the expensive reads run (the database handle's `reads`: SQLite's read threads); `db`
   * when absent.
   */
  reads?: Db;
  /** The clock, in epoch ms; tests move it to exercise expiry and throttling. */
  now?: () => number;
  /** Tells caches when tables change (from the database handle); null or absent: no caching. */
  changes?: ChangeTracker | null;
  /** Overrides the logger (tests pass false). */
  logger?: FastifyServerOptions['logger'];
  /** Overrides the file store the configuration names (tests). */
  fileStore?: FileStore;
  /** The areas to register (server/src/modules/index.ts when absent; tests may narrow it). */
  areas?: readonly AreaManifest[];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Stored files: areas register their owner types and attach uploads (storage/file-service). */
    files: FileService;
    /**
     * Background jobs (server/src/platform/jobs, docs/jobs.md): areas register their kinds of job and send
     * them. Started when the server listens (tests call `app.jobs.start()`), stopped on close.
     */
    jobs: JobService;
    /**
     * The database for expensive reads (search, lists, the department page): SQLite's read
     * threads (db/read-pool.ts), else the app's database. Single reads only, never in a
     * transaction (docs/architecture.md, "Where work runs").
     */
    reads: Db;
    /**
     * Child processes for CPU- and memory-heavy content work (server/src/workers, docs/jobs.md):
     * `run('pdf.text', input, { timeoutMs, signal })`. Started when first used, stopped on close.
     */
    contentWorkers: ContentWorkers;
    /**
     * A child process for CPU work on trusted data that still costs milliseconds (a wiki diff):
     * `run('wiki.diff', input, { timeoutMs })` (server/src/workers/compute-tasks.ts).
     */
    computeWorkers: ComputeWorkers;
    /**
     * Notifications (platform/notifications, docs/notifications.md): `notify(trx, …)` in the
     * transaction of the thing announced, then `dispatch()`.
     */
    notifications: NotificationService;
    /** The live channel (platform/live): topics, and events to a person's tabs and devices. */
    live: LiveChannel;
  }
}

/** A compute worker past this resident set is stopped (a diff of two large pages needs far less). */
const COMPUTE_WORKER_MAX_BYTES = 256 * 1024 * 1024;

/** How often unattached uploads past their hours (UPLOAD_UNATTACHED_HOURS) are looked for. */
const ORPHAN_CLEANUP_INTERVAL_MS = 3_600_000;

export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const reads = options.reads ?? db;
  const now = options.now ?? Date.now;

  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel),
    // One line per request, with secrets redacted, instead of Fastify's two (plugins/request-log).
    logController: new LogController({ disableRequestLogging: true }),
    // request.log is made when first written to (most requests log nothing at the set level).
    childLoggerFactory: lazyChildLoggerFactory,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && /^[\w.-]{8,64}$/.test(given) ? given : randomUUID();
    },
    requestIdHeader: false,
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: config.bodyLimit,
    // Answers the framework would give in its own shape and without the security headers: bad
    // URLs, over-long parameters, requests the HTTP parser refuses, requests while closing (the
    // errors plugin answers those with a 503 of ours).
    frameworkErrors: createFrameworkErrorHandler(createHttpsCheck(config.trustProxy)),
    clientErrorHandler,
    return503OnClosing: false,
    routerOptions: { maxParamLength: 200 },
  });
  // The API speaks JSON only: other bodies get a clear 415 instead of a confusing 400.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  logEachRequestOnce(app);

  // Headers first: every later hook may end the request with an error.
  await app.register(securityHeaders);
  // Connection-level failures, from requests, jobs and idle connections, reported once per outage.
  const outage = new DatabaseOutage(db, app.log);
  app.addHook('onClose', async () => outage.close());
  await app.register(errorsPlugin, { outage });
  // Before any route: it decides per route whether answers are compressed.
  await app.register(compression);
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'RATE_LIMITED',
        `Too many requests. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      ),
  });
  // Heavy writes take turns (plugins/lanes.ts): one at a time on SQLite, whose writes are one
  // after another anyway; a few at once on PostgreSQL, which works them in its own processes.
  await app.register(lanes, {
    concurrency: { writes: config.lanes.writes ?? (config.database.kind === 'sqlite' ? 1 : 4) },
  });
  const access = new AccessService(db, now);
  await app.register(accessPlugin, {
    db,
    now,
    access,
    changes: options.changes ?? null,
    urlSigner: new UrlSigner(() => loadUrlSigningKey(db), now),
    ...(config.devMode ? { devUser: () => ensureDevUser(db, now) } : {}),
  });

  const files = new FileService(
    options.fileStore ?? createFileStore(config.files.store),
    db,
    now,
    access,
    config.files.limits,
    app.log,
  );
  app.decorate('files', files);
  app.decorate('reads', reads);

  const jobs = createJobService(db, now, app.log, { ...config.jobs, outage });
  app.decorate('jobs', jobs);
  const contentWorkers = createContentWorkers({
    ...config.contentWorkers,
    // Stored files are copied here for a worker to read, and removed after its task.
    tempDir: join(config.files.stagingDir, 'content-work'),
    log: app.log,
  });
  app.decorate('contentWorkers', contentWorkers);
  const computeWorkers = createComputeWorkers({
    size: 1,
    maxRssBytes: COMPUTE_WORKER_MAX_BYTES,
    tempDir: join(config.files.stagingDir, 'compute-work'),
    log: app.log,
  });
  app.decorate('computeWorkers', computeWorkers);
  // Workers run in a listening server only: `app.inject` tests and the command line send jobs
  // without working them (a test that is about jobs starts them itself).
  app.addHook('onListen', async () => {
    await jobs.start();
  });

  // Notifications are stored with the thing they announce and sent live from the outbox.
  // Email when SMTP_URL is set: urgent ones at once, the rest in a daily digest (email.ts).
  let sendUrgentEmail: (() => void) | undefined;
  const notifications = new NotificationService(db, now, {
    channelChoices: notificationChannelChoices,
    emailAvailable: config.email.url !== null,
    onUrgentEmail: () => sendUrgentEmail?.(),
    log: app.log,
    outage,
  });
  app.decorate('notifications', notifications);
  const live = new LiveChannel({
    db,
    now,
    log: app.log,
    outage,
    signInOf: (token) => app.signInOf(token),
    redisUrl: config.live.redisUrl,
    onReceipts: (eventIds) => void notifications.delivered(eventIds).catch(() => undefined),
    changes: options.changes ?? null,
  });
  live.attach(app.server);
  notifications.setSink(live);
  app.decorate('live', live);
  app.addHook('onListen', async () => {
    notifications.start();
    live.start();
  });
  // Before the server closes: open connections would hold it.
  app.addHook('preClose', async () => {
    await live.close();
  });
  app.addHook('onClose', async () => {
    await notifications.stop();
  });

  // Before the routes: the API description collects them as they are added.
  await registerOpenApi(app, { version: API_VERSION });
  await app.register(healthRoutes, { db });
  await app.register(filesRoutes, { files, maxUploadBytes: config.files.maxUploadBytes });
  await app.register(uploadsRoutes, {
    files,
    stagingDir: config.files.stagingDir,
    maxBytes: config.files.maxResumableBytes,
    expiresAfterMs: config.files.limits.unattachedHours * 3_600_000,
  });
  await app.register(searchRoutes, { now, limits: config.search });
  await app.register(notificationRoutes, { db, now });
  registerEndingNotices(app, db, now);
  if (config.email.url) {
    sendUrgentEmail = registerEmail(app, db, now, {
      url: config.email.url,
      from: config.email.from,
      digestHour: config.email.digestHour,
      publicUrl: config.publicUrl,
    });
  }
  // Each area registers its routes, file owners and jobs (server/src/modules/index.ts).
  const areas = options.areas ?? AREAS;
  app.decorate('areas', new AreaRegistry(areas));
  const context = { config, db, now, changes: options.changes ?? null };
  for (const area of areas) await area.register(app, context);

  // Orphaned uploads: once at start, then hourly. Safe with several instances (see cleanupOrphans).
  let cleanupTimer: NodeJS.Timeout | undefined;
  let cleaning: Promise<void> = Promise.resolve();
  const cleanup = () =>
    (cleaning = files.cleanupOrphans().then(
      (removed) => {
        if (removed > 0) app.log.info({ removed }, 'removed orphaned uploads');
      },
      (error: unknown) => {
        if (!outage.report(error, 'the orphaned upload clean-up')) {
          app.log.error({ err: error }, 'orphaned upload clean-up failed');
        }
      },
    ));
  app.addHook('onReady', async () => {
    void cleanup();
    cleanupTimer = setInterval(() => void cleanup(), ORPHAN_CLEANUP_INTERVAL_MS);
    cleanupTimer.unref();
  });
  app.addHook('onClose', async () => {
    clearInterval(cleanupTimer);
    await Promise.all([cleaning, jobs.stop()]);
    // After the jobs: a job stopped by the shutdown is put back to wait, not failed.
    await Promise.all([contentWorkers.close(), computeWorkers.close()]);
  });

  const webDist = config.webDistDir;
  const hasWeb = existsSync(join(webDist, 'index.html'));
  // /login's first load is the sign-in page as plain HTML, which loads the app when it is used
  // (docs/front-end.md); a build without it serves index.html there too.
  const hasLoginPage = hasWeb && existsSync(join(webDist, 'login.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root: webDist,
      // One route per built file (the file list is fixed at start: `npm start` rebuilds first);
      // every other GET falls through to the SPA's index.html in the not-found handler.
      wildcard: false,
      index: false,
      // The build writes a brotli and a gzip copy beside each text file (web/build/precompress.ts):
      // the copy the client accepts is sent, with Content-Encoding and `Vary: accept-encoding`,
      // else the file itself. The copies get no routes of their own (docs/front-end.md).
      preCompressed: true,
      // Source maps are built (for the developers who read a production stack) but not served.
      globIgnore: ['**/*.br', '**/*.gz', '**/*.map'],
      // `path` is the file sent, so a compressed copy's name ends in .br or .gz.
      setHeaders: (reply, path) => {
        reply.header(
          'cache-control',
          path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  } else if (config.nodeEnv !== 'test') {
    app.log.warn({ webDist }, 'web app not built: only the API is served (run npm run build)');
  }

  app.setNotFoundHandler(async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const wantsPage =
      hasWeb &&
      (request.method === 'GET' || request.method === 'HEAD') &&
      !path.startsWith('/api/') &&
      path !== '/api' &&
      // A file of the build that is not there (a source map, a chunk of an older release) is a
      // 404, not the app's page in its place.
      !path.startsWith('/assets/');
    if (wantsPage) {
      // Client-side routes (and unknown paths, which the app shows as Not Found).
      const page = hasLoginPage && path === '/login' ? 'login.html' : 'index.html';
      return reply.header('cache-control', 'no-cache').sendFile(page);
    }
    return sendError(
      request,
      reply,
      new AppError('NOT_FOUND', `Route ${request.method} ${path} not found`),
    );
  });

  return app;
}
