/** HTTP Range (RFC 9110 §14) for downloads: one byte range, or the whole file. */

export type RangeRequest =
  { kind: 'whole' } | { kind: 'range'; start: number; end: number } | { kind: 'unsatisfiable' };

const SINGLE = /^bytes=(\d*)-(\d*)$/;

/**
 * What a `Range` header asks of a file of `size` bytes. Other units and several ranges at once
 * are ignored (the whole file is served, as the RFC allows); a bytes range that is malformed or
 * lies outside the file is unsatisfiable (416).
 */
export function parseRange(header: string | undefined, size: number): RangeRequest {
  if (header === undefined) return { kind: 'whole' };
  const value = header.trim().replace(/\s+/g, '');
  if (!/^bytes=/i.test(value)) return { kind: 'whole' };
  if (value.includes(',')) return { kind: 'whole' };
  const match = SINGLE.exec(value.replace(/^bytes=/i, 'bytes='));
  if (!match) return { kind: 'unsatisfiable' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'unsatisfiable' };
  if (first === '') {
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'range', start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  if (start >= size || (last !== '' && Number(last) < start)) return { kind: 'unsatisfiable' };
  return { kind: 'range', start, end };
}
