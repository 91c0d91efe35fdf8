/**
 * The wiki's source for the editor's "Link to page" control (components/rich-text): pages found
 * by title across the spaces the writer may read (GET /api/wiki/pages?search=&pageSize=10), and
 * a link by title (`/wiki/go?space=&title=`) to a page of this space that is not written yet.
 */
import { WikiPageCreateSchema } from '@learning-hub/core';
import { useMemo } from 'react';
import type { PageLinkSource } from '../../../components/rich-text/rich-text-editor';
import { searchWikiPages } from '../api/wiki-api';
import { href } from '../../../lib/links';

export function wikiPageLinks(spaceKey: string): PageLinkSource {
  return {
    search: (text, signal) =>
      searchWikiPages(text, signal).then((pages) =>
        pages.map((p) => ({
          href: href('wikiPage', { pageId: p.id }),
          title: p.title,
          detail: p.spaceName,
        })),
      ),
    // Only a title a page could have (one line, none of [ ] | # / \).
    newPageHref: (title) =>
      WikiPageCreateSchema.shape.title.safeParse(title).success
        ? href('wikiGo', { space: spaceKey, title })
        : null,
  };
}

/** The source for a page of `spaceKey`, the same object while the space stays the same. */
export function useWikiPageLinks(spaceKey: string): PageLinkSource {
  return useMemo(() => wikiPageLinks(spaceKey), [spaceKey]);
}
