import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../test/helpers';
import { seedDemoData } from './seed';
import { DEMO_CLASSROOM } from './seed-classroom';

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

  it('fills the demo courses once, with sanitised content, a crew, work and grades', async () => {
    await seedDemoData(ctx.database.db);
    const lessons = DEMO_CLASSROOM.flatMap((c) => c.sections.flatMap((s) => s.lessons));
    expect(await count('lessons')).toBe(lessons.length);
    expect(await count('assignments')).toBe(DEMO_CLASSROOM.flatMap((c) => c.assignments).length);
    expect(await count('submissions')).toBeGreaterThan(0);
    expect(await count('grades')).toBeGreaterThan(0);
    const sections = await count('course_sections');

    // Seeding again (every start of the app) adds nothing.
    await seedDemoData(ctx.database.db);
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
});
