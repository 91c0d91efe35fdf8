/**
 * A person's own settings (spec §2 `/settings`: user.view_profile): `GET /api/settings` and
 * `PUT /api/settings` (docs/settings.md). The values and defaults are plain data in
 * `../settings.ts`; this module holds only the schemas, so it loads with the settings page and
 * the server, never with the app's first page (docs/front-end.md, START_CONTRACTS).
 */
import { z } from 'zod';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  NOTIFICATION_KIND_INFO,
  type NotificationKind,
} from '../notification-kinds';
import {
  COLOR_SCHEMES,
  DATE_FORMATS,
  REDUCED_MOTION,
  START_PAGE_PATHS,
  TIME_ZONE_MAX_LENGTH,
  looksLikeTimeZone,
  type UserSettings,
} from '../settings';

/** The refusals of a settings change, word for word (the server and the page use them). */
export const SETTINGS_MESSAGES = {
  unknownKind: (kind: string) => `There is no kind of notification called “${kind}”.`,
  badChannel: 'Choose in-app, email or none.',
  required: (kind: NotificationKind) =>
    `Notifications of “${NOTIFICATION_KIND_INFO[kind].label}” cannot be turned off: choose in-app or email.`,
  badTimeZone: (zone: string) => `“${zone}” is not a time zone this server knows.`,
  badStartPage: (path: string) => `${path} is not a page you can start on.`,
  startPageDenied: (label: string) => `You may not open ${label}, so it cannot be your start page.`,
  unknownField: (field: string) => `There is no setting called “${field}”.`,
} as const;

const channel = z.enum(NOTIFICATION_CHANNELS, { error: SETTINGS_MESSAGES.badChannel });

/**
 * Each kind's channel. A kind left out keeps its default; a kind that is not one of
 * NOTIFICATION_KINDS is refused, and so is `none` for a kind that cannot be turned off.
 */
const NotificationChoicesInput = z
  .record(z.string(), channel)
  .superRefine((choices, ctx) => {
    for (const [kind, chosen] of Object.entries(choices)) {
      if (!(NOTIFICATION_KINDS as readonly string[]).includes(kind)) {
        ctx.addIssue({
          code: 'custom',
          path: [kind],
          message: SETTINGS_MESSAGES.unknownKind(kind),
        });
      } else if (chosen === 'none' && NOTIFICATION_KIND_INFO[kind as NotificationKind].required) {
        ctx.addIssue({
          code: 'custom',
          path: [kind],
          message: SETTINGS_MESSAGES.required(kind as NotificationKind),
        });
      }
    }
  })
  .describe(
    'Kind → `in-app`, `email` or `none`; a kind left out keeps its default. Kinds that are ' +
      'security notices about the account (`required`) refuse `none`.',
  );

const channelOf = z.enum(NOTIFICATION_CHANNELS);
/** Every kind's channel (an answer always has them all). */
const notificationChoices = z.object(
  Object.fromEntries(NOTIFICATION_KINDS.map((kind) => [kind, channelOf])) as Record<
    NotificationKind,
    typeof channelOf
  >,
);

const timeZone = z
  .string()
  .max(TIME_ZONE_MAX_LENGTH, 'That is not a time zone.')
  .refine(looksLikeTimeZone, 'That is not a time zone.')
  .nullable()
  .describe('An IANA time zone (`Europe/Berlin`), or null for the device’s own');

/** A person's settings, as stored and answered (every kind's channel filled in). */
export const UserSettingsSchema = z.object({
  notifications: notificationChoices,
  colorScheme: z.enum(COLOR_SCHEMES),
  timeZone,
  dateFormat: z.enum(DATE_FORMATS),
  /** A path of START_PAGE_PATHS that the person may open. */
  startPage: z.string(),
  reducedMotion: z.enum(REDUCED_MOTION),
}) satisfies z.ZodType<UserSettings>;

/**
 * The whole settings, as `PUT /api/settings` takes them: every field (a field of its own that
 * the server does not know is refused), the notification kinds left out keeping their defaults.
 */
export const UserSettingsUpdateSchema = z.strictObject(
  {
    notifications: NotificationChoicesInput,
    colorScheme: z.enum(COLOR_SCHEMES, { error: 'Choose light, dark or system.' }),
    timeZone,
    dateFormat: z.enum(DATE_FORMATS, {
      error: 'Choose locale, day-month-year, month-day-year or iso.',
    }),
    startPage: z
      .string()
      .max(200)
      .refine((path) => (START_PAGE_PATHS as readonly string[]).includes(path), {
        error: (issue) => SETTINGS_MESSAGES.badStartPage(String(issue.input)),
      }),
    reducedMotion: z.enum(REDUCED_MOTION, { error: 'Choose system, reduce or allow.' }),
  },
  {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? SETTINGS_MESSAGES.unknownField(issue.keys.join('”, “'))
        : undefined,
  },
);
export type UserSettingsUpdate = z.input<typeof UserSettingsUpdateSchema>;

/** A page one may land on after sign-in. */
export const StartPageOptionSchema = z.object({ path: z.string(), label: z.string() });

/** `GET /api/settings`: the settings, and what the settings page may offer this person. */
export const UserSettingsViewSchema = z.object({
  settings: UserSettingsSchema,
  /**
   * Whether this server sends email (SMTP_URL is set). When not, `email` choices are still
   * kept, and the page says that email is not set up here.
   */
  emailAvailable: z.boolean(),
  /** The start pages this person may choose, in the order to list them. */
  startPages: z.array(StartPageOptionSchema),
});
export type UserSettingsView = z.infer<typeof UserSettingsViewSchema>;
