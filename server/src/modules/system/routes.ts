/**
 * Admin → System: the runtime the server runs on (Node.js version, platform, database, uptime),
 * the storage each person uses against the upload limits in force, and the settings an admin
 * changes at run time (the internal hosts library links may go to).
 */
import {
  StorageUsageQuerySchema,
  StorageUsageSchema,
  SystemInfoSchema,
  SystemSettingsSchema,
  SystemSettingsUpdateSchema,
  type UploadLimits,
} from '@learning-hub/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { databaseKind, type Db } from '../../platform/db';
import { pageWindow, sendPage } from '../../platform/paging';
import { SUPPORTED_NODE_LINES } from '../../node-version.mjs';
import { apiReferenceUrl } from '../../platform/http/api-reference';
import { recordAccessAudit } from '../../platform/access/access-repository';
import { currentUser } from '../../platform/http/access';
import {
  readSystemSettings,
  writeSystemSettings,
} from '../../platform/settings/settings-repository';
import { listStorageUsage } from '../../platform/storage/upload-quota-repository';

const ACCESS = { permissions: ['system.view' as const], roles: ['admin' as const] };
const SETTINGS = { permissions: ['system.settings' as const], roles: ['admin' as const] };

const adminSystemRoutes: FastifyPluginAsyncZod<{
  db: Db;
  uploadLimits: UploadLimits;
  now: () => number;
}> = async (app, { db, uploadLimits, now }) => {
  app.get(
    '/api/admin/system',
    {
      config: { access: ACCESS },
      schema: {
        operationId: 'getSystemInfo',
        tags: ['system'],
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
        operationId: 'listStorageUsage',
        tags: ['system'],
        summary: 'Storage used per person',
        description:
          'The people who store files (the files they uploaded; thumbnails not counted), a page ' +
          'at a time, ordered by stored or unattached bytes; the totals over everyone and the ' +
          'per-person upload limits in force.',
        querystring: StorageUsageQuerySchema,
        response: { 200: StorageUsageSchema },
      },
    },
    async (request, reply) => {
      const { page, pageSize, sort, order } = request.query;
      const { users, ...usage } = await listStorageUsage(db, {
        sort,
        order,
        ...pageWindow({ page, pageSize }),
      });
      return sendPage(request, reply, {
        items: users,
        ...usage,
        page,
        pageSize,
        limits: uploadLimits,
      });
    },
  );

  app.get(
    '/api/admin/settings',
    {
      config: { access: SETTINGS },
      schema: {
        operationId: 'getSettings',
        tags: ['system'],
        summary: 'The settings an admin changes at run time',
        response: { 200: SystemSettingsSchema },
      },
    },
    async () => readSystemSettings(db),
  );

  app.put(
    '/api/admin/settings',
    {
      config: { access: SETTINGS },
      schema: {
        operationId: 'updateSettings',
        tags: ['system'],
        summary: 'Change the settings (audited as system_settings.update)',
        description:
          '`allowedInternalLinkHosts`: host names or IP addresses (`*.corp.example` for every ' +
          'name under corp.example) that library links may go to although they are internal; ' +
          'stored normalised, as a browser reads them. Links to other internal destinations ' +
          'are refused when saved and when followed.',
        body: SystemSettingsUpdateSchema,
        response: { 200: SystemSettingsSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const at = new Date(now()).toISOString();
      const after = request.body.allowedInternalLinkHosts;
      await db.transaction().execute(async (trx) => {
        // The value the audit says it replaced is read in the change's own transaction.
        const before = await readSystemSettings(trx);
        await writeSystemSettings(trx, { allowedInternalLinkHosts: after }, at, user.username);
        await recordAccessAudit(trx, at, {
          action: 'system_settings.update',
          actorId: user.id,
          actorUsername: user.username,
          details: {
            allowedInternalLinkHosts: { before: before.allowedInternalLinkHosts, after },
          },
          requestId: request.id,
        });
      });
      return readSystemSettings(db);
    },
  );
};

export default adminSystemRoutes;
