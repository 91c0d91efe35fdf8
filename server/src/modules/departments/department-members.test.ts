import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  createTestUser,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import {
  assignInDepartment,
  departmentFixture,
  FIELD,
  type Fixture,
  type Name,
} from './test-fixture';

const available = await testDatabaseAvailable();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.skipIf(!available)(`department members (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let f: Fixture;
  const iso = (offset = 0) => new Date(ctx.clock.now() + offset).toISOString();
  const members = `/api/departments/${FIELD}/members`;

  beforeEach(async () => {
    ctx = await createTestApp();
    f = await departmentFixture(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const list = async (query = '', who: Name = 'fred') => {
    const response = await f.as(who, 'GET', `${members}${query}`);
    expect(response.statusCode).toBe(200);
    return response.json() as {
      items: { username: string; roles: string[]; source: string; expiresAt: string | null }[];
      total: number;
    };
  };
  const audit = () =>
    ctx.database.db
      .selectFrom('access_audit')
      .select(['action', 'actor_username', 'target_username', 'context_key', 'details'])
      .where('context_key', '=', `department:${FIELD}`)
      .orderBy('id')
      .execute();

  it('pages and searches the members, with their roles and where membership comes from', async () => {
    await assignInDepartment(ctx, f.ids.sam, FIELD, ['department-member'], iso(HOUR));
    await assignInDepartment(ctx, f.ids.ivan, FIELD, ['department-member'], iso(DAY));
    // A bare direct permission makes nobody a member; an expired assignment neither.
    await ctx.database.db
      .updateTable('context_assignments')
      .set({ roles: '[]', direct_permissions: '["wiki.edit"]' })
      .where('user_id', '=', f.ids.ivan)
      .execute();
    ctx.clock.advance(2 * HOUR);

    const all = await list();
    expect(all.total).toBe(3);
    expect(all.items).toEqual([
      {
        id: f.ids.fred,
        username: 'fred',
        firstname: 'Fred',
        lastname: 'Field',
        roles: ['department-member'],
        source: 'account',
        expiresAt: null,
      },
      expect.objectContaining({
        username: 'mia',
        roles: ['department-member', 'department-manager'],
        source: 'assignment',
      }),
      expect.objectContaining({ username: 'priya', source: 'account' }),
    ]);
    const second = await list('?page=2&pageSize=2');
    expect([second.total, second.items.map((m) => m.username)]).toEqual([3, ['priya']]);
    expect((await list('?page=9&pageSize=2')).total).toBe(3);
    expect((await list('?search=SHAH')).items.map((m) => m.username)).toEqual(['priya']);
    expect((await list('?search=mia%20man')).items.map((m) => m.username)).toEqual(['mia']);
    expect((await list('?search=%25')).total).toBe(0);
    expect((await list('?role=department-manager')).items.map((m) => m.username)).toEqual(['mia']);
    expect((await list('', 'mia')).total).toBe(3);
    const bad = await f.as('fred', 'GET', `${members}?role=admin`);
    expect(bad.statusCode).toBe(400);
  });

  it('adds, changes and removes members with an end date, audited, in effect at once', async () => {
    // Sam, of another department, cannot open Field Operations until a manager adds him.
    expect((await f.as('sam', 'GET', `/api/departments/${FIELD}`)).statusCode).toBe(403);
    const until = iso(30 * DAY);
    const added = await f.as('mia', 'POST', members, { userId: f.ids.sam, expiresAt: until });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toEqual({
      id: f.ids.sam,
      username: 'sam',
      firstname: 'Sam',
      lastname: 'Rivera',
      roles: ['department-member'],
      source: 'assignment',
      expiresAt: until,
    });
    expect((await f.as('sam', 'GET', `/api/departments/${FIELD}`)).statusCode).toBe(200);

    // A change names both the role and the end date: nothing is implied by leaving one out.
    expect(
      (await f.as('mia', 'PATCH', `${members}/${f.ids.sam}`, { role: 'department-manager' }))
        .statusCode,
    ).toBe(400);
    const promoted = await f.as('mia', 'PATCH', `${members}/${f.ids.sam}`, {
      role: 'department-manager',
      expiresAt: null,
    });
    expect(promoted.json()).toMatchObject({
      roles: ['department-member', 'department-manager'],
      expiresAt: null,
    });
    // The new manager manages at once.
    const byNewManager = await f.as('sam', 'PATCH', `/api/departments/${FIELD}`, {
      description: '<p>Sam was here</p>',
      revision: 1,
    });
    expect(byNewManager.statusCode).toBe(200);

    const removed = await f.as('mia', 'DELETE', `${members}/${f.ids.sam}`);
    expect(removed.statusCode).toBe(204);
    expect((await f.as('sam', 'GET', `/api/departments/${FIELD}`)).statusCode).toBe(403);

    expect(
      (await audit()).map((r) => [
        r.action,
        r.actor_username,
        r.target_username,
        JSON.parse(r.details),
      ]),
    ).toEqual([
      [
        'assignment.create',
        'mia',
        'sam',
        { roles: ['department-member'], directPermissions: [], expiresAt: until },
      ],
      [
        'assignment.replace',
        'mia',
        'sam',
        {
          roles: ['department-member', 'department-manager'],
          directPermissions: [],
          expiresAt: null,
          previous: { roles: ['department-member'], directPermissions: [], expiresAt: until },
        },
      ],
      [
        'assignment.remove',
        'mia',
        'sam',
        {
          roles: ['department-member', 'department-manager'],
          directPermissions: [],
          expiresAt: null,
        },
      ],
    ]);
  });

  it('refuses what a member change may not do, with a message', async () => {
    const refusal = async (
      who: Name,
      method: 'POST' | 'PATCH' | 'DELETE',
      url: string,
      payload?: unknown,
    ) => {
      const response = await f.as(who, method, url, payload);
      return [response.statusCode, response.json().message];
    };
    expect(
      await refusal('mia', 'POST', members, { userId: f.ids.sam, expiresAt: iso(-1000) }),
    ).toEqual([400, 'The end date must be in the future.']);
    expect(await refusal('mia', 'DELETE', `${members}/${f.ids.fred}`)).toEqual([
      409,
      'Fred Field belongs to this department by their account. Change the department on their account to remove them.',
    ]);
    expect(await refusal('mia', 'DELETE', `${members}/${f.ids.sam}`)).toEqual([
      404,
      'Sam Rivera is not a member of Field Operations.',
    ]);
    expect(
      await refusal('mia', 'PATCH', `${members}/${f.ids.sam}`, {
        role: 'department-manager',
        expiresAt: null,
      }),
    ).toEqual([404, 'Sam Rivera is not a member of Field Operations.']);
    expect(await refusal('mia', 'POST', members, { userId: 'nobody' })).toEqual([
      404,
      'User not found',
    ]);
    const own =
      'You cannot change your own membership or role in a department. Ask another manager or an admin.';
    expect(
      await refusal('mia', 'PATCH', `${members}/${f.ids.mia}`, {
        role: 'department-member',
        expiresAt: null,
      }),
    ).toEqual([403, own]);
    expect(await refusal('mia', 'DELETE', `${members}/${f.ids.mia}`)).toEqual([403, own]);
    // Only admins change admins (the grant rules of core/access).
    expect(await refusal('mia', 'POST', members, { userId: f.ids.ada })).toEqual([
      403,
      'Only an admin can change an admin',
    ]);
    const { user: gone } = await createTestUser(ctx, { username: 'gone', firstname: 'Gone' });
    await ctx.database.db
      .updateTable('users')
      .set({ is_active: 0 })
      .where('id', '=', gone.id)
      .execute();
    expect(await refusal('mia', 'POST', members, { userId: gone.id })).toEqual([
      409,
      `Gone ${gone.lastname}'s account is deactivated.`,
    ]);

    // Admins may change anyone's, their own included; a manager's of another department, never.
    const admin = await f.as('ada', 'POST', members, {
      userId: f.ids.ada,
      role: 'department-manager',
    });
    expect(admin.statusCode).toBe(201);
    expect(
      (
        await f.as('ada', 'PATCH', `${members}/${f.ids.mia}`, {
          role: 'department-member',
          expiresAt: null,
        })
      ).json().roles,
    ).toEqual(['department-member']);
    const elsewhere = await f.as('mia', 'POST', '/api/departments/network-engineering/members', {
      userId: f.ids.sam,
    });
    expect([elsewhere.statusCode, elsewhere.json().message]).toEqual([
      403,
      'Missing required permission: department.manage',
    ]);
    expect(
      (await f.as('ada', 'POST', '/api/departments/nowhere/members', { userId: f.ids.sam }))
        .statusCode,
    ).toBe(404);
  });

  it('keeps one assignment when the same person is added twice at once', async () => {
    const answers = await Promise.all(
      [iso(DAY), iso(2 * DAY)].map((expiresAt) =>
        f.as('mia', 'POST', members, { userId: f.ids.sam, expiresAt }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201]);
    const rows = await ctx.database.db
      .selectFrom('context_assignments')
      .select('expires_at')
      .where('user_id', '=', f.ids.sam)
      .where('context_key', '=', `department:${FIELD}`)
      .execute();
    expect(rows).toHaveLength(1);
    expect((await audit()).map((r) => r.action)).toEqual([
      'assignment.create',
      'assignment.replace',
    ]);
  });

  it('stops counting a member when their assignment ends', async () => {
    await f.as('mia', 'POST', members, { userId: f.ids.sam, expiresAt: iso(HOUR) });
    expect((await list()).total).toBe(4);
    ctx.clock.advance(2 * HOUR);
    expect((await list()).total).toBe(3);
    expect((await f.as('sam', 'GET', `/api/departments/${FIELD}`)).statusCode).toBe(403);
    const field = (await f.as('ada', 'GET', '/api/departments')).json().items[1];
    expect(field).toMatchObject({ id: FIELD, memberCount: 3 });
  });

  it('offers active people to add, saying who belongs already', async () => {
    const people = async (search: string) =>
      (await f.as('mia', 'GET', `/api/departments/${FIELD}/candidates?search=${search}`)).json()
        .items;
    // By last name: Rivera, Shah.
    expect(await people('ri')).toEqual([
      {
        id: f.ids.sam,
        username: 'sam',
        name: 'Sam Rivera',
        departmentName: 'Customer Support',
        member: false,
      },
      expect.objectContaining({ username: 'priya', member: true }),
    ]);
    await f.as('mia', 'POST', members, { userId: f.ids.sam });
    expect((await people('rivera'))[0]).toMatchObject({ username: 'sam', member: true });
    const empty = await f.as('mia', 'GET', `/api/departments/${FIELD}/candidates?search=`);
    expect(empty.statusCode).toBe(400);
  });

  it('answers every route by who asks: the authorization matrix of the department pages', async () => {
    const { user: target } = await createTestUser(ctx, { username: 'target' });
    type Expect = 'ok' | 403 | 401;
    const principals: (Name | null)[] = [null, 'sam', 'ivan', 'fred', 'priya', 'mia', 'ada'];
    // anonymous, student of another department, instructor of another department, student of
    // the department, instructor of the department, its manager, admin
    const routes: [string, string, unknown, Expect[]][] = [
      ['GET', '/api/departments', undefined, [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok']],
      ['POST', '/api/departments', { name: 'X' }, [401, 403, 403, 403, 403, 403, 'ok']],
      [
        'GET',
        `/api/departments/lookup/${FIELD}`,
        undefined,
        [401, 'ok', 'ok', 'ok', 'ok', 'ok', 'ok'],
      ],
      ['GET', `/api/departments/${FIELD}`, undefined, [401, 403, 403, 'ok', 'ok', 'ok', 'ok']],
      [
        'PATCH',
        `/api/departments/${FIELD}`,
        { description: '', revision: 1 },
        [401, 403, 403, 403, 403, 'ok', 'ok'],
      ],
      ['GET', members, undefined, [401, 403, 403, 'ok', 'ok', 'ok', 'ok']],
      ['POST', members, { userId: target.id }, [401, 403, 403, 403, 403, 'ok', 'ok']],
      [
        'PATCH',
        `${members}/${target.id}`,
        { role: 'department-member', expiresAt: null },
        [401, 403, 403, 403, 403, 'ok', 'ok'],
      ],
      ['DELETE', `${members}/${target.id}`, undefined, [401, 403, 403, 403, 403, 'ok', 'ok']],
      [
        'GET',
        `/api/departments/${FIELD}/candidates?search=t`,
        undefined,
        [401, 403, 403, 403, 403, 'ok', 'ok'],
      ],
    ];
    const failures: string[] = [];
    for (const [method, url, payload, expected] of routes) {
      for (const [i, who] of principals.entries()) {
        const response = await f.as(who, method as 'GET', url, payload);
        const status = response.statusCode;
        const outcome: Expect | number =
          status === 401 || status === 403
            ? status
            : status < 400 || status === 404 || status === 409
              ? 'ok'
              : status;
        if (outcome !== expected[i]) {
          failures.push(`${method} ${url} as ${who ?? 'anonymous'}: ${status} ${response.body}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
