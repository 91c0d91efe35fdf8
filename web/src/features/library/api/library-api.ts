/**
 * The library's API (docs/library.md): the list with its filters, one item, its versions,
 * creating, editing, trashing, restoring and purging items, and the categories. Keys sit under
 * the signed-in user's prefix, so sign-out drops everything loaded here.
 */
import {
  LibraryCategoryListSchema,
  LibraryCategorySchema,
  LibraryItemSchema,
  LibraryListSchema,
  LibraryVersionListSchema,
  type LibraryItem,
  type LibraryItemCreate,
  type LibraryItemUpdate,
} from '@learning-hub/core';
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryString } from '../../../lib/query-string';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';

const ROOT = [USER_QUERY_PREFIX, 'library'] as const;

export const libraryKeys = {
  all: ROOT,
  lists: [...ROOT, 'list'] as const,
  list: (params: LibraryListParams) => [...ROOT, 'list', params] as const,
  item: (itemId: string) => [...ROOT, 'item', itemId] as const,
  detail: (itemId: string) => [...ROOT, 'item', itemId, 'detail'] as const,
  versions: (itemId: string) => [...ROOT, 'item', itemId, 'versions'] as const,
  categories: [...ROOT, 'categories'] as const,
};

export const LIBRARY_PAGE_SIZE = 20;

/** The list's query as the page keeps it (strings as they go into the URL). */
export interface LibraryListParams {
  page?: number;
  pageSize?: number;
  kind?: string | null;
  categoryId?: string | null;
  tag?: string | null;
  scope?: string | null;
  departmentId?: string | null;
  courseId?: string | null;
  mine?: boolean;
  trash?: boolean;
  search?: string | null;
  sort?: string | null;
  order?: string | null;
}

const enc = encodeURIComponent;
export const itemPath = (itemId: string) => `/api/library/items/${enc(itemId)}`;

/** GET /api/library/items. */
export function useLibraryList(params: LibraryListParams) {
  return useQuery({
    queryKey: libraryKeys.list(params),
    queryFn: ({ signal }) =>
      api.get(`/api/library/items${queryString({ ...params })}`, LibraryListSchema, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** While a document's text is being extracted, its page asks again this often. */
export const TEXT_STATE_POLL_MS = 5000;

/** GET /api/library/items/{itemId}; asked again while the text extraction is pending. */
export function useLibraryItem(itemId: string) {
  return useQuery({
    queryKey: libraryKeys.detail(itemId),
    queryFn: () => api.get(itemPath(itemId), LibraryItemSchema),
    refetchInterval: (query) =>
      query.state.data?.textState === 'pending' ? TEXT_STATE_POLL_MS : false,
  });
}

/**
 * The item as the server has it now, put into the cache: a form's Reload after its save was
 * refused as stale (web/src/components/stale-edit.tsx).
 */
export function useReloadLibraryItem(itemId: string) {
  const queryClient = useQueryClient();
  return () =>
    queryClient.fetchQuery({
      queryKey: libraryKeys.detail(itemId),
      queryFn: () => api.get(itemPath(itemId), LibraryItemSchema),
      staleTime: 0,
    });
}

/** GET /api/library/items/{itemId}/versions. */
export function useLibraryVersions(itemId: string, enabled = true) {
  return useQuery({
    queryKey: libraryKeys.versions(itemId),
    queryFn: () => api.get(`${itemPath(itemId)}/versions`, LibraryVersionListSchema),
    enabled,
  });
}

/** GET /api/library/categories. */
export function useLibraryCategories(enabled = true) {
  return useQuery({
    queryKey: libraryKeys.categories,
    queryFn: () =>
      api.get('/api/library/categories', LibraryCategoryListSchema).then((r) => r.items),
    staleTime: 30_000,
    enabled,
  });
}

/** What a change to items makes stale: every list (and the categories' counts). */
export function invalidateLists(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: libraryKeys.lists }),
    queryClient.invalidateQueries({ queryKey: libraryKeys.categories }),
  ]);
}

/** Puts an item the server sent back into the cache and marks the lists stale. */
function useItemSaved() {
  const queryClient = useQueryClient();
  return async (item: LibraryItem) => {
    queryClient.setQueryData(libraryKeys.detail(item.id), item);
    await Promise.all([
      invalidateLists(queryClient),
      queryClient.invalidateQueries({ queryKey: libraryKeys.versions(item.id) }),
    ]);
  };
}

/** POST /api/library/items → the new item. */
export function createLibraryItem(body: LibraryItemCreate): Promise<LibraryItem> {
  return api.post('/api/library/items', body, LibraryItemSchema);
}

export function useCreateLibraryItem() {
  const saved = useItemSaved();
  return useMutation({
    mutationFn: createLibraryItem,
    onSuccess: saved,
  });
}

/** PATCH /api/library/items/{itemId}, with the `revision` the form read (409 when stale). */
export function useUpdateLibraryItem(itemId: string) {
  const saved = useItemSaved();
  return useMutation({
    mutationFn: (body: LibraryItemUpdate) => api.patch(itemPath(itemId), body, LibraryItemSchema),
    onSuccess: saved,
  });
}

/** DELETE /api/library/items/{itemId}: to the trash (204); the item and the lists are read again. */
export function useTrashLibraryItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (itemId: string) => api.delete(itemPath(itemId), null),
    onSuccess: (_data, itemId) =>
      Promise.all([
        invalidateLists(queryClient),
        queryClient.invalidateQueries({ queryKey: libraryKeys.item(itemId) }),
      ]),
  });
}

/** POST /api/library/items/{itemId}/restore. */
export function useRestoreLibraryItem() {
  const saved = useItemSaved();
  return useMutation({
    mutationFn: (itemId: string) =>
      api.post(`${itemPath(itemId)}/restore`, undefined, LibraryItemSchema),
    onSuccess: saved,
  });
}

/** DELETE /api/library/trash/{itemId}: gone for good. */
export function usePurgeLibraryItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (itemId: string) => api.delete(`/api/library/trash/${enc(itemId)}`, null),
    onSuccess: (_data, itemId) => {
      queryClient.removeQueries({ queryKey: libraryKeys.item(itemId) });
      return invalidateLists(queryClient);
    },
  });
}

/** DELETE /api/library/trash: empties the trash. */
export function useEmptyTrash() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete('/api/library/trash', null),
    onSuccess: () => invalidateLists(queryClient),
  });
}

/** POST /api/library/items/{itemId}/view: counts a view (best effort). */
export function recordView(itemId: string): void {
  void api.post(`${itemPath(itemId)}/view`, undefined, null).catch(() => undefined);
}

/** The download route of an item's current file or of one of its versions (counts a download). */
export function downloadPath(itemId: string, version?: number): string {
  return `${itemPath(itemId)}/download${version ? `?version=${version}` : ''}`;
}

export function useCreateCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) =>
      api.post('/api/library/categories', { name }, LibraryCategorySchema),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: libraryKeys.categories }),
  });
}

export function useRenameCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) =>
      api.patch(`/api/library/categories/${enc(id)}`, { name }, LibraryCategorySchema),
    onSuccess: () => invalidateLists(queryClient),
  });
}

export function useDeleteCategory() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/library/categories/${enc(id)}`, null),
    onSuccess: () => invalidateLists(queryClient),
  });
}
