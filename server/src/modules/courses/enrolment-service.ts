/**
 * Enrolment and participants (docs/classroom.md, "Enrolment"): an enrolment is a
 * `course-student` context assignment on `course:<id>`; one assignment row per (user, course)
 * holds all of a person's course roles and one expiry. Everything here sets assignments through
 * the access repository (upsertAssignment / deleteAssignment bump the user's access version) and
 * writes an access audit record in the same transaction, like the admin's assignment routes.
 *
 * Self-enrolment is decided by one rule, `selfEnrolDecision`, used both for the viewer flags of a
 * course and for the enrolment itself; capacity is judged under the course's row lock, so of two
 * learners racing for the last seat exactly one gets it.
 */
import { tellOfNewRoles } from '../../platform/access/role-notices';
import type { NotificationService } from '../../platform/notifications/notification-service';
import { createHash, timingSafeEqual } from 'node:crypto';
import {
  AppError,
  assignmentRemoveDenial,
  assignmentReplaceDenial,
  contextKey,
  grantTargetDenial,
  isAssignmentInForce,
  type AccessSubject,
  type ContextAssignment,
  type ContextRoleId,
  type CourseRole,
  type Enrolment,
  type RoleRegistry,
} from '@learning-hub/core';
import {
  deleteAssignment,
  findAssignment,
  lockAccessTarget,
  recordAccessAudit,
  upsertAssignment,
} from '../../platform/access/access-repository';
import type { Db } from '../../platform/db';
import type { SignedInActor } from '../../platform/actor';
import { courseContext } from './course-access';
import { countEnrolledExcept, lockCourse, type CourseRecord } from './course-repository';

/** The refusals of self-enrolment, word for word (docs/classroom.md). */
export const ENROL_REFUSAL = {
  notOpen: 'This course is not open for enrolment.',
  manual: "Only the course's instructors can enrol people in this course.",
  wrongKey: 'The enrolment key is not correct.',
  full: 'This course is full.',
  notStarted: 'Enrolment for this course has not started yet.',
  closed: 'Enrolment for this course has closed.',
  teaching: 'You teach this course, so you cannot enrol in it as a learner.',
  blocked:
    "The course's staff ended your enrolment, so you cannot enrol yourself again. Ask an instructor of the course.",
} as const;

/** Whether the course's staff removed or ended the user as a learner (no self-enrolment). */
export async function isEnrolmentBlocked(
  db: Db,
  courseId: string,
  userId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('course_enrolment_blocks')
    .select('user_id')
    .where('course_id', '=', courseId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records (or lifts) the staff's block on the user's self-enrolment in the course. */
async function setEnrolmentBlock(
  db: Db,
  courseId: string,
  userId: string,
  block: { by: string; at: string } | null,
): Promise<void> {
  if (block === null) {
    await db
      .deleteFrom('course_enrolment_blocks')
      .where('course_id', '=', courseId)
      .where('user_id', '=', userId)
      .execute();
    return;
  }
  await db
    .insertInto('course_enrolment_blocks')
    .values({ course_id: courseId, user_id: userId, blocked_by: block.by, blocked_at: block.at })
    .onConflict((oc) =>
      oc
        .columns(['course_id', 'user_id'])
        .doUpdateSet({ blocked_by: block.by, blocked_at: block.at }),
    )
    .execute();
}

/**
 * The staff's rule on self-enrolment after someone's roles in a course change, by whatever route
 * (the course's participants tab or the admin area): taking the learner role away or giving it an
 * end blocks self-enrolment; making them a learner with no end lifts the block. `previous` is the
 * assignment in force before the change, `next` the one after (null when removed). Runs in the
 * caller's transaction. See docs/classroom.md (enrolment).
 */
export async function applyEnrolmentBlockRule(
  trx: Db,
  change: {
    courseId: string;
    userId: string;
    previous: Pick<ContextAssignment, 'roles'> | null;
    next: Pick<ContextAssignment, 'roles' | 'expiresAt'> | null;
    by: string;
    at: string;
  },
): Promise<void> {
  const { courseId, userId, previous, next, by, at } = change;
  const wasLearner = previous?.roles.includes('course-student') ?? false;
  const isLearner = next?.roles.includes('course-student') ?? false;
  if (isLearner && next?.expiresAt === null) {
    await setEnrolmentBlock(trx, courseId, userId, null);
  } else if (isLearner || wasLearner) {
    await setEnrolmentBlock(trx, courseId, userId, { by, at });
  }
}

export interface EnrolDecision {
  allowed: boolean;
  /** Why not, in words; null when allowed. */
  reason: string | null;
  /** The error code of the refusal. */
  code: 'FORBIDDEN' | 'CONFLICT' | null;
}

const allow: EnrolDecision = { allowed: true, reason: null, code: null };
const refuse = (code: 'FORBIDDEN' | 'CONFLICT', reason: string): EnrolDecision => ({
  allowed: false,
  reason,
  code,
});

/** A key as it is compared: case and surrounding spaces do not matter (nor Unicode forms). */
const keyForm = (key: string) => key.normalize('NFKC').trim().toLowerCase();

/** Compares an entered key with the course's without revealing how much matched. */
function sameKey(given: string, expected: string): boolean {
  const a = createHash('sha256').update(keyForm(given)).digest();
  const b = createHash('sha256').update(keyForm(expected)).digest();
  return timingSafeEqual(a, b);
}

/**
 * Whether the viewer may enrol themselves now. `permission`: the permission model's answer for
 * course.enroll in the course (null when held, else its reason); `enrolled`: learners enrolled now
 * other than the viewer; `key`: the key entered (undefined: not judged — the flags of a key
 * course say "may enrol" and the form asks for the key).
 */
export function selfEnrolDecision(
  course: Pick<CourseRecord, 'state' | 'enrolmentMode' | 'enrolmentKey' | 'startsAt' | 'endsAt'> & {
    capacity: number | null;
  },
  input: {
    permission: string | null;
    enrolled: number;
    now: number;
    key?: string | undefined;
    /** Course roles the viewer holds now (a course's instructors and assistants do not enrol in it). */
    roles?: readonly string[];
    /** The course's staff removed or ended the viewer as a learner (isEnrolmentBlocked). */
    blocked?: boolean;
  },
): EnrolDecision {
  if (input.permission !== null) return refuse('FORBIDDEN', input.permission);
  if (input.roles?.some((r) => r === 'course-instructor' || r === 'course-assistant')) {
    return refuse('CONFLICT', ENROL_REFUSAL.teaching);
  }
  if (input.blocked) return refuse('FORBIDDEN', ENROL_REFUSAL.blocked);
  if (course.state !== 'published') return refuse('CONFLICT', ENROL_REFUSAL.notOpen);
  if (course.enrolmentMode === 'manual') return refuse('FORBIDDEN', ENROL_REFUSAL.manual);
  if (course.startsAt !== null && input.now < Date.parse(course.startsAt)) {
    return refuse('CONFLICT', ENROL_REFUSAL.notStarted);
  }
  if (course.endsAt !== null && input.now >= Date.parse(course.endsAt)) {
    return refuse('CONFLICT', ENROL_REFUSAL.closed);
  }
  if (course.capacity !== null && input.enrolled >= course.capacity) {
    return refuse('CONFLICT', ENROL_REFUSAL.full);
  }
  if (course.enrolmentMode === 'key' && input.key !== undefined) {
    if (course.enrolmentKey === null || !sameKey(input.key, course.enrolmentKey)) {
      return refuse('FORBIDDEN', ENROL_REFUSAL.wrongKey);
    }
  }
  return allow;
}

const audit = (
  db: Db,
  at: string,
  actor: SignedInActor,
  target: { id: string; username: string },
  courseId: string,
  action: string,
  details: Record<string, unknown>,
) =>
  recordAccessAudit(db, at, {
    action,
    actorId: actor.id,
    actorUsername: actor.username,
    targetUserId: target.id,
    targetUsername: target.username,
    context: contextKey(courseContext(courseId)),
    details: { via: 'course', ...details },
    requestId: actor.requestId,
  });

function enrolmentOf(courseId: string, a: ContextAssignment | null, now: number): Enrolment {
  const enrolled = !!a && isAssignmentInForce(a, now) && a.roles.includes('course-student');
  return {
    courseId,
    userId: a?.userId ?? '',
    enrolled,
    endsAt: enrolled ? (a?.expiresAt ?? null) : null,
  };
}

/**
 * Enrols the user in the course (self-enrolment), atomically: under the course's row lock it
 * re-reads the course and the user's assignment, counts the learners and writes the assignment.
 * Already enrolled: nothing changes and the same enrolment is returned (`created` false). The
 * enrolment ends when the course ends; a person who already holds other course roles keeps their
 * row's expiry.
 */
export async function enrolSelf(
  db: Db,
  input: {
    courseId: string;
    user: { id: string; username: string };
    permission: string | null;
    key?: string | undefined;
    actor: SignedInActor;
    now: number;
  },
): Promise<{ enrolment: Enrolment; created: boolean }> {
  const { courseId, user, now } = input;
  const at = new Date(now).toISOString();
  return db.transaction().execute(async (trx) => {
    const course = await lockCourse(trx, courseId);
    if (!course) throw new AppError('NOT_FOUND', 'Course not found');
    const context = courseContext(courseId);
    const previous = await findAssignment(trx, user.id, context);
    const current = previous && isAssignmentInForce(previous, now) ? previous : null;
    if (current?.roles.includes('course-student')) {
      return {
        enrolment: { ...enrolmentOf(courseId, current, now), userId: user.id },
        created: false,
      };
    }
    const enrolled = await countEnrolledExcept(trx, courseId, user.id, at);
    const decision = selfEnrolDecision(course, {
      permission: input.permission,
      enrolled,
      now,
      roles: current?.roles ?? [],
      blocked: await isEnrolmentBlocked(trx, courseId, user.id),
      key: course.enrolmentMode === 'key' ? (input.key ?? '') : undefined,
    });
    if (!decision.allowed) {
      throw new AppError(decision.code ?? 'CONFLICT', decision.reason ?? ENROL_REFUSAL.notOpen);
    }
    const next: ContextAssignment = {
      userId: user.id,
      context,
      roles: current ? [...current.roles, 'course-student'] : ['course-student'],
      directPermissions: current ? [...current.directPermissions] : [],
      assignedBy: input.actor.id,
      assignedAt: at,
      expiresAt: current ? current.expiresAt : course.endsAt,
      isActive: true,
    };
    await upsertAssignment(trx, next);
    await audit(trx, at, input.actor, user, courseId, 'enrolment.self', {
      roles: next.roles,
      expiresAt: next.expiresAt,
    });
    return { enrolment: { ...enrolmentOf(courseId, next, now), userId: user.id }, created: true };
  });
}

/**
 * Takes the user out of the course as a learner: only the course-student role goes; the row is
 * deleted when no role is left. False when they were not enrolled (nothing changes).
 */
export async function unenrolSelf(
  db: Db,
  input: {
    courseId: string;
    user: { id: string; username: string };
    actor: SignedInActor;
    now: number;
  },
): Promise<boolean> {
  const { courseId, user, now } = input;
  const at = new Date(now).toISOString();
  return db.transaction().execute(async (trx) => {
    const context = courseContext(courseId);
    const previous = await findAssignment(trx, user.id, context);
    if (!previous || !previous.roles.includes('course-student')) return false;
    const roles = previous.roles.filter((r) => r !== 'course-student');
    if (roles.length === 0 && previous.directPermissions.length === 0) {
      await deleteAssignment(trx, user.id, context);
    } else {
      await upsertAssignment(trx, { ...previous, roles, assignedAt: at });
    }
    await audit(trx, at, input.actor, user, courseId, 'enrolment.unenrol', {
      previous: { roles: previous.roles, expiresAt: previous.expiresAt },
    });
    return true;
  });
}

/** Throws 403 with the grant rule's reason when there is one. */
function refuseGrant(reason: string | null): void {
  if (reason !== null) throw new AppError('FORBIDDEN', reason);
}

/**
 * Sets a person's course roles and their end (participants page), under the grant rules of
 * core/access/grants.ts: nobody changes their own course roles, only admins change admins, and
 * a non-admin gives (and takes away) only roles whose permissions they hold in the course — so
 * giving course-instructor needs course.edit there. Capacity does not apply: people who manage
 * participants may deliberately enrol beyond it (self-enrolment stops at it).
 */
export async function setParticipant(
  db: Db,
  input: {
    courseId: string;
    actor: SignedInActor;
    actorSubject: AccessSubject;
    target: { id: string; username: string };
    roles: CourseRole[];
    endsAt: string | null;
    registry: RoleRegistry;
    now: number;
    /** Tells the person of the roles given them (docs/notifications.md). */
    notifications?: NotificationService;
  },
): Promise<{ assignment: ContextAssignment; created: boolean }> {
  const { courseId, target, now } = input;
  const at = new Date(now).toISOString();
  const context = courseContext(courseId);
  return db.transaction().execute(async (trx) => {
    const locked = await lockAccessTarget(trx, target.id);
    if (!locked) throw new AppError('NOT_FOUND', 'User not found');
    const grantTarget = { id: target.id, ...locked };
    const previous = await findAssignment(trx, target.id, context);
    const current = previous && isAssignmentInForce(previous, now) ? previous : null;
    const next: ContextAssignment = {
      userId: target.id,
      context,
      roles: [...new Set(input.roles)] as ContextRoleId[],
      directPermissions: current ? [...current.directPermissions] : [],
      assignedBy: input.actor.id,
      assignedAt: at,
      expiresAt: input.endsAt,
      isActive: true,
    };
    refuseGrant(
      assignmentReplaceDenial(input.actorSubject, grantTarget, current, next, input.registry, {
        now,
      }),
    );
    if (!locked.isActive) throw new AppError('CONFLICT', 'This account is deactivated.');
    await upsertAssignment(trx, next);
    // Staff who end a learner's enrolment (take the role, or give it an end) decide when they
    // come back; enrolling them with no end lifts that.
    await applyEnrolmentBlockRule(trx, {
      courseId,
      userId: target.id,
      previous: current,
      next,
      by: input.actor.id,
      at,
    });
    await audit(
      trx,
      at,
      input.actor,
      target,
      courseId,
      previous ? 'assignment.replace' : 'assignment.create',
      {
        roles: next.roles,
        directPermissions: next.directPermissions,
        expiresAt: next.expiresAt,
        ...(previous ? { previous: { roles: previous.roles, expiresAt: previous.expiresAt } } : {}),
      },
    );
    if (input.notifications) {
      await tellOfNewRoles(input.notifications, trx, {
        previous: current,
        next,
        actorId: input.actor.id,
        now,
      });
    }
    // Not a participant in force before: this made them one (a PUT that creates answers 201).
    return { assignment: next, created: current === null };
  });
}

/** Removes a person from the course (all course roles), under the same grant rules. */
export async function removeParticipant(
  db: Db,
  input: {
    courseId: string;
    actor: SignedInActor;
    actorSubject: AccessSubject;
    target: { id: string; username: string };
    registry: RoleRegistry;
    now: number;
  },
): Promise<boolean> {
  const { courseId, target, now } = input;
  const at = new Date(now).toISOString();
  const context = courseContext(courseId);
  return db.transaction().execute(async (trx) => {
    const locked = await lockAccessTarget(trx, target.id);
    if (!locked) return false;
    const grantTarget = { id: target.id, ...locked };
    refuseGrant(grantTargetDenial(input.actorSubject, grantTarget, 'assignments'));
    const previous = await findAssignment(trx, target.id, context);
    if (!previous) return false;
    refuseGrant(
      assignmentRemoveDenial(input.actorSubject, grantTarget, previous, input.registry, { now }),
    );
    await deleteAssignment(trx, target.id, context);
    await applyEnrolmentBlockRule(trx, {
      courseId,
      userId: target.id,
      previous,
      next: null,
      by: input.actor.id,
      at,
    });
    await audit(trx, at, input.actor, target, courseId, 'assignment.remove', {
      roles: previous.roles,
      directPermissions: previous.directPermissions,
      expiresAt: previous.expiresAt,
    });
    return true;
  });
}
