/**
 * Admin → System: the runtime the server runs on (Node.js version, platform, database, uptime),
 * and the storage each person uses against the upload limits in force.
 */
import {
  StorageUsageQuerySchema,
  StorageUsageSchema,
  SystemInfoSchema,
  type UploadLimits,
} from '@learning-hub/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { databaseKind, type Db } from '../../db';
import { SUPPORTED_NODE_LINES } from '../../node-version.mjs';
import { apiReferenceUrl } from '../../plugins/api-reference';
import { listStorageUsage } from '../../storage/upload-quota-repository';

const ACCESS = { permissions: ['system.view' as const], roles: ['admin' as const] };

const adminSystemRoutes: FastifyPluginAsyncZod<{ db: Db; uploadLimits: UploadLimits }> = async (
  app,
  { db, uploadLimits },
) => {
  app.get(
    '/api/admin/system',
    {
      config: { access: ACCESS },
      schema: {
        summary: 'The server’s runtime: Node.js, platform, database',
        response: { 200: SystemInfoSchema },
      },
    },
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

  app.get(
    '/api/admin/storage',
    {
      config: { access: ACCESS },
      schema: {
        summary: 'Storage used per person',
        description:
          'The people who store files (the files they uploaded; thumbnails not counted), a page ' +
          'at a time, ordered by stored or unattached bytes; the totals over everyone and the ' +
          'per-person upload limits in force.',
        querystring: StorageUsageQuerySchema,
        response: { 200: StorageUsageSchema },
      },
    },
    async (request) => {
      const { page, pageSize, sort, order } = request.query;
      const usage = await listStorageUsage(db, {
        sort,
        order,
        offset: (page - 1) * pageSize,
        limit: pageSize,
      });
      return { ...usage, page, pageSize, limits: uploadLimits };
    },
  );
};

export default adminSystemRoutes;
