/**
 * Test fixture of the department pages' tests: three departments and their people, signed in,
 * with requests as each of them. Field Operations is the department under test:
 *
 * - ada: admin (Network Engineering);
 * - fred: student whose account is in Field Operations (a member by account);
 * - priya: instructor whose account is in Field Operations;
 * - mia: student of Customer Support, manager of Field Operations (one assignment with both
 *   department roles, as the department page makes a manager);
 * - sam: student of Customer Support (a user of another department);
 * - ivan: instructor of Network Engineering.
 */
import type { ContextAssignment, ContextRoleId } from '@learning-hub/core';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { upsertAssignment } from '../../platform/access/access-repository';
import { createSession } from '../../platform/auth/session-repository';
import { bearer, createTestUser, type TestContext } from '../../test/helpers';

export const FIELD = 'field-operations';
export const NAMES = ['ada', 'fred', 'priya', 'mia', 'sam', 'ivan'] as const;
export type Name = (typeof NAMES)[number];

const PEOPLE: Record<Name, { role: string; department: string; first: string; last: string }> = {
  ada: { role: 'admin', department: 'Network Engineering', first: 'Ada', last: 'Admin' },
  fred: { role: 'student', department: 'Field Operations', first: 'Fred', last: 'Field' },
  priya: { role: 'instructor', department: 'Field Operations', first: 'Priya', last: 'Shah' },
  mia: { role: 'student', department: 'Customer Support', first: 'Mia', last: 'Manager' },
  sam: { role: 'student', department: 'Customer Support', first: 'Sam', last: 'Rivera' },
  ivan: { role: 'instructor', department: 'Network Engineering', first: 'Ivan', last: 'Ivanov' },
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
}

/** Stores an assignment in a department straight in the database (as an admin would). */
export async function assignInDepartment(
  ctx: TestContext,
  userId: string,
  departmentId: string,
  roles: ContextRoleId[],
  expiresAt: string | null = null,
): Promise<void> {
  const assignment: ContextAssignment = {
    userId,
    context: { type: 'department', departmentId },
    roles,
    directPermissions: [],
    assignedBy: 'test',
    assignedAt: new Date(ctx.clock.now()).toISOString(),
    expiresAt,
    isActive: true,
  };
  await upsertAssignment(ctx.database.db, assignment);
}

export async function departmentFixture(ctx: TestContext): Promise<Fixture> {
  const ids = {} as Record<Name, string>;
  const tokens = {} as Record<Name, string>;
  for (const name of NAMES) {
    const p = PEOPLE[name];
    const { user } = await createTestUser(ctx, {
      username: name,
      role: p.role,
      department: p.department,
      firstname: p.first,
      lastname: p.last,
    });
    ids[name] = user.id;
    // A session straight in the database: signing in is not what these tests are about.
    const { token } = await createSession(ctx.database.db, {
      userId: user.id,
      method: 'local',
      now: new Date(ctx.clock.now()),
      lifetimeMs: 7 * 24 * 3_600_000,
      ipAddress: '127.0.0.1',
      userAgent: 'test',
    });
    tokens[name] = token;
  }
  await assignInDepartment(ctx, ids.mia, FIELD, ['department-member', 'department-manager']);
  return {
    ids,
    tokens,
    as: (who, method, url, payload) =>
      ctx.app.inject({
        method,
        url,
        ...(who ? { headers: bearer(tokens[who]) } : {}),
        ...(payload === undefined ? {} : { payload: payload as InjectOptions['payload'] }),
      }),
  };
}
