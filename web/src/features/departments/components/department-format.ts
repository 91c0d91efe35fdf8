/** Words, dates and excerpts of the department pages. */
import { formatDate } from '../../../lib/format';

const ROLE_LABELS: Readonly<Record<string, string>> = {
  'department-manager': 'Manager',
  'department-member': 'Member',
};

/** A context role in words (unknown ids as they are). */
export function roleLabel(role: string): string {
  return ROLE_LABELS[role] ?? role;
}

/** A member's roles in words, the manager first. */
export function roleLabels(roles: readonly string[]): string[] {
  const order = (r: string) => (r === 'department-manager' ? 0 : r === 'department-member' ? 1 : 2);
  return [...new Set(roles)].sort((a, b) => order(a) - order(b)).map(roleLabel);
}

/** A day as the person reads dates (their date format and time zone: lib/format.ts). */
export function formatDay(iso: string): string {
  return formatDate(iso);
}

/** `until 31 Dec 2026`, or '' with no end date. */
export function untilText(iso: string | null): string {
  return iso ? `until ${formatDay(iso)}` : '';
}

const BLOCK_END = /<\/(?:p|h[1-6]|li|div|tr|td|th|blockquote|pre)>|<br\s*\/?>/gi;

/**
 * The first words of a rich-text description as plain text (a parsed document's text: no markup
 * is rendered, nothing runs), cut at a word near `max` characters.
 */
export function plainExcerpt(html: string, max = 160): string {
  if (!html) return '';
  const doc = new DOMParser().parseFromString(html.replace(BLOCK_END, ' '), 'text/html');
  const text = (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s.,;:–-]+$/, '')}…`;
}
