/**
 * Turning what someone typed into search terms. User text never reaches the databases as query
 * syntax: only runs of letters and digits survive (quotes, `*`, `-`, parentheses, `:` and the
 * like are separators), and each database's query is built from these terms alone, so `NEAR`,
 * `OR` or `"` are ordinary words or nothing at all.
 */
import type { HighlightedText } from '@learning-hub/core';
import { stemmer } from 'stemmer';

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

// ---------------------------------------------------------------- highlighting (SQLite)

/** Words as the index's tokenizer sees them: runs of letters and digits. */
const WORD = /[\p{L}\p{N}]+/gu;
/** Case and accents folded, as `unicode61 remove_diacritics 2` folds them. */
const fold = (word: string): string =>
  word
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/**
 * Whether a word of a document matches one of the terms as the index matched it: a term is a
 * prefix of the word, or the Porter stem of the term is a prefix of the word's stem (the
 * `porter` tokenizer stems both). The stem is only worked out for words that begin like a term.
 */
export function termMatcher(terms: readonly string[]): (word: string) => boolean {
  const folded = terms.map((term) => {
    const f = fold(term);
    const stem = stemmer(f);
    return { term: f, stem, lead: stem.slice(0, Math.min(2, stem.length)) };
  });
  return (word) => {
    const w = fold(word);
    return folded.some(
      ({ term, stem, lead }) =>
        w.startsWith(term) || (w.startsWith(lead) && stemmer(w).startsWith(stem)),
    );
  };
}

/** Every word of `text` that matches, marked (a title). */
export function highlightAll(text: string, matches: (word: string) => boolean): HighlightedText {
  const highlights: [number, number][] = [];
  for (const m of text.matchAll(WORD)) {
    if (matches(m[0])) highlights.push([m.index, m.index + m[0].length]);
  }
  return { text, highlights };
}

/** How far into a document a snippet looks for its first match (a PDF's text can be 2 MB). */
const SNIPPET_SCAN_CHARS = 200_000;

/**
 * About `words` words of `text` from a little before its first matching word, with `…` where the
 * text was cut and the matching words marked; the start of the text when none matches (only the
 * title did). Works on at most SNIPPET_SCAN_CHARS characters.
 */
export function snippetOf(
  text: string,
  matches: (word: string) => boolean,
  words = 24,
): HighlightedText {
  const scanned = text.length > SNIPPET_SCAN_CHARS ? text.slice(0, SNIPPET_SCAN_CHARS) : text;
  const tokens: { start: number; end: number; hit: boolean }[] = [];
  let first = -1;
  for (const m of scanned.matchAll(WORD)) {
    const hit = matches(m[0]);
    tokens.push({ start: m.index, end: m.index + m[0].length, hit });
    if (hit && first < 0) first = tokens.length - 1;
    // Enough words after the first match: the rest is not shown.
    if (first >= 0 && tokens.length >= first + words) break;
  }
  if (tokens.length === 0) return { text: '', highlights: [] };
  const from = Math.max(0, (first < 0 ? 0 : first) - 4);
  const to = Math.min(tokens.length, from + words) - 1;
  const startAt = (tokens[from] as { start: number }).start;
  let endAt = (tokens[to] as { end: number }).end;
  // The punctuation that closes the last word stays with it ("cuts.").
  while (endAt < text.length && /[^\s\p{L}\p{N}]/u.test(text.charAt(endAt))) endAt += 1;
  const before = startAt > 0 ? '…' : '';
  const after = endAt < text.length && /[\p{L}\p{N}]/u.test(text.slice(endAt)) ? '…' : '';
  const highlights: [number, number][] = [];
  for (let i = from; i <= to; i += 1) {
    const t = tokens[i] as { start: number; end: number; hit: boolean };
    if (t.hit)
      highlights.push([t.start - startAt + before.length, t.end - startAt + before.length]);
  }
  return { text: before + text.slice(startAt, endAt) + after, highlights };
}
