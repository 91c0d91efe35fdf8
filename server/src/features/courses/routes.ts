/**
 * Courses: the list (anyone who may view courses somewhere), one course and its participants,
 * each checked in that course's context.
 */
import {
  AppError,
  CourseListQuerySchema,
  CourseListSchema,
  CourseSchema,
  MemberListSchema,
} from '@learning-hub/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listContextMembers } from '../../access/access-repository';
import { findCourse, listCourses } from '../../courses/course-repository';
import type { Db } from '../../db';

const CourseParams = z.object({ courseId: z.string().min(1).max(200) });

const courseRoutes: FastifyPluginAsyncZod<{ db: Db; now: () => number }> = async (
  app,
  { db, now },
) => {
  app.get(
    '/api/courses',
    {
      config: { access: { permissions: ['course.view'], scope: 'any' } },
      schema: { querystring: CourseListQuerySchema, response: { 200: CourseListSchema } },
    },
    async (request) => {
      const { page, pageSize, search } = request.query;
      const { courses, total } = await listCourses(db, {
        search: search || undefined,
        offset: (page - 1) * pageSize,
        limit: pageSize,
      });
      return { courses, total, page, pageSize };
    },
  );

  app.get(
    '/api/courses/:courseId',
    {
      config: {
        access: { permissions: ['course.view'], scope: { type: 'course', param: 'courseId' } },
      },
      schema: { params: CourseParams, response: { 200: CourseSchema } },
    },
    async (request) => {
      const course = await findCourse(db, request.params.courseId);
      if (!course) throw new AppError('NOT_FOUND', 'Course not found');
      return course;
    },
  );

  app.get(
    '/api/courses/:courseId/participants',
    {
      config: {
        access: {
          permissions: ['course.view_participants'],
          scope: { type: 'course', param: 'courseId' },
        },
      },
      schema: { params: CourseParams, response: { 200: MemberListSchema } },
    },
    async (request) => {
      const course = await findCourse(db, request.params.courseId);
      if (!course) throw new AppError('NOT_FOUND', 'Course not found');
      const at = now();
      const members = await listContextMembers(db, { type: 'course', courseId: course.id });
      return {
        members: members
          .filter(
            (m) =>
              m.assignment.isActive &&
              (m.assignment.expiresAt === null || Date.parse(m.assignment.expiresAt) > at),
          )
          .map((m) => ({
            id: m.id,
            username: m.username,
            firstname: m.firstname,
            lastname: m.lastname,
            roles: [...m.assignment.roles],
            expiresAt: m.assignment.expiresAt,
          })),
      };
    },
  );
};

export default courseRoutes;
