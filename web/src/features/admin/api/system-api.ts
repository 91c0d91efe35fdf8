/**
 * Admin → System: what the server runs on (Node.js version, platform, database, uptime), the
 * storage each person uses against the upload limits, and the settings changed at run time.
 */
import {
  StorageUsageSchema,
  SystemInfoSchema,
  SystemSettingsSchema,
  type StorageUsageQuery,
  type SystemSettingsUpdate,
} from '@learning-hub/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryString } from '../../../lib/query-string';
import { adminKeys } from './keys';

export function useSystemInfo() {
  return useQuery({
    queryKey: adminKeys.system,
    queryFn: () => api.get('/api/admin/system', SystemInfoSchema),
  });
}

export const STORAGE_PAGE_SIZE = 25;

/** One page of the people who store files, ordered by bytes (GET /api/admin/storage). */
export function useStorageUsage(params: StorageUsageQuery) {
  return useQuery({
    queryKey: adminKeys.storage(params),
    queryFn: () => api.get(`/api/admin/storage${queryString({ ...params })}`, StorageUsageSchema),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/admin/settings. */
export function useSystemSettings() {
  return useQuery({
    queryKey: adminKeys.settings,
    queryFn: () => api.get('/api/admin/settings', SystemSettingsSchema),
  });
}

/** PUT /api/admin/settings: answers the settings as stored (normalised). */
export function useSaveSystemSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: SystemSettingsUpdate) =>
      api.put('/api/admin/settings', settings, SystemSettingsSchema),
    onSuccess: (saved) => queryClient.setQueryData(adminKeys.settings, saved),
  });
}
