/**
 * Who may do what in one course: the one rule every classroom route (courses, lessons,
 * assignments, submissions, grades) and every file owner of the classroom asks. See
 * docs/classroom.md ("Who sees what").
 *
 * Permissions come from the permission model as everywhere (system role, direct grants, the
 * course's context roles, admin passes). On top of them, the *content* of a course (lesson
 * bodies, assignments, submitting) is open only to its participants: a learner with an
 * enrolment in force, a course instructor or assistant, or someone who may edit the course. A
 * system student holds `course.view` everywhere (spec §6), which lets them find and read about
 * every published course, not take it without enrolling. Assignments are re-read per request,
 * so an enrolment that has expired closes the course at the next request.
 */
import {
  contextKey,
  isAdmin,
  isAssignmentInForce,
  type AccessContext,
  type ContextAssignment,
  type CourseViewer,
  type PermissionId,
} from '@learning-hub/core';
import type { AccessService } from '../../platform/access/access-service';
import type { UserRecord } from '../../platform/auth/user-repository';

/** The course context of `courseId`. */
export const courseContext = (courseId: string): AccessContext => ({ type: 'course', courseId });

/** The course record fields the rules need. */
export interface CourseGate {
  id: string;
  state: string;
  /**
   * The owning department, when known: a published course is also visible to whoever holds
   * course.view in its department (the catalogue uses the same rule, see course-repository).
   */
  departmentId?: string | null;
}

export interface CourseAccess {
  /** Holds every permission in this course (admin always). Audited like every check. */
  can(permission: PermissionId): boolean;
  /** The in-force course assignment (any course role), if any. */
  assignment: ContextAssignment | null;
  /** Course roles held now. */
  roles: string[];
  /** Holds the course-student role now. */
  enrolled: boolean;
  /**
   * May see the course at all: drafts only with course.edit; archived ones with course.edit or
   * as a participant; published ones also with course.view (in the course or its department).
   */
  canSee: boolean;
  /** May read lessons and assignments (a participant, or may edit it). */
  canLearn: boolean;
  /** May change it: course.edit and not archived (restoring is a state change, see the route). */
  canEdit: boolean;
  /** Holds course.edit there (admin included), whatever the state: may restore an archived course. */
  editor: boolean;
}

/**
 * The viewer's access to a course. The access plugin has loaded the user's permissions for this
 * request, so the in-memory subject is as fresh as the request.
 */
export function courseAccess(
  access: AccessService,
  user: UserRecord,
  course: CourseGate,
  now: number,
): CourseAccess {
  const scope = courseContext(course.id);
  const key = contextKey(scope);
  const subject = access.engine.subjectOf(user.id);
  const assignment =
    subject?.contextAssignments?.find(
      (a) => contextKey(a.context) === key && isAssignmentInForce(a, now),
    ) ?? null;
  const roles = assignment ? [...assignment.roles] : [];
  const can = (permission: PermissionId) => access.engine.check(user.id, permission, scope);
  const admin = isAdmin(user);
  const mayEdit = admin || can('course.edit');
  const participant = roles.length > 0;
  const canSee =
    course.state === 'draft'
      ? mayEdit
      : course.state === 'archived'
        ? mayEdit || participant
        : mayEdit ||
          participant ||
          can('course.view') ||
          (!!course.departmentId &&
            access.engine.check(user.id, 'course.view', {
              type: 'department',
              departmentId: course.departmentId,
            }));
  return {
    can,
    assignment,
    roles,
    enrolled: roles.includes('course-student'),
    canSee,
    canLearn: canSee && (mayEdit || participant),
    canEdit: mayEdit && course.state !== 'archived',
    editor: mayEdit,
  };
}

/**
 * The viewer flags of CourseDetail, from the access and the enrolment rules the caller decided
 * (`enrol`: whether self-enrolment is open to this user now, and if not, why).
 */
export function viewerFlags(
  a: CourseAccess,
  course: CourseGate,
  enrol: { allowed: boolean; reason: string | null },
): CourseViewer {
  const open = course.state !== 'archived';
  const teach = (p: PermissionId) => a.canLearn && a.can(p);
  return {
    enrolled: a.enrolled,
    enrolmentEndsAt: a.enrolled ? (a.assignment?.expiresAt ?? null) : null,
    roles: a.roles,
    canLearn: a.canLearn,
    canEnrol: !a.enrolled && enrol.allowed,
    enrolBlockedReason: a.enrolled || enrol.allowed ? null : enrol.reason,
    canUnenrol: a.enrolled && a.can('course.unenroll'),
    canEdit: a.canEdit,
    canRestore: a.editor && course.state === 'archived',
    canViewParticipants: a.canSee && a.can('course.view_participants'),
    canManageParticipants: open && a.canSee && a.can('course.manage_participants'),
    canCreateAssignments: open && teach('assignment.create'),
    canViewSubmissions: teach('assignment.view_submissions'),
    canGrade: open && teach('assignment.grade'),
    canViewAllGrades: teach('grade.view_all'),
    canEditGrades: open && teach('grade.edit'),
    canExportGrades: teach('grade.export'),
  };
}
