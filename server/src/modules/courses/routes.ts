/**
 * Courses (docs/classroom.md): the catalogue, one course with its outline and the viewer's
 * flags, creating, changing (state rules, optimistic revision), deleting and copying a course,
 * and the learner's overview. Sections, lessons and progress are in lessons-routes.ts;
 * enrolment and participants in participants-routes.ts. The rules live in server/src/modules/courses.
 */
import {
  AppError,
  CatalogueQuerySchema,
  CatalogueSchema,
  CourseCopySchema,
  CourseCreateSchema,
  CourseDetailSchema,
  CourseUpdateSchema,
  LearningOverviewSchema,
} from '@learning-hub/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { courseAccess } from './course-access';
import { findCourseRecord, listCataloguePage } from './course-repository';
import {
  COURSE_COVER,
  COURSE_MESSAGES as M,
  copyCourseFor,
  createCourseFor,
  deleteCourseFully,
  LESSON,
  updateCourseFor,
} from './course-service';
import { buildCards, buildDetail } from './course-views';
import { courseVisibilityOf } from '../../platform/visibility/course-visibility';
import { learningOverview } from './learning-overview';
import { actorOf } from '../../platform/http/access';
import { createdAnswer } from '../../platform/http/openapi';
import { findLessonCourseId } from './structure-repository';
import { pageWindow, sendPage } from '../../platform/paging';
import {
  CourseParams,
  currentUser,
  viewerOf,
  visibleCourse,
  type CourseRouteOptions,
} from './shared';

/** The refusals of a course's settings (API description). */
const SETTINGS_REFUSALS = {
  400: [
    M.keyNeeded,
    M.noDepartment,
    M.endBeforeStart,
    'The cover must be an image (PNG, JPEG, WebP or GIF).',
  ],
  404: ['File not found (the cover names no upload of the user’s).'],
  409: [M.codeTaken, 'This file is already attached to something else.'],
};

const courseRoutes: FastifyPluginAsyncZod<CourseRouteOptions> = async (app, { db, now }) => {
  // Who may open the files of a course's cover and summary, and of its lessons.
  const gateOf = async (user: Parameters<typeof courseAccess>[1], courseId: string | null) => {
    const course = courseId ? await findCourseRecord(db, courseId) : null;
    return course ? courseAccess(app.access, user, course, now()) : null;
  };
  app.files.registerFileOwner(COURSE_COVER, {
    canRead: async (user, courseId) => (await gateOf(user, courseId))?.canSee ?? false,
    canAttach: async (user, courseId) => (await gateOf(user, courseId))?.canEdit ?? false,
  });
  app.files.registerFileOwner(LESSON, {
    canRead: async (user, lessonId) =>
      (await gateOf(user, await findLessonCourseId(db, lessonId)))?.canLearn ?? false,
    canAttach: async (user, lessonId) =>
      (await gateOf(user, await findLessonCourseId(db, lessonId)))?.canEdit ?? false,
  });

  app.get(
    '/api/courses',
    {
      config: { access: { permissions: ['course.view'], scope: 'any' } },
      schema: {
        operationId: 'listCourses',
        tags: ['courses'],
        summary: 'The course catalogue (published courses; drafts and archived ones for editors)',
        querystring: CatalogueQuerySchema,
        response: { 200: CatalogueSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const at = now();
      const { page, pageSize, search, departmentId, scope, state } = request.query;
      const visibility = courseVisibilityOf(app.access, user, at);
      const { courses, total } = await listCataloguePage(app.reads, {
        search: search || undefined,
        departmentId: departmentId || undefined,
        scope,
        state,
        visibility,
        ...pageWindow({ page, pageSize }),
      });
      const items = await buildCards(
        app.reads,
        courses,
        viewerOf(app, request),
        visibility.enrolledIds,
        at,
      );
      return sendPage(request, reply, { items, total, page, pageSize });
    },
  );

  app.post(
    '/api/courses',
    {
      config: {
        access: { permissions: ['course.create'], roles: ['instructor', 'admin'] },
        responses: { ...SETTINGS_REFUSALS, 201: createdAnswer('/api/courses/<id>') },
      },
      schema: {
        operationId: 'createCourse',
        tags: ['courses'],
        summary: 'Create a course (a draft; the creator becomes its instructor)',
        body: CourseCreateSchema,
        response: { 201: CourseDetailSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const course = await createCourseFor(db, app.files, {
        body: request.body,
        user,
        actor: actorOf(request),
        now: now(),
      });
      // The creator's new course-instructor role counts from their next request; say it now.
      const detail = await buildDetail(db, app.access, course, viewerOf(app, request), now());
      return reply
        .code(201)
        .header('location', `/api/courses/${encodeURIComponent(course.id)}`)
        .send(asCreator(detail));
    },
  );

  app.get(
    '/api/courses/:courseId',
    {
      config: {
        access: { permissions: ['course.view'], scope: { type: 'course', param: 'courseId' } },
      },
      schema: {
        operationId: 'getCourse',
        tags: ['courses'],
        summary: 'One course with its outline and what the viewer may do in it',
        params: CourseParams,
        response: { 200: CourseDetailSchema },
      },
    },
    async (request) => {
      const at = now();
      const { course, access } = await visibleCourse(app, db, request, request.params.courseId, at);
      return buildDetail(db, app.access, course, viewerOf(app, request), at, access);
    },
  );

  app.patch(
    '/api/courses/:courseId',
    {
      config: {
        access: { permissions: ['course.edit'], scope: { type: 'course', param: 'courseId' } },
        responses: {
          ...SETTINGS_REFUSALS,
          409: [
            ...SETTINGS_REFUSALS[409],
            M.stale,
            M.archived,
            M.needsLesson,
            'A <state> course cannot become <state>.',
          ],
        },
      },
      schema: {
        operationId: 'updateCourse',
        tags: ['courses'],
        summary: 'Change a course, publish, archive or restore it (409 on a stale revision)',
        params: CourseParams,
        body: CourseUpdateSchema,
        response: { 200: CourseDetailSchema },
      },
    },
    async (request) => {
      const at = now();
      const { course, access, user } = await visibleCourse(
        app,
        db,
        request,
        request.params.courseId,
        at,
      );
      if (!access.editor) {
        throw new AppError('FORBIDDEN', 'Missing required permission: course.edit');
      }
      const updated = await updateCourseFor(db, app.files, {
        course,
        body: request.body,
        user,
        now: at,
      });
      return buildDetail(db, app.access, updated, viewerOf(app, request), now());
    },
  );

  app.delete(
    '/api/courses/:courseId',
    {
      config: {
        access: { permissions: ['course.delete'], scope: { type: 'course', param: 'courseId' } },
        responses: { 204: 'Deleted, with its files.', 409: [M.hasWork] },
      },
      schema: {
        operationId: 'deleteCourse',
        tags: ['courses'],
        summary: 'Delete a course (409 when it has submissions or grades: archive it instead)',
        params: CourseParams,
      },
    },
    async (request, reply) => {
      await deleteCourseFully(db, app.files, app.areas, {
        courseId: request.params.courseId,
        actor: actorOf(request),
        now: now(),
      });
      return reply.code(204).send();
    },
  );

  app.post(
    '/api/courses/:courseId/copy',
    {
      config: {
        access: {
          permissions: ['course.create', 'course.edit'],
          roles: ['instructor', 'admin'],
          scope: { type: 'course', param: 'courseId' },
        },
        responses: { 201: createdAnswer('/api/courses/<id>', 'The copy.'), 409: [M.codeTaken] },
      },
      schema: {
        operationId: 'copyCourse',
        tags: ['courses'],
        summary: 'Copy a course into a new draft with its structure, lessons and assignments',
        params: CourseParams,
        body: CourseCopySchema,
        response: { 201: CourseDetailSchema },
      },
    },
    async (request, reply) => {
      const at = now();
      const { course, access, user } = await visibleCourse(
        app,
        db,
        request,
        request.params.courseId,
        at,
      );
      if (!access.editor) {
        throw new AppError('FORBIDDEN', 'Missing required permission: course.edit');
      }
      const copy = await copyCourseFor(db, app.files, {
        source: course,
        code: request.body.code,
        title: request.body.title,
        user,
        actor: actorOf(request),
        now: at,
      });
      const detail = await buildDetail(db, app.access, copy, viewerOf(app, request), now());
      return reply
        .code(201)
        .header('location', `/api/courses/${encodeURIComponent(copy.id)}`)
        .send(asCreator(detail));
    },
  );

  app.get(
    '/api/me/learning',
    {
      config: { access: {} },
      schema: {
        operationId: 'getOwnLearning',
        tags: ['courses'],
        summary: 'The signed-in user’s courses, work due, recent grades and courses they teach',
        response: { 200: LearningOverviewSchema },
      },
    },
    async (request) => learningOverview(db, app.access, viewerOf(app, request), now()),
  );
};

/**
 * The detail of a course its creator has just made: the course-instructor role written in this
 * request reaches the permission engine on their next request, so its flags are stated here.
 */
function asCreator<T extends { viewer: { roles: string[]; canLearn: boolean } }>(detail: T): T {
  const roles = detail.viewer.roles.includes('course-instructor')
    ? detail.viewer.roles
    : [...detail.viewer.roles, 'course-instructor'];
  return { ...detail, viewer: { ...detail.viewer, roles, canLearn: true } };
}

export default courseRoutes;
