/** Small display helpers shared by the layout and pages. */
import type { DisplaySettings, PublicUser } from '@learning-hub/core';
import { getDisplaySettings } from './settings/display-settings';

/** First and last name, '' when there is neither (a label that names both uses it). */
export function fullName(user: Pick<PublicUser, 'firstname' | 'lastname'>): string {
  return [user.firstname, user.lastname].filter((part) => part.trim() !== '').join(' ');
}

/** The one way a person is named on screen: their name, or their username when they have none. */
export function displayName(user: Pick<PublicUser, 'firstname' | 'lastname' | 'username'>): string {
  return fullName(user) || user.username;
}

/** `1 member`, `12 members`. */
export function countText(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** First-name and last-name initials (spec §2), upper case. */
export function initials(user: Pick<PublicUser, 'firstname' | 'lastname'>): string {
  const first = [...user.firstname.trim()][0] ?? '';
  const last = [...user.lastname.trim()][0] ?? '';
  return `${first}${last}`.toUpperCase();
}

// Dates and times follow the person's settings (docs/settings.md): their time zone (or the
// device's) and date format, read from lib/settings/display-settings.ts at each call. A page that
// is showing dates re-renders when they change (`DisplaySettingsBoundary` around every page), so
// what it shows follows at once.
//
// Formatters are made at their first use, not when the module is evaluated: the first Intl
// formatter loads the locale's data, a long piece of work on a phone that the app's start does
// not need (docs/front-end.md "Total blocking time"). They are kept per kind and per settings.

type DateKind = 'date-time' | 'date' | 'date-time-seconds';

interface DateFormatter {
  format(time: number): string;
}

const formatters = new Map<string, DateFormatter>();

/** The locale of the fixed orders: its digits are 0–9 and its month numbers 1–12. */
const PARTS_LOCALE = 'en-US';

function partsFormatter(
  kind: DateKind,
  order: 'day-month-year' | 'month-day-year' | 'iso',
  timeZone: string | undefined,
): DateFormatter {
  const hour12 = order === 'month-day-year';
  const withTime = kind !== 'date';
  const intl = new Intl.DateTimeFormat(PARTS_LOCALE, {
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    ...(withTime
      ? {
          hour: hour12 ? 'numeric' : '2-digit',
          minute: '2-digit',
          ...(kind === 'date-time-seconds' ? { second: '2-digit' } : {}),
          hourCycle: hour12 ? 'h12' : 'h23',
        }
      : {}),
    timeZone,
  });
  return {
    format(time) {
      const p: Partial<Record<Intl.DateTimeFormatPartTypes, string>> = {};
      for (const part of intl.formatToParts(time)) p[part.type] = part.value;
      const date =
        order === 'iso'
          ? `${p.year}-${p.month}-${p.day}`
          : order === 'day-month-year'
            ? `${p.day}/${p.month}/${p.year}`
            : `${p.month}/${p.day}/${p.year}`;
      if (!withTime) return date;
      const seconds = kind === 'date-time-seconds' ? `:${p.second}` : '';
      const clock = `${p.hour}:${p.minute}${seconds}`;
      return hour12 ? `${date} ${clock} ${p.dayPeriod}` : `${date} ${clock}`;
    },
  };
}

function makeFormatter(kind: DateKind, settings: DateSettings): DateFormatter {
  const timeZone = settings.timeZone ?? undefined;
  if (settings.dateFormat !== 'locale') {
    return partsFormatter(kind, settings.dateFormat, timeZone);
  }
  return new Intl.DateTimeFormat(undefined, {
    dateStyle: 'medium',
    ...(kind === 'date-time' ? { timeStyle: 'short' } : {}),
    ...(kind === 'date-time-seconds' ? { timeStyle: 'medium' } : {}),
    timeZone,
  });
}

/** What the way dates read depends on. */
export type DateSettings = Pick<DisplaySettings, 'timeZone' | 'dateFormat'>;

function formatterFor(kind: DateKind, settings: DateSettings): DateFormatter {
  const key = `${kind}|${settings.dateFormat}|${settings.timeZone ?? ''}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    try {
      formatter = makeFormatter(kind, settings);
    } catch {
      // A zone this browser does not know (the server knew it): the device's zone instead.
      formatter = makeFormatter(kind, { ...settings, timeZone: null });
    }
    formatters.set(key, formatter);
  }
  return formatter;
}

function formatIso(iso: string | null | undefined, kind: DateKind, settings?: DateSettings) {
  if (!iso) return '—';
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '—';
  return formatterFor(kind, settings ?? getDisplaySettings()).format(time);
}

/**
 * A date and time as the person reads dates (their date format and time zone); '—' for a missing
 * or invalid value. `settings` formats with others than those in force (the settings page's
 * examples).
 */
export function formatDateTime(iso: string | null | undefined, settings?: DateSettings): string {
  return formatIso(iso, 'date-time', settings);
}

/** A date alone, as formatDateTime writes it. */
export function formatDate(iso: string | null | undefined, settings?: DateSettings): string {
  return formatIso(iso, 'date', settings);
}

/** A date and time to the second (an audit of checks that share a minute). */
export function formatDateTimeSeconds(iso: string | null | undefined): string {
  return formatIso(iso, 'date-time-seconds');
}

/**
 * Makes formatDateTime's formatter now, if it is not made yet. A page that will show dates calls it
 * while it waits for them (the start page), so that the locale's data is loaded in a task of its
 * own rather than in the middle of rendering the dates.
 */
export function prepareDateTimeFormat(): void {
  formatterFor('date-time', getDisplaySettings());
}

/** Makes formatDate's formatter now (see prepareDateTimeFormat). */
export function prepareDateFormat(): void {
  formatterFor('date', getDisplaySettings());
}

/** A byte count in words (1.5 MB). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}
