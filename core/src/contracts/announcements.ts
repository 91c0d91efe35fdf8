/**
 * Announcements (docs/announcements.md): a title and a rich-text body for an audience — everyone,
 * roles, departments, courses, chosen people — published now or at a time, optionally pinned,
 * expiring or asking each reader to acknowledge it. Who may announce to whom is core's rule
 * (access/announce.ts); the people it reaches are resolved when it is published.
 */
import { z } from 'zod';
import { NOTIFICATION_PRIORITIES } from '../notification-kinds';
import {
  ExpectedRevisionSchema,
  IsoDateTime,
  NamedRefSchema,
  pageOf,
  pageQuery,
  RevisionSchema,
  storableText,
} from './common';

// ---------------------------------------------------------------- limits

/** Longest body, in characters of HTML. */
export const ANNOUNCEMENT_BODY_MAX = 100_000;
/** Longest title. */
export const ANNOUNCEMENT_TITLE_MAX = 200;
/** Most departments, courses and chosen people in one audience. */
export const ANNOUNCEMENT_AUDIENCE_MAX = { roles: 20, departments: 100, courses: 100, people: 500 };
/** A reminder may follow the announcement's last reminder after this long at the earliest. */
export const ANNOUNCEMENT_REMINDER_INTERVAL_MS = 3_600_000;

const id = z.string().min(1).max(64);
const flag = z
  .enum(['true', 'false'])
  .transform((value) => value === 'true')
  .optional();

// ---------------------------------------------------------------- states and audience

/**
 * Where an announcement is: `draft` (not out), `scheduled` (out at `publishAt`), `live` (out),
 * `expired` (out, and its `expiresAt` has passed: derived, nothing stores it), `withdrawn`
 * (taken back: readers no longer see it).
 */
export const ANNOUNCEMENT_STATES = ['draft', 'scheduled', 'live', 'expired', 'withdrawn'] as const;
export const AnnouncementStateSchema = z.enum(ANNOUNCEMENT_STATES);
export type AnnouncementState = z.infer<typeof AnnouncementStateSchema>;

/** How much it asks for attention: info, important, urgent (urgent also shows as a banner). */
export const AnnouncementPrioritySchema = z.enum(NOTIFICATION_PRIORITIES);
export type AnnouncementPriority = z.infer<typeof AnnouncementPrioritySchema>;

/**
 * Who an announcement is for, as chosen: everyone, or any mix of system roles, departments,
 * courses and chosen people. Only admins choose everyone, roles or people; an instructor chooses
 * courses they edit, a department manager the departments they manage (access/announce.ts).
 */
export const AnnouncementAudienceSchema = z
  .strictObject({
    everyone: z.boolean(),
    /** System or custom role ids (`student`, `instructor`, …). */
    roles: z
      .array(z.string().min(1).max(64))
      .max(ANNOUNCEMENT_AUDIENCE_MAX.roles, `At most ${ANNOUNCEMENT_AUDIENCE_MAX.roles} roles`),
    departmentIds: z
      .array(id)
      .max(
        ANNOUNCEMENT_AUDIENCE_MAX.departments,
        `At most ${ANNOUNCEMENT_AUDIENCE_MAX.departments} departments`,
      ),
    courseIds: z
      .array(id)
      .max(
        ANNOUNCEMENT_AUDIENCE_MAX.courses,
        `At most ${ANNOUNCEMENT_AUDIENCE_MAX.courses} courses`,
      ),
    userIds: z
      .array(id)
      .max(ANNOUNCEMENT_AUDIENCE_MAX.people, `At most ${ANNOUNCEMENT_AUDIENCE_MAX.people} people`),
  })
  .refine(
    (a) =>
      a.everyone ||
      a.roles.length + a.departmentIds.length + a.courseIds.length + a.userIds.length > 0,
    { message: 'Choose who the announcement is for.', path: ['everyone'] },
  );
export type AnnouncementAudience = z.infer<typeof AnnouncementAudienceSchema>;

/** The audience as an answer shows it: the ids with their names. */
export const AnnouncementAudienceViewSchema = z.object({
  everyone: z.boolean(),
  roles: z.array(z.string()),
  departments: z.array(NamedRefSchema),
  courses: z.array(NamedRefSchema),
  people: z.array(NamedRefSchema),
});
export type AnnouncementAudienceView = z.infer<typeof AnnouncementAudienceViewSchema>;

// ---------------------------------------------------------------- answers

/** How far an announcement got: people it reached, and how many received, read, acknowledged. */
export const AnnouncementCountsSchema = z.object({
  /** The people it was published to. */
  recipients: z.number().int().nonnegative(),
  /** Whose app received it (live, or from the list). */
  delivered: z.number().int().nonnegative(),
  /** Who read it (opened it, or marked its notification read). */
  read: z.number().int().nonnegative(),
  /** Who said "I have read this" (only when it asks for it). */
  acknowledged: z.number().int().nonnegative(),
});
export type AnnouncementCounts = z.infer<typeof AnnouncementCountsSchema>;

/** What the viewer may do with an announcement (the server decides; the buttons follow). */
export const AnnouncementAbilitiesSchema = z.object({
  /** Change it (its text, expiry and pinning once it is out; everything before). */
  edit: z.boolean(),
  withdraw: z.boolean(),
  /** Remind those who have not acknowledged it (live, asks for it). */
  remind: z.boolean(),
  /** See who received, read and acknowledged it. */
  viewRecipients: z.boolean(),
});
export type AnnouncementAbilities = z.infer<typeof AnnouncementAbilitiesSchema>;

/** The reader's own copy: when they read and acknowledged it (null: not yet). */
export const AnnouncementReceiptSchema = z.object({
  readAt: IsoDateTime.nullable(),
  acknowledgedAt: IsoDateTime.nullable(),
});
export type AnnouncementReceipt = z.infer<typeof AnnouncementReceiptSchema>;

/** One announcement, for its readers and its managers. */
export const AnnouncementSchema = z.object({
  id: z.string(),
  title: z.string(),
  /** Sanitised HTML; images in it are signed for the viewer's session. */
  bodyHtml: z.string(),
  priority: AnnouncementPrioritySchema,
  /** Shown above the others while it is out. */
  pinned: z.boolean(),
  /** Each reader is asked to say "I have read this"; urgent ones show as a banner until then. */
  requiresAck: z.boolean(),
  state: AnnouncementStateSchema,
  /** When a scheduled one goes out (null: draft, or published at once). */
  publishAt: IsoDateTime.nullable(),
  publishedAt: IsoDateTime.nullable(),
  /** Readers no longer see it after this (null: never). */
  expiresAt: IsoDateTime.nullable(),
  withdrawnAt: IsoDateTime.nullable(),
  /** Its last reminder (null: none). */
  remindedAt: IsoDateTime.nullable(),
  author: NamedRefSchema,
  audience: AnnouncementAudienceViewSchema,
  createdAt: IsoDateTime,
  updatedAt: IsoDateTime,
  revision: RevisionSchema,
  /** The viewer's own copy, when it was published to them; else null. */
  receipt: AnnouncementReceiptSchema.nullable(),
  /** The counts, for those who manage it (null for readers, and before it is out). */
  counts: AnnouncementCountsSchema.nullable(),
  can: AnnouncementAbilitiesSchema,
});
export type Announcement = z.infer<typeof AnnouncementSchema>;

export const AnnouncementListSchema = pageOf(AnnouncementSchema);
export type AnnouncementList = z.infer<typeof AnnouncementListSchema>;

// ---------------------------------------------------------------- requests

const title = storableText(ANNOUNCEMENT_TITLE_MAX, 'The title')
  .trim()
  .min(1, 'Enter a title')
  .refine((v) => !/[\r\n\t]/.test(v), { message: 'The title must be on one line' });
const bodyHtml = storableText(ANNOUNCEMENT_BODY_MAX, 'The text').describe(
  'HTML from the rich-text editor; sanitised by the server with an allow-list before it is stored',
);

/**
 * When it goes out: kept as a `draft`, published `now`, or scheduled `at` publishAt (then
 * publishAt is required and must be in the future).
 */
export const AnnouncementPublishSchema = z.enum(['draft', 'now', 'at']);
export type AnnouncementPublish = z.infer<typeof AnnouncementPublishSchema>;

function checkTimes(
  value: { publish?: AnnouncementPublish; publishAt?: string | null; expiresAt?: string | null },
  ctx: z.RefinementCtx,
): void {
  if (value.publish === 'at' && !value.publishAt) {
    ctx.addIssue({
      code: 'custom',
      path: ['publishAt'],
      message: 'Choose when it goes out.',
    });
  }
  if (
    value.publish === 'at' &&
    value.publishAt &&
    value.expiresAt &&
    Date.parse(value.expiresAt) <= Date.parse(value.publishAt)
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['expiresAt'],
      message: 'It must expire after it goes out.',
    });
  }
}

/** `POST /api/announcements`. */
export const AnnouncementCreateSchema = z
  .strictObject({
    title,
    bodyHtml,
    audience: AnnouncementAudienceSchema,
    priority: AnnouncementPrioritySchema.default('info'),
    pinned: z.boolean().default(false),
    requiresAck: z.boolean().default(false),
    publish: AnnouncementPublishSchema,
    publishAt: IsoDateTime.nullable().default(null),
    expiresAt: IsoDateTime.nullable().default(null),
  })
  .superRefine(checkTimes);
export type AnnouncementCreate = z.input<typeof AnnouncementCreateSchema>;

/**
 * `PATCH /api/announcements/{announcementId}`: the fields to change, and the revision they are
 * based on (409 when it changed since). Before it is out everything may change, and `publish`
 * sends it (`now`), schedules or re-schedules it (`at`), or takes a scheduled one back to a draft;
 * once out, only the title, the text, the expiry and pinning (docs/announcements.md).
 */
export const AnnouncementUpdateSchema = z
  .strictObject({
    revision: ExpectedRevisionSchema,
    title: title.optional(),
    bodyHtml: bodyHtml.optional(),
    audience: AnnouncementAudienceSchema.optional(),
    priority: AnnouncementPrioritySchema.optional(),
    pinned: z.boolean().optional(),
    requiresAck: z.boolean().optional(),
    publish: AnnouncementPublishSchema.optional(),
    publishAt: IsoDateTime.nullable().optional(),
    expiresAt: IsoDateTime.nullable().optional(),
  })
  .superRefine(checkTimes);
export type AnnouncementUpdate = z.input<typeof AnnouncementUpdateSchema>;

/** `POST …/acknowledgement`'s answer: the reader's "I have read this", and when. */
export const AnnouncementAcknowledgementSchema = z.object({
  announcementId: z.string(),
  acknowledgedAt: IsoDateTime,
});
export type AnnouncementAcknowledgement = z.infer<typeof AnnouncementAcknowledgementSchema>;

/** `POST …/reminders`'s answer: who was reminded, and when the next reminder may go. */
export const AnnouncementReminderSchema = z.object({
  remindedAt: IsoDateTime,
  /** The people reminded: those it reached who have not acknowledged it. */
  reminded: z.number().int().nonnegative(),
  nextReminderAt: IsoDateTime,
});
export type AnnouncementReminder = z.infer<typeof AnnouncementReminderSchema>;

// ---------------------------------------------------------------- lists

/**
 * `GET /api/announcements`. `view=mine` (the default): those published to the caller and out now
 * (live, not expired, not withdrawn), pinned first, urgent unacknowledged ones before them;
 * `unacknowledged=true`: only those still waiting for the caller's acknowledgement.
 * `view=manage`: every announcement the caller may manage, newest first, with counts, by `state`.
 * Both by `courseId` and `departmentId` (an audience that names it), and `priority`.
 */
export const AnnouncementListQuerySchema = pageQuery({ defaultSize: 20, maxSize: 100 }).extend({
  view: z.enum(['mine', 'manage']).default('mine'),
  state: AnnouncementStateSchema.optional(),
  courseId: id.optional(),
  departmentId: id.optional(),
  priority: AnnouncementPrioritySchema.optional(),
  unacknowledged: flag,
});
export type AnnouncementListQuery = z.input<typeof AnnouncementListQuerySchema>;

export const AnnouncementParamsSchema = z.object({ announcementId: id });

/** One person an announcement was published to, as its managers see them. */
export const AnnouncementRecipientSchema = z.object({
  user: NamedRefSchema.extend({ username: z.string() }),
  department: z.string().nullable(),
  deliveredAt: IsoDateTime.nullable(),
  readAt: IsoDateTime.nullable(),
  acknowledgedAt: IsoDateTime.nullable(),
  /** When they were last reminded (null: never). */
  remindedAt: IsoDateTime.nullable(),
});
export type AnnouncementRecipient = z.infer<typeof AnnouncementRecipientSchema>;

export const AnnouncementRecipientListSchema = pageOf(AnnouncementRecipientSchema);
export type AnnouncementRecipientList = z.infer<typeof AnnouncementRecipientListSchema>;

/**
 * `GET …/recipients` (and `.csv`): the people it was published to, by last name;
 * `acknowledged=false` lists those who have not acknowledged it yet.
 */
export const AnnouncementRecipientQuerySchema = pageQuery({ defaultSize: 25, maxSize: 100 }).extend(
  { acknowledged: flag },
);
export const AnnouncementRecipientCsvQuerySchema = z.object({ acknowledged: flag });
