/** The signed-in user's own account: where its details come from. */
import { AccountSourceSchema } from '@learning-hub/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';

/** GET /api/auth/profile: the fields the account's sign-in provider owns (read-only here). */
export function useProfileSource() {
  return useQuery({
    queryKey: [USER_QUERY_PREFIX, 'profile-source'],
    queryFn: () => api.get('/api/auth/profile', AccountSourceSchema),
    staleTime: 60_000,
  });
}
