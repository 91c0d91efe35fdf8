/**
 * Admin → System: what the server runs on (Node.js version, platform, database, uptime), and the
 * storage each person uses against the upload limits.
 */
import { StorageUsageSchema, SystemInfoSchema, type StorageUsageQuery } from '@learning-hub/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminKeys, queryString } from './keys';

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
