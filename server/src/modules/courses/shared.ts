/** What the classroom's course routes share: the caller, the viewer, the course and its access. */
import { AppError } from '@learning-hub/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { UserRecord } from '../../platform/auth/user-repository';
import { courseAccess, type CourseAccess } from './course-access';
import { findCourseRecord, type CourseRecord } from './course-repository';
import type { Viewer } from './course-views';
import type { Db } from '../../platform/db';
import { currentUser } from '../../platform/http/access';

export { currentUser };

export interface CourseRouteOptions {
  db: Db;
  now: () => number;
}

/** The answer for a course that is not there, or not there for the caller. */
export const COURSE_NOT_FOUND = 'Course not found';

const idParam = z.string().min(1).max(200);
export const CourseParams = z.object({ courseId: idParam });
export const SectionParams = CourseParams.extend({ sectionId: idParam });
export const LessonParams = CourseParams.extend({ lessonId: idParam });
export const ParticipantParams = CourseParams.extend({ userId: idParam });

/** The caller as a viewer whose file URLs are signed for their session. */
export function viewerOf(app: FastifyInstance, request: FastifyRequest): Viewer {
  const user = currentUser(request);
  const sessionId = request.auth?.session.id ?? '';
  return {
    user,
    sign: (path) => app.urlSigner.sign(path, sessionId),
    signHtml: (html) => app.urlSigner.signHtml(html, sessionId),
  };
}

/**
 * The course and the caller's access to it: 404 when it is missing or the caller may not see it
 * (a draft they may not edit, an archived course they took no part in), the same answer for both
 * (docs/spec-readings.md, "Rows a caller may not see").
 */
export async function visibleCourse(
  app: FastifyInstance,
  db: Db,
  request: FastifyRequest,
  courseId: string,
  now: number,
): Promise<{ course: CourseRecord; access: CourseAccess; user: UserRecord }> {
  const user = currentUser(request);
  const course = await findCourseRecord(db, courseId);
  if (!course) throw new AppError('NOT_FOUND', COURSE_NOT_FOUND);
  const access = courseAccess(app.access, user, course, now);
  if (!access.canSee) throw new AppError('NOT_FOUND', COURSE_NOT_FOUND);
  return { course, access, user };
}

/** A course the caller may change now: visible, course.edit, and not archived (409). */
export async function editableCourse(
  app: FastifyInstance,
  db: Db,
  request: FastifyRequest,
  courseId: string,
  now: number,
) {
  const found = await visibleCourse(app, db, request, courseId, now);
  if (!found.access.editor)
    throw new AppError('FORBIDDEN', 'Missing required permission: course.edit');
  if (found.course.state === 'archived') {
    throw new AppError('CONFLICT', 'This course is archived; restore it to make changes.');
  }
  return found;
}
