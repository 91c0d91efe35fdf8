/** The signed-in user's sessions: list, end one, end all others. */
import { RevokeOthersResponseSchema, SessionListSchema } from '@learning-hub/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryString } from '../../../lib/query-string';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';

export const SESSIONS_QUERY_KEY = [USER_QUERY_PREFIX, 'sessions'] as const;

/** Sessions a page: the one in use comes first (the server's order). */
export const SESSIONS_PAGE_SIZE = 25;

/** One page of one's sessions. */
export function useSessions(page: number) {
  return useQuery({
    queryKey: [...SESSIONS_QUERY_KEY, page],
    queryFn: () =>
      api.get(
        `/api/auth/sessions${queryString({ page, pageSize: SESSIONS_PAGE_SIZE })}`,
        SessionListSchema,
      ),
    placeholderData: keepPreviousData,
  });
}

export function useEndSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/api/auth/sessions/${encodeURIComponent(id)}`, null),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () =>
      api.post('/api/auth/sessions/revoke-others', undefined, RevokeOthersResponseSchema),
    onSettled: () => queryClient.invalidateQueries({ queryKey: SESSIONS_QUERY_KEY }),
  });
}
