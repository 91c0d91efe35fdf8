/**
 * What the assignments tell people (docs/notifications.md, "What the areas raise"): a new
 * assignment to the course's learners, a grade to its learner once learners may see it (saved
 * with the grades released, or released later). Each is stored in the transaction of its thing.
 */
import { isAssignmentInForce } from '@learning-hub/core';
import type { FastifyInstance } from 'fastify';
import { listContextMembers } from '../../platform/access/access-repository';
import { whoHolds } from '../../platform/access/holders';
import type { Db } from '../../platform/db';
import { courseContext } from '../courses/public';
import type { AssignmentRecord } from './assignment-repository';

/** The app's page of an assignment. */
export const assignmentPath = (a: Pick<AssignmentRecord, 'courseId' | 'id'>) =>
  `/classroom/${encodeURIComponent(a.courseId)}/assignments/${encodeURIComponent(a.id)}`;

/**
 * The course's learners now (an enrolment in force: the course-student role) who may hand in
 * work for its assignments (docs/classroom.md, "Who sees what").
 */
export async function learnersOf(
  app: FastifyInstance,
  db: Db,
  courseId: string,
  now: number,
): Promise<string[]> {
  const members = await listContextMembers(db, courseContext(courseId));
  const enrolled = members.filter(
    (m) => m.assignment.roles.includes('course-student') && isAssignmentInForce(m.assignment, now),
  );
  return whoHolds(
    db,
    app.access,
    enrolled.map((m) => m.id),
    'assignment.submit',
    courseContext(courseId),
  );
}

function dueText(dueAt: string | null): string {
  return dueAt ? `Due ${dueAt.slice(0, 16).replace('T', ' ')} UTC.` : 'No due date.';
}

export async function tellNewAssignment(
  app: FastifyInstance,
  trx: Db,
  assignment: AssignmentRecord,
  courseTitle: string,
  learners: readonly string[],
  actorId: string,
): Promise<void> {
  await app.notifications.notify(trx, {
    kind: 'assignment.new',
    title: `New assignment in ${courseTitle}: ${assignment.title}`,
    body: dueText(assignment.dueAt),
    link: assignmentPath(assignment),
    source: { type: 'assignment', id: assignment.id },
    actorId,
    recipients: learners,
  });
}

export async function tellGrades(
  app: FastifyInstance,
  trx: Db,
  assignment: AssignmentRecord,
  grades: readonly { userId: string; points: number }[],
  actorId: string,
): Promise<void> {
  for (const grade of grades) {
    await app.notifications.notify(trx, {
      kind: 'submission.graded',
      title: `Your grade for ${assignment.title}`,
      body: `${grade.points} of ${assignment.points} points. The feedback is on the assignment’s page.`,
      link: assignmentPath(assignment),
      source: { type: 'assignment', id: assignment.id },
      actorId,
      recipients: [grade.userId],
    });
  }
}
