/**
 * The public reads the department page composes (courses, library and wiki public.ts), each
 * asked directly for different viewers: what each area decides by its own rules.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { coursesOfDepartment, progressOfGroup } from '../courses/public';
import { insertCourse } from '../courses/course-repository';
import { insertLesson, insertSection } from '../courses/structure-repository';
import { setLessonCompleted } from '../courses/progress-repository';
import { itemsOfDepartment } from '../library/public';
import { insertItem } from '../library/library-repository';
import { pagesOfDepartment } from '../wiki/public';
import { upsertAssignment } from '../../platform/access/access-repository';
import { findUserById, type UserRecord } from '../../platform/auth/user-repository';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { departmentFixture, FIELD, type Fixture, type Name } from './test-fixture';

const available = await testDatabaseAvailable();

describe.skipIf(!available)(`the reads a department page composes (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let f: Fixture;
  let at: string;
  const user = async (who: Name) => {
    const found = (await findUserById(ctx.database.db, f.ids[who])) as UserRecord;
    ctx.app.access.engine.load(await ctx.app.access.loadSubject(found));
    return found;
  };

  beforeEach(async () => {
    ctx = await createTestApp();
    f = await departmentFixture(ctx);
    at = new Date(ctx.clock.now()).toISOString();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('courses of a department: the catalogue rule per viewer, by title, at most the limit', async () => {
    const db = ctx.database.db;
    for (const [id, title] of [
      ['b', 'Bravo'],
      ['a', 'Alpha'],
      ['d', 'Draft'],
    ] as const) {
      await insertCourse(
        db,
        { id, code: id.toUpperCase(), title, description: '', departmentId: FIELD },
        at,
      );
    }
    await db.updateTable('courses').set({ state: 'draft' }).where('id', '=', 'd').execute();
    const read = async (who: Name, limit = 10) =>
      (
        await coursesOfDepartment(
          db,
          ctx.app.access,
          await user(who),
          FIELD,
          ctx.clock.now(),
          limit,
        )
      ).map((c) => `${c.id}:${c.state}`);
    expect(await read('fred')).toEqual(['a:published', 'b:published']);
    expect(await read('ada')).toEqual(['a:published', 'b:published', 'd:draft']);
    expect(await read('ada', 1)).toEqual(['a:published']);
  });

  it('progress of a group: only the learners named, enrolled now, averaged', async () => {
    const db = ctx.database.db;
    await insertCourse(
      db,
      { id: 'c', code: 'C', title: 'C', description: '', departmentId: null },
      at,
    );
    const section = await insertSection(db, { id: 's', courseId: 'c', title: 'S' }, at);
    for (const id of ['l1', 'l2', 'l3', 'l4']) {
      await insertLesson(
        db,
        {
          id,
          courseId: 'c',
          sectionId: section.id,
          title: id,
          bodyHtml: '',
          durationMinutes: null,
        },
        at,
      );
    }
    const learners = { fred: 4, sam: 1, mia: 0 } as const;
    for (const [who, done] of Object.entries(learners)) {
      const userId = f.ids[who as Name];
      await upsertAssignment(db, {
        userId,
        context: { type: 'course', courseId: 'c' },
        roles: ['course-student'],
        directPermissions: [],
        assignedBy: 'test',
        assignedAt: at,
        expiresAt: null,
        isActive: true,
      });
      for (const lessonId of ['l1', 'l2', 'l3', 'l4'].slice(0, done)) {
        await setLessonCompleted(db, { userId, lessonId, courseId: 'c' }, true, at);
      }
    }
    // Any group of people: here fred and sam (mia is enrolled but not in the group).
    const group = db
      .selectFrom('users')
      .select('users.id as user_id')
      .where('users.id', 'in', [f.ids.fred, f.ids.sam]);
    const figures = await progressOfGroup(db, group, ['c', 'none'], at);
    expect(Object.fromEntries(figures)).toEqual({
      c: { enrolled: 2, completed: 1, averageProgress: Math.round((100 + 25) / 2) },
    });
    expect(await progressOfGroup(db, group, [], at)).toEqual(new Map());
  });

  it('items and wiki pages of a department: the viewer’s rules, the latest first', async () => {
    const db = ctx.database.db;
    for (const [n, id] of ['one', 'two', 'three'].entries()) {
      await insertItem(
        db,
        {
          id,
          kind: 'link',
          title: `Item ${id}`,
          descriptionHtml: '',
          categoryId: null,
          scope: { type: 'department', departmentId: FIELD },
          url: 'https://example.com',
          tags: [],
          createdBy: f.ids.ada,
        },
        new Date(Date.parse(at) + n * 1000).toISOString(),
      );
    }
    const items = async (who: Name) =>
      itemsOfDepartment(db, ctx.app.access, await user(who), FIELD, ctx.clock.now(), 2);
    expect(await items('fred')).toMatchObject({
      total: 3,
      items: [{ id: 'three', kind: 'link' }, { id: 'two' }],
    });
    // sam is in another department: none of them.
    expect(await items('sam')).toEqual({ items: [], total: 0 });

    await db
      .insertInto('wiki_pages')
      .values({
        id: 'w1',
        space_key: `department:${FIELD}`,
        space_type: 'department',
        department_id: FIELD,
        course_id: null,
        parent_id: null,
        title: 'Crews',
        title_key: 'crews',
        status: 'published',
        created_by: f.ids.ada,
        created_at: at,
        updated_by: f.ids.ada,
        updated_at: at,
        deleted_at: null,
        deleted_by: null,
      })
      .execute();
    const pages = async (who: Name) =>
      pagesOfDepartment(db, ctx.app.access, await user(who), FIELD, ctx.clock.now(), 8);
    expect(await pages('fred')).toEqual({
      spaceKey: `department:${FIELD}`,
      pageCount: 1,
      pages: [{ id: 'w1', title: 'Crews', updatedAt: at }],
    });
    expect(await pages('sam')).toEqual({
      spaceKey: `department:${FIELD}`,
      pageCount: 0,
      pages: [],
    });
  });
});
