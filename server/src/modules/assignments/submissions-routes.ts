/**
 * Submissions: a learner saves a draft and hands it in as the next attempt; graders list and read
 * the handed-in attempts of everyone; a learner only ever sees their own. See docs/classroom.md.
 */
import {
  AppError,
  FILE_KIND_MIME,
  SubmissionListQuerySchema,
  SubmissionListSchema,
  SubmissionSaveSchema,
  SubmissionSchema,
  type Submission,
} from '@learning-hub/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { findAssignment, type AssignmentRecord } from './assignment-repository';
import { findGrade, listAssignmentGrades, type GradeRecord } from './grade-repository';
import { sendPage, slicePage } from '../../platform/paging';
import { createdAnswer } from '../../platform/http/openapi';
import {
  attemptsUsed,
  findDraft,
  findSubmission,
  handIn,
  listFilesOfOwners,
  listSubmissions,
  saveDraft,
  type SubmissionRecord,
} from './submission-repository';
import { isUniqueViolation } from '../../platform/db/errors';
import {
  isBlankRichText,
  referencedFileIds,
  sanitizeRichText,
} from '../../platform/rich-text/sanitize';
import { visibleAssignment, visibleCourse } from './assignments-routes';
import {
  COURSE_ARCHIVED,
  NOT_A_PARTICIPANT,
  ONLY_ENROLLED_SUBMIT,
  ONLY_OWN_SUBMISSIONS,
  currentUser,
  idParam,
  megabytes,
  requireLearn,
  requireOpen,
  requirePermission,
  sessionOf,
  toGrade,
  toSubmission,
  type AssignmentsOptions,
} from './shared';

const AssignmentParams = z.object({ assignmentId: idParam });
const SubmissionParams = z.object({ submissionId: idParam });
const SubmissionListQuery = SubmissionListQuerySchema.extend({
  /** One learner's attempts (graders); a learner may only name themselves. */
  userId: idParam.optional(),
  /** `true`: only each learner's latest attempt. */
  latest: z.enum(['true', 'false']).optional(),
});

/** Who may reach the submission routes at all; the handlers decide per course and per submission. */
const SUBMISSION_READERS = ['assignment.view_submissions', 'assignment.submit'] as const;

/** Whether a detected type is one of the kinds the assignment allows (none listed: any). */
function allowedType(assignment: AssignmentRecord, mime: string): boolean {
  if (assignment.fileKinds.length === 0) return true;
  return assignment.fileKinds.some((kind) => (FILE_KIND_MIME[kind] ?? []).includes(mime));
}

function checkFile(
  assignment: AssignmentRecord,
  file: { name: string; mime: string; size: number },
) {
  if (!allowedType(assignment, file.mime)) {
    throw new AppError(
      'BAD_REQUEST',
      `${file.name} is not an allowed file type for this assignment.`,
    );
  }
  if (file.size > assignment.maxFileBytes) {
    throw new AppError(
      'BAD_REQUEST',
      `${file.name} is larger than the ${megabytes(assignment.maxFileBytes)} this assignment accepts.`,
    );
  }
}

const CLOSED_TO_LATE_WORK =
  'The due date has passed; this assignment no longer accepts submissions.';

/** Past the due date of an assignment whose late policy refuses late work. */
function isClosedForLateWork(
  assignment: { dueAt: string | null; latePolicy: string },
  at: number,
): boolean {
  return (
    assignment.latePolicy === 'refuse' &&
    assignment.dueAt !== null &&
    at > Date.parse(assignment.dueAt)
  );
}

/**
 * The files a submission lists as attachments: those its answer does not show inline (pictures
 * added with the editor belong to the text, as an assignment's instructions' do).
 */
function attachmentsOf<F extends { id: string }>(textHtml: string, files: F[]): F[] {
  const inline = new Set(referencedFileIds(textHtml));
  return files.filter((f) => !inline.has(f.id));
}

const NO_TEXT = 'This assignment does not take a written answer; attach a file instead.';
const NO_FILES = 'This assignment does not take files; write your answer instead.';

export function registerSubmissionRoutes(app: FastifyInstance, options: AssignmentsOptions): void {
  const { db, now } = options;
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Submissions for the viewer, with their files and the grades the caller lets them see. */
  async function present(
    request: FastifyRequest,
    list: SubmissionRecord[],
    grades: Map<string, GradeRecord>,
    assignment: AssignmentRecord,
    showGrades: boolean,
  ): Promise<Submission[]> {
    const sid = sessionOf(request);
    const files = await listFilesOfOwners(
      db,
      'submission',
      list.map((s) => s.id),
    );
    const highest = new Map<string, number>();
    for (const s of list) highest.set(s.userId, Math.max(highest.get(s.userId) ?? 0, s.attempt));
    return list.map((s) => {
      const grade = grades.get(s.userId);
      const visible = showGrades && grade !== undefined && grade.submissionId === s.id;
      return toSubmission(app, s, sid, {
        files: attachmentsOf(s.textHtml, files.get(s.id) ?? []),
        grade: visible ? toGrade(app, grade, assignment, sid) : null,
        nextAttempt: (highest.get(s.userId) ?? 0) + 1,
      });
    });
  }

  r.get(
    '/api/assignments/:assignmentId/submissions',
    {
      config: {
        access: { permissions: SUBMISSION_READERS, mode: 'any', scope: 'any' },
        responses: { 403: [NOT_A_PARTICIPANT, ONLY_OWN_SUBMISSIONS] },
      },
      schema: {
        operationId: 'listSubmissions',
        tags: ['assignments'],
        summary: 'List submissions of an assignment',
        description:
          'Graders (assignment.view_submissions in the course): everyone’s handed-in attempts, ' +
          'never drafts; `latest=true` keeps each learner’s latest. A learner: only their own ' +
          'attempts and their draft, grades only once released.',
        params: AssignmentParams,
        querystring: SubmissionListQuery,
        response: { 200: SubmissionListSchema },
      },
    },
    async (request, reply) => {
      const { assignment, access } = await visibleAssignment(
        app,
        request,
        options,
        request.params.assignmentId,
      );
      requireLearn(access);
      const user = currentUser(request);
      const latest = request.query.latest === 'true';
      if (access.can('assignment.view_submissions')) {
        const { items: list, ...page } = slicePage(
          await listSubmissions(db, {
            assignmentId: assignment.id,
            ...(request.query.userId ? { userId: request.query.userId } : {}),
            latest,
          }),
          request.query,
        );
        const grades = await listAssignmentGrades(
          db,
          assignment.id,
          list.map((s) => s.userId),
        );
        const items = await present(request, list, grades, assignment, true);
        return sendPage(request, reply, { items, ...page });
      }
      if (request.query.userId && request.query.userId !== user.id) {
        throw new AppError('FORBIDDEN', ONLY_OWN_SUBMISSIONS);
      }
      const { items: list, ...page } = slicePage(
        await listSubmissions(db, {
          assignmentId: assignment.id,
          userId: user.id,
          latest,
          withDraftOf: user.id,
        }),
        request.query,
      );
      const grade = assignment.gradesReleased ? await findGrade(db, assignment.id, user.id) : null;
      const grades = new Map(grade ? [[user.id, grade]] : []);
      const items = await present(request, list, grades, assignment, true);
      return sendPage(request, reply, { items, ...page });
    },
  );

  r.post(
    '/api/assignments/:assignmentId/submissions',
    {
      config: {
        access: { permissions: ['assignment.submit'], scope: 'any' },
        responses: {
          400: [
            NO_TEXT,
            NO_FILES,
            'The file <id> is not one of your uploads.',
            '<name> is not an allowed file type for this assignment.',
            '<name> is larger than the <n> MB this assignment accepts.',
            'Add an answer or a file before submitting.',
          ],
          201: createdAnswer('/api/submissions/<id>', 'Handed in.'),
          403: [ONLY_ENROLLED_SUBMIT],
          409: [
            COURSE_ARCHIVED,
            CLOSED_TO_LATE_WORK,
            'You have used all <n> attempts for this assignment.',
            'This work was handed in by another request at the same moment. Reload to see it.',
          ],
        },
      },
      schema: {
        operationId: 'createSubmission',
        tags: ['assignments'],
        summary: 'Save a draft or hand in an attempt',
        description:
          'For learners enrolled now. Saves the draft (text and/or uploaded files; `fileIds` ' +
          'replaces the list) and, with `submit: true`, hands it in as the next attempt (201; a ' +
          'draft save answers 200). Attempts, the due date and the late policy are enforced ' +
          'atomically.',
        params: AssignmentParams,
        body: SubmissionSaveSchema,
        response: { 200: SubmissionSchema, 201: SubmissionSchema },
      },
    },
    async (request, reply) => {
      const { assignment, course, access } = await visibleAssignment(
        app,
        request,
        options,
        request.params.assignmentId,
      );
      const user = currentUser(request);
      requirePermission(app, user, course.id, 'assignment.submit');
      if (!access.enrolled) throw new AppError('FORBIDDEN', ONLY_ENROLLED_SUBMIT);
      requireOpen(course);
      const body = request.body;
      // Past the due date of an assignment that refuses late work, nothing is taken: no hand-in
      // and no draft either (the hand-in's own check below also holds for a request that was
      // on its way when the date passed).
      if (isClosedForLateWork(assignment, now()))
        throw new AppError('CONFLICT', CLOSED_TO_LATE_WORK);
      const takesText = assignment.submissionKinds.includes('text');
      const takesFiles = assignment.submissionKinds.includes('file');
      const text = body.textHtml === undefined ? undefined : sanitizeRichText(body.textHtml);
      if (text && !takesText) throw new AppError('BAD_REQUEST', NO_TEXT);
      const fileIds = body.fileIds === undefined ? undefined : [...new Set(body.fileIds)];
      if (fileIds && fileIds.length > 0 && !takesFiles) throw new AppError('BAD_REQUEST', NO_FILES);

      const keys = { assignmentId: assignment.id, courseId: course.id, userId: user.id };
      const before = await findDraft(db, assignment.id, user.id);
      for (const id of fileIds ?? []) {
        const file = await app.files.find(id);
        const own =
          file !== null &&
          file.uploadedBy === user.id &&
          (file.ownerType === null ||
            (file.ownerType === 'submission' && before !== null && file.ownerId === before.id));
        if (!file || !own) {
          throw new AppError('BAD_REQUEST', `The file ${id} is not one of your uploads.`);
        }
        checkFile(assignment, file);
      }

      const at = new Date(now()).toISOString();
      // Handing in without changes saves nothing first: a refused hand-in then leaves no trace.
      const changes = text !== undefined || fileIds !== undefined || !body.submit;
      const draft = changes ? await saveDraft(db, keys, text, at) : before;
      const owner = draft ? { type: 'submission', id: draft.id } : null;
      if (draft && owner && fileIds) {
        const current = await app.files.listOwned(owner);
        // The pictures the answer shows stay: they are the text's, not the list's.
        const wanted = new Set([...fileIds, ...referencedFileIds(draft.textHtml)]);
        for (const file of current) if (!wanted.has(file.id)) await app.files.deleteOwned(file.id);
        const have = new Set(current.map((f) => f.id));
        for (const id of fileIds) if (!have.has(id)) await app.files.attach(user, id, owner);
      }
      // The pictures the answer shows (the editor's image button): the one path of every
      // rich-text field, so the graders see them too.
      if (draft && owner && text !== undefined) {
        // A picture taken out of the answer goes with it: it was the text's, never an attachment.
        const shown = new Set(referencedFileIds(draft.textHtml));
        const dropped = new Set(
          referencedFileIds(before?.textHtml ?? '').filter(
            (id) => !shown.has(id) && !fileIds?.includes(id),
          ),
        );
        if (dropped.size > 0) {
          for (const file of await app.files.listOwned(owner)) {
            if (dropped.has(file.id)) await app.files.deleteOwned(file.id);
          }
        }
        await app.files.attachReferenced(user, draft.textHtml, owner);
      }

      let id = draft?.id ?? '';
      if (body.submit) {
        // The files as they are now (the assignment may have changed since they were added).
        const files = draft ? await app.files.listOwned({ type: 'submission', id: draft.id }) : [];
        for (const file of attachmentsOf(draft?.textHtml ?? '', files)) checkFile(assignment, file);
        try {
          id = await handIn(db, keys, at, (state) => {
            const max = assignment.maxAttempts;
            if (max !== null && state.attempt > max) {
              throw new AppError(
                'CONFLICT',
                `You have used all ${max} attempts for this assignment.`,
              );
            }
            const late = assignment.dueAt !== null && now() > Date.parse(assignment.dueAt);
            if (isClosedForLateWork(assignment, now())) {
              throw new AppError('CONFLICT', CLOSED_TO_LATE_WORK);
            }
            const hasText = !isBlankRichText(state.textHtml);
            const inline = new Set(referencedFileIds(state.textHtml));
            const fileCount = state.fileIds.filter((f) => !inline.has(f)).length;
            if (!hasText && fileCount === 0) {
              throw new AppError('BAD_REQUEST', 'Add an answer or a file before submitting.');
            }
            if (hasText && !takesText) throw new AppError('BAD_REQUEST', NO_TEXT);
            if (fileCount > 0 && !takesFiles) throw new AppError('BAD_REQUEST', NO_FILES);
            return { late: late && assignment.latePolicy === 'mark_late' };
          });
        } catch (error) {
          if (isUniqueViolation(error)) {
            throw new AppError(
              'CONFLICT',
              'This work was handed in by another request at the same moment. Reload to see it.',
            );
          }
          throw error;
        }
      }

      const saved = await findSubmission(db, id);
      if (!saved) throw new AppError('NOT_FOUND', 'Submission not found');
      const [submission] = await present(request, [saved], new Map(), assignment, false);
      const used = saved.status === 'draft' ? await attemptsUsed(db, assignment.id, user.id) : 0;
      const result = submission as Submission;
      if (saved.status === 'draft') result.attempt = used + 1;
      if (!body.submit) return reply.code(200).send(result);
      return reply
        .code(201)
        .header('location', `/api/submissions/${encodeURIComponent(saved.id)}`)
        .send(result);
    },
  );

  r.get(
    '/api/submissions/:submissionId',
    {
      config: {
        access: { permissions: SUBMISSION_READERS, mode: 'any', scope: 'any' },
        responses: { 403: [NOT_A_PARTICIPANT, ONLY_OWN_SUBMISSIONS] },
      },
      schema: {
        operationId: 'getSubmission',
        tags: ['assignments'],
        summary: 'Read a submission',
        description:
          'The learner’s own (draft included), or any handed-in attempt for graders ' +
          '(assignment.view_submissions in the course). The grade shows to the learner once released.',
        params: SubmissionParams,
        response: { 200: SubmissionSchema },
      },
    },
    async (request) => {
      const submission = await findSubmission(db, request.params.submissionId);
      if (!submission) throw new AppError('NOT_FOUND', 'Submission not found');
      const assignment = await findAssignment(db, submission.assignmentId);
      if (!assignment) throw new AppError('NOT_FOUND', 'Submission not found');
      const { access } = await visibleCourse(
        app,
        request,
        options,
        assignment.courseId,
        'Submission not found',
      );
      requireLearn(access);
      const user = currentUser(request);
      const own = submission.userId === user.id;
      const grader = access.can('assignment.view_submissions');
      if (!own) {
        if (!grader) throw new AppError('FORBIDDEN', ONLY_OWN_SUBMISSIONS);
        // Drafts are the learner's own business until handed in.
        if (submission.status === 'draft') throw new AppError('NOT_FOUND', 'Submission not found');
      }
      const showGrade = grader || assignment.gradesReleased;
      const grade = showGrade ? await findGrade(db, assignment.id, submission.userId) : null;
      const used =
        submission.status === 'draft'
          ? await attemptsUsed(db, assignment.id, submission.userId)
          : 0;
      const [result] = await present(
        request,
        [submission],
        new Map(grade ? [[submission.userId, grade]] : []),
        assignment,
        showGrade,
      );
      const out = result as Submission;
      if (submission.status === 'draft') out.attempt = used + 1;
      return out;
    },
  );
}
