/**
 * What each listed job worked on (docs/jobs.md "What a job worked on"): read from the ids its data
 * names (`itemId`, `versionId`, `pageId`, `fileId`) and resolved in a few batched queries to a
 * library item (with the file of its version), a wiki page, or a file of something else, with
 * the app's path that opens it. Anything deleted, or data naming nothing known, gives null.
 */
import type { JobSubject } from '@learning-hub/core';
import type { Db } from '../../platform/db';
import type { ListedJob } from '../../platform/jobs';
import { LIBRARY_ITEM } from '../library/public';
import { WIKI_PAGE } from '../wiki/public';

interface Ids {
  itemId?: string;
  versionId?: string;
  pageId?: string;
  fileId?: string;
}

const KEYS = ['itemId', 'versionId', 'pageId', 'fileId'] as const;

function idsOf(data: unknown): Ids {
  const ids: Ids = {};
  if (typeof data !== 'object' || data === null) return ids;
  for (const key of KEYS) {
    const value = (data as Record<string, unknown>)[key];
    if (typeof value === 'string' && value !== '') ids[key] = value;
  }
  return ids;
}

const itemPath = (id: string) => `/library/${encodeURIComponent(id)}`;
const pagePath = (id: string) => `/wiki/pages/${encodeURIComponent(id)}`;
const unique = (values: (string | undefined)[]) => [
  ...new Set(values.filter((v): v is string => !!v)),
];

/** The subject of each job, in the order given. */
export async function resolveJobSubjects(
  db: Db,
  jobs: readonly ListedJob[],
): Promise<(JobSubject | null)[]> {
  const all = jobs.map((j) => idsOf(j.data));
  const versionIds = unique(all.map((i) => i.versionId));
  const fileIds = unique(all.map((i) => i.fileId));
  const [versions, files] = await Promise.all([
    versionIds.length === 0
      ? []
      : db
          .selectFrom('library_versions as v')
          .innerJoin('files as f', 'f.id', 'v.file_id')
          .select(['v.id', 'v.item_id', 'f.original_name'])
          .where('v.id', 'in', versionIds)
          .execute(),
    fileIds.length === 0
      ? []
      : db
          .selectFrom('files')
          .select(['id', 'original_name', 'owner_type', 'owner_id'])
          .where('id', 'in', fileIds)
          .execute(),
  ]);
  const versionById = new Map(versions.map((v) => [v.id, v]));
  const fileById = new Map(files.map((f) => [f.id, f]));
  const ownerOf = (fileId: string | undefined, type: string) => {
    const file = fileId ? fileById.get(fileId) : undefined;
    return file?.owner_type === type ? (file.owner_id ?? undefined) : undefined;
  };

  const itemIds = unique(
    all.flatMap((i) => [
      i.itemId,
      i.versionId ? versionById.get(i.versionId)?.item_id : undefined,
      ownerOf(i.fileId, LIBRARY_ITEM),
    ]),
  );
  const pageIds = unique(all.flatMap((i) => [i.pageId, ownerOf(i.fileId, WIKI_PAGE)]));
  const [items, pages] = await Promise.all([
    itemIds.length === 0
      ? []
      : db
          .selectFrom('library_items')
          .select(['id', 'title', 'deleted_at'])
          .where('id', 'in', itemIds)
          .execute(),
    pageIds.length === 0
      ? []
      : db
          .selectFrom('wiki_pages')
          .select(['id', 'title', 'deleted_at'])
          .where('id', 'in', pageIds)
          .execute(),
  ]);
  const itemById = new Map(items.map((i) => [i.id, i]));
  const pageById = new Map(pages.map((p) => [p.id, p]));

  return all.map((ids): JobSubject | null => {
    const version = ids.versionId ? versionById.get(ids.versionId) : undefined;
    const file = ids.fileId ? fileById.get(ids.fileId) : undefined;
    const fileName = version?.original_name ?? file?.original_name ?? null;
    const itemId = ids.itemId ?? version?.item_id ?? ownerOf(ids.fileId, LIBRARY_ITEM);
    const item = itemId ? itemById.get(itemId) : undefined;
    if (item) {
      const path = item.deleted_at === null ? itemPath(item.id) : null;
      return { type: 'library-item', title: item.title, fileName, path };
    }
    const pageId = ids.pageId ?? ownerOf(ids.fileId, WIKI_PAGE);
    const page = pageId ? pageById.get(pageId) : undefined;
    if (page) {
      const path = page.deleted_at === null ? pagePath(page.id) : null;
      return { type: 'wiki-page', title: page.title, fileName, path };
    }
    if (file) return { type: 'file', title: file.original_name, fileName: null, path: null };
    return null;
  });
}
