/**
 * Background jobs on PostgreSQL: pg-boss (docs/jobs.md) in its own schema, on the app's own
 * connection pool; a job sent inside the caller's Kysely transaction is written on that
 * transaction's connection. Any
 * number of instances work the same queues; pg-boss claims each job with `SKIP LOCKED`, retries
 * with backoff, and takes back an active job past its `expireInSeconds` (a worker that died).
 */
import type { JobState } from '@learning-hub/core';
import type { FastifyBaseLogger } from 'fastify';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type pg from 'pg';
import { getConstructionPlans, PgBoss } from 'pg-boss';
import type { Db } from '../db';
import type { DatabaseOutage } from '../db/outage';
import type { Database } from '../db/schema';
import { findPgBossJob, listPgBossJobs } from './pg-boss-repository';
import {
  errorText,
  FinalJobError,
  FINISHED_JOB_RETENTION_SECONDS,
  resolveJobOptions,
  type JobHandler,
  type JobOptions,
  type JobRetryResult,
  type JobService,
  type JobType,
  type ListedJobs,
  type SendOptions,
} from './types';

/** pg-boss's schema in the app's database. */
export const PG_BOSS_SCHEMA = 'pgboss';

/**
 * Installs pg-boss's schema ahead of its first start, which otherwise does it (and migrates it
 * when pg-boss is upgraded). The test run's template database has it, so tests do not pay the
 * install (about a second) every time.
 */
export async function installPgBossSchema(db: Db): Promise<void> {
  await sql.raw(getConstructionPlans(PG_BOSS_SCHEMA)).execute(db);
}

interface Registration {
  type: JobType<unknown>;
  handler: JobHandler<unknown>;
  options: Required<JobOptions>;
  working: boolean;
  /**
   * Its queue's creation when it was registered after pg-boss started: a send waits for it, so a
   * job is never sent to a queue that does not exist yet.
   */
  queued?: Promise<void>;
}

/**
 * pg-boss's adapter over a Kysely transaction's connection, for `send(…, { trx })`: the insert is
 * one statement, which Kysely carries (it keeps one statement's rows; see postgresPool).
 */
const transactionExecutor = (db: Kysely<Database>) => ({
  executeSql: async (text: string, values: unknown[] = []) => {
    const result = await db.executeQuery(CompiledQuery.raw(text, values));
    return { rows: result.rows as unknown[] };
  },
});

export class PgBossJobService implements JobService {
  readonly kind = 'pg-boss';
  readonly #boss: PgBoss;
  readonly #registrations = new Map<string, Registration>();
  #booting: Promise<void> | undefined;
  #working = false;

  constructor(
    private readonly db: Db,
    pool: pg.Pool,
    private readonly log: FastifyBaseLogger,
    private readonly pollIntervalMs = 1000,
    /** Told of a database that is away, instead of a log line per failed poll of every queue. */
    private readonly outage?: DatabaseOutage,
  ) {
    this.#boss = new PgBoss({
      // The app's pool, as pg-boss's own adapter uses one: node-postgres returns every result of
      // a multi-statement query, which pg-boss reads.
      db: { executeSql: (text, values) => pool.query(text, values) },
      schema: PG_BOSS_SCHEMA,
      // No recurring schedules yet: the first area that needs cron turns this on.
      schedule: false,
    });
    // pg-boss's loops (polling, maintenance) go on after a failure and report it here: during a
    // database outage they pause in effect and resume by themselves once it is back.
    this.#boss.on('error', (error) => {
      if (!this.outage?.report(error, 'background jobs (pg-boss)')) {
        this.log.error({ err: error }, 'pg-boss');
      }
    });
  }

  register<T>(type: JobType<T>, handler: JobHandler<T>, options?: JobOptions): void {
    if (this.#registrations.has(type.name)) throw new Error(`job ${type.name} registered twice`);
    const registration: Registration = {
      type: type as JobType<unknown>,
      handler: handler as JobHandler<unknown>,
      options: resolveJobOptions(options),
      working: false,
    };
    this.#registrations.set(type.name, registration);
    if (this.#booting) {
      registration.queued = this.#booting.then(() => this.#createQueue(registration));
      void registration.queued
        .then(() => (this.#working ? this.#work(registration) : undefined))
        .catch((error: unknown) => this.log.error({ err: error }, 'pg-boss: register failed'));
    }
  }

  async send<T>(type: JobType<T>, data: T, options: SendOptions = {}): Promise<string | null> {
    const registration = this.#registrations.get(type.name);
    if (!registration) throw new Error(`job ${type.name} is not registered`);
    const checked = type.schema.parse(data);
    await this.#boot();
    await registration.queued;
    return this.#boss.send(type.name, (checked ?? {}) as object, {
      ...(options.startAfter === undefined ? {} : { startAfter: new Date(options.startAfter) }),
      ...(options.singletonKey === undefined ? {} : { singletonKey: options.singletonKey }),
      ...(options.trx ? { db: transactionExecutor(options.trx) } : {}),
    });
  }

  async list(query: {
    state?: JobState | undefined;
    page: number;
    pageSize: number;
  }): Promise<ListedJobs> {
    await this.#boot();
    return listPgBossJobs(this.db, PG_BOSS_SCHEMA, query);
  }

  async retry(id: string): Promise<JobRetryResult> {
    await this.#boot();
    const job = await findPgBossJob(this.db, PG_BOSS_SCHEMA, id);
    if (!job) return 'not-found';
    // Conditional in pg-boss: only a failed job gets one more attempt.
    // (Its declared CommandResponse is empty; the object carries `affected`, the rows changed.)
    const response = (await this.#boss.retry(job.name, id)) as { affected?: number };
    return (response.affected ?? 0) > 0 ? 'retried' : 'not-failed';
  }

  async start(): Promise<void> {
    await this.#boot();
    if (this.#working) return;
    this.#working = true;
    for (const registration of this.#registrations.values()) await this.#work(registration);
  }

  async stop(timeoutMs = 5000): Promise<void> {
    const booting = this.#booting;
    this.#working = false;
    if (!booting) return;
    await booting.catch(() => {});
    // Our pool is the app's: pg-boss must not close it.
    await this.#boss.stop({ graceful: true, close: false, timeout: timeoutMs });
  }

  /** Starts pg-boss (installing or migrating its schema) and creates the registered queues. */
  #boot(): Promise<void> {
    this.#booting ??= (async () => {
      await this.#boss.start();
      for (const registration of this.#registrations.values()) {
        await this.#createQueue(registration);
      }
    })().catch((error: unknown) => {
      // A start that failed (the database away) is tried again by the next call, not kept.
      this.#booting = undefined;
      throw error;
    });
    return this.#booting;
  }

  async #createQueue({ type, options }: Registration): Promise<void> {
    const queue = {
      retryLimit: options.retryLimit,
      retryDelay: options.retryDelaySeconds,
      retryBackoff: options.backoff,
      expireInSeconds: options.timeoutSeconds,
      deleteAfterSeconds: FINISHED_JOB_RETENTION_SECONDS,
    };
    // Idempotent: another instance may have made it; settings follow this release's code (but
    // the policy, which pg-boss fixes when the queue is made).
    await this.#boss.createQueue(type.name, {
      ...queue,
      ...(options.oneWaiting ? { policy: 'short' as const } : {}),
    });
    await this.#boss.updateQueue(type.name, queue);
  }

  async #work(registration: Registration): Promise<void> {
    if (registration.working) return;
    registration.working = true;
    const { type, handler, options } = registration;
    await this.#boss.work<unknown>(
      type.name,
      {
        localConcurrency: options.concurrency,
        pollingIntervalSeconds: Math.max(0.5, this.pollIntervalMs / 1000),
        // A FinalJobError fails its job at once ('deadletter': no retries; the queue has no dead
        // letter queue, so it just ends failed); any other error fails the attempt as usual.
        perJobResults: true,
      },
      async ([job]) => {
        if (!job) return [];
        const data = type.schema.parse(job.data);
        try {
          await handler(data, { id: job.id, attempt: job.retryCount + 1, signal: job.signal });
        } catch (error) {
          if (!(error instanceof FinalJobError)) throw error;
          return [{ id: job.id, status: 'deadletter', output: { message: errorText(error) } }];
        }
        return [{ id: job.id, status: 'completed' }];
      },
    );
  }
}
