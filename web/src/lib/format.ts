/** Small display helpers shared by the layout and pages. */
import type { PublicUser } from '@learning-hub/core';

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

// Made at its first use, not when the module is evaluated: the first Intl formatter loads the
// locale's data, a long piece of work on a phone that the app's start does not need
// (docs/front-end.md "Total blocking time").
let dateTimeFormat: Intl.DateTimeFormat | undefined;

/** A date and time in the user's locale; '—' for a missing or invalid value. */
export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '—';
  prepareDateTimeFormat();
  return dateTimeFormat!.format(time);
}

/**
 * Makes formatDateTime's formatter now, if it is not made yet. A page that will show dates calls it
 * while it waits for them (the start page), so that the locale's data is loaded in a task of its
 * own rather than in the middle of rendering the dates.
 */
export function prepareDateTimeFormat(): void {
  dateTimeFormat ??= new Intl.DateTimeFormat(undefined, {
    dateStyle: 'medium',
    timeStyle: 'short',
  });
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
