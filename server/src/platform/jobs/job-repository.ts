/**
 * All SQL of the SQLite job service (sqlite-job-service.ts): the `jobs` table. Every change of
 * state is one conditional update, so two workers (two processes on one file) never both take a
 * job, and a worker whose lease ran out cannot complete a job another worker has taken back.
 */
import type { JobState } from '@learning-hub/core';
import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../db';
import type { Database, JobsTable } from '../db/schema';
import { sortableId } from '../ids';
import type { ListedJob, ListedJobs } from './types';

export type JobRow = Selectable<JobsTable>;

const WAITING = ['created', 'retry'] as const;

/** Inserts a job; null when a waiting job of the same name and singleton key exists. */
export async function insertJob(
  db: Kysely<Database>,
  job: {
    name: string;
    data: string;
    maxAttempts: number;
    startAfter: string;
    singletonKey: string | null;
  },
  at: string,
): Promise<string | null> {
  const id = sortableId();
  const inserted = await db
    .insertInto('jobs')
    .values({
      id,
      name: job.name,
      data: job.data,
      state: 'created',
      max_attempts: job.maxAttempts,
      singleton_key: job.singletonKey,
      start_after: job.startAfter,
      created_at: at,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id ?? null;
}

/**
 * Takes the next due job of `name`: waiting and due, or active with its lease run out (its worker
 * died) and attempts left. One statement: of two workers, one gets it.
 */
export async function claimJob(
  db: Db,
  name: string,
  at: string,
  lockedUntil: string,
): Promise<JobRow | undefined> {
  return db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'active',
      attempts: eb('attempts', '+', 1),
      started_at: at,
      locked_until: lockedUntil,
    }))
    .where('id', '=', (eb) =>
      eb
        .selectFrom('jobs')
        .select('id')
        .where('name', '=', name)
        .where((w) =>
          w.or([
            w.and([w('state', 'in', WAITING), w('start_after', '<=', at)]),
            w.and([
              w('state', '=', 'active'),
              w('locked_until', '<=', at),
              w('attempts', '<', w.ref('max_attempts')),
            ]),
          ]),
        )
        .orderBy('start_after')
        .orderBy('id')
        .limit(1),
    )
    .returningAll()
    .executeTakeFirst();
}

/** Active jobs whose lease ran out on their last attempt: failed. */
export async function failExpiredJobs(db: Db, at: string): Promise<number> {
  const result = await db
    .updateTable('jobs')
    .set({
      state: 'failed',
      completed_at: at,
      locked_until: null,
      last_error: 'The job did not finish in time (its worker stopped or hung).',
    })
    .where('state', '=', 'active')
    .where('locked_until', '<=', at)
    .where((w) => w('attempts', '>=', w.ref('max_attempts')))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The attempt `attempts` of job `id` succeeded (unless the job was taken back meanwhile). */
export async function completeJob(
  db: Db,
  id: string,
  attempts: number,
  at: string,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ state: 'completed', completed_at: at, locked_until: null })
    .where('id', '=', id)
    .where('state', '=', 'active')
    .where('attempts', '=', attempts)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The attempt failed: the job waits for `retryAt`, or, when it was the last attempt, is failed
 * (the dead letter) with the error.
 */
export async function failJobAttempt(
  db: Db,
  id: string,
  attempts: number,
  error: string,
  retryAt: string | null,
  at: string,
): Promise<void> {
  await db
    .updateTable('jobs')
    .set(
      retryAt === null
        ? { state: 'failed', completed_at: at, locked_until: null, last_error: error }
        : { state: 'retry', start_after: retryAt, locked_until: null, last_error: error },
    )
    .where('id', '=', id)
    .where('state', '=', 'active')
    .where('attempts', '=', attempts)
    .execute();
}

/**
 * The attempt was cut short by the server stopping: the job waits again, due now, and the attempt
 * does not count.
 */
export async function releaseJob(db: Db, id: string, attempts: number, at: string): Promise<void> {
  await db
    .updateTable('jobs')
    .set({ state: 'retry', attempts: attempts - 1, start_after: at, locked_until: null })
    .where('id', '=', id)
    .where('state', '=', 'active')
    .where('attempts', '=', attempts)
    .execute();
}

/** A failed job gets one more attempt, due now. False when it is not failed (or not there). */
export async function retryFailedJob(db: Db, id: string, at: string): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'retry',
      max_attempts: eb('attempts', '+', 1),
      start_after: at,
      completed_at: null,
    }))
    .where('id', '=', id)
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Completed and failed jobs that finished before `before` are deleted. */
export async function deleteFinishedJobs(db: Db, before: string): Promise<number> {
  const result = await db
    .deleteFrom('jobs')
    .where('state', 'in', ['completed', 'failed'])
    .where('completed_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function findJobState(db: Db, id: string): Promise<string | undefined> {
  const row = await db.selectFrom('jobs').select('state').where('id', '=', id).executeTakeFirst();
  return row?.state;
}

/** A page of jobs, newest first. */
export async function listJobs(
  db: Db,
  query: { state?: JobState | undefined; page: number; pageSize: number },
): Promise<ListedJobs> {
  let base = db.selectFrom('jobs');
  if (query.state) base = base.where('state', '=', query.state);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.pageSize)
      .offset((query.page - 1) * query.pageSize)
      .execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    items: rows.map(toSummary),
    total: Number(count.n),
    page: query.page,
    pageSize: query.pageSize,
  };
}

function toSummary(row: JobRow): ListedJob {
  return {
    id: row.id,
    name: row.name,
    state: row.state as JobState,
    attempts: row.attempts,
    maxAttempts: row.max_attempts,
    createdAt: row.created_at,
    startAfter: row.start_after,
    startedAt: row.started_at,
    completedAt: row.completed_at,
    lastError: row.last_error,
    data: parseData(row.data),
  };
}

function parseData(json: string): unknown {
  try {
    return JSON.parse(json) as unknown;
  } catch {
    return null;
  }
}
