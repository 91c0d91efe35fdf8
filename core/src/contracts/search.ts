/**
 * The one search service (docs/search.md): GET /api/search over every area's index. Courses and
 * lessons now; library items, wiki pages and people add their types here.
 */
import { z } from 'zod';
import { pageOf, pageQuery } from './common';

/** Longest query accepted (longer is a 400). */
export const SEARCH_QUERY_MAX = 200;

/** The kinds of thing the index holds: courses, lessons, library items (with their documents' text) and wiki pages. */
export const SEARCH_TYPES = ['course', 'lesson', 'library-item', 'wiki-page'] as const;
export const SearchTypeSchema = z.enum(SEARCH_TYPES);
export type SearchType = z.infer<typeof SearchTypeSchema>;

export const SearchQuerySchema = z.object({
  /** Free text: words match by prefix and by stem; symbols and operators are ignored. */
  q: z.string().trim().max(SEARCH_QUERY_MAX).default(''),
  /** Only this kind of result; every kind by default. */
  type: SearchTypeSchema.optional(),
  ...pageQuery({ defaultSize: 10, maxSize: 50 }).shape,
});
export type SearchQuery = z.infer<typeof SearchQuerySchema>;

/**
 * Plain text and the `[start, end)` ranges (UTF-16 offsets) that matched: the client marks them
 * up itself, so no stored HTML ever reaches the page through search.
 */
export const HighlightedTextSchema = z.object({
  text: z.string(),
  highlights: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])),
});
export type HighlightedText = z.infer<typeof HighlightedTextSchema>;

export const SearchResultSchema = z.object({
  type: SearchTypeSchema,
  id: z.string(),
  title: HighlightedTextSchema,
  /** A passage of the text around the matches (the start of it when only the title matched). */
  snippet: HighlightedTextSchema,
  /** What the result's page needs: the course, and the lesson for a lesson. */
  courseId: z.string().nullable(),
  lessonId: z.string().nullable(),
  /** The course's title, for a lesson (null for a course). */
  courseTitle: z.string().nullable(),
  /** Higher is better; comparable only within one answer. */
  rank: z.number(),
});
export type SearchResult = z.infer<typeof SearchResultSchema>;

export const SearchResultsSchema = pageOf(SearchResultSchema);
export type SearchResults = z.infer<typeof SearchResultsSchema>;
