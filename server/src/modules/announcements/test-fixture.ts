/**
 * Test fixture of the announcements' tests: people of three departments, two courses and what
 * each holds where, signed in, with requests as each of them (docs/testing.md).
 *
 * - ada: admin (Network Engineering): announces to anyone;
 * - priya: system instructor (Field Operations): course.edit everywhere, no department.manage;
 * - tina: student (Customer Support), course-instructor of COURSE and of DRAFT_COURSE only;
 * - mia: student (Customer Support), manager of Field Operations (member and manager);
 * - sam: student (Field Operations), enrolled in COURSE and in DRAFT_COURSE;
 * - kim: student (Customer Support), in no course;
 * - lee: student (Network Engineering), whose enrolment in COURSE has ended;
 * - gone: student (Field Operations), enrolled in COURSE, deactivated.
 */
import type {
  Announcement,
  AnnouncementCreate,
  ContextAssignment,
  ContextRoleId,
} from '@learning-hub/core';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { upsertAssignment } from '../../platform/access/access-repository';
import { createSession } from '../../platform/auth/session-repository';
import { setActive } from '../../platform/auth/user-repository';
import { bearer, createTestUser, type TestContext } from '../../test/helpers';
import { insertCourse } from '../courses/course-repository';

export const FIELD = 'field-operations';
export const SUPPORT = 'customer-support';
export const NETWORK = 'network-engineering';
export const COURSE = 'splicing-101';
export const OTHER_COURSE = 'otdr-210';
export const DRAFT_COURSE = 'gpon-300';

export const NAMES = ['ada', 'priya', 'tina', 'mia', 'sam', 'kim', 'lee', 'gone'] as const;
export type Name = (typeof NAMES)[number];

const PEOPLE: Record<Name, { role: string; department: string }> = {
  ada: { role: 'admin', department: 'Network Engineering' },
  priya: { role: 'instructor', department: 'Field Operations' },
  tina: { role: 'student', department: 'Customer Support' },
  mia: { role: 'student', department: 'Customer Support' },
  sam: { role: 'student', department: 'Field Operations' },
  kim: { role: 'student', department: 'Customer Support' },
  lee: { role: 'student', department: 'Network Engineering' },
  gone: { role: 'student', department: 'Field Operations' },
};

export interface Fixture {
  ids: Record<Name, string>;
  tokens: Record<Name, string>;
  /** A request as one of the people (anonymous for null). */
  as(
    who: Name | null,
    method: InjectOptions['method'],
    url: string,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  /** Creates one as `who` and expects it made (201); returns the answer. */
  announce(who: Name, body: Partial<AnnouncementCreate>): Promise<Announcement>;
  /** The ids of the announcements out to `who` now (their reader list). */
  mine(who: Name, query?: string): Promise<string[]>;
}

/** An audience with only the parts given. */
export function audience(parts: {
  everyone?: boolean;
  roles?: string[];
  departmentIds?: string[];
  courseIds?: string[];
  userIds?: string[];
}) {
  return {
    everyone: parts.everyone ?? false,
    roles: parts.roles ?? [],
    departmentIds: parts.departmentIds ?? [],
    courseIds: parts.courseIds ?? [],
    userIds: parts.userIds ?? [],
  };
}

/** A body that publishes now to everyone, with the fields given. */
export function body(fields: Partial<AnnouncementCreate> = {}): AnnouncementCreate {
  return {
    title: 'Elm Street closed',
    bodyHtml: '<p>A contractor cut the feeder.</p>',
    audience: audience({ everyone: true }),
    publish: 'now',
    ...fields,
  };
}

export async function announcementFixture(ctx: TestContext): Promise<Fixture> {
  const db = ctx.database.db;
  const at = new Date(ctx.clock.now()).toISOString();
  const ids = {} as Record<Name, string>;
  const tokens = {} as Record<Name, string>;
  for (const name of NAMES) {
    const p = PEOPLE[name];
    const { user } = await createTestUser(ctx, {
      username: name,
      role: p.role,
      department: p.department,
      firstname: name[0]?.toUpperCase() + name.slice(1),
      lastname: 'Tester',
    });
    ids[name] = user.id;
    const { token } = await createSession(db, {
      userId: user.id,
      method: 'local',
      now: new Date(ctx.clock.now()),
      lifetimeMs: 30 * 24 * 3_600_000,
      ipAddress: '127.0.0.1',
      userAgent: 'test',
    });
    tokens[name] = token;
  }
  for (const [id, code, department] of [
    [COURSE, 'SP-101', FIELD],
    [OTHER_COURSE, 'OT-210', FIELD],
    [DRAFT_COURSE, 'GP-300', NETWORK],
  ] as const) {
    await insertCourse(
      db,
      { id, code, title: `Course ${code}`, description: '', departmentId: department },
      at,
    );
  }
  await db.updateTable('courses').set({ state: 'draft' }).where('id', '=', DRAFT_COURSE).execute();
  const assign = async (
    who: Name,
    context: ContextAssignment['context'],
    roles: ContextRoleId[],
    expiresAt: string | null = null,
  ) =>
    upsertAssignment(db, {
      userId: ids[who],
      context,
      roles,
      directPermissions: [],
      assignedBy: 'test',
      assignedAt: at,
      expiresAt,
      isActive: true,
    });
  const course = (courseId: string) => ({ type: 'course' as const, courseId });
  await assign('tina', course(COURSE), ['course-instructor']);
  await assign('tina', course(DRAFT_COURSE), ['course-instructor']);
  await assign('sam', course(COURSE), ['course-student']);
  await assign('sam', course(DRAFT_COURSE), ['course-student']);
  await assign('gone', course(COURSE), ['course-student']);
  await assign('lee', course(COURSE), ['course-student'], at);
  await assign('mia', { type: 'department', departmentId: FIELD }, [
    'department-member',
    'department-manager',
  ]);
  await setActive(db, ids.gone, false, at);

  const as: Fixture['as'] = (who, method, url, payload) =>
    ctx.app.inject({
      method,
      url,
      ...(who ? { headers: bearer(tokens[who]) } : {}),
      ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
    });
  return {
    ids,
    tokens,
    as,
    announce: async (who, fields) => {
      const response = await as(who, 'POST', '/api/announcements', body(fields));
      expect(response.statusCode, response.body).toBe(201);
      return response.json<Announcement>();
    },
    mine: async (who, query = '') => {
      const response = await as(who, 'GET', `/api/announcements?pageSize=100${query}`);
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ items: Announcement[] }>().items.map((a) => a.id);
    },
  };
}
