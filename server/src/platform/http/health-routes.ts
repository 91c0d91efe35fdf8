/**
 * Liveness (`/healthz`: the process answers) and readiness (`/readyz`: the database answers
 * `select 1` within READY_TIMEOUT_MS; otherwise 503 with Retry-After, as long as it is away).
 * Both are public, so they tell nothing about the software: the Node.js version is in the start-up
 * log and on Admin → System (`GET /api/admin/system`).
 */
import { AppError } from '@learning-hub/core';
import type { FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { isDatabaseReachable, type Db } from '../db';
import { DATABASE_UNAVAILABLE_MESSAGE } from '../db/errors';

/**
 * How long readiness waits for the database: a probe (a load balancer's, Kubernetes' 1 s default
 * aside) gets its answer in bounded time even when connections hang rather than fail.
 */
const READY_TIMEOUT_MS = 2_000;

const healthRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/healthz',
    {
      config: { access: { public: true } },
      schema: {
        operationId: 'getLiveness',
        tags: ['health'],
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
        responses: { 503: [`The database does not answer within ${READY_TIMEOUT_MS / 1000} s.`] },
      },
      schema: {
        operationId: 'getReadiness',
        tags: ['health'],
        summary: 'Readiness: the database answers',
        response: { 200: z.object({ status: z.literal('ready') }) },
      },
    },
    async () => {
      if (!(await isDatabaseReachable(db, READY_TIMEOUT_MS))) {
        throw new AppError('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE);
      }
      return { status: 'ready' };
    },
  );
};

export default healthRoutes;
