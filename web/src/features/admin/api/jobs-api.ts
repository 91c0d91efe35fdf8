/** Admin → System → Background jobs: the queue, a page at a time, and retrying a failed job. */
import { JobListSchema, type JobState } from '@learning-hub/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { queryString } from '../../../lib/query-string';
import { adminKeys } from './keys';

export const JOBS_PAGE_SIZE = 20;

/** One page of jobs, newest first (GET /api/admin/jobs); refreshed while the page is open. */
export function useJobs(params: { state: JobState | null; page: number }) {
  return useQuery({
    queryKey: adminKeys.jobList(params),
    queryFn: () =>
      api.get(
        `/api/admin/jobs${queryString({ ...params, pageSize: JOBS_PAGE_SIZE })}`,
        JobListSchema,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: 10_000,
  });
}

/** Gives a failed job one more attempt (POST /api/admin/jobs/{id}/retry). */
export function useRetryJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      api.post(`/api/admin/jobs/${encodeURIComponent(id)}/retry`, undefined, null),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.jobs }),
  });
}
