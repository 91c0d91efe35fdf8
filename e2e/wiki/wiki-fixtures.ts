/**
 * Set-up for the wiki's browser tests (docs/wiki.md): pages and their revisions made through the
 * HTTP API as the signed-in user they belong to, so only what a test is about goes through the
 * browser.
 */
import type { WikiPage } from '@learning-hub/core';
import type { APIRequestContext } from '@playwright/test';
import { Api } from '../classroom/classroom-fixtures';
import { roleSession, uniqueName } from '../support/fixtures';

/** The demo user of `role` as an API client, on the worker's shared session. */
export const wikiApi = async (request: APIRequestContext, role: 'instructor' | 'admin') =>
  new Api(request, (await roleSession(request, role)).token);

/**
 * A word no other test or seed uses, letters only (the search splits on anything else): the
 * digits of the worker's unique name become letters, so two workers never make the same word.
 */
export const uniqueWord = (prefix: string) =>
  uniqueName(prefix)
    .replace(/\d/g, (d) => 'abcdefghij'[Number(d)]!)
    .replace(/[^a-z]/gi, '');

/** A title no other test uses (a title cannot hold `/`, `#` and the like: letters and spaces). */
export const uniqueTitle = (words: string) => `${words} ${uniqueWord('t')}`;

/** POST /api/wiki/pages: a page (published, in the company space unless told). */
export function createPage(
  api: Api,
  page: { title: string; html: string; space?: string; parentId?: string; summary?: string },
): Promise<WikiPage> {
  return api.post<WikiPage>('/api/wiki/pages', { space: 'company', ...page });
}

/** PUT /api/wiki/pages/{id}: a save on top of `page`'s revision; answers the saved page. */
export function savePage(
  api: Api,
  page: Pick<WikiPage, 'id' | 'revision' | 'title' | 'html'>,
  change: { title?: string; html?: string; summary?: string },
): Promise<WikiPage> {
  return api.put<WikiPage>(`/api/wiki/pages/${page.id}`, {
    baseRevision: page.revision,
    title: change.title ?? page.title,
    html: change.html ?? page.html,
    summary: change.summary ?? '',
  });
}

/** Paragraphs of the given texts. */
export const paragraphs = (...texts: string[]) => texts.map((t) => `<p>${t}</p>`).join('');
