/**
 * Notices of what ends soon (docs/notifications.md): an enrolment (the course-student role) or
 * another role in a course or a department that ends within 7 days. A recurring job looks every
 * hour; each ending is told once (a mark per person, context and end), whatever the number of
 * instances or runs. A changed end date is a new ending and is told again.
 */
import { contextKey } from '@learning-hub/core';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db';
import { defineRecurringJob, registerRecurring } from '../jobs';
import { takeMark } from '../notifications/notification-repository';
import { listAssignmentsEndingBetween } from './access-repository';
import { describeContextTarget } from './context-labels';

export const EndingNotices = defineRecurringJob('access.ending-notices');

/** How far ahead: what ends within 7 days. */
export const ENDING_WINDOW_MS = 7 * 24 * 3_600_000;
const EVERY_MS = 3_600_000;

export async function sendEndingNotices(
  app: FastifyInstance,
  db: Db,
  now: number,
): Promise<number> {
  const at = new Date(now).toISOString();
  const ending = await listAssignmentsEndingBetween(
    db,
    at,
    new Date(now + ENDING_WINDOW_MS).toISOString(),
  );
  let sent = 0;
  for (const assignment of ending) {
    const { context } = assignment;
    if (context.type !== 'course' && context.type !== 'department') continue;
    const where = (await describeContextTarget(db, context)) ?? contextKey(context);
    const day = (assignment.expiresAt ?? '').slice(0, 10);
    const enrolment = context.type === 'course' && assignment.roles.includes('course-student');
    await db.transaction().execute(async (trx) => {
      const key = `ending:${assignment.userId}:${contextKey(context)}:${assignment.expiresAt}`;
      if (!(await takeMark(trx, key, at))) return;
      await app.notifications.notify(trx, {
        kind: enrolment ? 'enrolment.ending' : 'role.expiring',
        priority: 'important',
        title: enrolment
          ? `Your enrolment in ${where} ends soon`
          : `Your role in ${where} ends soon`,
        body: `It ends on ${day}. Ask ${enrolment ? 'the course’s instructor' : 'an administrator'} if you need longer.`,
        link:
          context.type === 'course'
            ? `/classroom/${encodeURIComponent(context.courseId)}`
            : '/departments',
        recipients: [assignment.userId],
      });
      sent += 1;
    });
  }
  return sent;
}

export function registerEndingNotices(app: FastifyInstance, db: Db, now: () => number): void {
  registerRecurring(
    app,
    EndingNotices,
    () => sendEndingNotices(app, db, now()).then(() => undefined),
    {
      everyMs: EVERY_MS,
      now,
      retryLimit: 1,
    },
  );
}
