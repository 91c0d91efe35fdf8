/**
 * The background-job service (docs/jobs.md): one interface, run from the `jobs` table on SQLite
 * (sqlite-job-service.ts) and by pg-boss on PostgreSQL (pg-boss-job-service.ts).
 */
import type { JobList, JobState, JobSummary } from '@learning-hub/core';
import type { Transaction } from 'kysely';
import type { z } from 'zod';
import type { Database } from '../db/schema';

/** A kind of job: its name and the schema of its data. Made once with `defineJob`. */
export interface JobType<T> {
  readonly name: string;
  readonly schema: z.ZodType<T>;
}

/**
 * A kind of job. Names are letters, digits, `.`, `-` and `_` (pg-boss's queue names), e.g.
 * `defineJob('pdf.extract-text', z.object({ fileId: z.string() }))`.
 */
export function defineJob<T>(name: string, schema: z.ZodType<T>): JobType<T> {
  if (!/^[\w.-]{1,100}$/.test(name)) throw new Error(`invalid job name: ${name}`);
  return { name, schema };
}

/** How a kind of job is run. */
export interface JobOptions {
  /** Retries after the first attempt fails (default 2); then the job is `failed`. */
  retryLimit?: number;
  /** Seconds before the first retry (default 10). */
  retryDelaySeconds?: number;
  /** Doubles the delay at each further retry (default true). */
  backoff?: boolean;
  /**
   * Seconds an attempt may run (default 300). Past it the attempt fails; a job whose worker died
   * is taken back by any instance once this much time has passed since it started.
   */
  timeoutSeconds?: number;
  /** Jobs of this kind one instance runs at once (default 1). */
  concurrency?: number;
  /**
   * At most one job of this kind waits at any time, whatever its singleton key (recurring jobs:
   * recurring.ts). On PostgreSQL the queue's pg-boss policy `short` enforces it (pg-boss ignores
   * a singleton key on a standard queue); on SQLite the singleton key does. Default false.
   */
  oneWaiting?: boolean;
}

export interface JobContext {
  id: string;
  /** 1 for the first attempt. */
  attempt: number;
  /** Aborted when the attempt's time is up or the server stops. */
  signal: AbortSignal;
}

export type JobHandler<T> = (data: T, context: JobContext) => Promise<void>;

export interface SendOptions {
  /** Not before this instant (a Date or epoch ms). */
  startAfter?: Date | number;
  /** While a job of this name and key waits, sending another does nothing (returns null). */
  singletonKey?: string;
  /**
   * The caller's Kysely transaction: the job exists only if it commits. On SQLite the row is
   * written in it; on PostgreSQL pg-boss writes through the transaction's connection.
   */
  trx?: Transaction<Database>;
}

/**
 * A job as the service lists it: the summary without its subject, which the admin route reads
 * from `data` (the job's data, parsed).
 */
export type ListedJob = Omit<JobSummary, 'subject'> & { data: unknown };
export type ListedJobs = Omit<JobList, 'items'> & { items: ListedJob[] };

export type JobRetryResult = 'retried' | 'not-found' | 'not-failed';

export interface JobService {
  readonly kind: 'sqlite' | 'pg-boss';
  /** Declares how jobs of `type` run. Before `start()`, or while running. */
  register<T>(type: JobType<T>, handler: JobHandler<T>, options?: JobOptions): void;
  /**
   * Queues a job; its data is checked against the type's schema first (a ZodError when it does
   * not fit). Returns its id, or null when a job with the same singleton key is waiting.
   */
  send<T>(type: JobType<T>, data: T, options?: SendOptions): Promise<string | null>;
  /** A page of jobs, newest first, optionally of one state. */
  list(query: {
    state?: JobState | undefined;
    page: number;
    pageSize: number;
  }): Promise<ListedJobs>;
  /** Runs a failed job once more (one more attempt). */
  retry(id: string): Promise<JobRetryResult>;
  /** Starts working the registered kinds. */
  start(): Promise<void>;
  /**
   * Stops taking jobs and waits up to `timeoutMs` for running handlers; those still running are
   * aborted and taken back by an instance after their timeout.
   */
  stop(timeoutMs?: number): Promise<void>;
}

/**
 * Completed and failed jobs are kept this long after they finished, then deleted (pg-boss's own
 * default, `deleteAfterSeconds`, which the SQLite service follows).
 */
export const FINISHED_JOB_RETENTION_SECONDS = 7 * 24 * 3600;

/** The defaults of JobOptions, resolved. */
export function resolveJobOptions(options: JobOptions = {}): Required<JobOptions> {
  return {
    retryLimit: options.retryLimit ?? 2,
    retryDelaySeconds: options.retryDelaySeconds ?? 10,
    backoff: options.backoff ?? true,
    timeoutSeconds: options.timeoutSeconds ?? 300,
    concurrency: options.concurrency ?? 1,
    oneWaiting: options.oneWaiting ?? false,
  };
}

/**
 * Thrown by a handler whose failure is deterministic (the same data would fail the same way: a
 * file that cannot be read): the job is failed at once with this message, the retries left
 * unused. Any other error fails the attempt, and the job is retried while it has attempts left.
 */
export class FinalJobError extends Error {
  override name = 'FinalJobError';
}

/** The text kept for a failed attempt. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.slice(0, 2000);
}
