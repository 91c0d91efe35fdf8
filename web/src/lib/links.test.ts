import { ROUTES } from '@learning-hub/core';
import { matchRoutes } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createAppRoutes } from '../app/router';
import { href, PAGES, type PageName } from './links';

/** The full pattern of the deepest route the router matches for a path. */
function matchedPattern(path: string): string | null {
  const matches = matchRoutes(createAppRoutes(), path);
  if (!matches) return null;
  const parts = matches.map((m) => m.route.path ?? '').filter(Boolean);
  const joined = parts.join('/').replace(/\/+/g, '/');
  return joined === '*' ? null : joined.replace(/(.)\/$/, '$1');
}

describe('in-app links', () => {
  it.each(Object.entries(PAGES))('%s (%s) is a route of the router', (_, pattern) => {
    expect(matchedPattern(pattern)).toBe(pattern);
  });

  it('every page is one of core’s routes or below one', () => {
    for (const pattern of Object.values(PAGES)) {
      const root = ROUTES.some((r) => pattern === r.path || pattern.startsWith(`${r.path}/`));
      expect(root, pattern).toBe(true);
    }
  });

  it('puts the parameters in the path (encoded) and the rest in the query', () => {
    expect(href('course', { courseId: 'a b' })).toBe('/classroom/a%20b');
    expect(href('course', { courseId: 'c1', tab: 'participants' })).toBe(
      '/classroom/c1?tab=participants',
    );
    expect(href('grader', { courseId: 'c', assignmentId: 'a', submission: 's' })).toBe(
      '/classroom/c/assignments/a/grade?submission=s',
    );
    expect(href('wiki', { space: null })).toBe('/wiki');
    expect(href('wiki', { trash: true })).toBe('/wiki?trash=true');
    expect(href('wikiRevision', { pageId: 'p', revision: 3 })).toBe('/wiki/pages/p/revisions/3');
    const name: PageName = 'home';
    expect(href(name)).toBe('/');
  });
});
