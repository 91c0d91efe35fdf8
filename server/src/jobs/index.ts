/** The background-job service of the app's database (docs/jobs.md). */
import type { FastifyBaseLogger } from 'fastify';
import { postgresPool, type Db } from '../db';
import { PgBossJobService } from './pg-boss-job-service';
import { SqliteJobService } from './sqlite-job-service';
import type { JobService } from './types';

export * from './types';

export function createJobService(
  db: Db,
  now: () => number,
  log: FastifyBaseLogger,
  options: { pollIntervalMs: number },
): JobService {
  const pool = postgresPool(db);
  return pool
    ? new PgBossJobService(db, pool, log, options.pollIntervalMs)
    : new SqliteJobService(db, now, log, options.pollIntervalMs);
}
