/**
 * Assignments, submissions and grades of the classroom (docs/classroom.md, "Assignments,
 * submissions and grades"): the file owner types `assignment`, `submission` and `grade`, then the routes
 * of each part (assignments-routes, submissions-routes, grades-routes).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { UserRecord } from '../../platform/auth/user-repository';
import { findAssignment, findCourseGate, type AssignmentRecord } from './assignment-repository';
import { findSubmission } from './submission-repository';
import { courseAccess, type CourseAccess } from '../courses/public';
import type { Db } from '../../platform/db';
import { registerAssignmentRoutes } from './assignments-routes';
import { registerGradeRoutes } from './grades-routes';
import { registerSubmissionRoutes } from './submissions-routes';
import { GRADE_OWNER, gradeOwnerOf, type AssignmentsOptions } from './shared';

const assignmentsRoutes: FastifyPluginAsync<AssignmentsOptions> = async (app, options) => {
  /** The user's access to the course of an assignment, judged now; null when either is gone. */
  async function accessVia(
    db: Db,
    user: UserRecord,
    assignment: AssignmentRecord | null,
    at: number,
  ): Promise<{ access: CourseAccess; archived: boolean } | null> {
    if (!assignment) return null;
    const course = await findCourseGate(db, assignment.courseId);
    if (!course) return null;
    return {
      access: courseAccess(app.access, user, course, at),
      archived: course.state === 'archived',
    };
  }

  // Instruction files: the course's participants read them; those who build assignments attach.
  app.files.registerFileOwner('assignment', {
    canRead: async (user, id, ctx) =>
      (await accessVia(ctx.db, user, await findAssignment(ctx.db, id), ctx.now()))?.access
        .canLearn ?? false,
    canAttach: async (user, id, ctx) => {
      const found = await accessVia(ctx.db, user, await findAssignment(ctx.db, id), ctx.now());
      if (!found || found.archived || !found.access.canLearn) return false;
      return found.access.can('assignment.edit') || found.access.can('assignment.create');
    },
  });

  // Submission files: the learner themself, and graders once the work is handed in.
  app.files.registerFileOwner('submission', {
    canRead: async (user, id, ctx) => {
      const submission = await findSubmission(ctx.db, id);
      if (!submission) return false;
      const found = await accessVia(
        ctx.db,
        user,
        await findAssignment(ctx.db, submission.assignmentId),
        ctx.now(),
      );
      if (!found?.access.canLearn) return false;
      if (submission.userId === user.id) return true;
      return submission.status === 'submitted' && found.access.can('assignment.view_submissions');
    },
    canAttach: async (user, id, ctx) => {
      const submission = await findSubmission(ctx.db, id);
      return submission !== null && submission.userId === user.id && submission.status === 'draft';
    },
  });

  // Feedback pictures (owner id `<assignment id>:<learner id>`, the grade in force and its
  // history): whoever may see every grade of the course, and the learner once grades are released.
  app.files.registerFileOwner(GRADE_OWNER, {
    canRead: async (user, id, ctx) => {
      const { assignmentId, learnerId } = gradeOwnerOf(id);
      const assignment = await findAssignment(ctx.db, assignmentId);
      const found = await accessVia(ctx.db, user, assignment, ctx.now());
      if (!assignment || !found?.access.canLearn) return false;
      if (found.access.can('grade.view_all')) return true;
      return (
        learnerId === user.id && assignment.gradesReleased && found.access.can('grade.view_own')
      );
    },
    canAttach: async (user, id, ctx) => {
      const { assignmentId } = gradeOwnerOf(id);
      const assignment = await findAssignment(ctx.db, assignmentId);
      const found = await accessVia(ctx.db, user, assignment, ctx.now());
      if (!found || found.archived || !found.access.canLearn) return false;
      return found.access.can('assignment.grade') || found.access.can('grade.edit');
    },
  });

  registerAssignmentRoutes(app, options);
  registerSubmissionRoutes(app, options);
  registerGradeRoutes(app, options);
};

export default assignmentsRoutes;
