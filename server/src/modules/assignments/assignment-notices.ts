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
import { defineRecurringJob, registerRecurring } from '../../platform/jobs';
import { takeMark } from '../../platform/notifications/notification-repository';
import {
  listAssignmentsDueBetween,
  listHandedInUserIds,
  type AssignmentRecord,
} from './assignment-repository';

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

/** The recurring job that reminds learners of work due within REMINDER_WINDOW_MS. */
export const DueReminders = defineRecurringJob('assignments.due-reminders');

/** How far ahead a reminder looks: an assignment due within 24 hours. */
export const REMINDER_WINDOW_MS = 24 * 3_600_000;

/** How often the reminders are looked for. */
export const REMINDER_EVERY_MS = 15 * 60_000;

/**
 * One pass: every assignment of a published course due within 24 hours reminds its learners who
 * have handed nothing in, once per due date (a mark in the notice's transaction).
 */
export async function sendDueReminders(app: FastifyInstance, db: Db, now: number): Promise<number> {
  const due = await listAssignmentsDueBetween(
    db,
    new Date(now).toISOString(),
    new Date(now + REMINDER_WINDOW_MS).toISOString(),
  );
  let sent = 0;
  for (const assignment of due) {
    const [learners, handedIn] = await Promise.all([
      learnersOf(app, db, assignment.courseId, now),
      listHandedInUserIds(db, assignment.id),
    ]);
    const done = new Set(handedIn);
    const waiting = learners.filter((id) => !done.has(id));
    await db.transaction().execute(async (trx) => {
      const key = `assignment.due:${assignment.id}:${assignment.dueAt}`;
      if (!(await takeMark(trx, key, new Date(now).toISOString()))) return;
      if (waiting.length === 0) return;
      await app.notifications.notify(trx, {
        kind: 'assignment.due',
        priority: 'important',
        title: `Due soon: ${assignment.title}`,
        body: `${assignment.courseTitle}. ${dueText(assignment.dueAt)}`,
        link: assignmentPath(assignment),
        source: { type: 'assignment', id: assignment.id },
        recipients: waiting,
      });
      sent += 1;
    });
  }
  return sent;
}

/** Registers the reminders (the assignments area's registration). */
export function registerDueReminders(app: FastifyInstance, db: Db, now: () => number): void {
  registerRecurring(
    app,
    DueReminders,
    () => sendDueReminders(app, db, now()).then(() => undefined),
    {
      everyMs: REMINDER_EVERY_MS,
      now,
      retryLimit: 1,
    },
  );
}
