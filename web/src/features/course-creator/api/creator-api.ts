/**
 * What the course creator needs beyond the shared course hooks (web/src/lib/classroom/
 * courses-api.ts): the departments for the department select, and every lesson's body at once
 * for the student preview.
 */
import { DepartmentListSchema, LessonSchema } from '@learning-hub/core';
import { useQueries, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';
import { courseKeys } from '../../../lib/classroom/courses-api';

const enc = encodeURIComponent;

/** The departments the user may see (GET /api/departments). */
export function useDepartments() {
  return useQuery({
    queryKey: [USER_QUERY_PREFIX, 'course-creator', 'departments'] as const,
    queryFn: () => api.get('/api/departments', DepartmentListSchema).then((r) => r.items),
    staleTime: 60_000,
  });
}

/** Every lesson with its body (the same cache entries as useLesson). */
export function useLessons(courseId: string, lessonIds: readonly string[]) {
  return useQueries({
    queries: lessonIds.map((lessonId) => ({
      queryKey: courseKeys.lesson(courseId, lessonId),
      queryFn: () =>
        api.get(`/api/courses/${enc(courseId)}/lessons/${enc(lessonId)}`, LessonSchema),
    })),
  });
}
