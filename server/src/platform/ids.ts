/**
 * Ids that sort in creation order: 12 hex digits of wall-clock milliseconds, 6 of a per-process
 * counter, then 14 random ones. Log-like tables order by (occurred_at, id), so entries written in
 * the same millisecond still list in the order they happened.
 */
import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

export function sortableId(): string {
  const ms = Date.now();
  if (ms === lastMs) counter += 1;
  else {
    lastMs = ms;
    counter = 0;
  }
  return (
    ms.toString(16).padStart(12, '0') +
    (counter & 0xffffff).toString(16).padStart(6, '0') +
    randomBytes(7).toString('hex')
  );
}
