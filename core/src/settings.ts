/**
 * A person's own settings (`/settings`, docs/settings.md): how notifications reach them, how the
 * app looks and moves, how dates read and where the app lands after sign-in. Plain data and
 * plain functions, no schemas: the web app's settings applier (in the app's first load) reads
 * them without loading a contract module; the zod contract is `contracts/settings.ts`.
 */
import type { AccessSubject, CheckOptions } from './access';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  NOTIFICATION_KIND_INFO,
  type NotificationChannel,
  type NotificationKind,
} from './notification-kinds';
import { checkRoute, findRoute, type RouteDef } from './routes';

/** `system` follows the device's light or dark setting. */
export const COLOR_SCHEMES = ['light', 'dark', 'system'] as const;
export type ColorSchemeSetting = (typeof COLOR_SCHEMES)[number];

/**
 * How dates read: `locale` as the browser's language writes them (the default), or one order
 * for everyone: `day-month-year` (31/12/2026 14:05), `month-day-year` (12/31/2026 2:05 PM),
 * `iso` (2026-12-31 14:05).
 */
export const DATE_FORMATS = ['locale', 'day-month-year', 'month-day-year', 'iso'] as const;
export type DateFormatSetting = (typeof DATE_FORMATS)[number];

/**
 * `system` follows the device's "reduce motion" setting; `reduce` stops transitions and
 * animations whatever the device says; `allow` keeps them even when the device asks for less.
 */
export const REDUCED_MOTION = ['system', 'reduce', 'allow'] as const;
export type ReducedMotionSetting = (typeof REDUCED_MOTION)[number];

/**
 * The pages a person may choose to land on after sign-in, in the order the settings page lists
 * them. Only those that are built (core's ROUTES) and that the person may open are offered, and
 * the server refuses any other (`/dashboard` joins once it is built).
 */
export const START_PAGE_PATHS = [
  '/',
  '/classroom',
  '/learning-management',
  '/library',
  '/wiki',
  '/departments',
  '/dashboard',
] as const;

/** Longest time-zone name accepted (the longest IANA name is 30 characters). */
export const TIME_ZONE_MAX_LENGTH = 64;

/** A person's settings. Every field always has a value; a new account has the defaults. */
export interface UserSettings {
  /** How each kind of notification reaches the person (every kind, defaults filled in). */
  notifications: Record<NotificationKind, NotificationChannel>;
  colorScheme: ColorSchemeSetting;
  /** An IANA time zone (`Europe/Berlin`); null: the device's own. */
  timeZone: string | null;
  dateFormat: DateFormatSetting;
  /** A path of START_PAGE_PATHS. */
  startPage: string;
  reducedMotion: ReducedMotionSetting;
}

/** The settings without the notification choices: what the app applies to how it looks. */
export type DisplaySettings = Omit<UserSettings, 'notifications'>;

/** Each kind's default channel (NOTIFICATION_KIND_INFO). */
export function defaultNotificationChannels(): Record<NotificationKind, NotificationChannel> {
  const channels = {} as Record<NotificationKind, NotificationChannel>;
  for (const kind of NOTIFICATION_KINDS)
    channels[kind] = NOTIFICATION_KIND_INFO[kind].defaultChannel;
  return channels;
}

export const DEFAULT_DISPLAY_SETTINGS: Readonly<DisplaySettings> = {
  colorScheme: 'system',
  timeZone: null,
  dateFormat: 'locale',
  startPage: '/',
  reducedMotion: 'system',
};

/** What a person has before they change anything. */
export function defaultUserSettings(): UserSettings {
  return { notifications: defaultNotificationChannels(), ...DEFAULT_DISPLAY_SETTINGS };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function oneOf<T extends string>(values: readonly T[], value: unknown, fallback: T): T {
  return typeof value === 'string' && (values as readonly string[]).includes(value)
    ? (value as T)
    : fallback;
}

/** A name that looks like an IANA zone (letters, digits, `_ + - /`); not whether one exists. */
export function looksLikeTimeZone(value: string): boolean {
  return (
    value.length > 0 && value.length <= TIME_ZONE_MAX_LENGTH && /^[A-Za-z0-9_+\-/]+$/.test(value)
  );
}

/**
 * The display settings in `value`, each field that is missing or not one of its values replaced
 * by its default: for a copy kept in browser storage or a stored row written by an older version,
 * which must never stop the app from starting. Never throws.
 */
export function coerceDisplaySettings(value: unknown): DisplaySettings {
  const v = isRecord(value) ? value : {};
  const d = DEFAULT_DISPLAY_SETTINGS;
  return {
    colorScheme: oneOf(COLOR_SCHEMES, v.colorScheme, d.colorScheme),
    timeZone:
      typeof v.timeZone === 'string' && looksLikeTimeZone(v.timeZone) ? v.timeZone : d.timeZone,
    dateFormat: oneOf(DATE_FORMATS, v.dateFormat, d.dateFormat),
    startPage: oneOf(START_PAGE_PATHS, v.startPage, d.startPage as '/'),
    reducedMotion: oneOf(REDUCED_MOTION, v.reducedMotion, d.reducedMotion),
  };
}

/** The whole settings in `value`, as coerceDisplaySettings does it, the channels too. */
export function coerceUserSettings(value: unknown): UserSettings {
  const v = isRecord(value) ? value : {};
  const given = isRecord(v.notifications) ? v.notifications : {};
  const notifications = defaultNotificationChannels();
  for (const kind of NOTIFICATION_KINDS) {
    const channel = oneOf(NOTIFICATION_CHANNELS, given[kind], notifications[kind]);
    // A kind that cannot be turned off keeps its default rather than `none`.
    if (!(channel === 'none' && NOTIFICATION_KIND_INFO[kind].required)) {
      notifications[kind] = channel;
    }
  }
  return { notifications, ...coerceDisplaySettings(v) };
}

/** A start page on offer: its path and the name the settings page shows. */
export interface StartPageChoice {
  path: string;
  label: string;
}

/** The route of a start page, when it is one of START_PAGE_PATHS and built. */
export function startPageRoute(path: string): RouteDef | undefined {
  if (!(START_PAGE_PATHS as readonly string[]).includes(path)) return undefined;
  const route = findRoute(path);
  return route?.built ? route : undefined;
}

/**
 * The start pages `subject` may choose: built, and open to them by the route table's
 * requirement (the same check the web app's route guard makes).
 */
export function startPageChoices(
  subject: AccessSubject,
  options: Omit<CheckOptions, 'scope'> = {},
): StartPageChoice[] {
  const choices: StartPageChoice[] = [];
  for (const path of START_PAGE_PATHS) {
    const route = startPageRoute(path);
    if (route && checkRoute(subject, route, {}, options).allowed) {
      choices.push({ path, label: route.title });
    }
  }
  return choices;
}
