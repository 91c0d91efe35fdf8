/**
 * The notices of a context assignment that gives someone something new (docs/notifications.md):
 * an enrolment (the course-student role added) and other roles added in a course or a
 * department. Written in the assignment's own transaction by whoever stores it; nothing is told
 * of a role taken away, or of a change the person made themselves (self-enrolment).
 */
import { CONTEXT_ROLES, isAssignmentInForce, type ContextAssignment } from '@learning-hub/core';
import type { Db } from '../db';
import type { NotificationService } from '../notifications/notification-service';
import { describeContextTarget } from './context-labels';

/** The app's page of an assignment's context, if it has one. */
function pathOf(assignment: ContextAssignment): string | null {
  const { context } = assignment;
  if (context.type === 'course') return `/classroom/${encodeURIComponent(context.courseId)}`;
  if (context.type === 'department') return '/departments';
  return null;
}

function roleName(id: string): string {
  return (
    (CONTEXT_ROLES as Readonly<Record<string, { displayName: string }>>)[
      id
    ]?.displayName.toLowerCase() ?? id
  );
}

export async function tellOfNewRoles(
  notifications: NotificationService,
  trx: Db,
  change: {
    previous: ContextAssignment | null;
    next: ContextAssignment;
    actorId: string | null;
    now: number;
  },
): Promise<void> {
  const { previous, next, now } = change;
  if (!next.isActive) return;
  const before = new Set(previous && isAssignmentInForce(previous, now) ? previous.roles : []);
  const added = next.roles.filter((role) => !before.has(role));
  if (added.length === 0) return;
  const where = (await describeContextTarget(trx, next.context)) ?? 'a context';
  const until = next.expiresAt ? ` until ${next.expiresAt.slice(0, 10)}` : '';
  const link = pathOf(next);
  const base = { link, actorId: change.actorId, recipients: [next.userId] };
  if (added.includes('course-student')) {
    await notifications.notify(trx, {
      ...base,
      kind: 'enrolment.added',
      title: `You are enrolled in ${where}`,
      body: `Your enrolment runs${until || ' with no end date'}.`,
    });
  }
  const others = added.filter((role) => role !== 'course-student');
  if (others.length > 0) {
    await notifications.notify(trx, {
      ...base,
      kind: 'role.assigned',
      title: `You are now ${others.map(roleName).join(', ')} in ${where}`,
      body: `The role${others.length > 1 ? 's run' : ' runs'}${until || ' with no end date'}.`,
    });
  }
}
