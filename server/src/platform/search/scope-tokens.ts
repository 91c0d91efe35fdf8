/**
 * Type tokens (SQLite): each search document carries, in the full-text index's `scope` column, a
 * word for its type, so a query for one type's matches (the catalogue's search, a search of one
 * kind) asks FTS5 for the terms AND that word and skips every other type inside the index. The
 * word is a hash, letters and digits only, so no type's punctuation and no text anyone typed can
 * imitate it; user terms are only ever looked for in `title` and `body` (docs/search.md).
 */
import { createHash } from 'node:crypto';

/** The word of a document type: `q` and 20 hex digits. */
export function typeToken(type: string): string {
  return `q${createHash('sha256').update(`type:${type}`).digest('hex').slice(0, 20)}`;
}

/** The `scope` text of a document. */
export function scopeTextOf(doc: { type: string }): string {
  return typeToken(doc.type);
}
