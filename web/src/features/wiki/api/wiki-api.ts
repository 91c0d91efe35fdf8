/**
 * The wiki's API (core/src/contracts/wiki.ts, docs/wiki.md): spaces, a space's tree, the page
 * lists (search, drafts, followed pages, the trash), one page, saving with the revision it was
 * based on, revisions and their diffs, moving, the trash, following, and resolving a title link.
 * Keys sit under the signed-in user's prefix, so sign-out drops everything loaded here.
 */
import {
  WikiDiffSchema,
  WikiFollowSchema,
  WikiPageListSchema,
  WikiPageSchema,
  WikiResolveSchema,
  WikiRevisionListSchema,
  WikiRevisionSchema,
  WikiSpaceListSchema,
  WikiTreeSchema,
  type WikiPage,
  type WikiPageCreate,
  type WikiPageStatus,
  type WikiPageUpdate,
} from '@learning-hub/core';
import type { z } from 'zod';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryString } from '../../../lib/query-string';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';

/** A page's following state, as PUT …/follow answers it. */
type WikiFollow = z.infer<typeof WikiFollowSchema>;

const ROOT = [USER_QUERY_PREFIX, 'wiki'] as const;

export const wikiKeys = {
  all: ROOT,
  spaces: [...ROOT, 'spaces'] as const,
  tree: (space: string) => [...ROOT, 'tree', space] as const,
  lists: [...ROOT, 'list'] as const,
  list: (params: WikiListParams) => [...ROOT, 'list', params] as const,
  page: (pageId: string) => [...ROOT, 'page', pageId] as const,
  detail: (pageId: string) => [...ROOT, 'page', pageId, 'detail'] as const,
  revisions: (pageId: string, page: number) =>
    [...ROOT, 'page', pageId, 'revisions', page] as const,
  revision: (pageId: string, n: number) => [...ROOT, 'page', pageId, 'revision', n] as const,
  diff: (pageId: string, from: number, to: number) =>
    [...ROOT, 'page', pageId, 'diff', from, to] as const,
  resolve: (space: string, title: string) => [...ROOT, 'resolve', space, title] as const,
};

/** A list's query as the pages keep it. */
export interface WikiListParams {
  space?: string | null;
  search?: string | null;
  status?: WikiPageStatus | null;
  following?: boolean;
  trash?: boolean;
  sort?: 'updated' | 'title' | 'views' | 'created' | null;
  order?: 'asc' | 'desc' | null;
  page?: number;
  pageSize?: number;
}

const enc = encodeURIComponent;
export const pageApiPath = (pageId: string) => `/api/wiki/pages/${enc(pageId)}`;

/** GET /api/wiki/spaces: the spaces the viewer may read, the company space first. */
export function useWikiSpaces() {
  return useQuery({
    queryKey: wikiKeys.spaces,
    queryFn: ({ signal }) =>
      api.get('/api/wiki/spaces', WikiSpaceListSchema, { signal }).then((r) => r.items),
    staleTime: 30_000,
  });
}

/** GET /api/wiki/tree?space=: every page of a space the viewer may open. */
export function useWikiTree(space: string | null) {
  return useQuery({
    queryKey: wikiKeys.tree(space ?? ''),
    queryFn: ({ signal }) =>
      api.get(`/api/wiki/tree${queryString({ space })}`, WikiTreeSchema, { signal }),
    enabled: !!space,
    placeholderData: keepPreviousData,
  });
}

/** GET /api/wiki/pages with filters. */
export function useWikiList(params: WikiListParams, enabled = true) {
  return useQuery({
    queryKey: wikiKeys.list(params),
    queryFn: ({ signal }) =>
      api.get(`/api/wiki/pages${queryString({ ...params })}`, WikiPageListSchema, { signal }),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** Pages whose title matches, for pickers (the editor's "Link to page", copying a page). */
export function searchWikiPages(text: string, signal?: AbortSignal) {
  return api
    .get(`/api/wiki/pages${queryString({ search: text, pageSize: 10 })}`, WikiPageListSchema, {
      signal,
    })
    .then((r) => r.items);
}

/** GET /api/wiki/pages/{pageId}. */
export function wikiPageQuery(pageId: string) {
  return queryOptions({
    queryKey: wikiKeys.detail(pageId),
    queryFn: ({ signal }) => api.get(pageApiPath(pageId), WikiPageSchema, { signal }),
  });
}

export function useWikiPage(pageId: string) {
  return useQuery(wikiPageQuery(pageId));
}

export const REVISIONS_PAGE_SIZE = 25;

/** GET …/revisions, newest first. */
export function useWikiRevisions(pageId: string, page: number) {
  return useQuery({
    queryKey: wikiKeys.revisions(pageId, page),
    queryFn: ({ signal }) =>
      api.get(
        `${pageApiPath(pageId)}/revisions${queryString({ page, pageSize: REVISIONS_PAGE_SIZE })}`,
        WikiRevisionListSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/** GET …/revisions/{n}. */
export function useWikiRevision(pageId: string, n: number) {
  return useQuery({
    queryKey: wikiKeys.revision(pageId, n),
    queryFn: ({ signal }) =>
      api.get(`${pageApiPath(pageId)}/revisions/${n}`, WikiRevisionSchema, { signal }),
    enabled: n > 0,
    staleTime: Infinity,
  });
}

/** GET …/diff?from=&to=. */
export function useWikiDiff(pageId: string, from: number, to: number) {
  return useQuery({
    queryKey: wikiKeys.diff(pageId, from, to),
    queryFn: ({ signal }) =>
      api.get(`${pageApiPath(pageId)}/diff?from=${from}&to=${to}`, WikiDiffSchema, { signal }),
    enabled: from > 0 && to > 0,
    staleTime: Infinity,
  });
}

/** GET /api/wiki/resolve?space=&title=: the page a title link names (404 when none). */
export function useWikiResolve(space: string, title: string) {
  return useQuery({
    queryKey: wikiKeys.resolve(space, title),
    queryFn: ({ signal }) =>
      api.get(`/api/wiki/resolve${queryString({ space, title })}`, WikiResolveSchema, { signal }),
    enabled: !!space && !!title,
  });
}

/** What any change to pages makes stale: lists, trees, spaces' counts and resolved titles. */
export function invalidateWiki(queryClient: QueryClient) {
  return queryClient.invalidateQueries({
    queryKey: ROOT,
    predicate: (query) => query.queryKey[2] !== 'page',
  });
}

/** Puts a page the server sent back into the cache and marks the rest stale. */
function usePageSaved() {
  const queryClient = useQueryClient();
  return async (page: WikiPage) => {
    queryClient.setQueryData(wikiKeys.detail(page.id), page);
    await Promise.all([
      invalidateWiki(queryClient),
      queryClient.invalidateQueries({
        queryKey: wikiKeys.page(page.id),
        predicate: (query) => query.queryKey[4] !== 'detail',
      }),
    ]);
  };
}

/** Everything known about one page is stale (after a change whose answer is not the page). */
function usePageChanged() {
  const queryClient = useQueryClient();
  return (pageId: string) =>
    Promise.all([
      invalidateWiki(queryClient),
      queryClient.invalidateQueries({ queryKey: wikiKeys.page(pageId) }),
    ]);
}

/** POST /api/wiki/pages → 201 with the page. */
export function useCreateWikiPage() {
  const saved = usePageSaved();
  return useMutation({
    mutationFn: (body: WikiPageCreate) => api.post('/api/wiki/pages', body, WikiPageSchema),
    onSuccess: saved,
  });
}

/** PUT /api/wiki/pages/{pageId}; a stale base revision is a 409 WIKI_EDIT_CONFLICT. */
export function useSaveWikiPage(pageId: string) {
  const saved = usePageSaved();
  return useMutation({
    mutationFn: (body: WikiPageUpdate) => api.put(pageApiPath(pageId), body, WikiPageSchema),
    onSuccess: saved,
  });
}

/** DELETE /api/wiki/pages/{pageId}: to the trash. */
export function useTrashWikiPage() {
  const changed = usePageChanged();
  return useMutation({
    mutationFn: (pageId: string) => api.delete(pageApiPath(pageId), null),
    onSuccess: (_data, pageId) => changed(pageId),
  });
}

/** POST /api/wiki/pages/{pageId}/restore: back from the trash. */
export function useRestoreWikiPage() {
  const changed = usePageChanged();
  return useMutation({
    mutationFn: (pageId: string) => api.post(`${pageApiPath(pageId)}/restore`, undefined, null),
    onSuccess: (_data, pageId) => changed(pageId),
  });
}

/** DELETE /api/wiki/trash/{pageId}: gone for good. */
export function usePurgeWikiPage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pageId: string) => api.delete(`/api/wiki/trash/${enc(pageId)}`, null),
    onSuccess: (_data, pageId) => {
      queryClient.removeQueries({ queryKey: wikiKeys.page(pageId) });
      return invalidateWiki(queryClient);
    },
  });
}

/** DELETE /api/wiki/trash: empties the trash. */
export function useEmptyWikiTrash() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete('/api/wiki/trash', null),
    onSuccess: () => invalidateWiki(queryClient),
  });
}

/** POST /api/wiki/pages/{pageId}/move. */
export function useMoveWikiPage(pageId: string) {
  const changed = usePageChanged();
  return useMutation({
    mutationFn: (body: { space: string; parentId: string | null; position: number }) =>
      api.post(`${pageApiPath(pageId)}/move`, body, null),
    onSuccess: () => changed(pageId),
  });
}

/**
 * PUT (follow: answers the page's following state) or DELETE (unfollow: 204, so the page's state
 * is worked out here: not following, one follower fewer if they were one).
 */
export function useFollowWikiPage(pageId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (follow: boolean): Promise<WikiFollow | null> => {
      if (follow) return api.put(`${pageApiPath(pageId)}/follow`, undefined, WikiFollowSchema);
      await api.delete(`${pageApiPath(pageId)}/follow`, null);
      return null;
    },
    onSuccess: (state) => {
      queryClient.setQueryData<WikiPage>(wikiKeys.detail(pageId), (page) => {
        if (!page) return page;
        if (state) return { ...page, ...state };
        const followerCount = page.following
          ? Math.max(0, page.followerCount - 1)
          : page.followerCount;
        return { ...page, following: false, followerCount };
      });
      return queryClient.invalidateQueries({ queryKey: wikiKeys.lists });
    },
  });
}

/** POST …/revisions/{n}/restore: a new revision with that one's title and text. */
export function useRestoreWikiRevision(pageId: string) {
  const saved = usePageSaved();
  return useMutation({
    mutationFn: (n: number) =>
      api.post(`${pageApiPath(pageId)}/revisions/${n}/restore`, {}, WikiPageSchema),
    onSuccess: saved,
  });
}

/** POST …/view: counts a view (best effort). */
export function recordWikiView(pageId: string): void {
  void api.post(`${pageApiPath(pageId)}/view`, undefined, null).catch(() => undefined);
}
