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
import type { JobService } from '../../platform/jobs';

const ACCESS = { permissions: ['system.view' as const], roles: ['admin' as const] };

const adminJobsRoutes: FastifyPluginAsyncZod<{ jobs: JobService }> = async (app, { jobs }) => {
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
          'error of its last attempt.',
        querystring: JobListQuerySchema,
        response: { 200: JobListSchema },
      },
    },
    async (request) => jobs.list(request.query),
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
