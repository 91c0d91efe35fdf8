/**
 * The one search (GET /api/search, docs/search.md): the query hook the header's spotlight and the
 * results page share, and where each kind of result opens. Keys sit under the signed-in user's
 * prefix, so sign-out drops them.
 */
import { SearchResultsSchema, type SearchResult, type SearchType } from '@learning-hub/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, hasServerMessage } from '../../../lib/api-client';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';

export interface SearchParams {
  q: string;
  type?: SearchType | undefined;
  page?: number | undefined;
  pageSize?: number | undefined;
}

export const searchKey = (params: SearchParams) => [USER_QUERY_PREFIX, 'search', params] as const;

/** Whether the text has anything to search for (the server ignores symbols and operators). */
export const hasSearchTerms = (q: string): boolean => /[\p{L}\p{N}]/u.test(q);

export function useSearch(params: SearchParams) {
  const search = new URLSearchParams({ q: params.q });
  if (params.type) search.set('type', params.type);
  if (params.page && params.page > 1) search.set('page', String(params.page));
  if (params.pageSize) search.set('pageSize', String(params.pageSize));
  return useQuery({
    queryKey: searchKey(params),
    queryFn: ({ signal }) =>
      api.get(`/api/search?${search.toString()}`, SearchResultsSchema, { signal }),
    enabled: hasSearchTerms(params.q),
    placeholderData: keepPreviousData,
    staleTime: 15_000,
  });
}

/**
 * What a failed search says: the server's own words when it refused for the person's share of
 * searches (429: too many at once or in a minute, and when to try again), else that search is
 * not available.
 */
export function searchErrorText(error: unknown): string {
  return hasServerMessage(error) && error.code === 'RATE_LIMITED'
    ? error.message
    : 'Search is not available right now. Try again in a moment.';
}

/** The page a result opens. */
export function resultPath(result: SearchResult): string {
  if (result.type === 'library-item') return `/library/${encodeURIComponent(result.id)}`;
  if (result.type === 'wiki-page') return `/wiki/pages/${encodeURIComponent(result.id)}`;
  const course = `/classroom/${encodeURIComponent(result.courseId ?? result.id)}`;
  return result.type === 'lesson' && result.lessonId
    ? `${course}/lessons/${encodeURIComponent(result.lessonId)}`
    : course;
}

export const RESULT_KIND: Record<SearchType, string> = {
  course: 'Course',
  lesson: 'Lesson',
  'library-item': 'Library',
  'wiki-page': 'Wiki',
};

/** The results page of a query. */
export const searchPagePath = (q: string): string => `/search?q=${encodeURIComponent(q)}`;
