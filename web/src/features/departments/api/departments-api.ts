/**
 * The department pages' API (core/src/contracts/departments.ts): the list, one department with its
 * courses, library and wiki, its members and the people a manager may add, and the changes a
 * manager or an admin makes. Keys sit under the signed-in user's prefix, so sign-out drops
 * everything loaded here.
 */
import {
  DepartmentCandidateListSchema,
  DepartmentDetailSchema,
  DepartmentListSchema,
  DepartmentMemberListSchema,
  DepartmentMemberSchema,
  DepartmentSchema,
  type DepartmentMemberRoleSchema,
} from '@learning-hub/core';
import {
  keepPreviousData,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { queryString } from '../../../lib/query-string';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';
import { DEPARTMENT_ROUTE } from '../../../lib/departments/department-links';
import { renamedRouteParam } from '../../../lib/route-params';

const ROOT = [USER_QUERY_PREFIX, 'departments'] as const;

export const departmentKeys = {
  all: ROOT,
  lists: [...ROOT, 'list'] as const,
  list: (archived: boolean) => [...ROOT, 'list', { archived }] as const,
  /** One department and everything below it (members, candidates). */
  department: (id: string) => [...ROOT, 'department', id] as const,
  detail: (id: string) => [...ROOT, 'department', id, 'detail'] as const,
  members: (id: string) => [...ROOT, 'department', id, 'members'] as const,
  memberList: (id: string, params: MemberListParams) =>
    [...ROOT, 'department', id, 'members', params] as const,
  candidates: (id: string, search: string) =>
    [...ROOT, 'department', id, 'candidates', search] as const,
};

export type DepartmentRole = z.infer<typeof DepartmentMemberRoleSchema>;

export const MEMBERS_PAGE_SIZE = 20;

export interface MemberListParams {
  search?: string | null;
  page?: number;
  pageSize?: number;
  role?: DepartmentRole | null;
}

const enc = encodeURIComponent;
const departmentPath = (id: string) => `/api/departments/${enc(id)}`;

/**
 * GET /api/departments (`archived`: admins see archived ones too): the one query of the list, for
 * every area that shows or picks departments, so one change refreshes them all.
 */
export function departmentsQuery(archived = false) {
  return queryOptions({
    queryKey: departmentKeys.list(archived),
    queryFn: ({ signal }) =>
      api.get(`/api/departments${queryString({ archived })}`, DepartmentListSchema, { signal }),
  });
}

/** The departments page's list. */
export function useDepartments(archived: boolean) {
  return useQuery({
    ...departmentsQuery(archived),
    select: (list) => list.items,
    placeholderData: keepPreviousData,
  });
}

/**
 * The departments the user may see, for a picker or a filter (department.view in any context);
 * nothing is asked while `enabled` is false.
 */
export function useDepartmentChoices(enabled = true) {
  return useQuery({
    ...departmentsQuery(),
    select: (list) => list.items,
    staleTime: 60_000,
    enabled,
  });
}

/** GET /api/departments/{id}. */
export function useDepartment(id: string) {
  return useQuery({
    queryKey: departmentKeys.detail(id),
    queryFn: ({ signal }) => api.get(departmentPath(id), DepartmentDetailSchema, { signal }),
    enabled: id !== '',
  });
}

/**
 * The department as the server has it now, put into the cache: a form's Reload after its save
 * was refused as stale (web/src/components/stale-edit.tsx).
 */
export function useReloadDepartment(id: string) {
  const queryClient = useQueryClient();
  return () =>
    queryClient.fetchQuery({
      queryKey: departmentKeys.detail(id),
      queryFn: () => api.get(departmentPath(id), DepartmentDetailSchema),
      staleTime: 0,
    });
}

/** GET /api/departments/{id}/members. */
export function useMembers(id: string, params: MemberListParams) {
  return useQuery({
    queryKey: departmentKeys.memberList(id, params),
    queryFn: ({ signal }) =>
      api.get(
        `${departmentPath(id)}/members${queryString({ ...params })}`,
        DepartmentMemberListSchema,
        { signal },
      ),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/departments/{id}/candidates?search= (nothing is asked for an empty search). */
export function useCandidates(id: string, search: string) {
  return useQuery({
    queryKey: departmentKeys.candidates(id, search),
    queryFn: ({ signal }) =>
      api.get(
        `${departmentPath(id)}/candidates${queryString({ search })}`,
        DepartmentCandidateListSchema,
        { signal },
      ),
    select: (list) => list.items,
    enabled: search !== '',
    placeholderData: keepPreviousData,
  });
}

/** What a change to departments makes stale: every list of them (every area reads the same one). */
function invalidateLists(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: departmentKeys.lists });
}

/** POST /api/departments (admins) → the new department. */
export function useCreateDepartment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: { name: string; description: string }) =>
      api.post('/api/departments', body, DepartmentSchema),
    onSuccess: () => invalidateLists(queryClient),
  });
}

export interface DepartmentChange {
  name?: string;
  description?: string;
  archived?: boolean;
  /** The revision the change is based on (409 when someone else changed the department since). */
  revision: number;
}

/**
 * PATCH /api/departments/{id}: the description (managers), the name and archiving (admins). A
 * new name is a new URL name: it resolves at once, and the former one redirects.
 */
export function useUpdateDepartment(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DepartmentChange) => api.patch(departmentPath(id), body, DepartmentSchema),
    onSuccess: async (department) => {
      if (department.slug) {
        await renamedRouteParam(queryClient, DEPARTMENT_ROUTE, {
          id: department.id,
          canonical: department.slug,
        });
      }
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: departmentKeys.department(id) }),
        invalidateLists(queryClient),
      ]);
    },
  });
}

/** A member's changes make the department (count, managers) and its member lists stale. */
function invalidateDepartment(queryClient: QueryClient, id: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: departmentKeys.department(id) }),
    queryClient.invalidateQueries({ queryKey: departmentKeys.lists }),
  ]);
}

export interface MemberInput {
  role: DepartmentRole;
  /** ISO instant, or null for no end date. */
  expiresAt: string | null;
}

/** POST /api/departments/{id}/members. */
export function useAddMember(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberInput & { userId: string }) =>
      api.post(`${departmentPath(id)}/members`, body, DepartmentMemberSchema),
    onSuccess: () => invalidateDepartment(queryClient, id),
  });
}

/** PATCH /api/departments/{id}/members/{userId}: role and end date. */
export function useUpdateMember(id: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MemberInput) =>
      api.patch(`${departmentPath(id)}/members/${enc(userId)}`, body, DepartmentMemberSchema),
    onSuccess: () => invalidateDepartment(queryClient, id),
  });
}

/** DELETE /api/departments/{id}/members/{userId}. */
export function useRemoveMember(id: string, userId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`${departmentPath(id)}/members/${enc(userId)}`, null),
    onSuccess: () => invalidateDepartment(queryClient, id),
  });
}
