/** Background jobs as Admin → System shows them (GET /api/admin/jobs, docs/jobs.md). */
import { z } from 'zod';
import { PageQuerySchema, pageOf } from './common';

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

/**
 * What a job worked on, read from its data by the jobs listing (docs/jobs.md): a library item
 * (and the file of its version), a wiki page, or a file of something else.
 */
export const JobSubjectSchema = z.object({
  type: z.enum(['library-item', 'wiki-page', 'file']),
  /** The item's or page's title, or the file's name. */
  title: z.string(),
  /** The name of the file the job read, when it read one of an item or a page. */
  fileName: z.string().nullable(),
  /** The app's path that opens it; null when there is none (it was deleted, or a file alone). */
  path: z.string().nullable(),
});
export type JobSubject = z.infer<typeof JobSubjectSchema>;

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
  /** What it worked on; null when its data names nothing the listing knows (or it is gone). */
  subject: JobSubjectSchema.nullable(),
});
export type JobSummary = z.infer<typeof JobSummarySchema>;

export const JobListSchema = pageOf(JobSummarySchema);
export type JobList = z.infer<typeof JobListSchema>;

export const JobParamsSchema = z.object({ jobId: z.string().min(1).max(100) });

/** Why POST /api/admin/jobs/{jobId}/retry refuses. */
export const JOB_MESSAGES = {
  notFound: 'This job does not exist (any more).',
  notFailed: 'Only a failed job can be retried.',
} as const;
