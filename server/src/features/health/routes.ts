/**
 * Liveness (`/healthz`: the process answers, with the Node.js version it runs on) and readiness
 * (`/readyz`: the database answers).
 */
import { AppError } from '@learning-hub/core';
import type { FastifyPluginAsync } from 'fastify';
import { isDatabaseReachable, type Db } from '../../db';

const healthRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  app.get('/healthz', { config: { access: { public: true } } }, async () => ({
    status: 'ok',
    node: process.version,
  }));
  app.get('/readyz', { config: { access: { public: true } } }, async () => {
    if (!(await isDatabaseReachable(db))) {
      throw new AppError('SERVICE_UNAVAILABLE', 'The database is not reachable.');
    }
    return { status: 'ready' };
  });
};

export default healthRoutes;
