/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers).
 * Both are public, so they tell nothing about the software: the Node.js version is in the start-up
 * log and on Admin → System (`GET /api/admin/system`).
 */
import { AppError } from '@learning-hub/core';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { isDatabaseReachable, type Db } from '../../db';

const healthRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/healthz',
    {
      config: { access: { public: true } },
      schema: {
        summary: 'Liveness: the process answers',
        response: { 200: z.object({ status: z.literal('ok') }) },
      },
    },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    {
      config: {
        access: { public: true },
        responses: { 503: ['The database is not reachable.'] },
      },
      schema: {
        summary: 'Readiness: the database answers',
        response: { 200: z.object({ status: z.literal('ready') }) },
      },
    },
    async () => {
      if (!(await isDatabaseReachable(db))) {
        throw new AppError('SERVICE_UNAVAILABLE', 'The database is not reachable.');
      }
      return { status: 'ready' };
    },
  );
};

export default healthRoutes;
