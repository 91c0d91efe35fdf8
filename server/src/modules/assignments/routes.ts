/**
 * Assignments, submissions and grades of the classroom (docs/classroom.md, "Assignments,
 * submissions and grades"): the file owner types `assignment`, `submission` and `grade`, then the routes
 * of each part (assignments-routes, submissions-routes, grades-routes).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { UserRecord } from '../../platform/auth/user-repository';
import { findAssignment, findCourseGate, type AssignmentRecord } from './assignment-repository';
import { findSubmission } from './submission-repository';
import { courseAccess } from '../courses/public';
import {
  mayAttachFeedback,
  mayAttachInstructions,
  mayAttachToSubmission,
  mayReadGrade,
  mayReadInstructions,
  mayReadSubmission,
  type AssignmentGate,
} from './assignment-access';
import type { Db } from '../../platform/db';
import { registerAssignmentRoutes } from './assignments-routes';
import { registerGradeRoutes } from './grades-routes';
import { registerSubmissionRoutes } from './submissions-routes';
import { GRADE_OWNER, gradeOwnerOf, type AssignmentsOptions } from './shared';

const assignmentsRoutes: FastifyPluginAsync<AssignmentsOptions> = async (app, options) => {
  /** The user's access to the course of an assignment, judged now; null when either is gone. */
  async function gateOf(
    db: Db,
    user: UserRecord,
    assignment: AssignmentRecord | null,
    at: number,
  ): Promise<AssignmentGate | null> {
    if (!assignment) return null;
    const course = await findCourseGate(db, assignment.courseId);
    if (!course) return null;
    return {
      access: courseAccess(app.access, user, course, at),
      archived: course.state === 'archived',
    };
  }

  // The rules are the area's policy (assignment-access.ts); these only find the records.
  app.files.registerFileOwner('assignment', {
    canRead: async (user, id, ctx) => {
      const gate = await gateOf(ctx.db, user, await findAssignment(ctx.db, id), ctx.now());
      return gate !== null && mayReadInstructions(gate);
    },
    canAttach: async (user, id, ctx) => {
      const gate = await gateOf(ctx.db, user, await findAssignment(ctx.db, id), ctx.now());
      return gate !== null && mayAttachInstructions(gate);
    },
  });

  app.files.registerFileOwner('submission', {
    canRead: async (user, id, ctx) => {
      const submission = await findSubmission(ctx.db, id);
      if (!submission) return false;
      const assignment = await findAssignment(ctx.db, submission.assignmentId);
      const gate = await gateOf(ctx.db, user, assignment, ctx.now());
      return gate !== null && mayReadSubmission(gate, user.id, submission);
    },
    canAttach: async (user, id, ctx) => {
      const submission = await findSubmission(ctx.db, id);
      return submission !== null && mayAttachToSubmission(user.id, submission);
    },
  });

  // Feedback pictures (owner id `<assignment id>:<learner id>`, the grade in force and its
  // history).
  app.files.registerFileOwner(GRADE_OWNER, {
    canRead: async (user, id, ctx) => {
      const { assignmentId, learnerId } = gradeOwnerOf(id);
      const assignment = await findAssignment(ctx.db, assignmentId);
      const gate = await gateOf(ctx.db, user, assignment, ctx.now());
      return !!assignment && gate !== null && mayReadGrade(gate, user.id, learnerId, assignment);
    },
    canAttach: async (user, id, ctx) => {
      const { assignmentId } = gradeOwnerOf(id);
      const gate = await gateOf(
        ctx.db,
        user,
        await findAssignment(ctx.db, assignmentId),
        ctx.now(),
      );
      return gate !== null && mayAttachFeedback(gate);
    },
  });

  registerAssignmentRoutes(app, options);
  registerSubmissionRoutes(app, options);
  registerGradeRoutes(app, options);
};

export default assignmentsRoutes;
