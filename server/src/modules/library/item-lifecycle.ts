/**
 * The library item's adapter to the platform's content lifecycle (platform/lifecycle): its trash,
 * purge with every version's file, and its view and download counters (docs/library.md).
 */
import type { Db } from '../../platform/db';
import { ContentLifecycle, type ContentAdapter } from '../../platform/lifecycle/content-lifecycle';
import type { FileService } from '../../platform/storage/file-service';
import {
  deleteItemDependents,
  indexItem,
  LIBRARY_ITEM,
  type ItemRecord,
} from './library-repository';
import { LIBRARY_MESSAGES as M } from './library-service';

export const libraryItemAdapter: ContentAdapter<ItemRecord> = {
  table: 'library_items',
  fileOwner: LIBRARY_ITEM,
  searchType: LIBRARY_ITEM,
  counters: ['view_count', 'download_count'],
  ownerOf: (target) => target.createdBy.id,
  touchOnRestore: true,
  follows: null,
  messages: {
    notFound: M.notFound,
    trashed: M.trashed,
    notTrashed: M.notTrashed,
    mayNotDelete: M.mayNotDelete,
  },
  index: indexItem,
  deleteDependents: deleteItemDependents,
};

/** The library items' lifecycle over the app's database and files. */
export const libraryItemLifecycle = (deps: { db: Db; files: FileService }) =>
  new ContentLifecycle(libraryItemAdapter, deps);
