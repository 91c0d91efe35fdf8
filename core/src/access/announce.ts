/**
 * Who may announce to whom (docs/announcements.md, "Who may announce"). There is no announcement
 * permission in the catalogue (spec §6): announcing is the permission model's existing rights,
 * each in its own context:
 *
 * - to anyone (everyone, a role, chosen people): `system.admin` with the role admin, what the
 *   `/announcement-manager` route of spec §2 requires;
 * - to a course: `course.edit` in that course's context (its instructors; system instructors hold
 *   it everywhere, a course assistant nowhere);
 * - to a department: `department.manage` in that department's context (its managers).
 *
 * An audience is allowed when every part of it is. The server refuses (403) what this refuses;
 * the web app runs the same function over the user's snapshot to decide what to offer.
 */
import type { AccessRequirement, CheckScope, Decision } from './check';

/** Announcing to anyone: the announcement manager's requirement (spec §2). */
export const ANNOUNCE_TO_ANYONE: AccessRequirement = {
  permissions: ['system.admin'],
  roles: ['admin'],
};

/** Announcing to a course: course.edit in the course's context. */
export const ANNOUNCE_TO_COURSE: AccessRequirement = { permissions: ['course.edit'] };

/** Announcing to a department: department.manage in the department's context. */
export const ANNOUNCE_TO_DEPARTMENT: AccessRequirement = { permissions: ['department.manage'] };

/** Who an announcement is for, as the rule reads it (ids only). */
export interface AnnouncementAudienceRef {
  everyone: boolean;
  roles: readonly string[];
  departmentIds: readonly string[];
  courseIds: readonly string[];
  userIds: readonly string[];
}

/**
 * A requirement checked in a scope, by whoever enforces it: the server's engine
 * (`access.decide(userId, requirement, scope)`) or the web app's `can.requirement`.
 */
export type RequirementCheck = (requirement: AccessRequirement, scope: CheckScope) => Decision;

/** Why the user may not announce to this audience (the first part refused), or null. */
export function announceDenial(
  check: RequirementCheck,
  audience: AnnouncementAudienceRef,
): string | null {
  const wide =
    audience.everyone || audience.roles.length > 0 || audience.userIds.length > 0
      ? check(ANNOUNCE_TO_ANYONE, undefined)
      : null;
  if (wide && !wide.allowed) {
    return `Only administrators announce to everyone, to roles or to chosen people: ${wide.reason}`;
  }
  for (const courseId of audience.courseIds) {
    const decision = check(ANNOUNCE_TO_COURSE, { type: 'course', courseId });
    if (!decision.allowed) {
      return `You may announce only to courses you edit: ${decision.reason} (course ${courseId})`;
    }
  }
  for (const departmentId of audience.departmentIds) {
    const decision = check(ANNOUNCE_TO_DEPARTMENT, { type: 'department', departmentId });
    if (!decision.allowed) {
      return `You may announce only to departments you manage: ${decision.reason} (department ${departmentId})`;
    }
  }
  return null;
}

/** Whether the user may announce to this course (the course page's Announce button). */
export function mayAnnounceToCourse(check: RequirementCheck, courseId: string): boolean {
  return check(ANNOUNCE_TO_COURSE, { type: 'course', courseId }).allowed;
}

/** Whether the user may announce to this department (the department page's Announce button). */
export function mayAnnounceToDepartment(check: RequirementCheck, departmentId: string): boolean {
  return check(ANNOUNCE_TO_DEPARTMENT, { type: 'department', departmentId }).allowed;
}
