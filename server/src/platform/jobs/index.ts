/** The background-job service of the app's database (docs/jobs.md). */
import type { FastifyBaseLogger } from 'fastify';
import { postgresPool, type Db } from '../db';
import type { DatabaseOutage } from '../db/outage';
import { PgBossJobService } from './pg-boss-job-service';
import { SqliteJobService } from './sqlite-job-service';
import type { JobService } from './types';

export * from './types';

export function createJobService(
  db: Db,
  now: () => number,
  log: FastifyBaseLogger,
  options: { pollIntervalMs: number; outage?: DatabaseOutage },
): JobService {
  const pool = postgresPool(db);
  return pool
    ? new PgBossJobService(db, pool, log, options.pollIntervalMs, options.outage)
    : new SqliteJobService(db, now, log, options.pollIntervalMs, options.outage);
}
export * from './recurring';
