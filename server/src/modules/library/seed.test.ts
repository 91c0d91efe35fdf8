import { sql, type SqlBool } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runExtractText } from './library-jobs';
import { searchIndex } from '../../platform/search/search-index';
import {
  bearer,
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  signIn,
  type TestContext,
} from '../../test/helpers';
import { DEMO_ACCOUNTS, seedDemoData } from '../../seed';
import { seedDemoLibrary } from './seed';
import { DEMO_LIBRARY } from './seed-content';

const available = await testDatabaseAvailable();
/** Every library item: what the search may show is the search's own tests' matter. */
const sqlTrue = sql<SqlBool>`1 = 1`;

describe.skipIf(!available)(`demo library seed (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('adds every demo item once, as its demo user, with PDFs whose words the search finds', async () => {
    const { db } = ctx.database;
    await seedDemoData(db);
    expect(await seedDemoLibrary(ctx.app, db)).toBe(true);
    const items = await db
      .selectFrom('library_items')
      .select(['id', 'kind', 'title', 'scope_type'])
      .execute();
    expect(items.map((i) => i.title).sort()).toEqual(DEMO_LIBRARY.map((i) => i.title).sort());
    expect(new Set(items.map((i) => i.kind))).toEqual(
      new Set(['document', 'video', 'image', 'link']),
    );
    expect(new Set(items.map((i) => i.scope_type))).toEqual(
      new Set(['everyone', 'department', 'course']),
    );
    // Every start of the app seeds again: nothing more.
    expect(await seedDemoLibrary(ctx.app, db)).toBe(false);

    // The PDFs wait for their text; run the jobs' work, then a word inside one is found.
    const pending = await db
      .selectFrom('library_versions')
      .select('id')
      .where('text_state', '=', 'pending')
      .execute();
    expect(pending).toHaveLength(DEMO_LIBRARY.filter((i) => i.kind === 'pdf').length);
    for (const { id } of pending)
      await runExtractText(db, { store: ctx.app.files.store, workers: ctx.app.contentWorkers }, id);
    const { hits } = await searchIndex(db).search(db, {
      query: 'gas detector',
      scopes: [{ type: 'library-item', where: sqlTrue }],
      offset: 0,
      limit: 5,
    });
    expect(hits.map((h) => h.title.text)).toEqual(['Manhole and confined space entry rules']);
  });

  it("shows the demo student, a field technician, Field Operations' procedures and the splicing clip", async () => {
    const { db } = ctx.database;
    await seedDemoData(db);
    await seedDemoLibrary(ctx.app, db);
    const student = DEMO_ACCOUNTS.find((a) => a.username === 'student')!;
    const token = await signIn(ctx.app, student.username, student.password);
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/library/items?pageSize=100',
      headers: bearer(token),
    });
    expect(response.statusCode, response.body).toBe(200);
    const titles = (response.json() as { items: { title: string }[] }).items.map((i) => i.title);
    expect(titles).toEqual(
      expect.arrayContaining([
        'Splice closure preparation procedure',
        'Fusion splicing in two minutes',
      ]),
    );
    const me = await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) });
    expect(JSON.stringify(me.json())).toContain('Field Operations');
  });
});
