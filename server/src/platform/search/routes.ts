/**
 * GET /api/search: the one search of every area (docs/search.md). Each type the index holds is
 * in core's SEARCH_TYPES and declared by the area that indexes it, in its manifest's `search`,
 * with a scope builder — the SQL predicate of what the caller may open, from the area's own list
 * rules — so results are filtered in the query, never afterwards.
 */
import {
  SEARCH_TYPES,
  SearchQuerySchema,
  SearchResultsSchema,
  type SearchQuery,
  type SearchType,
} from '@learning-hub/core';
import { AppError } from '@learning-hub/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { UserRecord } from '../auth/user-repository';
import { currentUser } from '../http/access';
import { searchIndex } from './search-index';
import { pageWindow, sendPage } from '../paging';

export interface SearchRouteOptions {
  now: () => number;
  /** Per person: searches running at once, and started per minute (config.search). */
  limits: { maxConcurrentPerUser: number; perMinute: number };
}

const isSearchType = (type: string): type is SearchType =>
  (SEARCH_TYPES as readonly string[]).includes(type);

const searchRoutes: FastifyPluginAsyncZod<SearchRouteOptions> = async (app, { now, limits }) => {
  /**
   * Searches running now, per person. One person's searches wait for each other, never for
   * everyone else: beyond the limit a search answers 429 at once, so no one person can fill the
   * read threads (docs/search.md, "Limits").
   */
  const running = new Map<string, number>();
  const tooMany =
    limits.maxConcurrentPerUser === 1
      ? 'A search of yours is still running. Try again in a moment.'
      : `${limits.maxConcurrentPerUser} searches of yours are still running. Try again in a moment.`;

  app.get(
    '/api/search',
    {
      config: {
        access: {},
        // Per person (the guard has run: request.auth is set), not per address.
        rateLimit: {
          max: limits.perMinute,
          timeWindow: '1 minute',
          keyGenerator: (request) => `search:${request.auth?.user.id ?? request.ip}`,
        },
        responses: {
          429: ['Too many requests. Try again in <n> seconds.', tooMany],
        },
      },
      schema: {
        operationId: 'searchContent',
        tags: ['search'],
        summary:
          'Search the courses, lessons, library items and wiki pages the caller may open (prefixes and stems; ranked, highlighted, paged)',
        querystring: SearchQuerySchema,
        response: { 200: SearchResultsSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const inFlight = running.get(user.id) ?? 0;
      if (inFlight >= limits.maxConcurrentPerUser) {
        reply.header('retry-after', '1');
        throw new AppError('RATE_LIMITED', tooMany);
      }
      running.set(user.id, inFlight + 1);
      try {
        return sendPage(request, reply, await search(user, request.query));
      } finally {
        const left = (running.get(user.id) ?? 1) - 1;
        if (left > 0) running.set(user.id, left);
        else running.delete(user.id);
      }
    },
  );

  async function search(user: UserRecord, { q, type, page, pageSize }: SearchQuery) {
    const scopes = app.areas
      .searchScopes()
      .flatMap((build) => build(app.reads, app.access, user, now()))
      .filter((s) => type === undefined || s.type === type);
    const { hits, total } = await searchIndex(app.reads).search(app.reads, {
      query: q,
      scopes,
      ...pageWindow({ page, pageSize }),
    });
    const items = hits.flatMap((h) =>
      isSearchType(h.type)
        ? [
            {
              type: h.type,
              id: h.id,
              title: h.title,
              snippet: h.snippet,
              courseId: h.courseId,
              lessonId: h.type === 'lesson' ? h.id : null,
              // A lesson's course, and the course of a library item scoped to one.
              courseTitle: h.type === 'course' ? null : h.courseTitle,
              rank: h.rank,
            },
          ]
        : [],
    );
    return { items, total, page, pageSize };
  }
};

export default searchRoutes;
