/**
 * What the start page asks besides the learning overview (features/classroom/api/learning-api.ts): the
 * latest failed sign-ins, for those who may open the admin area (the server refuses everyone
 * else).
 */
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';

/** How many failed sign-ins the start page lists. */
export const HOME_SIGN_IN_FAILURES = 5;

export const homeKeys = {
  signInFailures: [USER_QUERY_PREFIX, 'home', 'sign-in-failures'] as const,
};

/** GET /api/admin/sign-in-failures. */
export function useSignInFailures(enabled: boolean) {
  return useQuery({
    queryKey: homeKeys.signInFailures,
    queryFn: async () => {
      // The admin area's contracts load only for those who see the list, not with the start page
      // (docs/front-end.md "Each area's code in its own chunks").
      const { SignInFailureListSchema } = await import('@learning-hub/core/contracts/admin');
      const url = `/api/admin/sign-in-failures?pageSize=${HOME_SIGN_IN_FAILURES}`;
      return (await api.get(url, SignInFailureListSchema)).items;
    },
    enabled,
  });
}
