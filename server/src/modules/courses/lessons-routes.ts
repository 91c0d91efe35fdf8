/**
 * A course's structure and reading (docs/classroom.md): sections, the outline order, lessons
 * (bodies sanitised, their media attached to the lesson and served with signed URLs) and the
 * learner's progress. Structure changes take the course's row lock, so limits and positions
 * cannot race.
 */
import {
  AppError,
  COURSE_SECTIONS_MAX,
  CourseDetailSchema,
  LessonCreateSchema,
  LessonProgressSchema,
  LessonProgressUpdateSchema,
  LessonSchema,
  LessonUpdateSchema,
  OutlineOrderSchema,
  SECTION_LESSONS_MAX,
  SectionCreateSchema,
  SectionSchema,
  SectionUpdateSchema,
  STALE_REVISION_MESSAGE,
  type Lesson,
} from '@learning-hub/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { UserRecord } from '../../platform/auth/user-repository';
import { lockCourse, touchCourse } from './course-repository';
import { LESSON } from './course-service';
import { buildDetail, type Viewer } from './course-views';
import {
  completedLessonIds,
  recordLessonViewed,
  setLessonCompleted,
  toProgress,
} from './progress-repository';
import {
  applyOutline,
  countLessonsInSection,
  countSections,
  deleteLesson,
  deleteSection,
  findLesson,
  findSection,
  insertLesson,
  insertSection,
  listLessonIds,
  loadOutline,
  readingOrder,
  updateLesson,
  updateSectionTitle,
  type LessonRecord,
} from './structure-repository';
import type { Db } from '../../platform/db';
import { sortableId } from '../../platform/ids';
import { sanitizeRichText } from '../../platform/rich-text/sanitize';
import { createdAnswer, type DocumentedAnswer } from '../../platform/http/openapi';
import {
  CourseParams,
  editableCourse,
  LessonParams,
  SectionParams,
  viewerOf,
  visibleCourse,
  type CourseRouteOptions,
} from './shared';

const LIMITS = {
  sections: `A course has at most ${COURSE_SECTIONS_MAX} sections.`,
  lessons: `A section has at most ${SECTION_LESSONS_MAX} lessons.`,
};

const ARCHIVED = 'This course is archived; restore it to make changes.';

/** A change to the structure: its access, and its answers for the API description. */
const courseEdit = (
  answers: { 201?: DocumentedAnswer; 204?: string; 400?: string[]; 409?: string[] } = {},
) => ({
  access: {
    permissions: ['course.edit' as const],
    scope: { type: 'course' as const, param: 'courseId' },
  },
  responses: { ...answers, 409: [ARCHIVED, ...(answers[409] ?? [])] },
});

/** A lesson as the viewer reads it: media signed for them, neighbours across sections. */
async function lessonView(
  db: Db,
  lesson: LessonRecord,
  viewer: Viewer,
  enrolled: boolean,
): Promise<Lesson> {
  const [outline, done] = await Promise.all([
    loadOutline(db, lesson.courseId),
    enrolled
      ? completedLessonIds(db, viewer.user.id, lesson.courseId)
      : Promise.resolve(new Set<string>()),
  ]);
  const order = readingOrder(outline);
  const at = order.findIndex((l) => l.id === lesson.id);
  return {
    id: lesson.id,
    courseId: lesson.courseId,
    sectionId: lesson.sectionId,
    title: lesson.title,
    durationMinutes: lesson.durationMinutes,
    position: lesson.position,
    completed: done.has(lesson.id),
    revision: lesson.revision,
    bodyHtml: viewer.signHtml(lesson.bodyHtml),
    updatedAt: lesson.updatedAt,
    previousLessonId: at > 0 ? (order[at - 1]?.id ?? null) : null,
    nextLessonId: at >= 0 ? (order[at + 1]?.id ?? null) : null,
  };
}

const lessonsRoutes: FastifyPluginAsyncZod<CourseRouteOptions> = async (app, { db, now }) => {
  const iso = () => new Date(now()).toISOString();

  /** Runs a structure change under the course's row lock and marks the course changed. */
  const underLock = <T>(courseId: string, change: (trx: Db) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      const course = await lockCourse(trx, courseId);
      if (!course) throw new AppError('NOT_FOUND', 'Course not found');
      if (course.state === 'archived') {
        throw new AppError('CONFLICT', ARCHIVED);
      }
      const result = await change(trx);
      await touchCourse(trx, courseId, iso());
      return result;
    });

  const attachLessonMedia = (user: UserRecord, lessonId: string, html: string) =>
    app.files.attachReferenced(user, html, { type: LESSON, id: lessonId });

  // ------------------------------------------------------------ sections

  app.post(
    '/api/courses/:courseId/sections',
    {
      config: courseEdit({
        201: createdAnswer('/api/courses/<courseId>/sections/<id>'),
        409: [LIMITS.sections],
      }),
      schema: {
        operationId: 'createSection',
        tags: ['courses'],
        summary: 'Add a section at the end of the course',
        params: CourseParams,
        body: SectionCreateSchema,
        response: { 201: SectionSchema },
      },
    },
    async (request, reply) => {
      const { course } = await editableCourse(app, db, request, request.params.courseId, now());
      const section = await underLock(course.id, async (trx) => {
        if ((await countSections(trx, course.id)) >= COURSE_SECTIONS_MAX) {
          throw new AppError('CONFLICT', LIMITS.sections);
        }
        return insertSection(
          trx,
          { id: sortableId(), courseId: course.id, title: request.body.title },
          iso(),
        );
      });
      return reply
        .code(201)
        .header(
          'location',
          `/api/courses/${encodeURIComponent(course.id)}/sections/${encodeURIComponent(section.id)}`,
        )
        .send({ ...section, lessons: [] });
    },
  );

  app.patch(
    '/api/courses/:courseId/sections/:sectionId',
    {
      config: courseEdit(),
      schema: {
        operationId: 'updateSection',
        tags: ['courses'],
        summary: 'Rename a section',
        params: SectionParams,
        body: SectionUpdateSchema,
        response: { 200: SectionSchema },
      },
    },
    async (request) => {
      const { course } = await editableCourse(app, db, request, request.params.courseId, now());
      const section = await findSection(db, course.id, request.params.sectionId);
      if (!section) throw new AppError('NOT_FOUND', 'Section not found');
      await underLock(course.id, (trx) => updateSectionTitle(trx, section.id, request.body.title));
      const outline = await loadOutline(db, course.id);
      const saved = outline.sections.find((s) => s.id === section.id);
      if (!saved) throw new AppError('NOT_FOUND', 'Section not found');
      return {
        id: saved.id,
        title: saved.title,
        position: saved.position,
        lessons: saved.lessons.map((l) => ({ ...l, completed: false })),
      };
    },
  );

  app.delete(
    '/api/courses/:courseId/sections/:sectionId',
    {
      config: courseEdit({ 204: 'Deleted, with its lessons and their files.' }),
      schema: {
        operationId: 'deleteSection',
        tags: ['courses'],
        summary: 'Delete a section and its lessons',
        params: SectionParams,
      },
    },
    async (request, reply) => {
      const { course } = await editableCourse(app, db, request, request.params.courseId, now());
      const section = await findSection(db, course.id, request.params.sectionId);
      if (!section) throw new AppError('NOT_FOUND', 'Section not found');
      const lessonIds = await listLessonIds(db, { courseId: course.id, sectionId: section.id });
      const files = (
        await Promise.all(lessonIds.map((id) => app.files.listOwned({ type: LESSON, id })))
      ).flat();
      await underLock(course.id, (trx) => deleteSection(trx, course.id, section.id));
      for (const file of files) await app.files.deleteOwned(file.id);
      return reply.code(204).send();
    },
  );

  app.put(
    '/api/courses/:courseId/outline',
    {
      config: courseEdit({
        400: [
          'The order must name each section of the course exactly once.',
          'The order must name each lesson of the course exactly once.',
        ],
      }),
      schema: {
        operationId: 'updateCourseOutline',
        tags: ['courses'],
        summary: 'Reorder the whole outline (sections, and lessons within and across sections)',
        params: CourseParams,
        body: OutlineOrderSchema,
        response: { 200: CourseDetailSchema },
      },
    },
    async (request) => {
      const { course, access } = await editableCourse(
        app,
        db,
        request,
        request.params.courseId,
        now(),
      );
      const order = request.body.sections;
      await underLock(course.id, async (trx) => {
        const outline = await loadOutline(trx, course.id);
        const sectionIds = outline.sections.map((s) => s.id);
        const lessonIds = readingOrder(outline).map((l) => l.id);
        const givenSections = order.map((s) => s.id);
        const givenLessons = order.flatMap((s) => s.lessonIds);
        const same = (a: string[], b: string[]) =>
          a.length === b.length && new Set(a).size === a.length && b.every((x) => a.includes(x));
        if (!same(givenSections, sectionIds)) {
          throw new AppError(
            'VALIDATION_ERROR',
            'The order must name each section of the course exactly once.',
          );
        }
        if (!same(givenLessons, lessonIds)) {
          throw new AppError(
            'VALIDATION_ERROR',
            'The order must name each lesson of the course exactly once.',
          );
        }
        await applyOutline(trx, course.id, order);
      });
      return buildDetail(db, app.access, course, viewerOf(app, request), now(), access);
    },
  );

  // ------------------------------------------------------------ lessons

  app.post(
    '/api/courses/:courseId/lessons',
    {
      config: courseEdit({
        201: createdAnswer('/api/courses/<courseId>/lessons/<id>'),
        400: ['There is no such section in this course.'],
        409: [LIMITS.lessons],
      }),
      schema: {
        operationId: 'createLesson',
        tags: ['courses'],
        summary: 'Add a lesson at the end of a section',
        params: CourseParams,
        body: LessonCreateSchema,
        response: { 201: LessonSchema },
      },
    },
    async (request, reply) => {
      const { course, user } = await editableCourse(
        app,
        db,
        request,
        request.params.courseId,
        now(),
      );
      const body = request.body;
      const bodyHtml = sanitizeRichText(body.bodyHtml ?? '');
      const lesson = await underLock(course.id, async (trx) => {
        const section = await findSection(trx, course.id, body.sectionId);
        if (!section)
          throw new AppError('VALIDATION_ERROR', 'There is no such section in this course.');
        if ((await countLessonsInSection(trx, section.id)) >= SECTION_LESSONS_MAX) {
          throw new AppError('CONFLICT', LIMITS.lessons);
        }
        return insertLesson(
          trx,
          {
            id: sortableId(),
            courseId: course.id,
            sectionId: section.id,
            title: body.title,
            bodyHtml,
            durationMinutes: body.durationMinutes ?? null,
          },
          iso(),
        );
      });
      await attachLessonMedia(user, lesson.id, bodyHtml);
      return reply
        .code(201)
        .header(
          'location',
          `/api/courses/${encodeURIComponent(course.id)}/lessons/${encodeURIComponent(lesson.id)}`,
        )
        .send(await lessonView(db, lesson, viewerOf(app, request), false));
    },
  );

  app.get(
    '/api/courses/:courseId/lessons/:lessonId',
    {
      config: {
        access: { permissions: ['course.view'], scope: { type: 'course', param: 'courseId' } },
        responses: { 403: ['Enrol in this course to open its lessons.'] },
      },
      schema: {
        operationId: 'getLesson',
        tags: ['courses'],
        summary: 'Read a lesson (participants; records it as the learner’s last lesson)',
        params: LessonParams,
        response: { 200: LessonSchema },
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
      const lesson = await findLesson(db, course.id, request.params.lessonId);
      if (!lesson) throw new AppError('NOT_FOUND', 'Lesson not found');
      if (!access.canLearn) {
        throw new AppError('FORBIDDEN', 'Enrol in this course to open its lessons.');
      }
      if (access.enrolled) {
        await recordLessonViewed(
          db,
          { userId: user.id, lessonId: lesson.id, courseId: course.id },
          new Date(at).toISOString(),
        );
      }
      return lessonView(db, lesson, viewerOf(app, request), access.enrolled);
    },
  );

  app.patch(
    '/api/courses/:courseId/lessons/:lessonId',
    {
      config: courseEdit({ 409: [STALE_REVISION_MESSAGE] }),
      schema: {
        operationId: 'updateLesson',
        tags: ['courses'],
        summary: 'Change a lesson at the revision read (409 when stale)',
        params: LessonParams,
        body: LessonUpdateSchema,
        response: { 200: LessonSchema },
      },
    },
    async (request) => {
      const { course, access, user } = await editableCourse(
        app,
        db,
        request,
        request.params.courseId,
        now(),
      );
      const lesson = await findLesson(db, course.id, request.params.lessonId);
      if (!lesson) throw new AppError('NOT_FOUND', 'Lesson not found');
      const body = request.body;
      const bodyHtml = body.bodyHtml !== undefined ? sanitizeRichText(body.bodyHtml) : undefined;
      await underLock(course.id, (trx) =>
        updateLesson(
          trx,
          lesson.id,
          body.revision,
          {
            ...(body.title !== undefined ? { title: body.title } : {}),
            ...(bodyHtml !== undefined ? { bodyHtml } : {}),
            ...(body.durationMinutes !== undefined
              ? { durationMinutes: body.durationMinutes }
              : {}),
          },
          iso(),
        ),
      );
      if (bodyHtml !== undefined) await attachLessonMedia(user, lesson.id, bodyHtml);
      const saved = await findLesson(db, course.id, lesson.id);
      if (!saved) throw new AppError('NOT_FOUND', 'Lesson not found');
      return lessonView(db, saved, viewerOf(app, request), access.enrolled);
    },
  );

  app.delete(
    '/api/courses/:courseId/lessons/:lessonId',
    {
      config: courseEdit({ 204: 'Deleted, with its files.' }),
      schema: {
        operationId: 'deleteLesson',
        tags: ['courses'],
        summary: 'Delete a lesson',
        params: LessonParams,
      },
    },
    async (request, reply) => {
      const { course } = await editableCourse(app, db, request, request.params.courseId, now());
      const lesson = await findLesson(db, course.id, request.params.lessonId);
      if (!lesson) throw new AppError('NOT_FOUND', 'Lesson not found');
      const files = await app.files.listOwned({ type: LESSON, id: lesson.id });
      await underLock(course.id, async (trx) => {
        const current = await findLesson(trx, course.id, lesson.id);
        if (current) await deleteLesson(trx, current);
      });
      for (const file of files) await app.files.deleteOwned(file.id);
      return reply.code(204).send();
    },
  );

  app.put(
    '/api/courses/:courseId/lessons/:lessonId/progress',
    {
      config: {
        access: { permissions: ['course.view'], scope: { type: 'course', param: 'courseId' } },
        responses: { 403: ['Only enrolled learners record progress.'] },
      },
      schema: {
        operationId: 'updateLessonProgress',
        tags: ['courses'],
        summary: 'Mark a lesson complete or not (enrolled learners)',
        params: LessonParams,
        body: LessonProgressUpdateSchema,
        response: { 200: LessonProgressSchema },
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
      const lesson = await findLesson(db, course.id, request.params.lessonId);
      if (!lesson) throw new AppError('NOT_FOUND', 'Lesson not found');
      if (!access.enrolled || !access.canLearn) {
        throw new AppError('FORBIDDEN', 'Only enrolled learners record progress.');
      }
      const entry = { userId: user.id, lessonId: lesson.id, courseId: course.id };
      await setLessonCompleted(db, entry, request.body.completed, new Date(at).toISOString());
      const [done, outline] = await Promise.all([
        completedLessonIds(db, user.id, course.id),
        loadOutline(db, course.id),
      ]);
      const total = readingOrder(outline).length;
      return {
        lessonId: lesson.id,
        completed: done.has(lesson.id),
        progress: toProgress(done.size, total),
      };
    },
  );
};

export default lessonsRoutes;
