import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useAuth } from '../../../lib/auth/auth-context';
import { adminKeys } from './keys';

/**
 * What follows a change to a user's access: the admin views that show it are reloaded, and when
 * the admin changed their own access, their permission snapshot is reloaded at once (the guards
 * and menus then follow).
 */
export function useAfterAccessChange() {
  const queryClient = useQueryClient();
  const auth = useAuth();
  const selfId = auth.user?.id;
  const { refresh } = auth;
  return useCallback(
    async (userId: string | null, extra: readonly (readonly unknown[])[] = []) => {
      const keys: (readonly unknown[])[] = [adminKeys.userLists, adminKeys.audits, ...extra];
      if (userId) keys.push(adminKeys.user(userId));
      await Promise.all([
        ...keys.map((queryKey) => queryClient.invalidateQueries({ queryKey })),
        ...(userId !== null && userId === selfId ? [refresh()] : []),
      ]);
    },
    [queryClient, refresh, selfId],
  );
}
