import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSession } from '../../platform/auth/session-repository';
import { findUserByUsername } from '../../platform/auth/user-repository';
import {
  bearer,
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { seedDemoData } from '../../seed';
import { seedDemoClassroom } from '../courses/seed';
import { seedDemoDepartments } from './seed';

const available = await testDatabaseAvailable();

describe.skipIf(!available)(`demo department pages (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('gives each demo department a description, a manager and members, once', async () => {
    const db = ctx.database.db;
    const now = new Date(ctx.clock.now());
    // The base, the classroom's and the departments' own seeds, twice (as every start runs them).
    for (let i = 0; i < 2; i++) {
      await seedDemoData(db, now);
      await seedDemoClassroom(db, now);
      await seedDemoDepartments(db, now);
    }
    const instructor = await findUserByUsername(db, 'instructor');
    const { token } = await createSession(db, {
      userId: instructor?.id as string,
      method: 'local',
      now,
      lifetimeMs: 3_600_000,
      ipAddress: null,
      userAgent: null,
    });
    const get = (url: string) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) });

    const list = (await get('/api/departments')).json().items;
    // Their own department, the one they manage, and the one they are seconded to.
    expect(list.map((d: { name: string }) => d.name)).toEqual([
      'Field Operations',
      'Network Engineering',
    ]);
    const field = (await get('/api/departments/field-operations')).json();
    expect(field.description).toContain('<h2>Crews</h2>');
    expect(field.managers).toEqual([{ id: instructor?.id, name: 'Priya Shah' }]);
    expect(field.can.manage).toBe(true);
    expect(field.courses.length).toBeGreaterThan(1);
    expect(field.courses.some((c: { enrolledMembers: number }) => c.enrolledMembers > 0)).toBe(
      true,
    );
    const members = (await get('/api/departments/network-engineering/members')).json().items;
    const seconded = members.find((m: { username: string }) => m.username === 'instructor');
    expect(seconded).toMatchObject({ source: 'assignment', expiresAt: expect.any(String) });
    expect(
      await db
        .selectFrom('context_assignments')
        .select('user_id')
        .where('context_type', '=', 'department')
        .execute(),
    ).toHaveLength(4);
  });
});
