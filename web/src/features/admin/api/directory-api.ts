/** Courses and departments: the contexts an assignment can name. */
import { CourseListSchema, DepartmentListSchema } from '@learning-hub/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { adminKeys, queryString } from './keys';

export const COURSE_PICKER_SIZE = 50;

export function useCourses(search: string) {
  return useQuery({
    queryKey: adminKeys.courses(search),
    queryFn: () =>
      api.get(
        `/api/courses${queryString({ search, state: 'any', page: 1, pageSize: COURSE_PICKER_SIZE })}`,
        CourseListSchema,
      ),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

export function useDepartments() {
  return useQuery({
    queryKey: adminKeys.departments,
    queryFn: () => api.get('/api/departments', DepartmentListSchema).then((r) => r.items),
    staleTime: 60_000,
  });
}
