/**
 * Demo data for an empty embedded database: three departments of a fiber-network company and
 * one account per system role (their courses, classroom and department pages in the seed-*.ts
 * files beside it). The README lists the passwords. Production deployments switch
 * this off (SEED_DEMO=false) and create their first admin with the admin command line.
 */
import type { ContextRoleId } from '@learning-hub/core';
import { upsertAssignment } from './platform/access/access-repository';
import { recordAuthEvent } from './platform/auth/auth-event-repository';
import { hashPassword } from './platform/auth/passwords';
import { countUsers, createUser, findUserByUsername } from './platform/auth/user-repository';
import { createDepartment, findDepartment } from './platform/auth/departments';
import { countCourses, insertCourse } from './modules/courses/course-repository';
import type { Db } from './platform/db';
import { sanitizeRichText } from './platform/rich-text/sanitize';
import { DEMO_DEPARTMENT_DESCRIPTIONS } from './modules/departments/seed';
import type { FastifyInstance } from 'fastify';

/** The demo departments; their descriptions (rich text) are seed-departments.ts's. */
export const DEMO_DEPARTMENTS = ['Network Engineering', 'Field Operations', 'Customer Support'].map(
  (name) => ({ name, description: DEMO_DEPARTMENT_DESCRIPTIONS[name] ?? '' }),
);

export const DEMO_ACCOUNTS = [
  {
    username: 'admin',
    password: 'admin-demo-pass',
    role: 'admin',
    firstname: 'Alex',
    lastname: 'Morgan',
    email: 'alex.morgan@fiberco.example',
    department: 'Network Engineering',
  },
  {
    username: 'instructor',
    password: 'instructor-demo-pass',
    role: 'instructor',
    firstname: 'Priya',
    lastname: 'Shah',
    email: 'priya.shah@fiberco.example',
    department: 'Field Operations',
  },
  {
    username: 'student',
    password: 'student-demo-pass',
    role: 'student',
    firstname: 'Sam',
    lastname: 'Rivera',
    email: 'sam.rivera@fiberco.example',
    // A field technician: the account a newcomer tries first sees the field procedures and clips.
    department: 'Field Operations',
  },
] as const;

export const DEMO_COURSES = [
  {
    id: 'fiber-splicing-101',
    code: 'FO-101',
    title: 'Fiber Splicing Fundamentals',
    description: 'Fusion and mechanical splicing, splice trays and loss budgets.',
    department: 'Field Operations',
  },
  {
    id: 'otdr-trace-analysis',
    code: 'FO-210',
    title: 'OTDR Testing and Trace Analysis',
    description: 'Launch cables, event tables and finding faults from a trace.',
    department: 'Field Operations',
  },
  {
    id: 'gpon-provisioning',
    code: 'NE-220',
    title: 'GPON Provisioning',
    description: 'OLT and ONT configuration, service profiles and VLANs.',
    department: 'Network Engineering',
  },
  {
    id: 'ftth-customer-care',
    code: 'CS-110',
    title: 'FTTH Customer Care',
    description: 'Installation appointments, first-line fault finding and escalation.',
    department: 'Customer Support',
  },
] as const;

/** Who holds which role in which demo course. */
const DEMO_COURSE_ROLES: readonly { username: string; courseId: string; role: ContextRoleId }[] = [
  { username: 'instructor', courseId: 'fiber-splicing-101', role: 'course-instructor' },
  { username: 'instructor', courseId: 'otdr-trace-analysis', role: 'course-instructor' },
  { username: 'student', courseId: 'fiber-splicing-101', role: 'course-student' },
  { username: 'student', courseId: 'ftth-customer-care', role: 'course-student' },
];

async function seedDepartments(db: Db, at: string): Promise<void> {
  for (const d of DEMO_DEPARTMENTS) {
    if (!(await findDepartment(db, d.name))) {
      await createDepartment(
        db,
        { name: d.name, description: sanitizeRichText(d.description) },
        at,
      );
    }
  }
}

/** Seeds the demo courses when there are none (also on databases seeded before courses existed). */
export async function seedDemoCourses(db: Db, now = new Date()): Promise<boolean> {
  if ((await countCourses(db)) > 0) return false;
  const at = now.toISOString();
  await seedDepartments(db, at);
  for (const c of DEMO_COURSES) {
    const department = await findDepartment(db, c.department);
    await insertCourse(
      db,
      {
        id: c.id,
        code: c.code,
        title: c.title,
        description: c.description,
        departmentId: department?.id ?? null,
      },
      at,
    );
  }
  for (const a of DEMO_COURSE_ROLES) {
    const user = await findUserByUsername(db, a.username);
    if (!user) continue;
    await upsertAssignment(db, {
      userId: user.id,
      context: { type: 'course', courseId: a.courseId },
      roles: [a.role],
      directPermissions: [],
      assignedBy: 'system',
      assignedAt: at,
      expiresAt: null,
      isActive: true,
    });
  }
  return true;
}

/**
 * A few failed sign-ins for the admin's start page: mistyped passwords of demo learners and an
 * account that does not exist (never the three demo accounts, whose next sign-in would report
 * them).
 */
export const DEMO_SIGN_IN_FAILURES = [
  { minutesAgo: 26 * 60, username: 'jordan.lee', event: 'login_failure' },
  { minutesAgo: 95, username: 'mgomez', event: 'login_failure' },
  { minutesAgo: 12, username: 'tomasz.nowak', event: 'login_failure' },
] as const;

async function seedSignInFailures(db: Db, now: Date): Promise<void> {
  for (const f of DEMO_SIGN_IN_FAILURES) {
    await recordAuthEvent(db, {
      occurredAt: new Date(now.getTime() - f.minutesAgo * 60_000).toISOString(),
      event: f.event,
      username: f.username,
      authMethod: 'local',
      success: false,
      error: 'Invalid username or password',
      address: '203.0.113.24',
      userAgent: 'Mozilla/5.0 (demo data)',
    });
  }
}

/**
 * Seeds the base of the demo data (departments, accounts, courses, sign-in failures) when the
 * database has no users; returns whether it did. `seedDemo` adds each area's own on top.
 */
export async function seedDemoData(db: Db, now = new Date()): Promise<boolean> {
  if ((await countUsers(db)) > 0) {
    await seedDemoCourses(db, now);
    return false;
  }
  const at = now.toISOString();
  await seedDepartments(db, at);
  for (const a of DEMO_ACCOUNTS) {
    const department = await findDepartment(db, a.department);
    await createUser(
      db,
      {
        username: a.username,
        email: a.email,
        firstname: a.firstname,
        lastname: a.lastname,
        role: a.role,
        departmentId: department?.id ?? null,
        passwordHash: await hashPassword(a.password),
      },
      at,
    );
  }
  await seedDemoCourses(db, now);
  await seedSignInFailures(db, now);
  return true;
}

/**
 * The whole demo (`npm start` with the demo seed): the base, then each area's own seed in the
 * order of `app.areas` (their manifests). Returns the names of what it added: `base` and areas.
 */
export async function seedDemo(app: FastifyInstance, db: Db, now = new Date()): Promise<string[]> {
  const added: string[] = [];
  if (await seedDemoData(db, now)) added.push('base');
  for (const area of app.areas.list) {
    if (area.seed && (await area.seed(app, db, now))) added.push(area.name);
  }
  return added;
}
