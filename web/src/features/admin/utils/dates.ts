/** Values of `<input type="datetime-local">` / `type="date"` and ISO instants, in local time. */

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as a datetime-local value (`2025-03-01T09:30`) in the browser's time zone. */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** A datetime-local value as an ISO instant; null when empty or not a date. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null;
  const time = new Date(value).getTime();
  return Number.isNaN(time) ? null : new Date(time).toISOString();
}

/** The start (or end) of a local calendar day (`2025-03-01`) as an ISO instant. */
export function dayBoundary(day: string, edge: 'start' | 'end'): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined;
  const d = new Date(`${day}T00:00:00`);
  if (Number.isNaN(d.getTime())) return undefined;
  if (edge === 'end') d.setDate(d.getDate() + 1);
  return new Date(d.getTime() - (edge === 'end' ? 1 : 0)).toISOString();
}
