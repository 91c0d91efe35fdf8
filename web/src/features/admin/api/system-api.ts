/** Admin → System: what the server runs on (Node.js version, platform, database, uptime). */
import { SystemInfoSchema } from '@learning-hub/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminKeys } from './keys';

export function useSystemInfo() {
  return useQuery({
    queryKey: adminKeys.system,
    queryFn: () => api.get('/api/admin/system', SystemInfoSchema),
  });
}
