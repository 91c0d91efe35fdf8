/**
 * What the start page asks besides the learning overview (features/classroom/api/courses-api.ts): the
 * latest failed sign-ins, for those who may open the admin area (the server refuses everyone
 * else).
 */
import { SignInFailureListSchema } from '@learning-hub/core';
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
    queryFn: () =>
      api
        .get(`/api/admin/sign-in-failures?limit=${HOME_SIGN_IN_FAILURES}`, SignInFailureListSchema)
        .then((r) => r.failures),
    enabled,
  });
}
