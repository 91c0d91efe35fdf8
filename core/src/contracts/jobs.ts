/** Background jobs as Admin → System shows them (GET /api/admin/jobs, docs/jobs.md). */
import { z } from 'zod';
import { PageQuerySchema } from './common';

const ISO = z.iso.datetime({ offset: true });

/**
 * The states of a job: waiting (`created`, or `retry` after a failed attempt, waiting for its
 * backoff), `active` (a worker holds it), `completed`, and `failed` (out of attempts: the dead
 * letter, kept with its last error until an admin retries it).
 */
export const JOB_STATES = ['created', 'retry', 'active', 'completed', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

export const JobListQuerySchema = PageQuerySchema.extend({
  /** Only jobs in this state; all when absent. */
  state: z.enum(JOB_STATES).optional(),
});
export type JobListQuery = z.infer<typeof JobListQuerySchema>;

/** One job of the queue. */
export const JobSummarySchema = z.object({
  id: z.string(),
  /** The job's name, which names its handler (e.g. `pdf.extract-text`). */
  name: z.string(),
  state: z.enum(JOB_STATES),
  /** Attempts started so far (1 while the first runs). */
  attempts: z.number().int().min(0),
  /** Attempts allowed in all: the first plus the retries. */
  maxAttempts: z.number().int().min(1),
  createdAt: ISO,
  /** When it may run (later than createdAt for a scheduled job or a retry's backoff). */
  startAfter: ISO,
  /** When its latest attempt started; null before the first. */
  startedAt: ISO.nullable(),
  /** When it completed or finally failed; null before that. */
  completedAt: ISO.nullable(),
  /** The error of the latest failed attempt; null when none failed. */
  lastError: z.string().nullable(),
});
export type JobSummary = z.infer<typeof JobSummarySchema>;

export const JobListSchema = z.object({
  jobs: z.array(JobSummarySchema),
  total: z.number().int().min(0),
  page: z.number().int(),
  pageSize: z.number().int(),
});
export type JobList = z.infer<typeof JobListSchema>;

export const JobParamsSchema = z.object({ jobId: z.string().min(1).max(100) });

/** Why POST /api/admin/jobs/{jobId}/retry refuses. */
export const JOB_MESSAGES = {
  notFound: 'This job does not exist (any more).',
  notFailed: 'Only a failed job can be retried.',
} as const;
