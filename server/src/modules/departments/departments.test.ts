import { STALE_REVISION_MESSAGE } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertCourse } from '../courses/course-repository';
import { insertLesson, insertSection } from '../courses/structure-repository';
import { setLessonCompleted } from '../courses/progress-repository';
import { insertItem } from '../library/library-repository';
import { upsertAssignment } from '../../platform/access/access-repository';
import { findOrCreateDepartment } from '../../platform/auth/departments';
import { sanitizeRichText } from '../../platform/rich-text/sanitize';
import { XSS_CORPUS } from '../../platform/rich-text/xss-corpus';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { assignInDepartment, departmentFixture, FIELD, type Fixture } from './test-fixture';

const available = await testDatabaseAvailable();
const HOUR = 3_600_000;

describe.skipIf(!available)(`departments (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let f: Fixture;
  const iso = (offset = 0) => new Date(ctx.clock.now() + offset).toISOString();

  beforeEach(async () => {
    ctx = await createTestApp();
    f = await departmentFixture(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** The department's revision as it is now (what an edit form has just read). */
  const revisionOf = async (id: string): Promise<number> =>
    (
      await ctx.database.db
        .selectFrom('departments')
        .select('revision')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).revision;
  /** PATCH a department at its current revision. */
  const change = async (who: 'ada' | 'mia', id: string, body: Record<string, unknown>) =>
    f.as(who, 'PATCH', `/api/departments/${id}`, { ...body, revision: await revisionOf(id) });

  const ids = async (who: 'ada' | 'fred' | 'mia' | 'sam', query = '') =>
    (await f.as(who, 'GET', `/api/departments${query}`))
      .json()
      .items.map((d: { id: string }) => d.id);

  it('lists the departments a user may open, with members, managers and URL names', async () => {
    // An expired assignment counts for nothing.
    await assignInDepartment(ctx, f.ids.sam, FIELD, ['department-member'], iso(HOUR));
    ctx.clock.advance(2 * HOUR);
    expect(await ids('fred')).toEqual([FIELD]);
    expect(await ids('sam')).toEqual(['customer-support']);
    expect(await ids('mia')).toEqual(['customer-support', FIELD]);
    const all = (await f.as('ada', 'GET', '/api/departments')).json().items;
    expect(all).toEqual([
      {
        id: 'customer-support',
        name: 'Customer Support',
        description: '',
        slug: 'customer-support',
        memberCount: 2,
        managers: [],
        archivedAt: null,
        revision: 1,
      },
      {
        id: FIELD,
        name: 'Field Operations',
        description: '',
        slug: FIELD,
        // fred and priya by account, mia by assignment.
        memberCount: 3,
        managers: [{ id: f.ids.mia, name: 'Mia Manager' }],
        archivedAt: null,
        revision: 1,
      },
      expect.objectContaining({ id: 'network-engineering', memberCount: 2 }),
    ]);
  });

  it('lets admins create departments and refuses a name already taken', async () => {
    const created = await f.as('ada', 'POST', '/api/departments', {
      name: 'Splicing Lab',
      description: '<p>Fusion <strong>splicers</strong><script>alert(1)</script></p>',
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      id: 'splicing-lab',
      name: 'Splicing Lab',
      description: '<p>Fusion <strong>splicers</strong></p>',
      slug: 'splicing-lab',
      memberCount: 0,
      managers: [],
      archivedAt: null,
      revision: 1,
    });
    for (const name of ['Splicing Lab', 'splicing  lab!']) {
      const again = await f.as('ada', 'POST', '/api/departments', { name });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({
        code: 'CONFLICT',
        message: `A department called “${name}” already exists.`,
      });
    }
    const blank = await f.as('ada', 'POST', '/api/departments', { name: '  ' });
    expect(blank.statusCode).toBe(400);
    // Only the first of two at the same moment gets the name.
    const raced = await Promise.all(
      [1, 2].map(() => f.as('ada', 'POST', '/api/departments', { name: 'Aerial Crew' })),
    );
    expect(raced.map((r) => r.statusCode).sort()).toEqual([201, 409]);
  });

  it('renames: the old URL name leads to the new one, and can be taken back', async () => {
    const rename = (name: string) => change('ada', FIELD, { name });
    const lookup = async (name: string) => {
      const response = await f.as('fred', 'GET', `/api/departments/lookup/${name}`);
      return response.statusCode === 200 ? response.json() : response.statusCode;
    };
    const renamed = await rename('Field Services');
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({
      id: FIELD,
      name: 'Field Services',
      slug: 'field-services',
    });
    expect(await lookup('field-services')).toEqual({ id: FIELD, slug: 'field-services' });
    expect(await lookup(FIELD)).toEqual({ id: FIELD, slug: 'field-services' });
    expect(await lookup('Field-Operations')).toEqual({ id: FIELD, slug: 'field-services' });
    expect(await lookup('nowhere')).toBe(404);
    // Someone who may not open the department gets the answer of a name nobody has or had.
    const nowhere = await f.as('sam', 'GET', '/api/departments/lookup/nowhere');
    for (const name of ['field-services', FIELD, 'Field-Operations']) {
      const hidden = await f.as('sam', 'GET', `/api/departments/lookup/${name}`);
      expect(hidden.statusCode).toBe(404);
      expect(hidden.json()).toEqual(nowhere.json());
    }
    // A manager (department.manage there) finds it as they open it.
    expect((await f.as('mia', 'GET', '/api/departments/lookup/field-services')).json()).toEqual({
      id: FIELD,
      slug: 'field-services',
    });

    // A directory that still files people under the old name files them here.
    const byOldName = await findOrCreateDepartment(ctx.database.db, 'Field Operations', iso());
    expect(byOldName.id).toBe(FIELD);

    // A former URL name stays this department's: nobody else gets it.
    const taken = await f.as('ada', 'POST', '/api/departments', { name: 'Field Operations' });
    expect(taken.statusCode).toBe(409);
    const other = await change('ada', 'customer-support', { name: 'Field Operations' });
    expect(other.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'A department called “Field Operations” already exists.',
    });
    expect((await rename('Network Engineering')).statusCode).toBe(409);

    // Renaming back makes the first name current again; the second becomes a former one.
    expect((await rename('Field Operations')).json()).toMatchObject({ slug: FIELD });
    expect(await lookup('field-services')).toEqual({ id: FIELD, slug: FIELD });
    const former = await ctx.database.db
      .selectFrom('department_slugs')
      .select(['slug', 'department_id'])
      .execute();
    expect(former).toEqual([{ slug: 'field-services', department_id: FIELD }]);

    // Managers describe; only admins rename.
    const byManager = await change('mia', FIELD, { name: 'Mine' });
    expect(byManager.statusCode).toBe(403);
    expect(byManager.json().message).toBe(
      'Only an admin can rename, archive or restore a department.',
    );
    const unchanged = await change('mia', FIELD, {
      name: 'Field Operations',
      description: '<p>Crews</p>',
    });
    expect(unchanged.statusCode).toBe(200);
  });

  it('stores a description only as sanitised rich text', async () => {
    // The corpus but its payloads with control characters, which the contract refuses (400).
    const payload = `<p>Builds fiber.</p>${XSS_CORPUS.filter((p) => !p.includes('\u0000')).join('')}`;
    const response = await change('mia', FIELD, { description: payload });
    expect(response.statusCode).toBe(200);
    const stored = response.json().description as string;
    // Served with its file addresses signed for the reader's session (as all rich text is).
    expect(stored).toMatch(/\/api\/files\/ok\?exp=\d+&amp;sid=[^"&]+&amp;sig=/);
    expect(stored.replace(/\?exp=[^"]*/g, '')).toBe(sanitizeRichText(payload));
    expect(stored).toContain('<p>Builds fiber.</p>');
    expect(stored).not.toMatch(/<script|<iframe|<svg|<object|<embed|<style/i);
    const page = (await f.as('fred', 'GET', `/api/departments/${FIELD}`)).json();
    // Another reader gets the same text, signed for their own session.
    const unsigned = (html: string) => html.replace(/\?exp=[^"]*/g, '');
    expect(unsigned(page.description as string)).toBe(unsigned(stored));
    const control = await change('mia', FIELD, {
      description: '<a href="java\u0000script:alert(1)">x</a>',
    });
    expect(control.statusCode).toBe(400);
    // A revision alone changes nothing: refused, as an empty body is.
    for (const body of [{}, { revision: await revisionOf(FIELD) }]) {
      const empty = await f.as('mia', 'PATCH', `/api/departments/${FIELD}`, body);
      expect(empty.statusCode).toBe(400);
    }
  });

  it('archives: hidden from lists, still open to read, closed to changes', async () => {
    const archived = await change('ada', FIELD, { archived: true });
    expect(archived.json().archivedAt).toBe(iso());
    expect(await ids('fred')).toEqual([]);
    expect(await ids('ada')).not.toContain(FIELD);
    expect(await ids('ada', '?archived=true')).toContain(FIELD);
    expect(await ids('mia', '?archived=true')).toEqual(['customer-support']);

    const page = await f.as('fred', 'GET', `/api/departments/${FIELD}`);
    expect(page.statusCode).toBe(200);
    expect((await f.as('mia', 'GET', `/api/departments/${FIELD}`)).json().can).toEqual({
      manage: false,
      administer: false,
    });
    const message =
      'Field Operations is archived: it takes no new members and no changes. An admin can restore it.';
    for (const [method, url, payload] of [
      ['POST', `/api/departments/${FIELD}/members`, { userId: f.ids.sam }],
      [
        'PATCH',
        `/api/departments/${FIELD}/members/${f.ids.mia}`,
        { role: 'department-member', expiresAt: null },
      ],
      ['DELETE', `/api/departments/${FIELD}/members/${f.ids.mia}`, undefined],
      ['PATCH', `/api/departments/${FIELD}`, { description: '<p>x</p>', revision: 2 }],
    ] as const) {
      const refused = await f.as('ada', method, url, payload);
      expect(refused.statusCode, `${method} ${url}`).toBe(409);
      expect(refused.json().message).toBe(message);
    }
    const restored = await change('ada', FIELD, { archived: false });
    expect(restored.json().archivedAt).toBeNull();
    expect(await ids('fred')).toEqual([FIELD]);
  });

  it('of two changes based on the same revision at once, exactly one lands', async () => {
    const read = (await f.as('mia', 'GET', `/api/departments/${FIELD}`)).json();
    expect(read.revision).toBe(1);
    const url = `/api/departments/${FIELD}`;
    const both = await Promise.all([
      f.as('mia', 'PATCH', url, { description: '<p>Mia’s</p>', revision: read.revision }),
      f.as('ada', 'PATCH', url, { description: '<p>Ada’s</p>', revision: read.revision }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const [won, lost] = both[0]?.statusCode === 200 ? both : [both[1], both[0]];
    expect(lost?.json()).toEqual({ code: 'CONFLICT', message: STALE_REVISION_MESSAGE });
    const now = (await f.as('fred', 'GET', url)).json();
    expect(now).toMatchObject({ description: won?.json().description, revision: 2 });
    // A stale rename is refused before anything of it is written (no new URL name either).
    const stale = await f.as('ada', 'PATCH', url, { name: 'Late Name', revision: 1 });
    expect(stale.json()).toEqual({ code: 'CONFLICT', message: STALE_REVISION_MESSAGE });
    expect((await f.as('fred', 'GET', url)).json()).toMatchObject({ name: 'Field Operations' });
    expect(await ctx.database.db.selectFrom('department_slugs').selectAll().execute()).toEqual([]);
    // A department that is not there is 404, whatever the revision.
    expect(
      (await f.as('ada', 'PATCH', '/api/departments/nowhere', { name: 'X', revision: 1 }))
        .statusCode,
    ).toBe(404);
  });

  it('shows courses with the members’ progress, visible library items and the wiki', async () => {
    const db = ctx.database.db;
    const at = iso();
    await insertCourse(
      db,
      { id: 'otdr', code: 'FO-210', title: 'OTDR', description: '', departmentId: FIELD },
      at,
    );
    await insertCourse(
      db,
      { id: 'draft', code: 'FO-300', title: 'Draft', description: '', departmentId: FIELD },
      at,
    );
    await db.updateTable('courses').set({ state: 'draft' }).where('id', '=', 'draft').execute();
    await insertCourse(
      db,
      {
        id: 'gpon',
        code: 'NE-1',
        title: 'GPON',
        description: '',
        departmentId: 'network-engineering',
      },
      at,
    );
    const section = await insertSection(db, { id: 's1', courseId: 'otdr', title: 'One' }, at);
    const lessons = [];
    for (const id of ['l1', 'l2']) {
      lessons.push(
        await insertLesson(
          db,
          {
            id,
            courseId: 'otdr',
            sectionId: section.id,
            title: id,
            bodyHtml: '',
            durationMinutes: null,
          },
          at,
        ),
      );
    }
    const enrol = (userId: string, expiresAt: string | null = null) =>
      upsertAssignment(db, {
        userId,
        context: { type: 'course', courseId: 'otdr' },
        roles: ['course-student'],
        directPermissions: [],
        assignedBy: 'test',
        assignedAt: at,
        expiresAt,
        isActive: true,
      });
    const complete = (userId: string, lessonIds: string[]) =>
      Promise.all(
        lessonIds.map((lessonId) =>
          setLessonCompleted(db, { userId, lessonId, courseId: 'otdr' }, true, at),
        ),
      );
    // fred (member by account) finished; mia (member by assignment) is halfway; sam is no
    // member; priya's enrolment has expired.
    await enrol(f.ids.fred);
    await complete(f.ids.fred, ['l1', 'l2']);
    await enrol(f.ids.mia);
    await complete(f.ids.mia, ['l1']);
    await enrol(f.ids.sam);
    await complete(f.ids.sam, ['l1', 'l2']);
    await enrol(f.ids.priya, iso(HOUR));
    ctx.clock.advance(2 * HOUR);

    const item = (id: string, scope: Parameters<typeof insertItem>[1]['scope']) =>
      insertItem(
        db,
        {
          id,
          kind: 'link',
          title: `Item ${id}`,
          descriptionHtml: '',
          categoryId: null,
          scope,
          url: 'https://example.com',
          tags: [],
          createdBy: f.ids.ada,
        },
        at,
      );
    await item('lib-1', { type: 'department', departmentId: FIELD });
    await item('lib-2', { type: 'department', departmentId: FIELD });
    await item('lib-trashed', { type: 'department', departmentId: FIELD });
    await db
      .updateTable('library_items')
      .set({ deleted_at: at, deleted_by: f.ids.ada })
      .where('id', '=', 'lib-trashed')
      .execute();
    await item('lib-other', { type: 'department', departmentId: 'network-engineering' });
    await item('lib-everyone', { type: 'everyone' });

    const page = (n: number, space: string, status: 'draft' | 'published', deleted = false) =>
      db
        .insertInto('wiki_pages')
        .values({
          id: `w${n}`,
          space_key: space,
          space_type: 'department',
          department_id: space.slice('department:'.length),
          course_id: null,
          parent_id: null,
          title: `Page ${n}`,
          title_key: `page ${n}`,
          status,
          created_by: f.ids.ada,
          created_at: at,
          updated_by: f.ids.ada,
          updated_at: new Date(Date.parse(at) + n * 1000).toISOString(),
          deleted_at: deleted ? at : null,
          deleted_by: deleted ? f.ids.ada : null,
        })
        .execute();
    await page(1, `department:${FIELD}`, 'published');
    await page(2, `department:${FIELD}`, 'published');
    await page(3, `department:${FIELD}`, 'draft');
    await page(4, `department:${FIELD}`, 'published', true);
    await page(5, 'department:network-engineering', 'published');

    const asFred = (await f.as('fred', 'GET', `/api/departments/${FIELD}`)).json();
    expect(asFred).toMatchObject({
      id: FIELD,
      slug: FIELD,
      createdAt: expect.any(String),
      memberCount: 3,
      managers: [{ id: f.ids.mia, name: 'Mia Manager' }],
      courses: [
        {
          id: 'otdr',
          code: 'FO-210',
          title: 'OTDR',
          status: 'published',
          enrolledMembers: 2,
          completedMembers: 1,
          averageProgress: 75,
        },
      ],
      library: { total: 2 },
      wiki: {
        spaceKey: `department:${FIELD}`,
        pageCount: 2,
        pages: [
          { id: 'w2', title: 'Page 2' },
          { id: 'w1', title: 'Page 1' },
        ],
      },
      can: { manage: false, administer: false },
    });
    expect(asFred.library.items.map((i: { id: string }) => i.id).sort()).toEqual([
      'lib-1',
      'lib-2',
    ]);
    // The figures follow a change at once (on SQLite they are kept until a write: figures-cache).
    await complete(f.ids.mia, ['l2']);
    const after = (await f.as('fred', 'GET', `/api/departments/${FIELD}`)).json();
    expect(after.courses[0]).toMatchObject({ completedMembers: 2, averageProgress: 100 });
    const asAdmin = (await f.as('ada', 'GET', `/api/departments/${FIELD}`)).json();
    expect(asAdmin.courses.map((c: { id: string }) => c.id)).toEqual(['draft', 'otdr']);
    expect(asAdmin.courses[0]).toMatchObject({ enrolledMembers: 0, averageProgress: 0 });
    expect(asAdmin.can).toEqual({ manage: true, administer: true });
    expect((await f.as('mia', 'GET', `/api/departments/${FIELD}`)).json().can).toEqual({
      manage: true,
      administer: false,
    });
  });

  it('refuses those who may not open a department, and names a missing one', async () => {
    const other = await f.as('sam', 'GET', `/api/departments/${FIELD}`);
    expect(other.statusCode).toBe(403);
    expect(other.json().message).toBe(
      'Missing any of required permissions: department.view, department.manage',
    );
    const missing = await f.as('ada', 'GET', '/api/departments/nowhere');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Department not found');
  });
});
