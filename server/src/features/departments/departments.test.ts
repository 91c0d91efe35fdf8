import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { upsertAssignment } from '../../access/access-repository';
import { insertCourse } from '../../courses/course-repository';
import {
  bearer,
  createTestApp,
  createTestUser,
  signIn,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';

const available = await testDatabaseAvailable();

describe.skipIf(!available)(`departments and courses (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  const tokens: Record<string, string> = {};
  const ids: Record<string, string> = {};

  beforeEach(async () => {
    ctx = await createTestApp();
    const at = new Date(ctx.clock.now()).toISOString();
    for (const [name, role, department] of [
      ['ada', 'admin', 'Network Engineering'],
      ['priya', 'instructor', 'Field Operations'],
      ['sam', 'student', 'Customer Support'],
      ['max', 'student', 'Customer Support'],
    ] as const) {
      const u = await createTestUser(ctx, {
        username: name,
        role,
        department,
        lastname: name.toUpperCase(),
      });
      ids[name] = u.user.id;
      tokens[name] = await signIn(ctx.app, name, u.password);
    }
    await insertCourse(
      ctx.database.db,
      {
        id: 'otdr-101',
        code: 'FO-210',
        title: 'OTDR Testing',
        description: 'Traces',
        departmentId: 'field-operations',
      },
      at,
    );
    await insertCourse(
      ctx.database.db,
      {
        id: 'gpon-1',
        code: 'NE-220',
        title: 'GPON Provisioning',
        description: '',
        departmentId: 'network-engineering',
      },
      at,
    );
    await upsertAssignment(ctx.database.db, {
      userId: ids.max as string,
      context: { type: 'department', departmentId: 'field-operations' },
      roles: ['department-manager'],
      directPermissions: [],
      assignedBy: 'test',
      assignedAt: at,
      expiresAt: null,
      isActive: true,
    });
    await upsertAssignment(ctx.database.db, {
      userId: ids.sam as string,
      context: { type: 'course', courseId: 'otdr-101' },
      roles: ['course-student'],
      directPermissions: [],
      assignedBy: 'test',
      assignedAt: at,
      expiresAt: null,
      isActive: true,
    });
  });
  afterEach(async () => {
    await ctx.close();
  });

  const get = (who: string, url: string) =>
    ctx.app.inject({ method: 'GET', url, headers: bearer(tokens[who] as string) });

  it('lists only the departments a user may open', async () => {
    const names = async (who: string) =>
      (await get(who, '/api/departments')).json().departments.map((d: { id: string }) => d.id);
    expect(await names('sam')).toEqual(['customer-support']);
    expect(await names('priya')).toEqual(['field-operations']);
    expect(await names('ada')).toEqual([
      'customer-support',
      'field-operations',
      'network-engineering',
    ]);
    const one = (await get('sam', '/api/departments/customer-support')).json();
    expect(one).toMatchObject({ id: 'customer-support', name: 'Customer Support', memberCount: 2 });
    const other = await get('sam', '/api/departments/field-operations');
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe('Missing required permission: department.view');
    expect((await get('ada', '/api/departments/nowhere')).statusCode).toBe(404);
  });

  it("shows a department's members to its members and managers", async () => {
    const members = (await get('max', '/api/departments/field-operations/members')).json().members;
    expect(
      members.map((m: { username: string; roles: string[] }) => [m.username, m.roles]),
    ).toEqual([
      ['max', ['department-manager']],
      ['priya', ['department-member']],
    ]);
    expect((await get('sam', '/api/departments/field-operations/members')).statusCode).toBe(403);
  });

  it('lists courses and checks course routes in the course context', async () => {
    const list = (await get('sam', '/api/courses?search=otdr')).json();
    expect(list).toMatchObject({
      total: 1,
      courses: [{ id: 'otdr-101', departmentName: 'Field Operations' }],
    });
    expect((await get('sam', '/api/courses/otdr-101')).statusCode).toBe(200);
    const participants = await get('sam', '/api/courses/otdr-101/participants');
    expect(participants.statusCode).toBe(403);
    expect(participants.json().message).toBe(
      'Missing required permission: course.view_participants',
    );
    const asInstructor = (await get('priya', '/api/courses/otdr-101/participants')).json();
    expect(
      asInstructor.members.map((m: { username: string; roles: string[] }) => [m.username, m.roles]),
    ).toEqual([['sam', ['course-student']]]);
    expect((await get('ada', '/api/courses/nope')).statusCode).toBe(404);
  });
});
