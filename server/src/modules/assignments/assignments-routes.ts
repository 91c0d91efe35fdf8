/**
 * Assignments: a course's list, creating one, reading, changing (grade release included) and
 * deleting one. Readers are the course's participants (learn access); changes need the
 * assignment.* permission in the course, and an archived course is read-only. See
 * docs/classroom.md.
 */
import {
  AppError,
  AssignmentCreateSchema,
  AssignmentDetailSchema,
  AssignmentUpdateSchema,
  COURSE_ASSIGNMENTS_MAX,
  CourseAssignmentListQuerySchema,
  CourseAssignmentListSchema,
  STALE_REVISION_MESSAGE,
  type AssignmentDetail,
} from '@learning-hub/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  countAssignments,
  deleteAssignmentWithoutWork,
  findAssignment,
  findCourseGate,
  highestGrade,
  insertAssignment,
  learnerStates,
  listAssignments,
  listDraftIds,
  toGradeCounts,
  updateAssignment,
  type AssignmentChanges,
  type AssignmentRecord,
  type CourseGateRecord,
  type LearnerState,
} from './assignment-repository';
import { countGrades, listAssignmentGrades } from './grade-repository';
import { learnersOf, tellGrades, tellNewAssignment } from './assignment-notices';
import type { OwnedFile } from './submission-repository';
import type { CourseAccess } from '../courses/public';
import { referencedFileIds, sanitizeRichText } from '../../platform/rich-text/sanitize';
import type { FileRecord } from '../../platform/storage/file-repository';
import { createdAnswer } from '../../platform/http/openapi';
import { sendPage, slicePage } from '../../platform/paging';
import { mayReleaseGrades } from './assignment-access';
import {
  ASSIGNMENT_FILE_CAP,
  accessTo,
  COURSE_ARCHIVED,
  currentUser,
  idParam,
  megabytes,
  NOT_A_PARTICIPANT,
  requireLearn,
  requireOpen,
  requirePermission,
  sessionOf,
  toAssignment,
  toFile,
  type AssignmentsOptions,
} from './shared';

const CourseParams = z.object({ courseId: idParam });
const AssignmentParams = z.object({ assignmentId: idParam });

const NO_WORK: LearnerState = { status: 'none', attemptsUsed: 0, points: null, late: false };

/** Who may read assignments at all: participants hold one of these (the handler checks learn access). */
const READERS = ['assignment.view', 'course.edit', 'assignment.view_submissions'] as const;

/** The refusals of a change to an assignment (API description). */
const CHANGE_REFUSALS = {
  400: [
    'The largest file size an assignment can accept is <n> MB (<bytes> bytes).',
    'The file <id> is not one of your uploads.',
  ],
  403: [NOT_A_PARTICIPANT],
  409: [COURSE_ARCHIVED],
};

export function ownedFile(file: FileRecord): OwnedFile {
  return {
    id: file.id,
    ownerId: file.ownerId ?? '',
    name: file.name,
    mime: file.mime,
    size: file.size,
    hasThumbnail: file.thumbnailKey !== null,
  };
}

/** The course, when the viewer may know of it (drafts only with course.edit): else 404. */
export async function visibleCourse(
  app: FastifyInstance,
  request: FastifyRequest,
  options: AssignmentsOptions,
  courseId: string,
  notFound = 'Course not found',
): Promise<{ course: CourseGateRecord; access: CourseAccess }> {
  const course = await findCourseGate(options.db, courseId);
  if (!course) throw new AppError('NOT_FOUND', notFound);
  const access = accessTo(app, request, course, options.now);
  if (!access.canSee) throw new AppError('NOT_FOUND', notFound);
  return { course, access };
}

/** The assignment, its course and the viewer's access there (404 when missing or not visible). */
export async function visibleAssignment(
  app: FastifyInstance,
  request: FastifyRequest,
  options: AssignmentsOptions,
  assignmentId: string,
): Promise<{ assignment: AssignmentRecord; course: CourseGateRecord; access: CourseAccess }> {
  const assignment = await findAssignment(options.db, assignmentId);
  if (!assignment) throw new AppError('NOT_FOUND', 'Assignment not found');
  const { course, access } = await visibleCourse(
    app,
    request,
    options,
    assignment.courseId,
    'Assignment not found',
  );
  return { assignment, course, access };
}

export function registerAssignmentRoutes(app: FastifyInstance, options: AssignmentsOptions): void {
  const { db, now } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const fileCap = Math.min(options.maxUploadBytes, ASSIGNMENT_FILE_CAP);
  const iso = () => new Date(now()).toISOString();

  function checkMaxFileBytes(bytes: number | undefined) {
    if (bytes !== undefined && bytes > fileCap) {
      throw new AppError(
        'BAD_REQUEST',
        `The largest file size an assignment can accept is ${megabytes(fileCap)} (${fileCap} bytes).`,
      );
    }
  }

  /**
   * The viewer's part of an assignment: their own state when enrolled; for graders the queue and
   * the grades learners cannot see yet; whether they may release grades (the PATCH route's rule).
   */
  async function viewerParts(
    access: CourseAccess,
    course: CourseGateRecord,
    userId: string,
    id?: string,
  ) {
    const grader = access.can('assignment.view_submissions');
    const [mine, toGrade, graded] = await Promise.all([
      access.enrolled ? learnerStates(db, course.id, userId, id) : null,
      grader ? toGradeCounts(db, course.id, id) : null,
      grader ? countGrades(db, course.id, id) : null,
    ]);
    const canReleaseGrades = mayReleaseGrades({ access, archived: course.state === 'archived' });
    return (assignment: AssignmentRecord) => ({
      mine: mine ? (mine.get(assignment.id) ?? NO_WORK) : null,
      toGrade: toGrade ? (toGrade.get(assignment.id) ?? 0) : null,
      unreleasedGrades: graded
        ? assignment.gradesReleased
          ? 0
          : (graded.get(assignment.id) ?? 0)
        : null,
      canReleaseGrades,
    });
  }

  async function detail(
    request: FastifyRequest,
    assignment: AssignmentRecord,
    course: CourseGateRecord,
    access: CourseAccess,
  ): Promise<AssignmentDetail> {
    const sid = sessionOf(request);
    const [owned, parts] = await Promise.all([
      app.files.listOwned({ type: 'assignment', id: assignment.id }),
      viewerParts(access, course, currentUser(request).id, assignment.id),
    ]);
    // Files the instructions show inline are not listed again as attachments.
    const inline = new Set(referencedFileIds(assignment.instructionsHtml));
    return {
      ...toAssignment(app, assignment, sid, parts(assignment)),
      courseTitle: course.title,
      attachments: owned
        .filter((f) => !inline.has(f.id))
        .map((f) => toFile(app, ownedFile(f), sid)),
    };
  }

  /** Checks before saving: each attachment is the user's own upload, unattached or already here. */
  async function checkAttachments(userId: string, ids: readonly string[], assignmentId?: string) {
    for (const id of ids) {
      const file = await app.files.find(id);
      const usable =
        file !== null &&
        (file.ownerType === null
          ? file.uploadedBy === userId
          : file.ownerType === 'assignment' && file.ownerId === assignmentId);
      if (!usable) {
        throw new AppError('BAD_REQUEST', `The file ${id} is not one of your uploads.`);
      }
    }
  }

  /**
   * Makes the assignment's files what was asked: the attachments listed (when given; others it
   * had are deleted) and every stored file the instructions show that the user uploaded.
   */
  async function syncFiles(
    request: FastifyRequest,
    assignment: AssignmentRecord,
    attachmentIds: readonly string[] | undefined,
  ) {
    const user = currentUser(request);
    const owner = { type: 'assignment', id: assignment.id };
    const current = await app.files.listOwned(owner);
    const inline = referencedFileIds(assignment.instructionsHtml);
    const have = new Set(current.map((f) => f.id));
    if (attachmentIds) {
      const keep = new Set([...attachmentIds, ...inline]);
      for (const file of current) if (!keep.has(file.id)) await app.files.deleteOwned(file.id);
    }
    for (const id of attachmentIds ?? []) {
      if (!have.has(id)) await app.files.attach(user, id, owner);
    }
    // The pictures the instructions show: the one path of every rich-text field.
    await app.files.attachReferenced(user, assignment.instructionsHtml, owner);
  }

  r.get(
    '/api/courses/:courseId/assignments',
    {
      config: {
        access: {
          permissions: READERS,
          mode: 'any',
          scope: { type: 'course', param: 'courseId' },
        },
        responses: { 403: [NOT_A_PARTICIPANT] },
      },
      schema: {
        operationId: 'listAssignments',
        tags: ['assignments'],
        summary: 'List a course’s assignments',
        description:
          'For participants (learn access). A learner sees their own state in each (`mine`); ' +
          'graders see how many handed-in attempts wait for a grade (`toGrade`).',
        params: CourseParams,
        querystring: CourseAssignmentListQuerySchema,
        response: { 200: CourseAssignmentListSchema },
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
      const sid = sessionOf(request);
      const [assignments, parts] = await Promise.all([
        listAssignments(db, course.id),
        viewerParts(access, course, currentUser(request).id),
      ]);
      const { items, ...page } = slicePage(assignments, request.query);
      const presented = items.map((a) => toAssignment(app, a, sid, parts(a)));
      return sendPage(request, reply, { items: presented, ...page });
    },
  );

  r.post(
    '/api/courses/:courseId/assignments',
    {
      config: {
        access: {
          permissions: ['assignment.create'],
          scope: { type: 'course', param: 'courseId' },
        },
        responses: {
          ...CHANGE_REFUSALS,
          201: createdAnswer('/api/assignments/<id>'),
          409: [...CHANGE_REFUSALS[409], 'A course can have at most <n> assignments.'],
        },
      },
      schema: {
        operationId: 'createAssignment',
        tags: ['assignments'],
        summary: 'Create an assignment',
        description:
          'Defaults: 100 points, text and file answers, any file type, files up to the upload ' +
          'limit (at most 100 MB), late work marked late, unlimited attempts, grades released ' +
          'by hand (`releaseOnSave` false). The instructions ' +
          'are sanitised; attachments are uploads of the caller (POST /api/files).',
        params: CourseParams,
        body: AssignmentCreateSchema,
        response: { 201: AssignmentDetailSchema },
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
      requireOpen(course);
      const body = request.body;
      checkMaxFileBytes(body.maxFileBytes);
      if ((await countAssignments(db, course.id)) >= COURSE_ASSIGNMENTS_MAX) {
        throw new AppError(
          'CONFLICT',
          `A course can have at most ${COURSE_ASSIGNMENTS_MAX} assignments.`,
        );
      }
      const user = currentUser(request);
      await checkAttachments(user.id, body.attachmentFileIds ?? []);
      const learners = await learnersOf(app, db, course.id, now());
      const assignment = await db.transaction().execute(async (trx) => {
        const created = await insertAssignment(
          trx,
          {
            courseId: course.id,
            title: body.title,
            instructionsHtml: sanitizeRichText(body.instructionsHtml ?? ''),
            dueAt: body.dueAt ? new Date(body.dueAt).toISOString() : null,
            points: body.points ?? 100,
            submissionKinds: [...new Set(body.submissionKinds ?? (['text', 'file'] as const))],
            fileKinds: [...new Set(body.fileKinds ?? [])],
            maxFileBytes: body.maxFileBytes ?? fileCap,
            latePolicy: body.latePolicy ?? 'mark_late',
            maxAttempts: body.maxAttempts ?? null,
            releaseOnSave: body.releaseOnSave ?? false,
          },
          iso(),
        );
        await tellNewAssignment(app, trx, created, course.title, learners, user.id);
        return created;
      });
      void app.notifications.dispatch();
      await syncFiles(request, assignment, body.attachmentFileIds ?? []);
      return reply
        .code(201)
        .header('location', `/api/assignments/${encodeURIComponent(assignment.id)}`)
        .send(await detail(request, assignment, course, access));
    },
  );

  r.get(
    '/api/assignments/:assignmentId',
    {
      config: {
        access: { permissions: READERS, mode: 'any', scope: 'any' },
        responses: { 403: [NOT_A_PARTICIPANT] },
      },
      schema: {
        operationId: 'getAssignment',
        tags: ['assignments'],
        summary: 'Read an assignment',
        description:
          'For the course’s participants (learn access): instructions with signed file URLs, ' +
          'the attached files, and the viewer’s own state or grading queue.',
        params: AssignmentParams,
        response: { 200: AssignmentDetailSchema },
      },
    },
    async (request) => {
      const { assignment, course, access } = await visibleAssignment(
        app,
        request,
        options,
        request.params.assignmentId,
      );
      requireLearn(access);
      return detail(request, assignment, course, access);
    },
  );

  r.patch(
    '/api/assignments/:assignmentId',
    {
      config: {
        access: { permissions: ['assignment.edit'], scope: 'any' },
        responses: {
          ...CHANGE_REFUSALS,
          409: [
            ...CHANGE_REFUSALS[409],
            STALE_REVISION_MESSAGE,
            'A grade of <n> points has been given; the assignment cannot be worth less.',
          ],
        },
      },
      schema: {
        operationId: 'updateAssignment',
        tags: ['assignments'],
        summary: 'Change an assignment or release its grades',
        description:
          'Any subset of the fields, with the `revision` read: 409 when someone else changed the ' +
          'assignment since. `attachmentFileIds`, when given, is the whole list (files ' +
          'left out are deleted). Points cannot go below a grade already given. ' +
          '`gradesReleased` shows or hides the grades now; `releaseOnSave` releases them as ' +
          'each grade is saved.',
        params: AssignmentParams,
        body: AssignmentUpdateSchema,
        response: { 200: AssignmentDetailSchema },
      },
    },
    async (request) => {
      const { assignment, course, access } = await visibleAssignment(
        app,
        request,
        options,
        request.params.assignmentId,
      );
      const user = currentUser(request);
      requirePermission(app, user, course.id, 'assignment.edit');
      requireLearn(access);
      requireOpen(course);
      const body = request.body;
      checkMaxFileBytes(body.maxFileBytes);
      if (body.points !== undefined && body.points < assignment.points) {
        const highest = await highestGrade(db, assignment.id);
        if (highest !== null && highest > body.points) {
          throw new AppError(
            'CONFLICT',
            `A grade of ${highest} points has been given; the assignment cannot be worth less.`,
          );
        }
      }
      if (body.attachmentFileIds) {
        await checkAttachments(user.id, body.attachmentFileIds, assignment.id);
      }
      const changes: AssignmentChanges = {};
      if (body.title !== undefined) changes.title = body.title;
      if (body.instructionsHtml !== undefined)
        changes.instructionsHtml = sanitizeRichText(body.instructionsHtml);
      if (body.dueAt !== undefined)
        changes.dueAt = body.dueAt === null ? null : new Date(body.dueAt).toISOString();
      if (body.points !== undefined) changes.points = body.points;
      if (body.submissionKinds !== undefined)
        changes.submissionKinds = [...new Set(body.submissionKinds)];
      if (body.fileKinds !== undefined) changes.fileKinds = [...new Set(body.fileKinds)];
      if (body.maxFileBytes !== undefined) changes.maxFileBytes = body.maxFileBytes;
      if (body.latePolicy !== undefined) changes.latePolicy = body.latePolicy;
      if (body.maxAttempts !== undefined) changes.maxAttempts = body.maxAttempts;
      if (body.gradesReleased !== undefined) changes.gradesReleased = body.gradesReleased;
      if (body.releaseOnSave !== undefined) changes.releaseOnSave = body.releaseOnSave;
      const releasing = changes.gradesReleased === true && !assignment.gradesReleased;
      const updated = await db.transaction().execute(async (trx) => {
        const saved = await updateAssignment(trx, assignment.id, body.revision, changes, iso());
        // Released now: every learner with a grade hears of theirs.
        if (saved && releasing) {
          const grades = [...(await listAssignmentGrades(trx, saved.id)).values()];
          await tellGrades(app, trx, saved, grades, user.id);
        }
        return saved;
      });
      if (releasing) void app.notifications.dispatch();
      if (!updated) throw new AppError('NOT_FOUND', 'Assignment not found');
      if (body.attachmentFileIds !== undefined || body.instructionsHtml !== undefined) {
        await syncFiles(request, updated, body.attachmentFileIds);
      }
      return detail(request, updated, course, access);
    },
  );

  r.delete(
    '/api/assignments/:assignmentId',
    {
      config: {
        access: { permissions: ['assignment.delete'], scope: 'any' },
        responses: {
          204: 'Deleted, with its files and the learners’ drafts.',
          403: [NOT_A_PARTICIPANT],
          409: [
            COURSE_ARCHIVED,
            'This assignment has submissions or grades; it cannot be deleted.',
          ],
        },
      },
      schema: {
        operationId: 'deleteAssignment',
        tags: ['assignments'],
        summary: 'Delete an assignment',
        description:
          'Only while nothing was handed in and nothing graded (409 otherwise); its files and ' +
          'the learners’ drafts go with it.',
        params: AssignmentParams,
      },
    },
    async (request, reply) => {
      const { assignment, course, access } = await visibleAssignment(
        app,
        request,
        options,
        request.params.assignmentId,
      );
      requirePermission(app, currentUser(request), course.id, 'assignment.delete');
      requireLearn(access);
      requireOpen(course);
      const drafts = await listDraftIds(db, assignment.id);
      if (!(await deleteAssignmentWithoutWork(db, assignment.id))) {
        throw new AppError(
          'CONFLICT',
          'This assignment has submissions or grades; it cannot be deleted.',
        );
      }
      for (const owner of [
        { type: 'assignment', id: assignment.id },
        ...drafts.map((id) => ({ type: 'submission', id })),
      ]) {
        for (const file of await app.files.listOwned(owner)) await app.files.deleteOwned(file.id);
      }
      return reply.code(204).send();
    },
  );
}
