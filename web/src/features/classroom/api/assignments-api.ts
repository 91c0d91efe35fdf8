/**
 * Query hooks of the classroom's assignments, submissions and grades (docs/classroom.md; the
 * HTTP API is listed in docs/adding-an-area.md's classroom notes and core's contracts). Keys sit
 * under the signed-in user's prefix, so sign-out drops everything loaded here.
 */
import {
  AssignmentDetailSchema,
  CourseAssignmentListSchema,
  GradebookSchema,
  GradeHistorySchema,
  GradeSchema,
  SubmissionListSchema,
  SubmissionSchema,
  type Assignment,
  type AssignmentCreate,
  type AssignmentUpdate,
  type GradeSet,
  type LatePolicy,
  type SubmissionSave,
} from '@learning-hub/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, isStaleEdit } from '../../../lib/api-client';
import { USER_QUERY_PREFIX } from '../../../lib/auth/auth-context';
import { queryString } from '../../../lib/query-string';

export { formatBytes } from '../../../lib/format';

const ROOT = [USER_QUERY_PREFIX, 'classroom-assignments'] as const;

export const assignmentKeys = {
  all: ROOT,
  list: (courseId: string) => [...ROOT, 'course', courseId, 'list'] as const,
  detail: (assignmentId: string) => [...ROOT, 'assignment', assignmentId] as const,
  submissions: (assignmentId: string, params: { latest?: boolean; userId?: string } = {}) =>
    [...ROOT, 'assignment', assignmentId, 'submissions', params] as const,
  submission: (submissionId: string) => [...ROOT, 'submission', submissionId] as const,
  history: (assignmentId: string, userId: string) =>
    [...ROOT, 'assignment', assignmentId, 'history', userId] as const,
  gradebook: (courseId: string, params: object = {}) =>
    [...ROOT, 'course', courseId, 'gradebook', params] as const,
};

const enc = encodeURIComponent;

/** GET /api/courses/:courseId/assignments. */
export function useCourseAssignmentList(courseId: string) {
  return useQuery({
    queryKey: assignmentKeys.list(courseId),
    queryFn: () =>
      api
        .get(`/api/courses/${enc(courseId)}/assignments`, CourseAssignmentListSchema)
        .then((r) => r.items),
  });
}

/**
 * The assignment as the server has it now, put into the cache: a form's Reload after its save
 * was refused as stale (web/src/components/stale-edit.tsx).
 */
export function useReloadAssignment() {
  const queryClient = useQueryClient();
  return (assignmentId: string) =>
    queryClient.fetchQuery({
      queryKey: assignmentKeys.detail(assignmentId),
      queryFn: () => api.get(`/api/assignments/${enc(assignmentId)}`, AssignmentDetailSchema),
      staleTime: 0,
    });
}

/** GET /api/assignments/:assignmentId. */
export function useAssignment(assignmentId: string) {
  return useQuery({
    queryKey: assignmentKeys.detail(assignmentId),
    queryFn: () => api.get(`/api/assignments/${enc(assignmentId)}`, AssignmentDetailSchema),
  });
}

/** Everything about assignments (lists, details, submissions, gradebook) reloads after a change. */
function useRefreshAssignments() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ROOT });
}

export function useCreateAssignment(courseId: string) {
  const refresh = useRefreshAssignments();
  return useMutation({
    mutationFn: (input: AssignmentCreate) =>
      api.post(`/api/courses/${enc(courseId)}/assignments`, input, AssignmentDetailSchema),
    onSuccess: refresh,
  });
}

/**
 * PATCH /api/assignments/:assignmentId with the `revision` read. A stale one (409) refreshes
 * what is shown of assignments too, so the page behind the form shows the change made meanwhile.
 */
export function useUpdateAssignment() {
  const refresh = useRefreshAssignments();
  return useMutation({
    mutationFn: ({ assignmentId, input }: { assignmentId: string; input: AssignmentUpdate }) =>
      api.patch(`/api/assignments/${enc(assignmentId)}`, input, AssignmentDetailSchema),
    onSuccess: refresh,
    onError: (error) => (isStaleEdit(error) ? refresh() : undefined),
  });
}

export function useDeleteAssignment() {
  const refresh = useRefreshAssignments();
  return useMutation({
    mutationFn: (assignmentId: string) => api.delete(`/api/assignments/${enc(assignmentId)}`, null),
    onSuccess: refresh,
  });
}

/**
 * GET /api/assignments/:assignmentId/submissions: a learner gets their own attempts (and the
 * draft); a grader everyone's handed-in attempts (`latest`: only each learner's newest).
 */
export function useSubmissions(
  assignmentId: string,
  params: { latest?: boolean; userId?: string } = {},
  options: { enabled?: boolean } = {},
) {
  const search = new URLSearchParams();
  if (params.userId) search.set('userId', params.userId);
  if (params.latest !== undefined) search.set('latest', String(params.latest));
  const query = search.toString();
  return useQuery({
    queryKey: assignmentKeys.submissions(assignmentId, params),
    queryFn: () =>
      api
        .get(
          `/api/assignments/${enc(assignmentId)}/submissions${query ? `?${query}` : ''}`,
          SubmissionListSchema,
        )
        .then((r) => r.items),
    enabled: options.enabled ?? true,
  });
}

/** POST /api/assignments/:assignmentId/submissions: save the draft or hand in an attempt. */
export function useSaveSubmission(assignmentId: string) {
  const refresh = useRefreshAssignments();
  return useMutation({
    mutationFn: (input: SubmissionSave) =>
      api.post(`/api/assignments/${enc(assignmentId)}/submissions`, input, SubmissionSchema),
    onSuccess: refresh,
  });
}

/** PUT /api/submissions/:submissionId/grade. */
export function useGradeSubmission() {
  const refresh = useRefreshAssignments();
  return useMutation({
    mutationFn: ({ submissionId, input }: { submissionId: string; input: GradeSet }) =>
      api.put(`/api/submissions/${enc(submissionId)}/grade`, input, GradeSchema),
    onSuccess: refresh,
  });
}

/** Revisions of a grade a page. */
export const GRADE_HISTORY_PAGE_SIZE = 25;

/** GET /api/assignments/:assignmentId/grades/:userId/history: one page, newest first. */
export function useGradeHistory(assignmentId: string, userId: string | null, page = 1) {
  return useQuery({
    queryKey: [...assignmentKeys.history(assignmentId, userId ?? ''), page],
    queryFn: () =>
      api.get(
        `/api/assignments/${enc(assignmentId)}/grades/${enc(userId ?? '')}/history${queryString({
          page,
          pageSize: GRADE_HISTORY_PAGE_SIZE,
        })}`,
        GradeHistorySchema,
      ),
    enabled: userId !== null,
    placeholderData: keepPreviousData,
  });
}

export interface GradebookParams {
  search: string;
  page: number;
  pageSize: number;
}

/** GET /api/courses/:courseId/grades: every learner (grade.view_all) or only the viewer's row. */
export function useGradebook(courseId: string, params: GradebookParams) {
  const search = new URLSearchParams({
    page: String(params.page),
    pageSize: String(params.pageSize),
  });
  if (params.search.trim()) search.set('search', params.search.trim());
  return useQuery({
    queryKey: assignmentKeys.gradebook(courseId, params),
    queryFn: () => api.get(`/api/courses/${enc(courseId)}/grades?${search}`, GradebookSchema),
    placeholderData: keepPreviousData,
  });
}

/** PUT /api/courses/:courseId/grades/:assignmentId/:userId: a gradebook override. */
export function useOverrideGrade(courseId: string) {
  const refresh = useRefreshAssignments();
  return useMutation({
    mutationFn: ({
      assignmentId,
      userId,
      input,
    }: {
      assignmentId: string;
      userId: string;
      input: { points: number; feedbackHtml?: string };
    }) =>
      api.put(
        `/api/courses/${enc(courseId)}/grades/${enc(assignmentId)}/${enc(userId)}`,
        input,
        GradeSchema,
      ),
    onSuccess: refresh,
  });
}

// ---------------------------------------------------------------- words shared by the pages

/** The late policy in words, for learners and graders. */
export function latePolicyWords(policy: LatePolicy): string {
  switch (policy) {
    case 'accept':
      return 'Work handed in after the due date is accepted as on time.';
    case 'mark_late':
      return 'Work handed in after the due date is accepted and marked late.';
    case 'refuse':
      return 'Work is not accepted after the due date.';
  }
}

/**
 * A learner's work past its due date and not handed in: 'Overdue' (late work is still taken) or
 * 'Closed' (the late policy refuses it); null otherwise, and for everyone but the learner.
 */
export function overdueWords(
  a: Pick<Assignment, 'dueAt' | 'latePolicy' | 'mine'>,
  now: number,
): 'Overdue' | 'Closed' | null {
  if (!a.mine || a.dueAt === null || Date.parse(a.dueAt) >= now) return null;
  if (a.mine.status !== 'none' && a.mine.status !== 'draft') return null;
  return a.latePolicy === 'refuse' ? 'Closed' : 'Overdue';
}
