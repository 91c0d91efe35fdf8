/**
 * Admin → System → Background jobs: the queue (waiting, running, failed with the error, done) and
 * retrying a failed job (docs/jobs.md). The same access as the rest of Admin → System.
 */
import {
  AppError,
  JOB_MESSAGES,
  JobListQuerySchema,
  JobListSchema,
  JobParamsSchema,
} from '@learning-hub/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../platform/db';
import type { JobService } from '../../platform/jobs';
import { sendPage } from '../../platform/paging';
import { resolveJobSubjects } from './job-subjects';

const ACCESS = { permissions: ['system.view' as const], roles: ['admin' as const] };

const adminJobsRoutes: FastifyPluginAsyncZod<{ jobs: JobService; db: Db }> = async (
  app,
  { jobs, db },
) => {
  app.get(
    '/api/admin/jobs',
    {
      config: { access: ACCESS },
      schema: {
        operationId: 'listJobs',
        tags: ['system'],
        summary: 'Background jobs',
        description:
          'The jobs of the background-job service, newest first, a page at a time, optionally of ' +
          'one state: waiting (created, retry), running (active), completed, or failed with the ' +
          'error of its last attempt; each with what it worked on (a library item and its ' +
          'file, a wiki page, or a file) and the app path that opens it.',
        querystring: JobListQuerySchema,
        response: { 200: JobListSchema },
      },
    },
    async (request, reply) => {
      const list = await jobs.list(request.query);
      const subjects = await resolveJobSubjects(db, list.items);
      return sendPage(request, reply, {
        ...list,
        items: list.items.map(({ data: _data, ...job }, i) => ({
          ...job,
          subject: subjects[i] ?? null,
        })),
      });
    },
  );

  app.post(
    '/api/admin/jobs/:jobId/retry',
    {
      config: {
        access: ACCESS,
        responses: {
          204: 'Queued again.',
          404: [JOB_MESSAGES.notFound],
          409: [JOB_MESSAGES.notFailed],
        },
      },
      schema: {
        operationId: 'retryJob',
        tags: ['system'],
        summary: 'Retry a failed job',
        description: 'Gives a failed job one more attempt, due now.',
        params: JobParamsSchema,
      },
    },
    async (request, reply) => {
      const result = await jobs.retry(request.params.jobId);
      if (result === 'not-found') throw new AppError('NOT_FOUND', JOB_MESSAGES.notFound);
      if (result === 'not-failed') throw new AppError('CONFLICT', JOB_MESSAGES.notFailed);
      return reply.code(204).send();
    },
  );
};

export default adminJobsRoutes;
