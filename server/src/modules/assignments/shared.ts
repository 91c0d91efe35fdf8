/**
 * What the assignment, submission and grade routes share: who is asking, the course rules
 * (courses/course-access.ts) applied to a thing found by its id, and turning records into the
 * contracts' shapes with URLs signed for the viewer. See docs/classroom.md.
 */
import {
  AppError,
  type Assignment,
  type Grade,
  type PermissionId,
  type Submission,
  type SubmissionFile,
} from '@learning-hub/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { UserRecord } from '../../platform/auth/user-repository';
import { courseAccess, courseContext, type CourseAccess } from '../courses/public';
import type { Db } from '../../platform/db';
import type { AssignmentRecord, CourseGateRecord, LearnerState } from './assignment-repository';
import type { GradeRecord } from './grade-repository';
import type { OwnedFile, SubmissionRecord } from './submission-repository';
import { currentUser } from '../../platform/http/access';

export { currentUser };

export interface AssignmentsOptions {
  db: Db;
  now: () => number;
  /** The server's upload limit (config.files.maxUploadBytes). */
  maxUploadBytes: number;
}

/** A path parameter naming a stored thing: no control characters, no slashes. */
export const idParam = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[\w.:@~-]+$/, 'Not a valid id');

export const COURSE_ARCHIVED = 'This course is archived.';
/** A signed-in user who may see the course but does not take part in it. */
export const NOT_A_PARTICIPANT = 'Only the participants of this course can open its assignments.';
export const ONLY_ENROLLED_SUBMIT = 'Only enrolled learners can submit work.';
export const ONLY_OWN_SUBMISSIONS = 'You can only see your own submissions.';
export const ONLY_OWN_GRADES = 'You can only see your own grades.';

/** The largest file size an assignment may accept: the upload limit, and never above 100 MB. */
export const ASSIGNMENT_FILE_CAP = 100 * 1024 * 1024;

export function sessionOf(request: FastifyRequest): string {
  const session = request.auth?.session;
  if (!session) throw new AppError('UNAUTHENTICATED', 'User not authenticated');
  return session.id;
}

/** The viewer's access to the course (course-access.ts), per request and judged by `now`. */
export function accessTo(
  app: FastifyInstance,
  request: FastifyRequest,
  course: CourseGateRecord,
  now: () => number,
): CourseAccess {
  return courseAccess(app.access, currentUser(request), course, now());
}

/** Refuses with the permission model's own reason unless the user holds `permission` in the course. */
export function requirePermission(
  app: FastifyInstance,
  user: UserRecord,
  courseId: string,
  permission: PermissionId,
): void {
  const decision = app.access.decide(
    user.id,
    { permissions: [permission], mode: 'all', roles: [] },
    courseContext(courseId),
  );
  if (!decision.allowed) throw new AppError('FORBIDDEN', decision.reason);
}

/** Only participants (and those who may edit the course) read its assignments. */
export function requireLearn(access: CourseAccess): void {
  if (!access.canLearn) throw new AppError('FORBIDDEN', NOT_A_PARTICIPANT);
}

/** An archived course is read-only. */
export function requireOpen(course: CourseGateRecord): void {
  if (course.state === 'archived') throw new AppError('CONFLICT', COURSE_ARCHIVED);
}

/** Megabytes for messages: "25 MB", "0.5 MB". */
export function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  return `${mb >= 10 ? Math.floor(mb) : Math.floor(mb * 10) / 10} MB`;
}

export function toFile(app: FastifyInstance, file: OwnedFile, sid: string): SubmissionFile {
  const path = `/api/files/${file.id}`;
  return {
    id: file.id,
    name: file.name,
    mime: file.mime,
    size: file.size,
    url: app.urlSigner.sign(path, sid),
    thumbnailUrl: file.hasThumbnail ? app.urlSigner.sign(`${path}/thumbnail`, sid) : null,
  };
}

export function toAssignment(
  app: FastifyInstance,
  a: AssignmentRecord,
  sid: string,
  viewer: {
    mine: LearnerState | null;
    toGrade: number | null;
    unreleasedGrades: number | null;
    canReleaseGrades: boolean;
  },
): Assignment {
  return {
    id: a.id,
    courseId: a.courseId,
    title: a.title,
    instructionsHtml: app.urlSigner.signHtml(a.instructionsHtml, sid),
    dueAt: a.dueAt,
    points: a.points,
    submissionKinds: a.submissionKinds,
    fileKinds: a.fileKinds,
    maxFileBytes: a.maxFileBytes,
    latePolicy: a.latePolicy,
    maxAttempts: a.maxAttempts,
    gradesReleased: a.gradesReleased,
    releaseOnSave: a.releaseOnSave,
    position: a.position,
    createdAt: a.createdAt,
    updatedAt: a.updatedAt,
    revision: a.revision,
    mine: viewer.mine,
    toGrade: viewer.toGrade,
    unreleasedGrades: viewer.unreleasedGrades,
    canReleaseGrades: viewer.canReleaseGrades,
  };
}

export function toGrade(
  app: FastifyInstance,
  g: GradeRecord,
  assignment: AssignmentRecord,
  sid: string,
): Grade {
  return {
    assignmentId: g.assignmentId,
    userId: g.userId,
    submissionId: g.submissionId,
    points: g.points,
    maxPoints: assignment.points,
    feedbackHtml: app.urlSigner.signHtml(g.feedbackHtml, sid),
    gradedBy: g.gradedBy,
    gradedByName: g.gradedByName,
    gradedAt: g.gradedAt,
    override: g.override,
    released: assignment.gradesReleased,
    revision: g.revision,
  };
}

/**
 * A submission for the viewer. A draft shows as the attempt it would become (`nextAttempt`);
 * `grade` only when the caller decided the viewer may see it.
 */
export function toSubmission(
  app: FastifyInstance,
  s: SubmissionRecord,
  sid: string,
  extra: {
    files: OwnedFile[];
    grade: Grade | null;
    nextAttempt: number;
  },
): Submission {
  return {
    id: s.id,
    assignmentId: s.assignmentId,
    courseId: s.courseId,
    userId: s.userId,
    userName: s.userName,
    attempt: s.status === 'draft' ? extra.nextAttempt : s.attempt,
    status: s.status,
    textHtml: app.urlSigner.signHtml(s.textHtml, sid),
    files: extra.files.map((f) => toFile(app, f, sid)),
    submittedAt: s.submittedAt,
    late: s.late,
    updatedAt: s.updatedAt,
    grade: extra.grade,
  };
}

/** The file owner type of a grade's feedback pictures; its id is `gradeOwnerId`. */
export const GRADE_OWNER = 'grade';

/** A grade as a file owner: the learner's grade of one assignment, whatever its revision. */
export function gradeOwnerId(assignmentId: string, learnerId: string): string {
  return `${assignmentId}:${learnerId}`;
}

export function gradeOwnerOf(id: string): { assignmentId: string; learnerId: string } {
  const [assignmentId = '', learnerId = ''] = id.split(':');
  return { assignmentId, learnerId };
}
