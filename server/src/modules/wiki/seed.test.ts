import { sql, type SqlBool } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { searchIndex } from '../../platform/search/search-index';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { seedDemoData } from '../../seed';
import { seedDemoWiki } from './seed';

const available = await testDatabaseAvailable();
/** Every wiki page: what the search may show is the wiki's own tests' matter. */
const sqlTrue = sql<SqlBool>`1 = 1`;

describe.skipIf(!available)(`demo wiki seed (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('writes linked pages in several spaces with revisions by both demo users, once', async () => {
    const { db } = ctx.database;
    await seedDemoData(db);
    expect(await seedDemoWiki(ctx.app, db)).toBe(true);
    const pages = await db
      .selectFrom('wiki_pages')
      .select(['id', 'title', 'space_key', 'status', 'revision', 'created_by'])
      .execute();
    expect(pages.map((p) => p.title)).toEqual(
      expect.arrayContaining([
        'Splicing a 144-fibre cable',
        'Manhole entry checklist',
        'Reading an OTDR trace',
        'Fibre colour codes',
      ]),
    );
    expect(new Set(pages.map((p) => p.space_key))).toEqual(
      new Set([
        'company',
        'department:field-operations',
        'department:network-engineering',
        'course:fiber-splicing-101',
      ]),
    );
    expect(pages.every((p) => Number(p.revision) >= 2)).toBe(true);
    const authors = await db
      .selectFrom('wiki_revisions as r')
      .innerJoin('users as u', 'u.id', 'r.author_id')
      .select('u.username')
      .distinct()
      .execute();
    expect(authors.map((a) => a.username).sort()).toEqual(['admin', 'instructor']);
    const drafts = pages.filter((p) => p.status === 'draft');
    expect(drafts.map((p) => p.title)).toEqual(['Aerial cable work']);
    // Links by id, and one by title to a page nobody wrote yet.
    const links = await db.selectFrom('wiki_links').selectAll().execute();
    expect(links.filter((l) => l.to_page_id !== null).length).toBeGreaterThan(8);
    expect(links.filter((l) => l.to_title_key !== null).map((l) => l.to_title_key)).toEqual([
      'splice loss budget',
    ]);
    const html = await db
      .selectFrom('wiki_pages')
      .select('html')
      .where('title', '=', 'Splicing a 144-fibre cable')
      .executeTakeFirstOrThrow();
    for (const piece of ['data-type="taskList"', 'data-callout="tip"', '<table>']) {
      expect(html.html).toContain(piece);
    }
    expect(
      (
        await db
          .selectFrom('wiki_pages')
          .select('html')
          .where('title', '=', 'Reading an OTDR trace')
          .executeTakeFirstOrThrow()
      ).html,
    ).toContain('<pre><code class="language-bash">');

    // Published pages are found at once; the draft is not.
    const search = async (query: string) =>
      (
        await searchIndex(db).search(db, {
          query,
          scopes: [{ type: 'wiki-page', where: sqlTrue }],
          offset: 0,
          limit: 5,
        })
      ).hits.map((h) => h.title.text);
    expect(await search('gas detector')).toEqual(
      expect.arrayContaining(['Manhole entry checklist', 'Splice van stock list']),
    );
    expect(await search('harness ladder')).toEqual([]);

    // Every start of the app seeds again: nothing more.
    expect(await seedDemoWiki(ctx.app, db)).toBe(false);
  });
});
