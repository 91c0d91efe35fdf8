import type { ContextAssignment, ContextRoleId, PermissionId } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { upsertAssignment } from '../access/access-repository';
import { type UserRecord } from '../auth/user-repository';
import { findOrCreateDepartment } from '../auth/departments';
import {
  createTestApp,
  createTestUser,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import {
  departmentSeenSql,
  departmentsSeen,
  seesDepartment,
  type DepartmentsSeen,
} from './department-visibility';

const available = await testDatabaseAvailable();
const HOUR = 3_600_000;
const VIEW: PermissionId[] = ['department.view'];
const VIEW_OR_MANAGE: PermissionId[] = ['department.view', 'department.manage'];

describe.skipIf(!available)(`the department rule (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  const ids: Record<string, string> = {};

  beforeEach(async () => {
    ctx = await createTestApp();
    const at = new Date(ctx.clock.now()).toISOString();
    for (const name of ['Alpha', 'Beta', 'Gamma']) {
      ids[name] = (await findOrCreateDepartment(ctx.database.db, name, at)).id;
    }
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function assign(
    user: UserRecord,
    department: string,
    roles: ContextRoleId[],
    options: { expiresAt?: string; directPermissions?: PermissionId[] } = {},
  ) {
    const assignment: ContextAssignment = {
      userId: user.id,
      context: { type: 'department', departmentId: ids[department] as string },
      roles,
      directPermissions: options.directPermissions ?? [],
      assignedBy: 'test',
      assignedAt: new Date(ctx.clock.now()).toISOString(),
      expiresAt: options.expiresAt ?? null,
      isActive: true,
    };
    await upsertAssignment(ctx.database.db, assignment);
  }

  /** The rule for `user` now, from their permissions as the database has them. */
  async function seenBy(user: UserRecord, permissions: PermissionId[]): Promise<DepartmentsSeen> {
    ctx.app.access.engine.load(await ctx.app.access.loadSubject(user));
    return departmentsSeen(ctx.app.access, user, ctx.clock.now(), permissions);
  }

  /**
   * The departments (by name) of the rows the rule lets through, over `users.department_id`
   * (some null), once in SQL and once in memory: the two must agree.
   */
  async function bothWays(seen: DepartmentsSeen) {
    const db = ctx.database.db;
    const rows = await db.selectFrom('users').select(['id', 'department_id']).execute();
    const bySql = await db
      .selectFrom('users')
      .select('id')
      .where(departmentSeenSql(seen, 'users.department_id'))
      .execute();
    const inMemory = rows.filter((r) => seesDepartment(seen, r.department_id)).map((r) => r.id);
    expect(bySql.map((r) => r.id).sort()).toEqual(inMemory.sort());
    const names = Object.keys(ids).filter((n) => seesDepartment(seen, ids[n] as string));
    return names;
  }

  it('agrees in SQL and in memory on a table of cases', async () => {
    const make = (username: string, extra: { department?: string; role?: string } = {}) =>
      createTestUser(ctx, { username, ...extra }).then((r) => r.user);
    // Every department has people by account; one person has none.
    const admin = await make('admin1', { role: 'admin', department: 'Alpha' });
    const own = await make('own', { department: 'Alpha' });
    const seconded = await make('seconded');
    const expired = await make('expired', { department: 'Beta' });
    const manager = await make('manager', { department: 'Gamma' });
    const direct = await make('direct');
    const nobody = await make('nobody');

    await assign(seconded, 'Beta', ['department-member']);
    await assign(expired, 'Gamma', ['department-member'], {
      expiresAt: new Date(ctx.clock.now() + HOUR).toISOString(),
    });
    await assign(manager, 'Alpha', ['department-manager']);
    await assign(direct, 'Gamma', [], { directPermissions: ['department.view'] });
    ctx.clock.advance(2 * HOUR);

    const cases: [UserRecord, PermissionId[], string[], boolean][] = [
      // who, which permissions see a department, the departments seen, every one
      [admin, VIEW, ['Alpha', 'Beta', 'Gamma'], true],
      [own, VIEW, ['Alpha'], false],
      [seconded, VIEW, ['Beta'], false],
      [expired, VIEW, ['Beta'], false],
      // department-manager has no department.view of its own.
      [manager, VIEW, ['Gamma'], false],
      [manager, VIEW_OR_MANAGE, ['Alpha', 'Gamma'], false],
      // A bare direct permission grants it, though it makes nobody a member.
      [direct, VIEW, ['Gamma'], false],
      [nobody, VIEW, [], false],
      [nobody, VIEW_OR_MANAGE, [], false],
    ];
    for (const [user, permissions, names, all] of cases) {
      const seen = await seenBy(user, permissions);
      expect({ user: user.username, permissions, all: seen.allDepartments }).toEqual({
        user: user.username,
        permissions,
        all,
      });
      expect({ user: user.username, permissions, names: await bothWays(seen) }).toEqual({
        user: user.username,
        permissions,
        names,
      });
    }
  });

  it('agrees with the permission engine on every department', async () => {
    const user = (await createTestUser(ctx, { username: 'checked', department: 'Alpha' })).user;
    await assign(user, 'Beta', ['department-manager']);
    const seen = await seenBy(user, VIEW_OR_MANAGE);
    for (const id of Object.values(ids)) {
      const scope = { type: 'department' as const, departmentId: id };
      const engine =
        ctx.app.access.engine.check(user.id, 'department.view', scope) ||
        ctx.app.access.engine.check(user.id, 'department.manage', scope);
      expect([id, seesDepartment(seen, id)]).toEqual([id, engine]);
    }
    expect(seesDepartment(seen, null)).toBe(false);
  });
});
