/**
 * Lists (docs/architecture.md, "Lists"): every list of the API takes `page` and `pageSize`
 * (core `pageQuery`) and answers `{ items, total, page, pageSize }` with a `Link` header
 * (RFC 8288) to its first, previous, next and last pages. Routes build the page and hand it to
 * `sendPage`, the one place that writes the header.
 */
import type { Page, PageQuery } from '@learning-hub/core';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** The rows a page covers, for a repository's OFFSET/LIMIT. */
export function pageWindow(query: PageQuery): { offset: number; limit: number } {
  return { offset: (query.page - 1) * query.pageSize, limit: query.pageSize };
}

/**
 * One page of a list that is read whole (short lists, or lists filtered in memory): the rows of
 * the page asked for, and how many there are in all.
 */
export function slicePage<T>(all: readonly T[], query: PageQuery): Page<T> {
  const { offset, limit } = pageWindow(query);
  return {
    items: all.slice(offset, offset + limit),
    total: all.length,
    page: query.page,
    pageSize: query.pageSize,
  };
}

/** The number of the last page (1 for an empty list). */
export function lastPage(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

/**
 * The `Link` header of one page: the request's own path and query with `page` (and `pageSize`)
 * set, for `first`, `prev` (not on the first page), `next` (not on the last) and `last`.
 */
export function linkHeader(url: string, page: number, pageSize: number, total: number): string {
  const [path = '', search = ''] = url.split('?', 2);
  const last = lastPage(total, pageSize);
  const to = (n: number) => {
    const params = new URLSearchParams(search);
    params.set('page', String(n));
    params.set('pageSize', String(pageSize));
    return `<${path}?${params.toString()}>`;
  };
  const links = [`${to(1)}; rel="first"`];
  if (page > 1) links.push(`${to(Math.min(page - 1, last))}; rel="prev"`);
  if (page < last) links.push(`${to(page + 1)}; rel="next"`);
  links.push(`${to(last)}; rel="last"`);
  return links.join(', ');
}

/** Sets the page's `Link` header and gives the page back, to be returned by the route. */
export function sendPage<P extends Page<unknown>>(
  request: FastifyRequest,
  reply: FastifyReply,
  page: P,
): P {
  reply.header('link', linkHeader(request.url, page.page, page.pageSize, page.total));
  return page;
}
