/**
 * Announcements (docs/announcements.md): the reader's list (what was published to them and is out
 * now) and the manager's (what they may manage, with counts), composing and editing, publishing
 * now or at a time, withdrawing, acknowledging, the recipients with a CSV, and reminders. Every
 * route is open to any signed-in person; who may do what with which audience is core's rule
 * (access/announce.ts) asked here through announcement-access.ts, and what a caller may neither
 * read nor manage answers 404.
 */
import {
  AnnouncementAcknowledgementSchema,
  AnnouncementCreateSchema,
  AnnouncementListQuerySchema,
  AnnouncementListSchema,
  AnnouncementParamsSchema,
  AnnouncementRecipientCsvQuerySchema,
  AnnouncementRecipientListSchema,
  AnnouncementRecipientQuerySchema,
  AnnouncementReminderSchema,
  AnnouncementSchema,
  AnnouncementUpdateSchema,
  AppError,
  STALE_REVISION_MESSAGE,
} from '@learning-hub/core';
import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getRolesVersion } from '../../platform/access/access-repository';
import type { UserRecord } from '../../platform/auth/user-repository';
import { CSV_BOM, csvLine } from '../../platform/csv';
import type { Db } from '../../platform/db';
import { currentUser } from '../../platform/http/access';
import { createdAnswer } from '../../platform/http/openapi';
import {
  markSourcesDelivered,
  receiptsOfSource,
} from '../../platform/notifications/notification-repository';
import { pageWindow, sendPage } from '../../platform/paging';
import { manageScopeOf, mayManage } from './announcement-access';
import {
  ANNOUNCEMENT_OWNER,
  ANNOUNCEMENT_SOURCE,
  findAnnouncement,
  listForManager,
  listForReader,
  listRecipients,
  recipientBatches,
  type AnnouncementRecord,
} from './announcement-repository';
import {
  acknowledgeFor,
  ANNOUNCEMENT_MESSAGES as M,
  createAnnouncement,
  emitCounts,
  isReader,
  markRead,
  remindFor,
  updateAnnouncementFor,
  withdrawFor,
  type AnnouncementDeps,
} from './announcement-service';
import { presentAnnouncement, presentAnnouncements, type ViewContext } from './announcement-view';

/** Any signed-in person: the rules are the area's (announcement-access.ts). */
const SIGNED_IN = {} as const;
const TAGS = ['announcements'];

const audienceRefusals = [
  M.unknownRole('<role>'),
  M.unknownDepartment('<id>'),
  M.unknownCourse('<id>'),
  M.unknownPerson('<id>'),
];
const timeRefusals = [M.publishAtPast, M.expiresPast, M.expiresBeforePublish];
const audienceDenials = [
  'Only administrators announce to everyone, to roles or to chosen people: <reason>',
  'You may announce only to courses you edit: <reason> (course <id>)',
  'You may announce only to departments you manage: <reason> (department <id>)',
];

const announcementRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => number }> = async (
  app,
  { db, now },
) => {
  const deps: AnnouncementDeps = { app, db, now };
  const iso = () => new Date(now()).toISOString();
  const view = (request: ViewContext['request'], user: UserRecord): ViewContext => ({
    app,
    db,
    now,
    request,
    user,
  });

  /** The announcement when `user` may read or manage it; null when they may do neither. */
  async function visible(
    user: UserRecord,
    id: string,
  ): Promise<{ record: AnnouncementRecord; manages: boolean; reads: boolean } | null> {
    const record = await findAnnouncement(db, id);
    if (!record) return null;
    const manages = mayManage(app.access, user, record.audience);
    const reads = await isReader(db, user, record);
    return manages || reads ? { record, manages, reads } : null;
  }

  // Images in an announcement's text: read by whoever may read or manage it, attached by those
  // who manage it while it is not withdrawn.
  app.files.registerFileOwner(ANNOUNCEMENT_OWNER, {
    canRead: async (user, id) => (await visible(user, id)) !== null,
    canAttach: async (user, id) => {
      const found = await visible(user, id);
      return found !== null && found.manages && found.record.status !== 'withdrawn';
    },
  });

  // Delivered copies (a client's receipt, a catch-up) move the counts those watching see.
  app.notifications.onDelivered(ANNOUNCEMENT_SOURCE, (ids) => {
    for (const id of ids) {
      void emitCounts(deps, id).catch((error: unknown) =>
        app.log.warn({ err: error }, 'telling an announcement’s counts failed'),
      );
    }
  });

  // The manager's detail view follows an announcement's counts live.
  app.live.topic('announcement', {
    mayJoin: async (user, id) => {
      await app.access.ensureUser(user, await getRolesVersion(db));
      const record = await findAnnouncement(db, id);
      return record !== null && mayManage(app.access, user, record.audience);
    },
  });

  app.get(
    '/api/announcements',
    {
      config: { access: SIGNED_IN },
      schema: {
        operationId: 'listAnnouncements',
        tags: TAGS,
        summary:
          'The announcements out to the caller now (`view=mine`), or those they may manage (`view=manage`)',
        querystring: AnnouncementListQuerySchema,
        response: { 200: AnnouncementListSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const query = request.query;
      const at = now();
      const nowIso = new Date(at).toISOString();
      const { offset, limit } = pageWindow(query);
      const filter = {
        courseId: query.courseId,
        departmentId: query.departmentId,
        priority: query.priority,
        offset,
        limit,
      };
      let records: AnnouncementRecord[];
      let total: number;
      if (query.view === 'manage') {
        const scope = manageScopeOf(app.access, user, at);
        ({ items: records, total } = await listForManager(app.reads, scope, nowIso, {
          ...filter,
          state: query.state,
        }));
      } else {
        const page = await listForReader(app.reads, user.id, nowIso, {
          ...filter,
          unacknowledged: query.unacknowledged,
        });
        records = page.items.map((row) => row.record);
        total = page.total;
        // The reader's app has them now: delivered (their managers' counts move).
        const changed = await markSourcesDelivered(
          db,
          user.id,
          { type: ANNOUNCEMENT_SOURCE, ids: records.map((r) => r.id) },
          nowIso,
        );
        await Promise.all(changed.map((id) => emitCounts(deps, id)));
      }
      const items = await presentAnnouncements(view(request, user), records);
      return sendPage(request, reply, { items, total, page: query.page, pageSize: query.pageSize });
    },
  );

  app.post(
    '/api/announcements',
    {
      config: {
        access: SIGNED_IN,
        responses: {
          201: createdAnswer('/api/announcements/<id>'),
          400: [...audienceRefusals, ...timeRefusals],
          403: audienceDenials,
        },
      },
      schema: {
        operationId: 'createAnnouncement',
        tags: TAGS,
        summary: 'Compose an announcement: kept as a draft, published now, or scheduled',
        description:
          'Admins announce to anyone; an instructor to courses where they hold course.edit; a ' +
          'department manager to departments where they hold department.manage (403 otherwise). ' +
          'Publishing resolves the people it reaches and notifies them in the same transaction.',
        body: AnnouncementCreateSchema,
        response: { 201: AnnouncementSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const record = await createAnnouncement(deps, user, request.body);
      const answer = await presentAnnouncement(view(request, user), record);
      return reply
        .code(201)
        .header('location', `/api/announcements/${encodeURIComponent(record.id)}`)
        .send(answer);
    },
  );

  app.get(
    '/api/announcements/:announcementId',
    {
      config: { access: SIGNED_IN, responses: { 404: [M.notFound] } },
      schema: {
        operationId: 'getAnnouncement',
        tags: TAGS,
        summary: 'One announcement, for one it was published to (marking it read) or a manager',
        params: AnnouncementParamsSchema,
        response: { 200: AnnouncementSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const found = await visible(user, request.params.announcementId);
      if (!found) throw new AppError('NOT_FOUND', M.notFound);
      if (found.reads && (await markRead(deps, user, found.record.id, iso()))) {
        await emitCounts(deps, found.record.id);
      }
      return presentAnnouncement(view(request, user), found.record);
    },
  );

  app.patch(
    '/api/announcements/:announcementId',
    {
      config: {
        access: SIGNED_IN,
        responses: {
          400: [...audienceRefusals, ...timeRefusals, M.publishAtWithoutAt],
          403: [M.notManager, ...audienceDenials],
          404: [M.notFound],
          409: [STALE_REVISION_MESSAGE, M.withdrawn, M.outFields, M.publishedAlready],
        },
      },
      schema: {
        operationId: 'updateAnnouncement',
        tags: TAGS,
        summary: 'Change an announcement at the revision read; publish, schedule or re-schedule it',
        params: AnnouncementParamsSchema,
        body: AnnouncementUpdateSchema,
        response: { 200: AnnouncementSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const record = await updateAnnouncementFor(
        deps,
        user,
        request.params.announcementId,
        request.body,
      );
      return presentAnnouncement(view(request, user), record);
    },
  );

  app.post(
    '/api/announcements/:announcementId/withdrawal',
    {
      config: {
        access: SIGNED_IN,
        responses: { 403: [M.notManager], 404: [M.notFound], 409: [M.withdrawnAlready] },
      },
      schema: {
        operationId: 'withdrawAnnouncement',
        tags: TAGS,
        summary: 'Withdraw an announcement: its readers no longer see it',
        params: AnnouncementParamsSchema,
        response: { 200: AnnouncementSchema },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const record = await withdrawFor(deps, user, request.params.announcementId);
      return presentAnnouncement(view(request, user), record);
    },
  );

  app.post(
    '/api/announcements/:announcementId/acknowledgement',
    {
      config: {
        access: SIGNED_IN,
        responses: {
          201: createdAnswer('/api/announcements/<id>', 'Acknowledged now.'),
          404: [M.notFound],
          409: [M.noAck, M.notLiveForAck],
        },
      },
      schema: {
        operationId: 'acknowledgeAnnouncement',
        tags: TAGS,
        summary:
          'Say “I have read this” (201 the first time, with the announcement as `Location`; 200 after)',
        params: AnnouncementParamsSchema,
        response: {
          200: AnnouncementAcknowledgementSchema,
          201: AnnouncementAcknowledgementSchema,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const id = request.params.announcementId;
      const { acknowledgedAt, created } = await acknowledgeFor(deps, user, id);
      const body = { announcementId: id, acknowledgedAt };
      if (!created) return reply.code(200).send(body);
      return reply
        .code(201)
        .header('location', `/api/announcements/${encodeURIComponent(id)}`)
        .send(body);
    },
  );

  app.post(
    '/api/announcements/:announcementId/reminders',
    {
      config: {
        access: SIGNED_IN,
        responses: {
          403: [M.notManager],
          404: [M.notFound],
          409: [M.remindNotLive, M.remindNobody],
          429: [M.remindTooSoon('<time>')],
        },
      },
      schema: {
        operationId: 'remindAnnouncement',
        tags: TAGS,
        summary: 'Notify again those who have not acknowledged it (at most one reminder an hour)',
        params: AnnouncementParamsSchema,
        response: { 200: AnnouncementReminderSchema },
      },
    },
    async (request) => remindFor(deps, currentUser(request), request.params.announcementId),
  );

  /** The announcement for its recipients' routes: managers only (403 for its readers). */
  async function forManager(user: UserRecord, id: string): Promise<AnnouncementRecord> {
    const found = await visible(user, id);
    if (!found) throw new AppError('NOT_FOUND', M.notFound);
    if (!found.manages) throw new AppError('FORBIDDEN', M.notManager);
    return found.record;
  }

  app.get(
    '/api/announcements/:announcementId/recipients',
    {
      config: { access: SIGNED_IN, responses: { 403: [M.notManager], 404: [M.notFound] } },
      schema: {
        operationId: 'listAnnouncementRecipients',
        tags: TAGS,
        summary:
          'The people an announcement was published to, with delivered, read and acknowledged',
        params: AnnouncementParamsSchema,
        querystring: AnnouncementRecipientQuerySchema,
        response: { 200: AnnouncementRecipientListSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const record = await forManager(user, request.params.announcementId);
      const query = request.query;
      const page = await listRecipients(app.reads, record.id, {
        acknowledged: query.acknowledged,
        ...pageWindow(query),
      });
      const receipts = await receiptsOfSource(
        app.reads,
        { type: ANNOUNCEMENT_SOURCE, id: record.id },
        page.items.map((r) => r.userId),
      );
      return sendPage(request, reply, {
        items: page.items.map((r) => ({
          user: { id: r.userId, name: r.name, username: r.username },
          department: r.department,
          deliveredAt: receipts.get(r.userId)?.deliveredAt ?? null,
          readAt: receipts.get(r.userId)?.readAt ?? null,
          acknowledgedAt: r.acknowledgedAt,
          remindedAt: r.remindedAt,
        })),
        total: page.total,
        page: query.page,
        pageSize: query.pageSize,
      });
    },
  );

  app.get(
    '/api/announcements/:announcementId/recipients.csv',
    {
      config: {
        access: SIGNED_IN,
        responses: {
          200: {
            description: 'The recipients as CSV, as an attachment (`announcement-<id>.csv`).',
            content: 'text/csv',
            headers: { 'content-disposition': 'attachment; filename="announcement-<id>.csv"' },
          },
          403: [M.notManager],
          404: [M.notFound],
        },
      },
      schema: {
        operationId: 'getAnnouncementRecipientsCsv',
        tags: TAGS,
        summary: 'Export the recipients (or, with `acknowledged=false`, who has not acknowledged)',
        description:
          '`text/csv` (UTF-8 with a byte-order mark), one row per person by username: Username, ' +
          'First name, Last name, Department, Delivered, Read, Acknowledged, Reminded (ISO 8601 ' +
          'instants, empty when not yet). Streamed.',
        params: AnnouncementParamsSchema,
        querystring: AnnouncementRecipientCsvQuerySchema,
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const record = await forManager(user, request.params.announcementId);
      const acknowledged = request.query.acknowledged;
      const source = { type: ANNOUNCEMENT_SOURCE, id: record.id };
      async function* lines(): AsyncGenerator<Buffer> {
        yield Buffer.from(
          CSV_BOM +
            csvLine([
              'Username',
              'First name',
              'Last name',
              'Department',
              'Delivered',
              'Read',
              'Acknowledged',
              'Reminded',
            ]),
          'utf8',
        );
        for await (const batch of recipientBatches(db, record.id, acknowledged)) {
          const receipts = await receiptsOfSource(
            db,
            source,
            batch.map((r) => r.userId),
          );
          let chunk = '';
          for (const r of batch) {
            const receipt = receipts.get(r.userId);
            chunk += csvLine([
              r.username,
              r.firstname,
              r.lastname,
              r.department,
              receipt?.deliveredAt ?? null,
              receipt?.readAt ?? null,
              r.acknowledgedAt,
              r.remindedAt,
            ]);
          }
          yield Buffer.from(chunk, 'utf8');
        }
      }
      const name = `announcement-${record.id}.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'private, no-store')
        .send(Readable.from(lines(), { objectMode: false }));
    },
  );
};

export default announcementRoutes;
