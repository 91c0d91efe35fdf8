/**
 * Grades: grading a handed-in attempt, overriding a grade from the gradebook, a grade's history,
 * the gradebook (everyone, or only one's own released grades) and its CSV export, streamed. See
 * docs/classroom.md ("Assignments, submissions and grades") and assignments/gradebook.ts for the reading of the totals.
 */
import {
  AppError,
  GradebookQuerySchema,
  GradebookSchema,
  GradeHistoryQuerySchema,
  GradeHistorySchema,
  GradeOverrideSchema,
  GradeSchema,
  GradeSetSchema,
} from '@learning-hub/core';
import type { FastifyInstance } from 'fastify';
import { tellGrades } from './assignment-notices';
import type { UserRecord } from '../../platform/auth/user-repository';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findAssignment, type AssignmentRecord } from './assignment-repository';
import { gradebookCsv, readGradebook } from './gradebook';
import {
  countGrades,
  isGradableLearner,
  listGradeHistory,
  setGrade,
  type GradeChange,
} from './grade-repository';
import { findSubmission } from './submission-repository';
import { isUniqueViolation } from '../../platform/db/errors';
import { sanitizeRichText } from '../../platform/rich-text/sanitize';
import { pageWindow, sendPage } from '../../platform/paging';
import { visibleAssignment, visibleCourse } from './assignments-routes';
import {
  COURSE_ARCHIVED,
  GRADE_OWNER,
  NOT_A_PARTICIPANT,
  ONLY_OWN_GRADES,
  currentUser,
  gradeOwnerId,
  idParam,
  requireLearn,
  requireOpen,
  requirePermission,
  sessionOf,
  toGrade,
  type AssignmentsOptions,
} from './shared';

const CourseParams = z.object({ courseId: idParam });
const SubmissionParams = z.object({ submissionId: idParam });
const HistoryParams = z.object({ assignmentId: idParam, userId: idParam });
const OverrideParams = z.object({ courseId: idParam, assignmentId: idParam, userId: idParam });

const GRADE_RACE = 'Someone else graded this at the same moment. Reload and try again.';

function checkPoints(assignment: AssignmentRecord, points: number) {
  if (points > assignment.points) {
    throw new AppError('BAD_REQUEST', `Points cannot be more than ${assignment.points}.`);
  }
}

export function registerGradeRoutes(app: FastifyInstance, options: AssignmentsOptions): void {
  const { db, now } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const iso = () => new Date(now()).toISOString();

  /**
   * Saves the grade (releasing the assignment's grades with it when it releases on save) and
   * answers it with the release state as it is after the save.
   */
  async function save(
    user: UserRecord,
    change: GradeChange,
    assignment: AssignmentRecord,
    sid: string,
  ) {
    let grade;
    try {
      grade = await setGrade(db, change, iso(), async (trx, released) => {
        // Learners hear of a grade they may see: saved with the grades released.
        if (released) {
          const now = { ...assignment, gradesReleased: true };
          await tellGrades(app, trx, now, [change], user.id);
        }
      });
      void app.notifications.dispatch();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('CONFLICT', GRADE_RACE);
      throw error;
    }
    // The pictures the feedback shows: the one path of every rich-text field.
    await app.files.attachReferenced(user, change.feedbackHtml, {
      type: GRADE_OWNER,
      id: gradeOwnerId(change.assignmentId, change.userId),
    });
    const after = (await findAssignment(db, assignment.id)) ?? assignment;
    return toGrade(app, grade, after, sid);
  }

  r.put(
    '/api/submissions/:submissionId/grade',
    {
      config: {
        access: { permissions: ['assignment.grade'], scope: 'any' },
        responses: {
          400: ['Points cannot be more than <points>.'],
          403: [NOT_A_PARTICIPANT],
          409: [COURSE_ARCHIVED, 'This work has not been handed in yet.', GRADE_RACE],
        },
      },
      schema: {
        operationId: 'updateSubmissionGrade',
        tags: ['assignments'],
        summary: 'Grade a handed-in attempt',
        description:
          'assignment.grade in the course. Sets the learner’s grade for the assignment (a new ' +
          'revision each time; earlier ones stay in the history). Feedback is sanitised. An ' +
          'assignment that releases on save is released with the grade (`released`).',
        params: SubmissionParams,
        body: GradeSetSchema,
        response: { 200: GradeSchema },
      },
    },
    async (request) => {
      const submission = await findSubmission(db, request.params.submissionId);
      if (!submission) throw new AppError('NOT_FOUND', 'Submission not found');
      const assignment = await findAssignment(db, submission.assignmentId);
      if (!assignment) throw new AppError('NOT_FOUND', 'Submission not found');
      const { course, access } = await visibleCourse(
        app,
        request,
        options,
        assignment.courseId,
        'Submission not found',
      );
      const user = currentUser(request);
      requirePermission(app, user, course.id, 'assignment.grade');
      requireLearn(access);
      requireOpen(course);
      if (submission.status !== 'submitted') {
        throw new AppError('CONFLICT', 'This work has not been handed in yet.');
      }
      checkPoints(assignment, request.body.points);
      return save(
        user,
        {
          assignmentId: assignment.id,
          courseId: course.id,
          userId: submission.userId,
          submissionId: submission.id,
          points: request.body.points,
          feedbackHtml: sanitizeRichText(request.body.feedbackHtml ?? ''),
          gradedBy: user.id,
          override: false,
        },
        assignment,
        sessionOf(request),
      );
    },
  );

  r.put(
    '/api/courses/:courseId/grades/:assignmentId/:userId',
    {
      config: {
        access: { permissions: ['grade.edit'], scope: { type: 'course', param: 'courseId' } },
        responses: {
          400: ['Points cannot be more than <points>.'],
          403: [NOT_A_PARTICIPANT],
          404: ['Assignment not found', 'This person is not a learner in this course.'],
          409: [COURSE_ARCHIVED, GRADE_RACE],
        },
      },
      schema: {
        operationId: 'updateGradeOverride',
        tags: ['assignments'],
        summary: 'Override a grade in the gradebook',
        description:
          'grade.edit in the course. Sets the learner’s grade for the assignment without a ' +
          'submission (marked as an override), as a new revision. An assignment that releases ' +
          'on save is released with the grade.',
        params: OverrideParams,
        body: GradeOverrideSchema,
        response: { 200: GradeSchema },
      },
    },
    async (request) => {
      const { course, access } = await visibleCourse(
        app,
        request,
        options,
        request.params.courseId,
      );
      requireLearn(access);
      requireOpen(course);
      const assignment = await findAssignment(db, request.params.assignmentId);
      if (!assignment || assignment.courseId !== course.id) {
        throw new AppError('NOT_FOUND', 'Assignment not found');
      }
      const learner = request.params.userId;
      if (!(await isGradableLearner(db, course.id, assignment.id, learner, iso()))) {
        throw new AppError('NOT_FOUND', 'This person is not a learner in this course.');
      }
      checkPoints(assignment, request.body.points);
      return save(
        currentUser(request),
        {
          assignmentId: assignment.id,
          courseId: course.id,
          userId: learner,
          submissionId: null,
          points: request.body.points,
          feedbackHtml: sanitizeRichText(request.body.feedbackHtml ?? ''),
          gradedBy: currentUser(request).id,
          override: true,
        },
        assignment,
        sessionOf(request),
      );
    },
  );

  r.get(
    '/api/assignments/:assignmentId/grades/:userId/history',
    {
      config: {
        access: { permissions: ['grade.view_all', 'grade.view_own'], mode: 'any', scope: 'any' },
        responses: { 403: [NOT_A_PARTICIPANT, ONLY_OWN_GRADES] },
      },
      schema: {
        operationId: 'listGradeHistory',
        tags: ['assignments'],
        summary: 'A grade’s history',
        description:
          'Its revisions, newest first, a page at a time. grade.view_all in the course: anyone’s; otherwise only ' +
          'one’s own, and only once the grades are released (empty before).',
        params: HistoryParams,
        querystring: GradeHistoryQuerySchema,
        response: { 200: GradeHistorySchema },
      },
    },
    async (request, reply) => {
      const { assignment, course, access } = await visibleAssignment(
        app,
        request,
        options,
        request.params.assignmentId,
      );
      requireLearn(access);
      const user = currentUser(request);
      const sid = sessionOf(request);
      const { page, pageSize } = request.query;
      const all = access.can('grade.view_all');
      if (!all) {
        if (request.params.userId !== user.id) throw new AppError('FORBIDDEN', ONLY_OWN_GRADES);
        requirePermission(app, user, course.id, 'grade.view_own');
        if (!assignment.gradesReleased) {
          return sendPage(request, reply, { items: [], total: 0, page, pageSize });
        }
      }
      const { rows, total } = await listGradeHistory(
        db,
        assignment.id,
        request.params.userId,
        pageWindow(request.query),
      );
      const items = rows.map((g) => toGrade(app, g, assignment, sid));
      return sendPage(request, reply, { items, total, page, pageSize });
    },
  );

  r.get(
    '/api/courses/:courseId/grades',
    {
      config: {
        access: {
          permissions: ['grade.view_all', 'grade.view_own'],
          mode: 'any',
          scope: { type: 'course', param: 'courseId' },
        },
        responses: { 403: [NOT_A_PARTICIPANT] },
      },
      schema: {
        operationId: 'getGradebook',
        tags: ['assignments'],
        summary: 'The gradebook',
        description:
          'For participants (learn access), as the course’s assignments. ' +
          'grade.view_all in the course: every learner (search on names and username, paged). ' +
          'Otherwise (grade.view_own): only the viewer’s own row, released grades only. ' +
          '`totalPoints` sums the visible grades; `percent` is that over the points of the ' +
          'graded assignments only (null while nothing is graded). With grade.view_all, each ' +
          'assignment says how many grades learners cannot see yet (`unreleasedGrades`).',
        params: CourseParams,
        querystring: GradebookQuerySchema,
        response: { 200: GradebookSchema },
      },
    },
    async (request, reply) => {
      const { course, access } = await visibleCourse(
        app,
        request,
        options,
        request.params.courseId,
      );
      // The participants' rule of the course's assignments: the gradebook lists them too.
      requireLearn(access);
      const user = currentUser(request);
      const { page, pageSize, search } = request.query;
      const all = access.can('grade.view_all');
      if (!all) requirePermission(app, user, course.id, 'grade.view_own');
      const [book, graded] = await Promise.all([
        readGradebook(db, {
          courseId: course.id,
          nowIso: iso(),
          ...(search ? { search } : {}),
          ...pageWindow({ page, pageSize }),
          ...(all ? {} : { onlyUserId: user.id }),
          releasedOnly: !all,
        }),
        all ? countGrades(db, course.id) : null,
      ]);
      return sendPage(request, reply, {
        courseId: course.id,
        assignments: book.assignments.map((a) => ({
          id: a.id,
          title: a.title,
          points: a.points,
          dueAt: a.dueAt,
          gradesReleased: a.gradesReleased,
          unreleasedGrades: graded ? (a.gradesReleased ? 0 : (graded.get(a.id) ?? 0)) : null,
        })),
        items: book.rows,
        total: book.total,
        page,
        pageSize,
      });
    },
  );

  r.get(
    '/api/courses/:courseId/grades.csv',
    {
      config: {
        access: { permissions: ['grade.export'], scope: { type: 'course', param: 'courseId' } },
        responses: {
          200: {
            description: 'The gradebook as CSV, as an attachment (`<code>-grades.csv`).',
            content: 'text/csv',
            headers: { 'content-disposition': 'attachment; filename="<code>-grades.csv"' },
          },
          403: [NOT_A_PARTICIPANT],
        },
      },
      schema: {
        operationId: 'getGradebookCsv',
        tags: ['assignments'],
        summary: 'Export the gradebook as CSV',
        description:
          'grade.export in the course. `text/csv` (UTF-8 with a byte-order mark), one row per ' +
          'learner: Username, First name, Last name, one column per assignment ' +
          '("<title> (<points>)"), Total, Percent. Streamed. Text cells are quoted, and a ' +
          'character that would start a formula (at the start or after `;`, `,`, a tab or a ' +
          'line break) gets an apostrophe before it; numbers are written bare.',
        params: CourseParams,
      },
    },
    async (request, reply) => {
      const { course, access } = await visibleCourse(
        app,
        request,
        options,
        request.params.courseId,
      );
      requireLearn(access);
      const name = `${course.code.replace(/[^A-Za-z0-9._-]/g, '_')}-grades.csv`;
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${name}"`)
        .header('cache-control', 'private, no-store')
        .send(gradebookCsv(db, { courseId: course.id, nowIso: iso() }));
    },
  );
}
