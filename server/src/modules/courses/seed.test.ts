import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { waitingForGrade } from '../assignments/assignment-repository';
import { listSignInFailures } from '../../platform/auth/auth-event-repository';
import { DEMO_SIGN_IN_FAILURES, seedDemoData } from '../../seed';
import { DEMO_CLASSROOM, seedDemoClassroom } from './seed';

const available = await testDatabaseAvailable();

describe.skipIf(!available)(`demo classroom seed (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  const count = async (
    table: 'lessons' | 'assignments' | 'submissions' | 'grades' | 'course_sections',
  ) =>
    Number(
      (
        await ctx.database.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  /** The base of the demo, then the classroom's own seed (as seedDemo runs them). */
  const seed = async () => {
    await seedDemoData(ctx.database.db);
    await seedDemoClassroom(ctx.database.db);
  };

  it('fills the demo courses once, with sanitised content, a crew, work and grades', async () => {
    await seed();
    const lessons = DEMO_CLASSROOM.flatMap((c) => c.sections.flatMap((s) => s.lessons));
    expect(await count('lessons')).toBe(lessons.length);
    expect(await count('assignments')).toBe(DEMO_CLASSROOM.flatMap((c) => c.assignments).length);
    expect(await count('submissions')).toBeGreaterThan(0);
    expect(await count('grades')).toBeGreaterThan(0);
    const sections = await count('course_sections');

    // Seeding again (every start of the app) adds nothing.
    await seed();
    expect(await count('lessons')).toBe(lessons.length);
    expect(await count('course_sections')).toBe(sections);

    const bodies = await ctx.database.db.selectFrom('lessons').select('body_html').execute();
    for (const { body_html } of bodies) expect(body_html).not.toMatch(/<script|on\w+=/i);
    const draft = await ctx.database.db
      .selectFrom('courses')
      .select(['state'])
      .where('id', '=', 'aerial-fiber-safety')
      .executeTakeFirstOrThrow();
    expect(draft.state).toBe('draft');
  });

  it("gives the demo instructor work to grade, the demo student a grade and the demo admin's start page failed sign-ins", async () => {
    await seed();
    const waiting = await waitingForGrade(ctx.database.db, [
      'fiber-splicing-101',
      'otdr-trace-analysis',
    ]);
    expect(waiting.length).toBeGreaterThan(0);
    // The demo student has a released grade for their start page.
    const student = await ctx.database.db
      .selectFrom('grades as g')
      .innerJoin('users as u', 'u.id', 'g.user_id')
      .innerJoin('assignments as a', 'a.id', 'g.assignment_id')
      .select(['a.title', 'a.grades_released'])
      .where('u.username', '=', 'student')
      .execute();
    expect(student).toEqual([{ title: 'Loss budget exercise', grades_released: 1 }]);
    const { events: failures } = await listSignInFailures(ctx.database.db, {
      offset: 0,
      limit: 10,
    });
    expect(failures.map((f) => f.username)).toEqual(
      [...DEMO_SIGN_IN_FAILURES].sort((a, b) => a.minutesAgo - b.minutesAgo).map((f) => f.username),
    );
    // Seeding again adds none.
    await seed();
    expect(
      (await listSignInFailures(ctx.database.db, { offset: 0, limit: 10 })).events,
    ).toHaveLength(failures.length);
  });
});
