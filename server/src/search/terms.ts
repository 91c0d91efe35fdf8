/**
 * Turning what someone typed into search terms. User text never reaches the databases as query
 * syntax: only runs of letters and digits survive (quotes, `*`, `-`, parentheses, `:` and the
 * like are separators), and each database's query is built from these terms alone, so `NEAR`,
 * `OR` or `"` are ordinary words or nothing at all.
 */
import type { HighlightedText } from '@learning-hub/core';

/** At most this many terms count; the rest of a very long query is ignored. */
export const MAX_TERMS = 8;
/** Longer runs are cut (no word is longer; keeps the prefix indexes useful). */
const MAX_TERM_LENGTH = 40;

export function searchTerms(query: string): string[] {
  const runs =
    query
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const terms: string[] = [];
  for (const run of runs) {
    const term = run.slice(0, MAX_TERM_LENGTH);
    if (!terms.includes(term)) terms.push(term);
    if (terms.length === MAX_TERMS) break;
  }
  return terms;
}

/** The markers the databases put around a match; stripped from indexed text first. */
export const MARK_START = '\uE000';
export const MARK_END = '\uE001';
const MARKERS = /[\uE000\uE001]/g;

/** Text as it is indexed: without the markers, so stored content cannot fake a highlight. */
export const indexable = (text: string): string => text.replace(MARKERS, '');

/** A database's marked-up text as plain text and the ranges to highlight. */
export function toHighlighted(marked: string | null | undefined): HighlightedText {
  let text = '';
  const highlights: [number, number][] = [];
  let start = -1;
  for (const ch of marked ?? '') {
    if (ch === MARK_START) start = text.length;
    else if (ch === MARK_END) {
      if (start >= 0 && text.length > start) highlights.push([start, text.length]);
      start = -1;
    } else text += ch;
  }
  return { text, highlights };
}
