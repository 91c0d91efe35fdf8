/**
 * Background jobs on the embedded SQLite database: the `jobs` table, worked in this process
 * (docs/jobs.md). Polls every `pollIntervalMs` (an unref'd timer) and at once after a send or a
 * finished job; times come from the app's clock, so tests move it to pass a backoff.
 */
import type { JobState } from '@learning-hub/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import type { DatabaseOutage } from '../db/outage';
import {
  claimJob,
  completeJob,
  deleteFinishedJobs,
  failExpiredJobs,
  failJobAttempt,
  findJobState,
  insertJob,
  listJobs,
  releaseJob,
  retryFailedJob,
  type JobRow,
} from './job-repository';
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

interface Registration {
  type: JobType<unknown>;
  handler: JobHandler<unknown>;
  options: Required<JobOptions>;
  running: number;
}

const iso = (ms: number) => new Date(ms).toISOString();

const STOPPING = 'The server stopped during the attempt.';

/** How often finished jobs past their retention are looked for. */
const CLEANUP_INTERVAL_MS = 3_600_000;

export class SqliteJobService implements JobService {
  readonly kind = 'sqlite';
  readonly #registrations = new Map<string, Registration>();
  readonly #inFlight = new Set<Promise<void>>();
  readonly #controllers = new Set<AbortController>();
  #started = false;
  #timer: NodeJS.Timeout | undefined;
  #polling: Promise<void> | undefined;
  #pollAgain = false;
  /** When finished jobs past their retention were last deleted (app clock, ms). */
  #cleanedAt = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
    private readonly pollIntervalMs = 1000,
    /** Told of a database that is away (logged once per outage); the loop just keeps polling. */
    private readonly outage?: DatabaseOutage,
  ) {}

  register<T>(type: JobType<T>, handler: JobHandler<T>, options?: JobOptions): void {
    if (this.#registrations.has(type.name)) throw new Error(`job ${type.name} registered twice`);
    this.#registrations.set(type.name, {
      type: type as JobType<unknown>,
      handler: handler as JobHandler<unknown>,
      options: resolveJobOptions(options),
      running: 0,
    });
    this.#wake();
  }

  async send<T>(type: JobType<T>, data: T, options: SendOptions = {}): Promise<string | null> {
    const registration = this.#registrations.get(type.name);
    if (!registration) throw new Error(`job ${type.name} is not registered`);
    const checked = type.schema.parse(data);
    const at = this.now();
    const startAfter = options.startAfter === undefined ? at : Number(options.startAfter);
    const id = await insertJob(
      options.trx ?? this.db,
      {
        name: type.name,
        data: JSON.stringify(checked ?? null),
        maxAttempts: registration.options.retryLimit + 1,
        startAfter: iso(Math.max(at, startAfter)),
        singletonKey: options.singletonKey ?? null,
      },
      iso(at),
    );
    // A job sent in a transaction is seen once it commits: at the next poll at the latest.
    if (id !== null && startAfter <= at) this.#wake();
    return id;
  }

  list(query: {
    state?: JobState | undefined;
    page: number;
    pageSize: number;
  }): Promise<ListedJobs> {
    return listJobs(this.db, query);
  }

  async retry(id: string): Promise<JobRetryResult> {
    if (await retryFailedJob(this.db, id, iso(this.now()))) {
      this.#wake();
      return 'retried';
    }
    return (await findJobState(this.db, id)) === undefined ? 'not-found' : 'not-failed';
  }

  start(): Promise<void> {
    if (!this.#started) {
      this.#started = true;
      this.#wake();
    }
    return Promise.resolve();
  }

  async stop(timeoutMs = 5000): Promise<void> {
    this.#started = false;
    clearTimeout(this.#timer);
    // A look in progress may still take a job: let it, so that job is waited for too.
    await this.#polling;
    if (this.#inFlight.size > 0) {
      let timer: NodeJS.Timeout | undefined;
      const timedOut = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      });
      await Promise.race([Promise.allSettled([...this.#inFlight]), timedOut]);
      clearTimeout(timer);
    }
    // Handlers still running are told to stop, and their jobs put back to wait (the attempt not
    // counted) for the next start or another instance. Should that write fail, the job stays
    // active until its lease runs out and is taken back then.
    if (this.#controllers.size > 0) {
      for (const controller of this.#controllers) controller.abort(new Error(STOPPING));
      await Promise.allSettled([...this.#inFlight]);
    }
  }

  /** Looks for due jobs now (or right after the look in progress). */
  #wake(): void {
    if (!this.#started) return;
    if (this.#polling) {
      this.#pollAgain = true;
      return;
    }
    this.#schedule(0);
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#poll(), ms);
    this.#timer.unref();
  }

  #poll(): Promise<void> {
    if (!this.#started || this.#polling) return Promise.resolve();
    this.#pollAgain = false;
    this.#polling = this.#look().finally(() => {
      this.#polling = undefined;
      if (this.#started) this.#schedule(this.#pollAgain ? 0 : this.pollIntervalMs);
    });
    return this.#polling;
  }

  async #look(): Promise<void> {
    try {
      const at = this.now();
      await failExpiredJobs(this.db, iso(at));
      if (at - this.#cleanedAt >= CLEANUP_INTERVAL_MS) {
        this.#cleanedAt = at;
        await deleteFinishedJobs(this.db, iso(at - FINISHED_JOB_RETENTION_SECONDS * 1000));
      }
      for (const registration of this.#registrations.values()) {
        const { timeoutSeconds, concurrency } = registration.options;
        while (this.#started && registration.running < concurrency) {
          const row = await claimJob(
            this.db,
            registration.type.name,
            iso(at),
            iso(at + timeoutSeconds * 1000),
          );
          if (!row) break;
          this.#run(registration, row);
        }
      }
    } catch (error) {
      if (!this.outage?.report(error, 'background jobs')) {
        this.log.error({ err: error }, 'background jobs: looking for due jobs failed');
      }
    }
  }

  #run(registration: Registration, row: JobRow): void {
    registration.running += 1;
    const controller = new AbortController();
    this.#controllers.add(controller);
    const { timeoutSeconds, retryDelaySeconds, backoff } = registration.options;
    const timeout = setTimeout(
      () => controller.abort(new Error(`timed out after ${timeoutSeconds} s`)),
      timeoutSeconds * 1000,
    );
    timeout.unref();
    const aborted = new Promise<never>((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error), {
        once: true,
      });
    });
    aborted.catch(() => {});
    const attempt = row.attempts;
    const run = (async () => {
      try {
        const data = registration.type.schema.parse(JSON.parse(row.data));
        await Promise.race([
          registration.handler(data, { id: row.id, attempt, signal: controller.signal }),
          aborted,
        ]);
        await completeJob(this.db, row.id, attempt, iso(this.now()));
      } catch (error) {
        const at = this.now();
        if (!this.#started && controller.signal.aborted) {
          await releaseJob(this.db, row.id, attempt, iso(at));
          return;
        }
        const last = attempt >= row.max_attempts || error instanceof FinalJobError;
        const delayMs = retryDelaySeconds * 1000 * (backoff ? 2 ** Math.max(0, attempt - 1) : 1);
        this.log.warn(
          { err: error, job: row.id, name: row.name, attempt },
          last ? 'background job failed' : 'background job attempt failed; will retry',
        );
        await failJobAttempt(
          this.db,
          row.id,
          attempt,
          errorText(error),
          last ? null : iso(at + delayMs),
          iso(at),
        );
      }
    })()
      .catch((error: unknown) => {
        this.log.error({ err: error, job: row.id }, 'background jobs: recording an outcome failed');
      })
      .finally(() => {
        clearTimeout(timeout);
        this.#controllers.delete(controller);
        registration.running -= 1;
        this.#inFlight.delete(run);
        this.#wake();
      });
    this.#inFlight.add(run);
  }
}
