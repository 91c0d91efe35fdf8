/**
 * Query hooks of the classroom's courses: the catalogue, one course with its outline, creating and
 * editing courses, sections and lessons, enrolment, participants, progress and the learner's
 * overview (GET /api/me/learning). Shared by the classroom, the course creator, the learning page
 * and the start page, which may not import each other (docs/architecture.md). Keys sit under the
 * signed-in user's prefix, so sign-out drops everything loaded here.
 */
import {
  CatalogueSchema,
  CourseListSchema,
  CourseDetailSchema,
  EnrolmentSchema,
  LessonProgressSchema,
  LessonSchema,
  pageOf,
  ParticipantListSchema,
  ParticipantSchema,
  SectionSchema,
  type CatalogueQuery,
  type CourseCreate,
  type CourseDetail,
  type CourseUpdate,
  type Lesson,
  type OutlineOrder,
  type ParticipantSet,
} from '@learning-hub/core';
import {
  keepPreviousData,
  useMutation,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { z } from 'zod';
import { api, isStaleEdit } from '../../../lib/api-client';
import { queryString } from '../../../lib/query-string';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';
import { LEARNING_OVERVIEW_KEY } from './learning-api';

const ROOT = [USER_QUERY_PREFIX, 'classroom-courses'] as const;

export const courseKeys = {
  all: ROOT,
  catalogues: [...ROOT, 'catalogue'] as const,
  catalogue: (params: object) => [...ROOT, 'catalogue', params] as const,
  choices: (search: string) => [...ROOT, 'catalogue', 'choices', search] as const,
  /** One course and everything below it (lessons, participants, candidates). */
  course: (courseId: string) => [...ROOT, 'course', courseId] as const,
  detail: (courseId: string) => [...ROOT, 'course', courseId, 'detail'] as const,
  lesson: (courseId: string, lessonId: string) =>
    [...ROOT, 'course', courseId, 'lesson', lessonId] as const,
  participants: (courseId: string) => [...ROOT, 'course', courseId, 'participants'] as const,
  candidates: (courseId: string, search: string) =>
    [...ROOT, 'course', courseId, 'candidates', search] as const,
  learning: LEARNING_OVERVIEW_KEY,
};

const enc = encodeURIComponent;
const coursePath = (courseId: string) => `/api/courses/${enc(courseId)}`;

/** What a change to a course makes stale: the course, every catalogue and the overview. */
function invalidateCourse(queryClient: QueryClient, courseId: string | null) {
  return Promise.all([
    courseId
      ? queryClient.invalidateQueries({ queryKey: courseKeys.course(courseId) })
      : Promise.resolve(),
    queryClient.invalidateQueries({ queryKey: courseKeys.catalogues }),
    queryClient.invalidateQueries({ queryKey: courseKeys.learning }),
  ]);
}

// ---------------------------------------------------------------- catalogue and course

export const CATALOGUE_PAGE_SIZE = 12;

export type CatalogueParams = Partial<CatalogueQuery>;

/** GET /api/courses. */
export function useCatalogue(params: CatalogueParams, enabled = true) {
  return useQuery({
    queryKey: courseKeys.catalogue(params),
    queryFn: () => api.get(`/api/courses${queryString({ ...params })}`, CatalogueSchema),
    placeholderData: keepPreviousData,
    enabled,
  });
}

export const COURSE_PICKER_SIZE = 50;

/**
 * A course picker's choices: the first courses of any state whose code, title or summary matches
 * `search` (GET /api/courses read as the admin contract's course list: id, code, title). Under the
 * catalogues' key, so what makes the catalogues stale makes the choices stale too.
 */
export function useCourseChoices(search: string) {
  return useQuery({
    queryKey: courseKeys.choices(search),
    queryFn: () =>
      api.get(
        `/api/courses${queryString({ search, state: 'any', page: 1, pageSize: COURSE_PICKER_SIZE })}`,
        CourseListSchema,
      ),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
}

/** GET /api/courses/:courseId (null id: nothing is fetched, e.g. the creator's new course). */
export function useCourse(courseId: string | null | undefined) {
  return useQuery({
    queryKey: courseKeys.detail(courseId ?? ''),
    queryFn: () => api.get(coursePath(courseId ?? ''), CourseDetailSchema),
    enabled: !!courseId,
  });
}

/** Puts a course the server sent back into the cache and marks the lists stale. */
function useCourseSaved() {
  const queryClient = useQueryClient();
  return async (course: CourseDetail) => {
    queryClient.setQueryData(courseKeys.detail(course.id), course);
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: courseKeys.catalogues }),
      queryClient.invalidateQueries({ queryKey: courseKeys.learning }),
    ]);
  };
}

/** POST /api/courses → the new course. */
export function useCreateCourse() {
  const saved = useCourseSaved();
  return useMutation({
    mutationFn: (input: CourseCreate) => api.post('/api/courses', input, CourseDetailSchema),
    onSuccess: saved,
  });
}

/** PATCH /api/courses/:courseId (send `revision` to refuse a stale edit with 409). */
export function useUpdateCourse(courseId: string) {
  const saved = useCourseSaved();
  return useMutation({
    mutationFn: (changes: CourseUpdate) =>
      api.patch(coursePath(courseId), changes, CourseDetailSchema),
    onSuccess: saved,
  });
}

/** DELETE /api/courses/:courseId (409 when it has submissions or grades: archive it instead). */
export function useDeleteCourse(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(coursePath(courseId), null),
    onSuccess: async () => {
      queryClient.removeQueries({ queryKey: courseKeys.course(courseId) });
      await invalidateCourse(queryClient, null);
    },
  });
}

/** POST /api/courses/:courseId/copy → the new draft. */
export function useCopyCourse(courseId: string) {
  const saved = useCourseSaved();
  return useMutation({
    mutationFn: (input: { code: string; title: string }) =>
      api.post(`${coursePath(courseId)}/copy`, input, CourseDetailSchema),
    onSuccess: saved,
  });
}

// ---------------------------------------------------------------- sections, lessons, outline

export function useCreateSection(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { title: string }) =>
      api.post(`${coursePath(courseId)}/sections`, input, SectionSchema),
    onSuccess: () => invalidateCourse(queryClient, courseId),
  });
}

export function useUpdateSection(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ sectionId, title }: { sectionId: string; title: string }) =>
      api.patch(`${coursePath(courseId)}/sections/${enc(sectionId)}`, { title }, SectionSchema),
    onSuccess: () => invalidateCourse(queryClient, courseId),
  });
}

/** Deletes a section and its lessons. */
export function useDeleteSection(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (sectionId: string) =>
      api.delete(`${coursePath(courseId)}/sections/${enc(sectionId)}`, null),
    onSuccess: () => invalidateCourse(queryClient, courseId),
  });
}

/** PUT /api/courses/:courseId/outline: the whole order at once. */
export function useReorderOutline(courseId: string) {
  const saved = useCourseSaved();
  return useMutation({
    mutationFn: (order: OutlineOrder) =>
      api.put(`${coursePath(courseId)}/outline`, order, CourseDetailSchema),
    onSuccess: saved,
  });
}

/** GET /api/courses/:courseId/lessons/:lessonId (also records it as the viewer's last lesson). */
export function useLesson(courseId: string, lessonId: string | null | undefined) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: courseKeys.lesson(courseId, lessonId ?? ''),
    queryFn: async () => {
      const lesson = await api.get(
        `${coursePath(courseId)}/lessons/${enc(lessonId ?? '')}`,
        LessonSchema,
      );
      // Reading it made it the viewer's last lesson: "continue" elsewhere is now out of date.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: courseKeys.learning, refetchType: 'none' }),
        queryClient.invalidateQueries({
          queryKey: courseKeys.detail(courseId),
          refetchType: 'none',
        }),
      ]);
      return lesson;
    },
    enabled: !!lessonId,
  });
}

export interface LessonInput {
  title?: string;
  bodyHtml?: string;
  durationMinutes?: number | null;
}

/**
 * The lesson as the server has it now, put into the cache: the lesson editor's Reload after its
 * save was refused as stale (web/src/components/stale-edit.tsx).
 */
export function useReloadLesson(courseId: string) {
  const queryClient = useQueryClient();
  return (lessonId: string) =>
    queryClient.fetchQuery({
      queryKey: courseKeys.lesson(courseId, lessonId),
      queryFn: () => api.get(`${coursePath(courseId)}/lessons/${enc(lessonId)}`, LessonSchema),
      staleTime: 0,
    });
}

export function useCreateLesson(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: LessonInput & { sectionId: string; title: string }) =>
      api.post(`${coursePath(courseId)}/lessons`, input, LessonSchema),
    onSuccess: (lesson) => {
      queryClient.setQueryData(courseKeys.lesson(courseId, lesson.id), lesson);
      return invalidateCourse(queryClient, courseId);
    },
  });
}

/**
 * PATCH …/lessons/:lessonId with the `revision` the editor read. A stale one (409) reloads the
 * course, so its outline shows the lesson as it is now.
 */
export function useUpdateLesson(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ lessonId, ...changes }: LessonInput & { lessonId: string; revision: number }) =>
      api.patch(`${coursePath(courseId)}/lessons/${enc(lessonId)}`, changes, LessonSchema),
    onSuccess: (lesson) => {
      queryClient.setQueryData(courseKeys.lesson(courseId, lesson.id), lesson);
      return invalidateCourse(queryClient, courseId);
    },
    onError: (error) => (isStaleEdit(error) ? invalidateCourse(queryClient, courseId) : undefined),
  });
}

export function useDeleteLesson(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (lessonId: string) =>
      api.delete(`${coursePath(courseId)}/lessons/${enc(lessonId)}`, null),
    onSuccess: () => invalidateCourse(queryClient, courseId),
  });
}

/** PUT …/lessons/:lessonId/progress: marks a lesson complete or not. */
export function useSetLessonProgress(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ lessonId, completed }: { lessonId: string; completed: boolean }) =>
      api.put(
        `${coursePath(courseId)}/lessons/${enc(lessonId)}/progress`,
        { completed },
        LessonProgressSchema,
      ),
    onSuccess: async (result) => {
      // A read of the lesson or the course still under way would land after this and put the
      // old state back: it is cancelled first (it is asked again when next needed).
      await Promise.all([
        queryClient.cancelQueries({ queryKey: courseKeys.lesson(courseId, result.lessonId) }),
        queryClient.cancelQueries({ queryKey: courseKeys.detail(courseId), exact: true }),
      ]);
      queryClient.setQueryData(
        courseKeys.lesson(courseId, result.lessonId),
        (lesson: Lesson | undefined) =>
          lesson ? { ...lesson, completed: result.completed } : lesson,
      );
      queryClient.setQueryData(courseKeys.detail(courseId), (course: CourseDetail | undefined) =>
        course
          ? {
              ...course,
              progress: result.progress,
              sections: course.sections.map((s) => ({
                ...s,
                lessons: s.lessons.map((l) =>
                  l.id === result.lessonId ? { ...l, completed: result.completed } : l,
                ),
              })),
            }
          : course,
      );
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: courseKeys.catalogues }),
        queryClient.invalidateQueries({ queryKey: courseKeys.learning }),
      ]);
    },
  });
}

// ---------------------------------------------------------------- enrolment and participants

/** POST /api/courses/:courseId/enrolment (self; `key` for key-mode courses). */
export function useEnrol(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { key?: string }) =>
      api.post(`${coursePath(courseId)}/enrolment`, input, EnrolmentSchema),
    onSuccess: () => invalidateCourse(queryClient, courseId),
  });
}

/** DELETE /api/courses/:courseId/enrolment (self). */
export function useUnenrol(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete(`${coursePath(courseId)}/enrolment`, null),
    onSuccess: () => invalidateCourse(queryClient, courseId),
  });
}

export function useParticipants(courseId: string, enabled = true) {
  return useQuery({
    queryKey: courseKeys.participants(courseId),
    queryFn: () =>
      api.get(`${coursePath(courseId)}/participants`, ParticipantListSchema).then((r) => r.items),
    enabled,
  });
}

export const CandidateListSchema = pageOf(
  z.object({ id: z.string(), username: z.string(), firstname: z.string(), lastname: z.string() }),
);
export type Candidate = z.infer<typeof CandidateListSchema>['items'][number];

/** GET /api/courses/:courseId/candidates?search=: active users not yet in the course (max 20). */
export function useCandidates(courseId: string, search: string, enabled = true) {
  return useQuery({
    queryKey: courseKeys.candidates(courseId, search),
    queryFn: () =>
      api
        .get(`${coursePath(courseId)}/candidates${queryString({ search })}`, CandidateListSchema)
        .then((r) => r.items),
    placeholderData: keepPreviousData,
    enabled,
  });
}

/** PUT /api/courses/:courseId/participants/:userId: sets a person's course roles and end. */
export function useSetParticipant(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, ...input }: ParticipantSet & { userId: string }) =>
      api.put(`${coursePath(courseId)}/participants/${enc(userId)}`, input, ParticipantSchema),
    onSuccess: () => invalidateCourse(queryClient, courseId),
  });
}

export function useRemoveParticipant(courseId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) =>
      api.delete(`${coursePath(courseId)}/participants/${enc(userId)}`, null),
    onSuccess: () => invalidateCourse(queryClient, courseId),
  });
}

// The overview (GET /api/me/learning): learning-api.ts, which the start page loads without this
// module.
