/**
 * The wiki page's adapter to the platform's content lifecycle (platform/lifecycle): its trash (a
 * restore the unique title refuses answers why), purge with its revisions, links and files, its
 * view counter and its followers (docs/wiki.md).
 */
import type { Db } from '../../platform/db';
import { ContentLifecycle, type ContentAdapter } from '../../platform/lifecycle/content-lifecycle';
import type { FileService } from '../../platform/storage/file-service';
import { deletePageDependents, indexPage, WIKI_PAGE, type PageRecord } from './wiki-repository';
import { WIKI_MESSAGES as M } from './wiki-service';

export const wikiPageAdapter: ContentAdapter<PageRecord> = {
  table: 'wiki_pages',
  fileOwner: WIKI_PAGE,
  searchType: WIKI_PAGE,
  counters: ['view_count'],
  ownerOf: (target) => target.createdBy.id,
  touchOnRestore: false,
  follows: { table: 'wiki_follows', column: 'page_id' },
  messages: {
    notFound: M.notFound,
    trashed: M.trashed,
    notTrashed: M.notTrashed,
    mayNotDelete: M.mayNotDelete,
    restoreTaken: (page) => M.restoreTaken(page.title),
  },
  index: indexPage,
  deleteDependents: deletePageDependents,
};

/** The wiki pages' lifecycle over the app's database and files. */
export const wikiPageLifecycle = (deps: { db: Db; files: FileService }) =>
  new ContentLifecycle(wikiPageAdapter, deps);
