/**
 * The only reader of the environment. Every variable is validated at boot; when any is wrong, the
 * process exits listing all of them at once (see server.ts).
 */
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { UploadLimits } from '@learning-hub/core';
import { z } from 'zod';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
      error: 'must be true or false',
    })
    .optional()
    .transform((v) => (v === undefined ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

/** A byte count: 1 KB to 1 PB. */
const byteCount = z.coerce
  .number()
  .int()
  .min(1024)
  .max(1024 ** 5);

/** The default of UPLOAD_USER_MAX_STORED_BYTES (at least the unattached limit). */
const DEFAULT_MAX_STORED_BYTES = 20 * 1024 ** 3;

const defaultWebDist = fileURLToPath(new URL('../../web/dist', import.meta.url));

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  SQLITE_PATH: z.string().min(1).default('./data/learning-hub.db'),
  /**
   * Threads that run the expensive reads on SQLite (search, lists, the department page), each
   * with its own read-only connection, and one more that checkpoints the WAL; 0 runs them on the
   * request thread (and checkpoints in the commits). Default: the cores, at most 4
   * (docs/architecture.md, "Where work runs").
   */
  SQLITE_READ_THREADS: z.coerce
    .number()
    .int()
    .min(0)
    .max(32)
    .default(Math.min(4, availableParallelism())),
  /**
   * Heavy writes (a wiki save) worked at once; the others wait their turn (plugins/lanes.ts).
   * Default: 1 on SQLite, 4 on PostgreSQL.
   */
  WRITE_LANE_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  /** Searches one person may have running at once; more answer 429. */
  SEARCH_MAX_CONCURRENT_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  /** Searches one person may start per minute; more answer 429. */
  SEARCH_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(100_000).default(120),
  /**
   * Redis (redis:// or rediss://): carries the live channel's events between server instances
   * (docs/notifications.md). Unset: one instance serves its own connections alone.
   */
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  SEED_DEMO: bool(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '' || v === 'false' || v === '0') return false;
      if (v === 'true') return true;
      if (/^\d+$/.test(v)) return Number(v);
      if (/^[0-9a-fA-F:./,\s]+$/.test(v)) return v.split(',').map((s) => s.trim());
      ctx.addIssue({ code: 'custom', message: 'must be true, false, a hop count or addresses' });
      return z.NEVER;
    }),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(104_857_600).default(1_048_576),
  WEB_DIST_DIR: z.string().min(1).default(defaultWebDist),
  /** Dev mode: every request is the built-in developer admin. Refused in production. */
  DEV_MODE: bool(false),
  /** The address browsers reach this server at (SSO redirect URIs are built from it). */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
    .optional(),
  /** A JSON file with sign-in methods and providers (LDAP, Moodle, SSO) to set up at start. */
  AUTH_CONFIG_FILE: z.string().min(1).optional(),
  /** The same JSON inline, for deployments configured only through the environment. */
  AUTH_PROVIDERS: z.string().min(2).optional(),
  /** Where uploaded files live on local disk (default: `files` next to the SQLite file). */
  FILES_DIR: z.string().min(1).optional(),
  /** Largest accepted upload, in bytes (enforced while the file streams in). */
  UPLOAD_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 4)
    .default(104_857_600),
  /**
   * Largest accepted resumable upload (tus, /api/uploads), in bytes: field videos of 1–4 GB
   * (enforced as the bytes arrive). Default 5 GB.
   */
  UPLOAD_RESUMABLE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(1024 ** 4)
    .default(5 * 1024 ** 3),
  /**
   * Where resumable uploads are staged until their last byte (default: `uploads` in FILES_DIR,
   * or ./data/uploads with S3_BUCKET).
   */
  UPLOAD_STAGING_DIR: z.string().min(1).optional(),
  /**
   * Per person: most bytes of uploads not yet attached to anything (default five times
   * UPLOAD_MAX_BYTES or UPLOAD_RESUMABLE_MAX_BYTES, whichever is larger: 5 GB).
   */
  UPLOAD_USER_MAX_UNATTACHED_BYTES: byteCount.optional(),
  /** Per person: most bytes stored in all, attached or not (default 20 GB). */
  UPLOAD_USER_MAX_STORED_BYTES: byteCount.optional(),
  /** Per person: at most this many uploads within UPLOAD_RATE_WINDOW_SECONDS. */
  UPLOAD_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(60),
  /** The window of UPLOAD_RATE_LIMIT, at most an hour. */
  UPLOAD_RATE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(600),
  /** Uploads never attached to anything are removed this many hours after they were uploaded. */
  UPLOAD_UNATTACHED_HOURS: z.coerce.number().int().min(1).max(720).default(24),
  /**
   * How often a background-job worker looks for due jobs, ms (docs/jobs.md). pg-boss polls at
   * least every 500 ms; SQLite is also woken by a send in the same process.
   */
  JOBS_POLL_INTERVAL_MS: z.coerce.number().int().min(10).max(60_000).default(1000),
  /**
   * Content workers (docs/jobs.md, "Where the work runs"): child processes that read and draw
   * PDFs for the background jobs, at most this many at once (each one task at a time).
   */
  CONTENT_WORKERS: z.coerce.number().int().min(1).max(32).default(1),
  /** A content worker whose memory (resident set) passes this many MB is stopped. */
  CONTENT_WORKER_MAX_MB: z.coerce.number().int().min(64).max(65_536).default(512),
  /** An S3-compatible bucket instead of local disk; the other S3_* settings go with it. */
  S3_BUCKET: z.string().min(3).max(63).optional(),
  /** The S3 service's address (MinIO, Ceph, R2, …); AWS's own when absent. */
  S3_ENDPOINT: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// address' })
    .optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  /** Credentials; absent: the AWS SDK's default chain (environment role, instance profile). */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** `bucket` in the path rather than the host name (MinIO and most self-hosted stores). */
  S3_FORCE_PATH_STYLE: bool(false),
  /**
   * The mail server email is sent through (`smtp://user:pass@host:587`, or `smtps://…:465` for
   * TLS from the start). Absent: this server sends no email, and the settings page says so.
   */
  SMTP_URL: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (v === undefined || v === '') return null;
      try {
        const url = new URL(v);
        if ((url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname) return v;
      } catch {
        // refused below
      }
      ctx.addIssue({ code: 'custom', message: 'must be an smtp:// or smtps:// URL with a host' });
      return z.NEVER;
    }),
  /** The sender of the email this server sends: `Name <address>` or an address. */
  /** The hour (UTC, 0–23) of the daily digest email of notifications (docs/notifications.md). */
  MAIL_DIGEST_HOUR: z.coerce.number().int().min(0).max(23).default(6),
  MAIL_FROM: z
    .string()
    .regex(
      /^(?:[^<>\r\n]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/,
      'must be an address (no-reply@example.com) or a name and an address (Learning Hub <no-reply@example.com>)',
    )
    .default('Learning Hub <no-reply@localhost>'),
});

/** Where stored files live: a directory on local disk, or an S3-compatible bucket. */
export type FileStoreConfig =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      endpoint: string | undefined;
      region: string;
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
      forcePathStyle: boolean;
    };

export type AppConfig = {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  database:
    | {
        kind: 'sqlite';
        path: string;
        /** Read threads (db/read-pool.ts); none when absent. */
        readThreads?: number;
        /** Whether a thread of its own checkpoints the WAL (db/read-worker.ts). */
        checkpointThread?: boolean;
      }
    | { kind: 'postgres'; url: string; schema?: string };
  /** Turns of heavy requests (plugins/lanes.ts); undefined: the database's default. */
  lanes: { writes: number | undefined };
  /** Per-person limits on search (GET /api/search). */
  search: { maxConcurrentPerUser: number; perMinute: number };
  /** The live channel: Redis between instances (REDIS_URL), or null for one instance alone. */
  live: { redisUrl: string | null };
  seedDemo: boolean;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  trustProxy: boolean | number | string[];
  bodyLimit: number;
  webDistDir: string;
  devMode: boolean;
  /** Origin browsers use, without a trailing slash. */
  publicUrl: string;
  /** Sign-in methods and providers to set up at start (see auth/provider-config.ts). */
  authConfig: { file: string | undefined; inline: string | undefined };
  /** File storage (see server/src/platform/storage). */
  files: {
    store: FileStoreConfig;
    maxUploadBytes: number;
    /** The largest resumable upload (UPLOAD_RESUMABLE_MAX_BYTES). */
    maxResumableBytes: number;
    /** Where resumable uploads are staged until complete (a directory on local disk). */
    stagingDir: string;
    /** Per-person limits on uploads, and how long unattached uploads are kept. */
    limits: UploadLimits;
  };
  /** Background jobs (server/src/platform/jobs). */
  jobs: { pollIntervalMs: number };
  /** Content worker processes (server/src/workers): how many, and each one's memory cap. */
  contentWorkers: { size: number; maxRssBytes: number };
  /**
   * Sending email: the SMTP server's URL (null: this server sends no email) and the sender.
   * The URL may hold a password: never log or answer it.
   */
  email: { url: string | null; from: string; digestHour: number };
};

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/** Reads and validates the configuration; throws ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.') || '(environment)'}: ${i.message}`),
    );
  }
  const e = parsed.data;
  const problems: string[] = [];
  if (e.DEV_MODE && e.NODE_ENV === 'production') {
    problems.push(
      'DEV_MODE: dev mode (no sign-in, everyone is an admin) is refused when NODE_ENV=production',
    );
  }
  if (e.AUTH_CONFIG_FILE && e.AUTH_PROVIDERS) {
    problems.push('AUTH_PROVIDERS: give either AUTH_CONFIG_FILE or AUTH_PROVIDERS, not both');
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    problems.push(
      'S3_SECRET_ACCESS_KEY: give both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither',
    );
  }
  if (!e.S3_BUCKET && (e.S3_ENDPOINT || e.S3_ACCESS_KEY_ID || e.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_BUCKET: the other S3_* settings need S3_BUCKET to name the bucket');
  }
  if (e.S3_BUCKET && e.FILES_DIR) {
    problems.push('FILES_DIR: give either FILES_DIR (local disk) or S3_BUCKET, not both');
  }
  const maxUnattached =
    e.UPLOAD_USER_MAX_UNATTACHED_BYTES ??
    Math.max(5 * e.UPLOAD_MAX_BYTES, e.UPLOAD_RESUMABLE_MAX_BYTES);
  const maxStored =
    e.UPLOAD_USER_MAX_STORED_BYTES ?? Math.max(DEFAULT_MAX_STORED_BYTES, maxUnattached);
  if (maxUnattached < e.UPLOAD_MAX_BYTES) {
    problems.push(
      'UPLOAD_USER_MAX_UNATTACHED_BYTES: must be at least UPLOAD_MAX_BYTES, or a file of the ' +
        'largest accepted size could never be uploaded',
    );
  } else if (maxStored < maxUnattached) {
    problems.push(
      'UPLOAD_USER_MAX_STORED_BYTES: must be at least UPLOAD_USER_MAX_UNATTACHED_BYTES ' +
        '(unattached uploads are stored too)',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  const filesDir =
    e.FILES_DIR ?? (e.DATABASE_URL ? './data/files' : join(dirname(e.SQLITE_PATH), 'files'));
  const store: FileStoreConfig = e.S3_BUCKET
    ? {
        kind: 's3',
        bucket: e.S3_BUCKET,
        endpoint: e.S3_ENDPOINT,
        region: e.S3_REGION,
        credentials:
          e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
            ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
            : undefined,
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
      }
    : {
        kind: 'local',
        dir: filesDir,
      };
  return {
    nodeEnv: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : {
          kind: 'sqlite',
          path: e.SQLITE_PATH,
          readThreads: e.SQLITE_READ_THREADS,
          checkpointThread: e.SQLITE_READ_THREADS > 0,
        },
    lanes: { writes: e.WRITE_LANE_CONCURRENCY },
    search: {
      maxConcurrentPerUser: e.SEARCH_MAX_CONCURRENT_PER_USER,
      perMinute: e.SEARCH_RATE_LIMIT_PER_MINUTE,
    },
    live: { redisUrl: e.REDIS_URL ?? null },
    seedDemo: e.SEED_DEMO,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    bodyLimit: e.BODY_LIMIT_BYTES,
    webDistDir: e.WEB_DIST_DIR,
    devMode: e.DEV_MODE,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, ''),
    authConfig: { file: e.AUTH_CONFIG_FILE, inline: e.AUTH_PROVIDERS },
    files: {
      store,
      maxUploadBytes: e.UPLOAD_MAX_BYTES,
      maxResumableBytes: e.UPLOAD_RESUMABLE_MAX_BYTES,
      stagingDir:
        e.UPLOAD_STAGING_DIR ?? (e.S3_BUCKET ? './data/uploads' : join(filesDir, 'uploads')),
      limits: {
        maxFileBytes: e.UPLOAD_MAX_BYTES,
        maxUnattachedBytes: maxUnattached,
        maxStoredBytes: maxStored,
        rate: { uploads: e.UPLOAD_RATE_LIMIT, windowSeconds: e.UPLOAD_RATE_WINDOW_SECONDS },
        unattachedHours: e.UPLOAD_UNATTACHED_HOURS,
      },
    },
    jobs: { pollIntervalMs: e.JOBS_POLL_INTERVAL_MS },
    contentWorkers: { size: e.CONTENT_WORKERS, maxRssBytes: e.CONTENT_WORKER_MAX_MB * 1024 * 1024 },
    email: { url: e.SMTP_URL, from: e.MAIL_FROM, digestHour: e.MAIL_DIGEST_HOUR },
  };
}
