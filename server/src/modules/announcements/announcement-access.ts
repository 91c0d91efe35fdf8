/**
 * Who may do what with announcements (docs/announcements.md, "Who may announce"): core's rule
 * (`announceDenial`, access/announce.ts) run by the server's engine for one audience, its SQL
 * twin for lists (`ManageScope`), and the abilities an answer carries.
 *
 * - Managing an announcement (seeing its counts and recipients, editing, withdrawing, reminding)
 *   is being allowed to announce to its whole audience now: admins every one, an instructor
 *   those for courses they edit, a department manager those for departments they manage.
 * - Reading one is having been published to (a row in `announcement_recipients`) while it is not
 *   withdrawn; anyone else gets 404, as if it did not exist.
 */
import {
  announceDenial,
  isAdmin,
  type AnnouncementAbilities,
  type AnnouncementAudience,
  type AnnouncementState,
} from '@learning-hub/core';
import type { AccessService } from '../../platform/access/access-service';
import type { UserRecord } from '../../platform/auth/user-repository';
import { departmentsSeen } from '../../platform/visibility/department-visibility';
import type { ManageScope } from './announcement-repository';

/** Why `user` may not announce to `audience` now (core's rule on the engine), or null. */
export function audienceDenial(
  access: AccessService,
  user: UserRecord,
  audience: AnnouncementAudience,
): string | null {
  return announceDenial(
    (requirement, scope) => access.decide(user.id, requirement, scope),
    audience,
  );
}

/** Whether `user` may manage an announcement for this audience. */
export function mayManage(
  access: AccessService,
  user: UserRecord,
  audience: AnnouncementAudience,
): boolean {
  return audienceDenial(access, user, audience) === null;
}

/**
 * The SQL twin of mayManage for lists: which targets the viewer may announce to. Admins any;
 * otherwise the courses where they hold course.edit (everywhere when held system-wide) and the
 * departments where they hold department.manage.
 */
export function manageScopeOf(access: AccessService, user: UserRecord, now: number): ManageScope {
  const engine = access.engine;
  const anyone = access.decide(
    user.id,
    { permissions: ['system.admin'], roles: ['admin'] },
    undefined,
  ).allowed;
  if (anyone) return { anyone: true, courses: 'all', departments: 'all' };
  const editAll = isAdmin(user) || engine.check(user.id, 'course.edit');
  const courses: string[] = [];
  if (!editAll) {
    for (const a of engine.subjectOf(user.id)?.contextAssignments ?? []) {
      if (a.context.type !== 'course') continue;
      if (engine.check(user.id, 'course.edit', a.context)) courses.push(a.context.courseId);
    }
  }
  const managed = departmentsSeen(access, user, now, ['department.manage']);
  return {
    anyone: false,
    courses: editAll ? 'all' : [...new Set(courses)],
    departments: managed.allDepartments ? 'all' : managed.departmentIds,
  };
}

/** The same decision as manageableSql, in memory, for an announcement already read. */
export function scopeAllows(scope: ManageScope, audience: AnnouncementAudience): boolean {
  if (scope.anyone) return true;
  if (audience.everyone || audience.roles.length > 0 || audience.userIds.length > 0) return false;
  const inScope = (ids: 'all' | readonly string[], id: string) => ids === 'all' || ids.includes(id);
  return (
    audience.courseIds.every((id) => inScope(scope.courses, id)) &&
    audience.departmentIds.every((id) => inScope(scope.departments, id))
  );
}

/** What a manager (or not) may do with one announcement in its state. */
export function abilitiesOf(
  manages: boolean,
  state: AnnouncementState,
  requiresAck: boolean,
): AnnouncementAbilities {
  return {
    edit: manages && state !== 'withdrawn',
    withdraw: manages && state !== 'withdrawn',
    remind: manages && state === 'live' && requiresAck,
    viewRecipients: manages && (state === 'live' || state === 'expired' || state === 'withdrawn'),
  };
}
