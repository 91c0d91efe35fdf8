/**
 * Enrolment and participants (docs/classroom.md, "Enrolment"): enrolling and unenrolling
 * oneself, the participants list with learners' progress, finding people to add, and setting or
 * removing a person's course roles under the grant rules. The rules are in
 * server/src/modules/courses/enrolment-service.ts.
 */
import {
  AppError,
  EnrolmentSchema,
  isAssignmentInForce,
  pageOf,
  pageQuery,
  ParticipantListQuerySchema,
  ParticipantListSchema,
  ParticipantSchema,
  ParticipantSetSchema,
  SelfEnrolSchema,
  type AccessSubject,
} from '@learning-hub/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createdAnswer, type RouteResponses } from '../../platform/http/openapi';
import { z } from 'zod';
import { listContextMembers } from '../../platform/access/access-repository';
import {
  enrolmentKeyThrottleKeys,
  releaseAttempt,
  reserveAttempt,
} from '../../platform/auth/throttle';
import { findUserById } from '../../platform/auth/user-repository';
import { actorOf } from '../../platform/http/access';
import { courseContext } from './course-access';
import {
  ENROL_REFUSAL,
  enrolSelf,
  removeParticipant,
  setParticipant,
  unenrolSelf,
} from './enrolment-service';
import { listCandidates } from './overview-repository';
import { countCompletedByUser, toProgress } from './progress-repository';
import { countLessons } from './structure-repository';
import { pageWindow, sendPage, slicePage } from '../../platform/paging';
import {
  CourseParams,
  ParticipantParams,
  visibleCourse,
  type currentUser,
  type CourseRouteOptions,
} from './shared';

const inCourse = (
  permission:
    'course.enroll' | 'course.unenroll' | 'course.view_participants' | 'course.manage_participants',
  responses: RouteResponses = {},
) => ({
  access: { permissions: [permission], scope: { type: 'course' as const, param: 'courseId' } },
  responses,
});

const ARCHIVED = 'This course is archived; restore it to make changes.';
/** Changing a person's course roles (API description): the grant rules say why not. */
const PARTICIPANT_REFUSALS = {
  403: ['The grant rules refuse the change (the message gives the rule).'],
  404: ['User not found', 'This person is not a participant of this course.'],
  409: [ARCHIVED, 'This account is deactivated.'],
};

const CandidateQuerySchema = pageQuery({ defaultSize: 20, maxSize: 20 }).extend({
  search: z.string().trim().max(100).optional(),
});
const CandidateListSchema = pageOf(
  z.object({ id: z.string(), username: z.string(), firstname: z.string(), lastname: z.string() }),
);

const participantsRoutes: FastifyPluginAsyncZod<CourseRouteOptions> = async (app, { db, now }) => {
  /** The caller's permissions as loaded for this request (the grant rules judge them). */
  function actorSubject(user: ReturnType<typeof currentUser>): AccessSubject {
    return (
      app.access.engine.subjectOf(user.id) ?? {
        id: user.id,
        role: user.role,
        isSuperAdmin: user.isSuperAdmin,
      }
    );
  }

  /** One participant with their progress (learners), as the list shows them. */
  async function participantsOf(courseId: string, at: number, only?: string) {
    const members = (await listContextMembers(db, courseContext(courseId))).filter(
      (m) => isAssignmentInForce(m.assignment, at) && (only === undefined || m.id === only),
    );
    const learners = members
      .filter((m) => m.assignment.roles.includes('course-student'))
      .map((m) => m.id);
    const [total, completed] = await Promise.all([
      countLessons(db, courseId),
      countCompletedByUser(db, courseId, learners),
    ]);
    return members.map((m) => ({
      id: m.id,
      username: m.username,
      firstname: m.firstname,
      lastname: m.lastname,
      roles: [...m.assignment.roles],
      expiresAt: m.assignment.expiresAt,
      progress: m.assignment.roles.includes('course-student')
        ? toProgress(completed.get(m.id) ?? 0, total)
        : null,
    }));
  }

  app.post(
    '/api/courses/:courseId/enrolment',
    {
      config: inCourse('course.enroll', {
        200: 'Already enrolled: nothing changed.',
        201: createdAnswer('/api/courses/<courseId>/enrolment', 'Enrolled.'),
        403: [ENROL_REFUSAL.blocked, ENROL_REFUSAL.manual, ENROL_REFUSAL.wrongKey],
        409: [
          ENROL_REFUSAL.teaching,
          ENROL_REFUSAL.notOpen,
          ENROL_REFUSAL.notStarted,
          ENROL_REFUSAL.closed,
          ENROL_REFUSAL.full,
        ],
        429: ['Too many wrong enrolment keys. Try again in <n> seconds. (`RATE_LIMITED`)'],
      }),
      schema: {
        operationId: 'createEnrolment',
        tags: ['courses'],
        summary: 'Enrol oneself (open courses, or key courses with the key)',
        description:
          'A key is compared without regard to case or surrounding spaces. Wrong keys are ' +
          'throttled per learner and course and per address: 429 RATE_LIMITED says how many ' +
          'seconds to wait. A learner the course’s staff removed or ended is refused (403) ' +
          'until the staff enrol them again. A course the caller may not see is not there (404).',
        params: CourseParams,
        body: SelfEnrolSchema,
        response: { 200: EnrolmentSchema, 201: EnrolmentSchema },
      },
    },
    async (request, reply) => {
      // A course the caller may not see is not there (docs/spec-readings.md, "Rows a caller may
      // not see"); one they see that is a draft or archived answers "not open for enrolment".
      const { course, user } = await visibleCourse(
        app,
        db,
        request,
        request.params.courseId,
        now(),
      );
      const courseId = course.id;
      // A key is counted before it is checked, atomically, as a sign-in is (auth/throttle.ts): a
      // guesser is slowed down however many requests they send at once.
      const attempt =
        request.body.key === undefined
          ? null
          : enrolmentKeyThrottleKeys(user.id, courseId, request.ip);
      if (attempt) {
        const reservation = await reserveAttempt(db, attempt, now());
        if (!reservation.granted) {
          const { wait } = reservation;
          reply.header('retry-after', String(wait));
          throw new AppError(
            'RATE_LIMITED',
            `Too many wrong enrolment keys. Try again in ${wait} second${wait === 1 ? '' : 's'}.`,
          );
        }
      }
      try {
        const { enrolment, created } = await enrolSelf(db, {
          courseId,
          user,
          permission: null,
          key: request.body.key,
          actor: actorOf(request),
          now: now(),
        });
        if (attempt) await releaseAttempt(db, attempt, 'success', now());
        if (!created) return await reply.code(200).send(enrolment);
        return await reply
          .code(201)
          .header('location', `/api/courses/${encodeURIComponent(courseId)}/enrolment`)
          .send(enrolment);
      } catch (error) {
        // Only a wrong key counts; any other refusal (full, closed) gives the attempt back.
        const wrongKey = error instanceof AppError && error.message === ENROL_REFUSAL.wrongKey;
        if (attempt && !wrongKey) await releaseAttempt(db, attempt, 'void', now());
        throw error;
      }
    },
  );

  app.delete(
    '/api/courses/:courseId/enrolment',
    {
      config: inCourse('course.unenroll', { 204: 'Unenrolled.' }),
      schema: {
        operationId: 'deleteEnrolment',
        tags: ['courses'],
        summary: 'Unenrol oneself (the other course roles stay)',
        params: CourseParams,
      },
    },
    async (request, reply) => {
      const { course, user } = await visibleCourse(
        app,
        db,
        request,
        request.params.courseId,
        now(),
      );
      await unenrolSelf(db, { courseId: course.id, user, actor: actorOf(request), now: now() });
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/courses/:courseId/participants',
    {
      config: inCourse('course.view_participants'),
      schema: {
        operationId: 'listCourseParticipants',
        tags: ['courses'],
        summary: 'The course’s participants, with learners’ progress',
        params: CourseParams,
        querystring: ParticipantListQuerySchema,
        response: { 200: ParticipantListSchema },
      },
    },
    async (request, reply) => {
      const at = now();
      const { course } = await visibleCourse(app, db, request, request.params.courseId, at);
      return sendPage(
        request,
        reply,
        slicePage(await participantsOf(course.id, at), request.query),
      );
    },
  );

  app.get(
    '/api/courses/:courseId/candidates',
    {
      config: inCourse('course.manage_participants'),
      schema: {
        operationId: 'listCourseCandidates',
        tags: ['courses'],
        summary: 'Active people who are not participants yet, to add (at most 20)',
        params: CourseParams,
        querystring: CandidateQuerySchema,
        response: { 200: CandidateListSchema },
      },
    },
    async (request, reply) => {
      const at = now();
      const { course } = await visibleCourse(app, db, request, request.params.courseId, at);
      const { page, pageSize } = request.query;
      const { users, total } = await listCandidates(
        db,
        course.id,
        request.query.search || undefined,
        new Date(at).toISOString(),
        pageWindow({ page, pageSize }),
      );
      return sendPage(request, reply, { items: users, total, page, pageSize });
    },
  );

  app.put(
    '/api/courses/:courseId/participants/:userId',
    {
      config: inCourse('course.manage_participants', {
        ...PARTICIPANT_REFUSALS,
        201: createdAnswer('/api/courses/<courseId>/participants/<userId>', 'Now a participant.'),
        400: ['The end must be in the future.'],
      }),
      schema: {
        operationId: 'updateCourseParticipant',
        tags: ['courses'],
        summary:
          'Set a person’s course roles and when they end (201 when this makes them a participant)',
        params: ParticipantParams,
        body: ParticipantSetSchema,
        response: { 200: ParticipantSchema, 201: ParticipantSchema },
      },
    },
    async (request, reply) => {
      const at = now();
      const { course, user } = await visibleCourse(app, db, request, request.params.courseId, at);
      if (course.state === 'archived') {
        throw new AppError('CONFLICT', ARCHIVED);
      }
      const target = await findUserById(db, request.params.userId);
      if (!target) throw new AppError('NOT_FOUND', 'User not found');
      const endsAt = request.body.endsAt ? new Date(request.body.endsAt).toISOString() : null;
      if (endsAt !== null && Date.parse(endsAt) <= at) {
        throw new AppError('VALIDATION_ERROR', 'The end must be in the future.');
      }
      const { created } = await setParticipant(db, {
        notifications: app.notifications,
        courseId: course.id,
        actor: actorOf(request),
        actorSubject: actorSubject(user),
        target,
        roles: request.body.roles,
        endsAt,
        registry: await app.access.refreshRoles(),
        now: at,
      });
      const [participant] = await participantsOf(course.id, at, target.id);
      if (!participant) throw new AppError('NOT_FOUND', 'User not found');
      if (created) reply.code(201).header('location', request.url);
      return participant;
    },
  );

  app.delete(
    '/api/courses/:courseId/participants/:userId',
    {
      config: inCourse('course.manage_participants', {
        ...PARTICIPANT_REFUSALS,
        204: 'Removed from the course.',
      }),
      schema: {
        operationId: 'deleteCourseParticipant',
        tags: ['courses'],
        summary: 'Remove a person from the course',
        params: ParticipantParams,
      },
    },
    async (request, reply) => {
      const at = now();
      const { course, user } = await visibleCourse(app, db, request, request.params.courseId, at);
      if (course.state === 'archived') {
        throw new AppError('CONFLICT', ARCHIVED);
      }
      const target = await findUserById(db, request.params.userId);
      if (!target) throw new AppError('NOT_FOUND', 'User not found');
      const removed = await removeParticipant(db, {
        courseId: course.id,
        actor: actorOf(request),
        actorSubject: actorSubject(user),
        target,
        registry: await app.access.refreshRoles(),
        now: at,
      });
      if (!removed)
        throw new AppError('NOT_FOUND', 'This person is not a participant of this course.');
      return reply.code(204).send();
    },
  );
};

export default participantsRoutes;
