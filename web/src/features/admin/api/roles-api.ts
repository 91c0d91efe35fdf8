/** Admin API for roles: system roles (read-only) and custom roles. */
import {
  RoleListSchema,
  RoleWithUsageSchema,
  type CustomRoleCreate,
  type CustomRoleUpdate,
} from '@learning-hub/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth/auth-context';
import { adminKeys } from './keys';
import { useAfterAccessChange } from './use-after-access-change';

export type RoleWithUsage = z.infer<typeof RoleWithUsageSchema>;

const rolePath = (roleId: string) => `/api/admin/roles/${encodeURIComponent(roleId)}`;

export function useRoles() {
  return useQuery({
    queryKey: adminKeys.roles,
    queryFn: () => api.get('/api/admin/roles', RoleListSchema).then((r) => r.items),
    staleTime: 30_000,
  });
}

/**
 * After a custom role changed: the roles and everything derived from them reload; a signed-in
 * user who holds a custom role reloads their own permissions too.
 */
function useAfterRoleChange() {
  const after = useAfterAccessChange();
  const { access, refresh } = useAuth();
  const holdsCustomRole = (access?.customRoles.length ?? 0) > 0;
  return async () => {
    await Promise.all([
      after(null, [adminKeys.roles, adminKeys.users]),
      holdsCustomRole ? refresh() : undefined,
    ]);
  };
}

export function useCreateRole() {
  const after = useAfterRoleChange();
  return useMutation({
    mutationFn: (role: CustomRoleCreate) => api.post('/api/admin/roles', role, RoleWithUsageSchema),
    onSuccess: after,
  });
}

export function useUpdateRole() {
  const after = useAfterRoleChange();
  return useMutation({
    mutationFn: ({ roleId, role }: { roleId: string; role: CustomRoleUpdate }) =>
      api.put(rolePath(roleId), role, RoleWithUsageSchema),
    onSuccess: after,
  });
}

export function useDeleteRole() {
  const after = useAfterRoleChange();
  return useMutation({
    mutationFn: (roleId: string) => api.delete(rolePath(roleId), null),
    onSuccess: after,
  });
}
