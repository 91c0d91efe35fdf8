/**
 * Admin API for users: the list, one user, creating and editing accounts, deactivation, role,
 * direct permissions, assignments, effective permissions.
 */
import {
  AdminUserSchema,
  AssignmentListSchema,
  EffectivePermissionsSchema,
  UserAccountSchema,
  UserActiveResultSchema,
  UserCreatedSchema,
  UserListSchema,
  type AssignmentInput,
  type UserCreate,
  type UserUpdate,
} from '@learning-hub/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../lib/api-client';
import { queryString } from '../../../lib/query-string';
import { adminKeys } from './keys';
import { useAfterAccessChange } from './use-after-access-change';

export interface UserListParams {
  search?: string;
  role?: string;
  department?: string;
  page: number;
  pageSize: number;
}

export const USERS_PAGE_SIZE = 25;

const AssignmentSavedSchema = z.object({ replaced: z.boolean(), contextKey: z.string() });

const userPath = (userId: string) => `/api/admin/users/${encodeURIComponent(userId)}`;

export function fetchUsers(params: UserListParams) {
  return api.get(`/api/admin/users${queryString({ ...params })}`, UserListSchema);
}

export function useUserList(params: UserListParams, enabled = true) {
  return useQuery({
    queryKey: adminKeys.userList(params),
    queryFn: () => fetchUsers(params),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export function useAdminUser(userId: string | null | undefined) {
  return useQuery({
    queryKey: adminKeys.user(userId ?? ''),
    queryFn: () => api.get(userPath(userId ?? ''), AdminUserSchema),
    enabled: !!userId,
  });
}

export function useSetRole(userId: string) {
  const after = useAfterAccessChange();
  return useMutation({
    mutationFn: (role: string) => api.put(`${userPath(userId)}/role`, { role }, AdminUserSchema),
    onSuccess: () => after(userId, [adminKeys.roles]),
  });
}

/** POST …/permissions answers the user as they are now: the cache takes it at once. */
export function useGrantPermission(userId: string) {
  const after = useAfterAccessChange();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (permission: string) =>
      api.post(`${userPath(userId)}/permissions`, { permission }, AdminUserSchema),
    onSuccess: (user) => {
      queryClient.setQueryData(adminKeys.user(userId), user);
      return after(userId);
    },
  });
}

/** DELETE …/permissions/{permission} answers 204: the user is read again. */
export function useRevokePermission(userId: string) {
  const after = useAfterAccessChange();
  return useMutation({
    mutationFn: (permission: string) =>
      api.delete(`${userPath(userId)}/permissions/${encodeURIComponent(permission)}`, null),
    onSuccess: () => after(userId),
  });
}

export function useAssignments(userId: string) {
  return useQuery({
    queryKey: adminKeys.assignments(userId),
    queryFn: () =>
      api.get(`${userPath(userId)}/assignments`, AssignmentListSchema).then((r) => r.items),
  });
}

export function useSaveAssignment(userId: string) {
  const after = useAfterAccessChange();
  return useMutation({
    mutationFn: (input: AssignmentInput) =>
      api.put(`${userPath(userId)}/assignments`, input, AssignmentSavedSchema),
    onSuccess: () => after(userId),
  });
}

export function useRemoveAssignment(userId: string) {
  const after = useAfterAccessChange();
  return useMutation({
    mutationFn: (contextKey: string) =>
      api.delete(`${userPath(userId)}/assignments/${encodeURIComponent(contextKey)}`, null),
    onSuccess: () => after(userId),
  });
}

/** `scope`: `system`, `any` or a context key. */
export function useEffectivePermissions(userId: string, scope: string) {
  return useQuery({
    queryKey: adminKeys.effective(userId, scope),
    queryFn: () =>
      api.get(
        `${userPath(userId)}/effective-permissions${queryString({ scope })}`,
        EffectivePermissionsSchema,
      ),
    placeholderData: keepPreviousData,
  });
}

/** How the account is managed (provider-owned fields) and what the signed-in admin may do to it. */
export function useUserAccount(userId: string) {
  return useQuery({
    queryKey: adminKeys.account(userId),
    queryFn: () => api.get(`${userPath(userId)}/account`, UserAccountSchema),
  });
}

/**
 * POST /api/admin/users. The answer carries the one-time password: it stays in the mutation's
 * result (never in the query cache) and is gone once the dialog showing it is closed.
 */
export function useCreateUser() {
  const after = useAfterAccessChange();
  return useMutation({
    mutationFn: (input: UserCreate) => api.post('/api/admin/users', input, UserCreatedSchema),
    onSuccess: () => after(null),
  });
}

export function useUpdateUser(userId: string) {
  const after = useAfterAccessChange();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: UserUpdate) => api.patch(userPath(userId), changes, AdminUserSchema),
    onSuccess: (user) => {
      queryClient.setQueryData(adminKeys.user(userId), user);
      return after(userId);
    },
  });
}

/**
 * Deactivates (ending every session of the user) or reactivates an account. The answer is the user
 * as they are now, with the sessions a deactivation ended.
 */
export function useSetUserActive(userId: string) {
  const after = useAfterAccessChange();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (active: boolean) =>
      api.put(`${userPath(userId)}/active`, { active }, UserActiveResultSchema),
    onSuccess: ({ endedSessions: _ended, ...user }) => {
      queryClient.setQueryData(adminKeys.user(userId), user);
      return after(userId);
    },
  });
}
