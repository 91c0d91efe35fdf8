/**
 * The SQL the pg-boss job service needs beyond pg-boss's own API: the admin list of jobs (all
 * queues, by state, newest first) and finding a job's queue by its id. Reads pg-boss's `job`
 * table in its schema; its internal queues (`__pgboss__…`) are left out.
 */
import type { JobState } from '@learning-hub/core';
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db';
import type { ListedJob, ListedJobs } from './types';

interface PgBossJobRow {
  id: string;
  name: string;
  state: string;
  retry_count: number;
  retry_limit: number;
  created_on: Date;
  start_after: Date;
  started_on: Date | null;
  completed_on: Date | null;
  error: string | null;
  data: unknown;
}

/** pg-boss's states other than ours (`cancelled`) show as failed. */
const toState = (state: string): JobState =>
  state === 'created' || state === 'retry' || state === 'active' || state === 'completed'
    ? state
    : 'failed';

const ownJobs = (schema: string, state: JobState | undefined): RawBuilder<unknown> =>
  sql`from ${sql.id(schema, 'job')} where name not like '\_\_pgboss\_\_%' ${
    state ? sql`and state = ${state}::${sql.id(schema, 'job_state')}` : sql``
  }`;

export async function listPgBossJobs(
  db: Db,
  schema: string,
  query: { state?: JobState | undefined; page: number; pageSize: number },
): Promise<ListedJobs> {
  const from = ownJobs(schema, query.state);
  const [rows, count] = await Promise.all([
    sql<PgBossJobRow>`select id::text as id, name, state::text as state, retry_count, retry_limit,
        created_on, start_after, started_on, completed_on, data,
        case when state in ('failed', 'retry', 'cancelled') then
          coalesce(output->>'message', output::text) end as error
      ${from} order by created_on desc, id desc
      limit ${query.pageSize} offset ${(query.page - 1) * query.pageSize}`.execute(db),
    sql<{ n: string }>`select count(*) as n ${from}`.execute(db),
  ]);
  return {
    items: rows.rows.map(toSummary),
    total: Number(count.rows[0]?.n ?? 0),
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** The queue and state of job `id`, if it exists. */
export async function findPgBossJob(
  db: Db,
  schema: string,
  id: string,
): Promise<{ name: string; state: string } | undefined> {
  // pg-boss's ids are UUIDs; anything else names no job.
  if (!/^[\da-f]{8}-[\da-f]{4}-[\da-f]{4}-[\da-f]{4}-[\da-f]{12}$/i.test(id)) return undefined;
  const { rows } = await sql<{ name: string; state: string }>`
    select name, state::text as state from ${sql.id(schema, 'job')}
    where id = ${id}::uuid and name not like '\_\_pgboss\_\_%'`.execute(db);
  return rows[0];
}

function toSummary(row: PgBossJobRow): ListedJob {
  return {
    id: row.id,
    name: row.name,
    state: toState(row.state),
    // retry_count counts the claims after the first.
    attempts: row.started_on === null ? 0 : row.retry_count + 1,
    maxAttempts: row.retry_limit + 1,
    createdAt: row.created_on.toISOString(),
    startAfter: row.start_after.toISOString(),
    startedAt: row.started_on?.toISOString() ?? null,
    completedAt: row.completed_on?.toISOString() ?? null,
    lastError: row.error,
    data: row.data,
  };
}
