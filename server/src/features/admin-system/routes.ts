/** Admin → System: the runtime the server runs on (Node.js version, platform, database, uptime). */
import { SystemInfoSchema } from '@learning-hub/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { databaseKind, type Db } from '../../db';
import { SUPPORTED_NODE_LINES } from '../../node-version.mjs';
import { apiReferenceUrl } from '../../plugins/api-reference';

const ACCESS = { permissions: ['system.view' as const], roles: ['admin' as const] };

const adminSystemRoutes: FastifyPluginAsyncZod<{ db: Db }> = async (app, { db }) => {
  app.get(
    '/api/admin/system',
    { config: { access: ACCESS }, schema: { response: { 200: SystemInfoSchema } } },
    async (request) => {
      const uptimeSeconds = Math.floor(process.uptime());
      return {
        node: process.version,
        supportedNodeLines: [...SUPPORTED_NODE_LINES],
        platform: process.platform,
        arch: process.arch,
        database: databaseKind(db),
        uptimeSeconds,
        startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
        apiReferenceUrl: apiReferenceUrl(request),
      };
    },
  );
};

export default adminSystemRoutes;
