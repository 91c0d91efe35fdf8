/** Library API answers shaped exactly as the server sends them (core contracts), for the tests. */
import type {
  LibraryCategory,
  LibraryFile,
  LibraryItem,
  LibraryItemSummary,
  LibraryList,
  LibraryVersion,
} from '@learning-hub/core';
import { listOf } from '../../test/fixtures';

export function buildLibraryFile(overrides: Partial<LibraryFile> = {}): LibraryFile {
  return {
    fileId: 'file-1',
    name: 'splice-loss.pdf',
    mime: 'application/pdf',
    size: 2_400_000,
    hasThumbnail: true,
    ...overrides,
  };
}

export function buildLibraryItem(overrides: Partial<LibraryItem> = {}): LibraryItem {
  return {
    id: 'item-1',
    kind: 'document',
    title: 'Splice loss budget',
    tags: ['fibre', 'splicing'],
    category: { id: 'cat-1', name: 'Procedures' },
    scope: { type: 'everyone' },
    scopeLabel: null,
    file: buildLibraryFile(),
    url: null,
    version: 1,
    textState: 'extracted',
    viewCount: 12,
    downloadCount: 3,
    createdBy: { id: 'user-instructor', name: 'Ines Instructor' },
    createdAt: '2025-03-01T09:00:00.000Z',
    updatedAt: '2025-03-02T10:00:00.000Z',
    deletedAt: null,
    descriptionHtml: '<p>How much loss a splice may add.</p>',
    textError: null,
    deletedBy: null,
    revision: 2,
    can: { edit: false, delete: false, restore: false, purge: false },
    ...overrides,
  };
}

/** The list's view of an item (no description, abilities or trash details). */
export function summaryOf(item: LibraryItem): LibraryItemSummary {
  const {
    descriptionHtml: _d,
    textError: _t,
    deletedBy: _b,
    can: _c,
    revision: _r,
    ...summary
  } = item;
  return summary;
}

export function buildLibraryList(
  items: LibraryItem[],
  overrides: Partial<LibraryList> = {},
): LibraryList {
  return {
    items: items.map(summaryOf),
    total: items.length,
    page: 1,
    pageSize: 20,
    canUpload: false,
    canManage: false,
    ...overrides,
  };
}

export function buildVersion(overrides: Partial<LibraryVersion> = {}): LibraryVersion {
  return {
    id: 'version-1',
    version: 1,
    file: buildLibraryFile(),
    createdBy: { id: 'user-instructor', name: 'Ines Instructor' },
    createdAt: '2025-03-01T09:00:00.000Z',
    textState: 'extracted',
    textError: null,
    current: true,
    ...overrides,
  };
}

export const CATEGORIES = listOf<LibraryCategory>([
  { id: 'cat-1', name: 'Procedures', itemCount: 4 },
  { id: 'cat-2', name: 'Safety', itemCount: 1 },
]);
