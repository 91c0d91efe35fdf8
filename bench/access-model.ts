/**
 * The population and the questions of `npm run bench:access`: a deterministic (seeded) model of a
 * mid-sized deployment — 10,000 users, 1,000 courses, 50 departments and about 30,000 context
 * assignments, some expired, some inactive, a few in the system context — and a random sample of
 * permission questions about it. Every library under test is built from these same objects, so
 * they are judged on identical data.
 */
import {
  ALL_PERMISSION_IDS,
  CONTEXT_ROLES,
  contextKey,
  ownDepartmentAssignment,
  parseContextKey,
  type AccessContext,
  type AccessSubject,
  type CheckScope,
  type ContextAssignment,
  type ContextRoleId,
  type PermissionId,
  type SystemRoleId,
} from '@learning-hub/core';

/**
 * The one "now" every library judges expiry by. A fixed instant (rather than Date.now) makes the
 * expired / in-force split identical for the engine, the reference, Casbin and CASL, and keeps the
 * run reproducible.
 */
export const FIXED_NOW = Date.parse('2025-06-02T09:00:00.000Z');

export const USER_COUNT = 10_000;
export const COURSE_COUNT = 1_000;
export const DEPARTMENT_COUNT = 50;
export const QUESTION_COUNT = 10_000;

const DAY = 86_400_000;

/** mulberry32: tiny, fast and good enough to make a reproducible population. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

/** `count` distinct items (fewer if the list is shorter). */
function pickDistinct<T>(random: () => number, items: readonly T[], count: number): T[] {
  const out = new Set<T>();
  while (out.size < Math.min(count, items.length)) out.add(pick(random, items));
  return [...out];
}

const courseKey = (n: number) => `c${n}`;
const departmentKey = (n: number) => `d${n}`;

/** Grants an admin might hand out globally on top of a role (the ~10% "special" users). */
const GLOBAL_EXTRAS: readonly PermissionId[] = [
  'analytics.view',
  'analytics.export',
  'library.upload',
  'library.manage',
  'wiki.create',
  'wiki.edit',
  'grade.export',
  'department.view',
  'user.view',
  'course.create',
  'system.view',
];

/** Direct grants that come with a single course or department assignment. */
const COURSE_EXTRAS: readonly PermissionId[] = [
  'wiki.edit',
  'library.upload',
  'grade.export',
  'analytics.view',
  'assignment.delete',
];
const DEPARTMENT_EXTRAS: readonly PermissionId[] = [
  'analytics.export',
  'library.manage',
  'user.view',
  'wiki.manage',
];

export interface Population {
  subjects: AccessSubject[];
  courses: string[];
  departments: string[];
  /** Figures printed with the results, so a reader sees what was built. */
  stats: {
    users: Record<SystemRoleId, number>;
    assignments: number;
    expired: number;
    inactive: number;
    expiringLater: number;
    systemContext: number;
    withDirectPermissions: number;
    usersWithGlobalDirect: number;
  };
}

/** Builds the population; the same seed always yields the same users and assignments. */
export function buildPopulation(seed = 20250602): Population {
  const random = seededRandom(seed);
  const courses = Array.from({ length: COURSE_COUNT }, (_, i) => courseKey(i + 1));
  const departments = Array.from({ length: DEPARTMENT_COUNT }, (_, i) => departmentKey(i + 1));
  const stats: Population['stats'] = {
    users: { student: 0, instructor: 0, admin: 0 },
    assignments: 0,
    expired: 0,
    inactive: 0,
    expiringLater: 0,
    systemContext: 0,
    withDirectPermissions: 0,
    usersWithGlobalDirect: 0,
  };
  const assignedAt = new Date(FIXED_NOW - 200 * DAY).toISOString();

  /**
   * One assignment with the lifecycle mix of a real deployment: most open-ended, some with an
   * expiry still ahead, some already past it (must be ignored), a few switched off.
   */
  const makeAssignment = (
    userId: string,
    context: AccessContext,
    roles: ContextRoleId[],
    extras: readonly PermissionId[],
  ): ContextAssignment => {
    const roll = random();
    let expiresAt: string | null = null;
    if (roll < 0.06) {
      expiresAt = new Date(FIXED_NOW - Math.ceil(random() * 90) * DAY).toISOString();
      stats.expired += 1;
    } else if (roll < 0.16) {
      expiresAt = new Date(FIXED_NOW + Math.ceil(random() * 180) * DAY).toISOString();
      stats.expiringLater += 1;
    }
    const isActive = random() >= 0.03;
    if (!isActive) stats.inactive += 1;
    const directPermissions =
      extras.length > 0 && random() < 0.05
        ? pickDistinct(random, extras, 1 + (random() < 0.4 ? 1 : 0))
        : [];
    if (directPermissions.length > 0) stats.withDirectPermissions += 1;
    if (context.type === 'system') stats.systemContext += 1;
    stats.assignments += 1;
    return {
      userId,
      context,
      roles,
      directPermissions,
      assignedBy: 'bench',
      assignedAt,
      expiresAt,
      isActive,
    };
  };

  const subjects: AccessSubject[] = [];
  for (let n = 1; n <= USER_COUNT; n++) {
    const id = `u${n}`;
    const roll = random();
    const role: SystemRoleId = roll < 0.005 ? 'admin' : roll < 0.115 ? 'instructor' : 'student';
    stats.users[role] += 1;
    const ownDepartment = pick(random, departments);
    const assignments: ContextAssignment[] = [];

    // Everyone is a member of their own department (docs/spec-readings.md: derived from the user
    // record, never expires); about 2% also manage it, through an assignment an admin made.
    if (random() < 0.02) {
      assignments.push(
        makeAssignment(
          id,
          { type: 'department', departmentId: ownDepartment },
          ['department-manager', 'department-member'],
          DEPARTMENT_EXTRAS,
        ),
      );
    } else {
      assignments.push(ownDepartmentAssignment(id, ownDepartment, assignedAt));
      stats.assignments += 1;
    }

    // Courses: students take one to three, instructors teach one to three and may take one.
    const courseCount = role === 'admin' ? Math.floor(random() * 2) : 1 + Math.floor(random() * 3);
    const takes = role === 'instructor' && random() < 0.3 ? 1 : 0;
    const myCourses = pickDistinct(random, courses, courseCount + takes);
    myCourses.forEach((courseId, i) => {
      let courseRole: ContextRoleId;
      if (role === 'instructor' && i < courseCount) {
        courseRole = random() < 0.8 ? 'course-instructor' : 'course-assistant';
      } else {
        courseRole = random() < 0.05 ? 'course-assistant' : 'course-student';
      }
      assignments.push(
        makeAssignment(id, { type: 'course', courseId }, [courseRole], COURSE_EXTRAS),
      );
    });

    // A few belong to a second department.
    if (random() < 0.04) {
      const other = pick(random, departments);
      if (other !== ownDepartment) {
        assignments.push(
          makeAssignment(
            id,
            { type: 'department', departmentId: other },
            ['department-member'],
            [],
          ),
        );
      }
    }

    // About 1% hold an assignment in the system context, which counts in every context.
    if (random() < 0.01) {
      assignments.push(
        makeAssignment(
          id,
          { type: 'system' },
          random() < 0.5 ? ['course-assistant'] : ['department-member'],
          ['analytics.view', 'wiki.edit', 'library.upload'],
        ),
      );
    }

    const subject: AccessSubject = { id, role, contextAssignments: assignments };
    if (random() < 0.1) {
      subject.directPermissions = pickDistinct(random, GLOBAL_EXTRAS, 1 + Math.floor(random() * 2));
      stats.usersWithGlobalDirect += 1;
    }
    subjects.push(subject);
  }
  return { subjects, courses, departments, stats };
}

/** Where a question is asked, as every library receives it. */
export type ScopeKind = 'system' | 'any' | 'held' | 'foreign';

export interface Question {
  userId: string;
  /** A catalogue id, or (for the engine-vs-reference check only) an invalid one. */
  permission: string;
  valid: boolean;
  /** `course`, `view`: the halves Casbin and CASL are asked with. */
  resource: string;
  action: string;
  /** `system`, `any` or a context key such as `course:c42`. */
  scopeKey: string;
  /** What the engine receives: undefined for the system context, else the key. */
  engineScope: string | undefined;
  /** What the reference `checkPermission` receives. */
  scope: CheckScope;
  kind: ScopeKind;
}

/** Ids that must be rejected as invalid (spec §5), including near misses of real ones. */
const INVALID_PERMISSIONS = [
  'course.fly',
  'Course.view',
  'course',
  '',
  'system.*',
  'admin',
  'grade.view own',
  'nav.teacher',
];

/**
 * Permissions the context roles grant: half of the questions draw from these so that context
 * questions are often allowed, not just uniformly denied.
 */
const CONTEXT_ROLE_PERMISSIONS: readonly PermissionId[] = Object.values(CONTEXT_ROLES).flatMap(
  (r) => r.permissions,
);

/**
 * The sample: about 20% in the system context, 15% in `any`, 40% in a context the user has an
 * assignment for (expired and inactive ones included), 25% in a context they have none in; about
 * 1% with an invalid permission id.
 */
export function buildQuestions(population: Population, seed = 4711): Question[] {
  const random = seededRandom(seed);
  const { subjects, courses, departments } = population;
  const out: Question[] = [];
  while (out.length < QUESTION_COUNT) {
    const subject = pick(random, subjects);
    const heldKeys = (subject.contextAssignments ?? [])
      .filter((a) => a.context.type !== 'system')
      .map((a) => contextKey(a.context));
    const roll = random();
    let kind: ScopeKind;
    let scopeKey: string;
    if (roll < 0.2) {
      kind = 'system';
      scopeKey = 'system';
    } else if (roll < 0.35) {
      kind = 'any';
      scopeKey = 'any';
    } else if (roll < 0.75 && heldKeys.length > 0) {
      kind = 'held';
      scopeKey = pick(random, heldKeys);
    } else {
      kind = 'foreign';
      do {
        scopeKey =
          random() < 0.7
            ? `course:${pick(random, courses)}`
            : `department:${pick(random, departments)}`;
      } while (heldKeys.includes(scopeKey));
    }
    const p = random();
    const permission =
      p < 0.01
        ? pick(random, INVALID_PERMISSIONS)
        : p < 0.5
          ? pick(random, ALL_PERMISSION_IDS)
          : pick(random, CONTEXT_ROLE_PERMISSIONS);
    const valid = (ALL_PERMISSION_IDS as readonly string[]).includes(permission);
    const dot = permission.indexOf('.');
    let scope: CheckScope;
    if (kind === 'system') scope = undefined;
    else if (kind === 'any') scope = 'any';
    else {
      const context = parseContextKey(scopeKey);
      if (!context) throw new Error(`not a context key: ${scopeKey}`);
      scope = context;
    }
    out.push({
      userId: subject.id,
      permission,
      valid,
      resource: dot < 0 ? permission : permission.slice(0, dot),
      action: dot < 0 ? '' : permission.slice(dot + 1),
      scopeKey,
      engineScope: kind === 'system' ? undefined : scopeKey,
      scope,
      kind,
    });
  }
  return out;
}
