/** The permission simulator's calls: users to pick, contexts to pick, and the simulation itself. */
import {
  CourseListSchema,
  DepartmentListSchema,
  SimulateResponseSchema,
  UserListSchema,
  type SimulateRequest,
} from '@learning-hub/core';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';

const KEY = [USER_QUERY_PREFIX, 'admin-test'] as const;
export const PICKER_SIZE = 20;

function qs(params: Record<string, string | number>) {
  return new URLSearchParams(
    Object.entries(params)
      .filter(([, v]) => v !== '')
      .map(([k, v]) => [k, String(v)]),
  ).toString();
}

export function useUserSearch(search: string) {
  return useQuery({
    queryKey: [...KEY, 'users', search],
    queryFn: () =>
      api.get(`/api/admin/users?${qs({ search, page: 1, pageSize: PICKER_SIZE })}`, UserListSchema),
    placeholderData: keepPreviousData,
  });
}

export function useCourseSearch(search: string) {
  return useQuery({
    queryKey: [...KEY, 'courses', search],
    queryFn: () =>
      api.get(
        `/api/courses?${qs({ search, state: 'any', page: 1, pageSize: 50 })}`,
        CourseListSchema,
      ),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useDepartmentList() {
  return useQuery({
    queryKey: [...KEY, 'departments'],
    queryFn: () => api.get('/api/departments', DepartmentListSchema).then((r) => r.items),
    staleTime: 60_000,
  });
}

/** POST /api/admin/access/simulate: changes nothing and is not written to the check audit. */
export function useSimulate() {
  return useMutation({
    mutationFn: (request: Omit<SimulateRequest, 'scope'> & { scope?: string }) =>
      api.post('/api/admin/access/simulate', request, SimulateResponseSchema),
  });
}
