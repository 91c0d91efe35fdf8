/**
 * What the course creator needs beyond the shared course hooks (features/classroom/api/
 * courses-api.ts): every lesson's body at once for the student preview.
 */
import { LessonSchema } from '@learning-hub/core';
import { useQueries } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { courseKeys } from '../../classroom/api/courses-api';

const enc = encodeURIComponent;

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
