import type {
  WikiDiff,
  WikiPage,
  WikiPageSummary,
  WikiRevision,
  WikiSpace,
} from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { wikiTitleHref } from './links';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import {
  call,
  COURSE,
  COURSE_SPACE,
  createPage,
  FIELD_SPACE,
  savePage,
  uploadImage,
  wikiPeople,
  type Person,
  type WikiPeople,
} from './test-fixture';

const available = await testDatabaseAvailable();

interface WikiPageList {
  items: WikiPageSummary[];
  total: number;
  page: number;
  pageSize: number;
}

describe.skipIf(!available)(`wiki pages (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let p: WikiPeople;

  beforeEach(async () => {
    ctx = await createTestApp();
    p = await wikiPeople(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const get = async <T>(who: Person, url: string): Promise<T> => {
    const response = await call(ctx, who, 'GET', url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as T;
  };
  const list = (who: Person, query = '') => get<WikiPageList>(who, `/api/wiki/pages${query}`);
  const page = (who: Person, id: string) => get<WikiPage>(who, `/api/wiki/pages/${id}`);

  it('creates, shows, lists and saves pages; every save is a revision', async () => {
    const created = await createPage(ctx, p.priya, {
      title: '  Splicing a 144-fibre cable ',
      html: '<h2>Prepare</h2><p>Strip the jacket.</p><script>alert(1)</script>',
      summary: 'First draft of the procedure',
    });
    expect(created).toMatchObject({
      title: 'Splicing a 144-fibre cable',
      spaceKey: 'company',
      spaceName: 'Company',
      parentId: null,
      position: 0,
      status: 'published',
      revision: 1,
      viewCount: 0,
      createdBy: { id: p.priya.id, name: 'Priya Tester' },
      updatedBy: { id: p.priya.id, name: 'Priya Tester' },
      deletedAt: null,
      html: '<h2 id="prepare">Prepare</h2><p>Strip the jacket.</p>',
      headings: [{ id: 'prepare', level: 2, text: 'Prepare' }],
      ancestors: [],
      children: [],
      backlinks: [],
      currentRevision: {
        number: 1,
        title: 'Splicing a 144-fibre cable',
        summary: 'First draft of the procedure',
        author: { id: p.priya.id, name: 'Priya Tester' },
        restoredFrom: null,
        status: 'published',
        size: '<h2>Prepare</h2><p>Strip the jacket.</p>'.length,
      },
      following: false,
      followerCount: 0,
      can: { edit: true, delete: false, move: false, purge: false },
    });
    expect((await page(p.ada, created.id)).can).toEqual({
      edit: true,
      delete: true,
      move: true,
      purge: false,
    });
    expect((await page(p.sam, created.id)).can).toEqual({
      edit: false,
      delete: false,
      move: false,
      purge: false,
    });

    ctx.clock.advance(60_000);
    const saved = await savePage(ctx, p.ada, created, {
      title: 'Splicing a 144-fibre cable',
      html: '<h2>Prepare</h2><p>Strip the jacket and clean the gel.</p>',
      summary: 'Gel',
    });
    expect(saved).toMatchObject({
      revision: 2,
      updatedBy: { id: p.ada.id },
      currentRevision: { number: 2, summary: 'Gel', author: { id: p.ada.id } },
    });
    expect(saved.updatedAt > created.updatedAt).toBe(true);

    const second = await createPage(ctx, p.priya, { title: 'Manhole entry checklist' });
    expect(second.position).toBe(1);
    expect((await list(p.sam)).items.map((x) => x.title)).toEqual([
      'Manhole entry checklist',
      'Splicing a 144-fibre cable',
    ]);
    expect((await list(p.sam, '?sort=title')).items.map((x) => x.title)).toEqual([
      'Manhole entry checklist',
      'Splicing a 144-fibre cable',
    ]);
    const paged = await list(p.sam, '?pageSize=1&page=2');
    expect(paged).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(paged.items).toHaveLength(1);
    // Search: the index, right after the save.
    expect((await list(p.sam, '?search=gel')).items.map((x) => x.id)).toEqual([created.id]);
    expect((await list(p.sam, '?search=%2A%2A')).total).toBe(0);
    const found = await get<{ items: { id: string; type: string }[] }>(
      p.sam,
      '/api/search?q=jacket&type=wiki-page',
    );
    expect(found.items.map((r) => r.id)).toEqual([created.id]);
    expect((await get<{ items: unknown[] }>(p.sam, '/api/search?q=jacket')).items).toHaveLength(1);
  });

  it('keeps a tree: children in order, ancestors, a space’s tree, and the spaces', async () => {
    const root = await createPage(ctx, p.priya, { title: 'Procedures' });
    const a = await createPage(ctx, p.priya, { title: 'Splicing', parentId: root.id });
    const b = await createPage(ctx, p.priya, { title: 'OTDR', parentId: root.id });
    const leaf = await createPage(ctx, p.priya, { title: 'Reading an OTDR trace', parentId: b.id });
    expect([a.position, b.position]).toEqual([0, 1]);
    const shown = await page(p.sam, leaf.id);
    expect(shown.ancestors).toEqual([
      { id: root.id, title: 'Procedures' },
      { id: b.id, title: 'OTDR' },
    ]);
    expect((await page(p.sam, root.id)).children.map((c) => c.title)).toEqual(['Splicing', 'OTDR']);

    const tree = await get<{
      space: WikiSpace;
      pages: { id: string; parentId: string | null }[];
      truncated: boolean;
    }>(p.sam, '/api/wiki/tree?space=company');
    expect(tree.space).toMatchObject({
      key: 'company',
      name: 'Company',
      pageCount: 4,
      can: { create: false, manage: false },
    });
    expect(tree.truncated).toBe(false);
    expect(new Map(tree.pages.map((x) => [x.id, x.parentId]))).toEqual(
      new Map([
        [root.id, null],
        [a.id, root.id],
        [b.id, root.id],
        [leaf.id, b.id],
      ]),
    );

    await createPage(ctx, p.priya, { title: 'Field splicing kit', space: FIELD_SPACE });
    await createPage(ctx, p.priya, { title: 'Week 1 notes', space: COURSE_SPACE });
    const spaces = (await get<{ items: WikiSpace[] }>(p.sam, '/api/wiki/spaces')).items;
    expect(spaces.map((s) => [s.key, s.name, s.pageCount, s.can.create])).toEqual([
      ['company', 'Company', 4, false],
      [FIELD_SPACE, 'Field Operations', 1, false],
      [COURSE_SPACE, 'Splicing', 1, false],
    ]);
    const priyaSpaces = (await get<{ items: WikiSpace[] }>(p.priya, '/api/wiki/spaces')).items;
    expect(priyaSpaces.map((s) => [s.key, s.can.create])).toEqual([
      ['company', true],
      [FIELD_SPACE, true],
      [COURSE_SPACE, true],
    ]);
    // The admin sees every department.
    expect(
      (await get<{ items: WikiSpace[] }>(p.ada, '/api/wiki/spaces')).items.map((s) => s.key),
    ).toEqual(expect.arrayContaining(['department:customer-support', FIELD_SPACE, COURSE_SPACE]));
    expect((await call(ctx, p.sam, 'GET', '/api/wiki/tree?space=course:nope')).statusCode).toBe(
      404,
    );
  });

  it('shows drafts only to their author and to wiki.manage, and publishes them', async () => {
    const draft = await createPage(ctx, p.priya, {
      title: 'Aerial cable work (draft)',
      status: 'draft',
      html: '<p>Pole climbing rules.</p>',
    });
    expect(draft.status).toBe('draft');
    expect((await page(p.priya, draft.id)).status).toBe('draft');
    expect((await page(p.ada, draft.id)).status).toBe('draft');
    for (const who of [p.sam, p.omar]) {
      expect((await call(ctx, who, 'GET', `/api/wiki/pages/${draft.id}`)).statusCode).toBe(404);
      expect((await list(who)).total).toBe(0);
    }
    expect((await list(p.priya, '?status=draft')).items.map((x) => x.id)).toEqual([draft.id]);
    expect((await list(p.ada, '?status=draft')).total).toBe(1);
    expect((await list(p.omar, '?status=draft')).total).toBe(0);
    // A draft is not in the search index.
    expect((await list(p.priya, '?search=climbing')).total).toBe(0);
    // A child of the draft shows at the top level to whoever cannot open the draft.
    const child = await createPage(ctx, p.ada, { title: 'Ladders', parentId: draft.id });
    const samTree = await get<{ pages: { id: string; parentId: string | null }[] }>(
      p.sam,
      '/api/wiki/tree?space=company',
    );
    expect(samTree.pages).toEqual([expect.objectContaining({ id: child.id, parentId: null })]);
    expect((await page(p.sam, child.id)).ancestors).toEqual([]);

    // A published page does not go back to draft; publishing is a save.
    const refused = await call(ctx, p.ada, 'PUT', `/api/wiki/pages/${child.id}`, {
      baseRevision: 1,
      title: 'Ladders',
      html: '<p>x</p>',
      status: 'draft',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      message: 'A published page cannot go back to being a draft.',
    });
    const published = await savePage(ctx, p.priya, draft, {
      html: '<p>Pole climbing rules.</p>',
      status: 'published',
    });
    expect(published.status).toBe('published');
    expect((await page(p.sam, draft.id)).children.map((c) => c.id)).toEqual([child.id]);
    expect((await list(p.sam, '?search=climbing')).total).toBe(1);
  });

  it('lists revisions, shows one, compares two, and restores one as a new revision', async () => {
    const created = await createPage(ctx, p.priya, {
      title: 'Fibre colour codes',
      html: '<p>Blue, orange, green.</p><p>Brown, slate.</p>',
    });
    const v2 = await savePage(ctx, p.ada, created, {
      html: '<p>Blue, orange, green, brown.</p><p>Brown, slate.</p><p>White.</p>',
      summary: 'More colours',
    });
    const v3 = await savePage(ctx, p.priya, v2, {
      title: 'Fibre colour code (TIA-598)',
      html: '<p>Blue, orange, green, brown.</p><p>White.</p>',
    });
    const revisions = await get<{
      items: { number: number; summary: string }[];
      total: number;
    }>(p.sam, `/api/wiki/pages/${created.id}/revisions?pageSize=2`);
    expect(revisions.total).toBe(3);
    expect(revisions.items.map((r) => r.number)).toEqual([3, 2]);
    const older = await get<{ items: { number: number }[] }>(
      p.sam,
      `/api/wiki/pages/${created.id}/revisions?pageSize=2&page=2`,
    );
    expect(older.items.map((r) => r.number)).toEqual([1]);

    const one = await get<WikiRevision>(p.sam, `/api/wiki/pages/${created.id}/revisions/2`);
    expect(one).toMatchObject({ number: 2, summary: 'More colours', title: 'Fibre colour codes' });
    expect(one.html).toContain('White.');
    expect(
      (await call(ctx, p.sam, 'GET', `/api/wiki/pages/${created.id}/revisions/9`)).statusCode,
    ).toBe(404);

    const diff = await get<WikiDiff>(p.sam, `/api/wiki/pages/${created.id}/diff?from=1&to=3`);
    expect(diff.title).toEqual({ from: 'Fibre colour codes', to: 'Fibre colour code (TIA-598)' });
    expect(diff.blocks.map((b) => b.op)).toEqual(['change', 'delete', 'insert']);
    expect(diff.blocks[0]?.parts.filter((x) => x.op === 'insert').map((x) => x.text)).toEqual([
      expect.stringContaining('brown'),
    ]);
    expect(diff.stats).toEqual({ insertedWords: 2, deletedWords: 2 });
    expect(diff.from.number).toBe(1);
    expect(diff.to.number).toBe(3);
    // Backwards works too; an unknown number is a 404, a bad one a 400.
    expect(
      (await get<WikiDiff>(p.sam, `/api/wiki/pages/${created.id}/diff?from=3&to=1`)).stats,
    ).toEqual({ insertedWords: 2, deletedWords: 2 });
    expect(
      (await call(ctx, p.sam, 'GET', `/api/wiki/pages/${created.id}/diff?from=1&to=7`)).statusCode,
    ).toBe(404);
    expect(
      (await call(ctx, p.sam, 'GET', `/api/wiki/pages/${created.id}/diff?from=x&to=1`)).statusCode,
    ).toBe(400);

    // Students may not restore; an instructor may, making revision 4 a copy of 1.
    const url = `/api/wiki/pages/${created.id}/revisions/1/restore`;
    expect((await call(ctx, p.sam, 'POST', url, {})).statusCode).toBe(403);
    // No body: the summary is optional.
    const restored = await call(ctx, p.priya, 'POST', url);
    expect(restored.statusCode, restored.body).toBe(200);
    expect(restored.json()).toMatchObject({
      revision: 4,
      title: 'Fibre colour codes',
      html: '<p>Blue, orange, green.</p><p>Brown, slate.</p>',
      currentRevision: { number: 4, restoredFrom: 1, summary: 'Restored revision 1' },
    });
    expect(v3.revision).toBe(3);
  });

  it('trashes (children stay), restores, purges and empties the trash', async () => {
    const parent = await createPage(ctx, p.priya, { title: 'Safety' });
    const child = await createPage(ctx, p.priya, { title: 'Gas testing', parentId: parent.id });
    const url = `/api/wiki/pages/${parent.id}`;
    expect((await call(ctx, p.priya, 'DELETE', url)).statusCode).toBe(403);
    const trashed = await call(ctx, p.ada, 'DELETE', url);
    expect(trashed.statusCode).toBe(204);
    expect(trashed.body).toBe('');
    expect(await page(p.ada, parent.id)).toMatchObject({
      deletedAt: expect.any(String),
      can: { purge: true },
    });
    expect((await call(ctx, p.ada, 'DELETE', url)).statusCode).toBe(409);
    // Gone for readers and from search; the child is at the top level meanwhile.
    expect((await call(ctx, p.sam, 'GET', url)).statusCode).toBe(404);
    expect((await list(p.sam)).items.map((x) => x.id)).toEqual([child.id]);
    expect((await list(p.sam, '?search=safety')).total).toBe(0);
    expect((await page(p.sam, child.id)).ancestors).toEqual([]);
    expect((await list(p.ada, '?trash=true')).items.map((x) => x.id)).toEqual([parent.id]);
    expect((await list(p.ada, '?trash=true&search=safe')).total).toBe(1);
    expect((await list(p.sam, '?trash=true')).total).toBe(0);

    // A new page takes the title meanwhile: restoring is refused until it is renamed.
    const taken = await createPage(ctx, p.priya, { title: 'SAFETY' });
    const blocked = await call(ctx, p.ada, 'POST', `${url}/restore`);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json()).toMatchObject({
      message:
        'A page called “Safety” already exists in this space. Rename or move that page, then restore this one.',
    });
    await savePage(ctx, p.priya, taken, { title: 'Safety (old)', html: '<p>x</p>' });
    const restored = await call(ctx, p.ada, 'POST', `${url}/restore`);
    expect(restored.statusCode, restored.body).toBe(200);
    expect((await page(p.sam, child.id)).ancestors).toEqual([{ id: parent.id, title: 'Safety' }]);
    expect((await list(p.sam, '?search=safety')).total).toBe(2);
    expect((await call(ctx, p.ada, 'POST', `${url}/restore`)).statusCode).toBe(409);

    // Purging: only from the trash, only with wiki.manage; the child stays, at the top level.
    expect((await call(ctx, p.ada, 'DELETE', `/api/wiki/trash/${parent.id}`)).statusCode).toBe(409);
    await call(ctx, p.ada, 'DELETE', url);
    expect((await call(ctx, p.priya, 'DELETE', `/api/wiki/trash/${parent.id}`)).statusCode).toBe(
      403,
    );
    expect((await call(ctx, p.ada, 'DELETE', `/api/wiki/trash/${parent.id}`)).statusCode).toBe(204);
    expect((await call(ctx, p.ada, 'GET', url)).statusCode).toBe(404);
    expect((await page(p.sam, child.id)).parentId).toBeNull();

    await call(ctx, p.ada, 'DELETE', `/api/wiki/pages/${child.id}`);
    expect((await call(ctx, p.priya, 'DELETE', '/api/wiki/trash')).statusCode).toBe(403);
    expect((await call(ctx, p.ada, 'DELETE', '/api/wiki/trash')).statusCode).toBe(204);
    expect((await list(p.ada, '?trash=true')).total).toBe(0);
  });

  it('moves pages in the tree and to another space with their subtree; refuses cycles', async () => {
    const a = await createPage(ctx, p.priya, { title: 'A' });
    const b = await createPage(ctx, p.priya, { title: 'B' });
    const c = await createPage(ctx, p.priya, { title: 'C', parentId: a.id });
    const move = (id: string, body: object, who = p.ada) =>
      call(ctx, who, 'POST', `/api/wiki/pages/${id}/move`, body);
    expect(
      (await move(b.id, { space: 'company', parentId: null, position: 0 }, p.priya)).statusCode,
    ).toBe(403);
    const first = await move(b.id, { space: 'company', parentId: null, position: 0 });
    expect(first.statusCode, first.body).toBe(200);
    const top = await get<{
      pages: { title: string; position: number; parentId: string | null }[];
    }>(p.sam, '/api/wiki/tree?space=company');
    expect(top.pages.filter((x) => x.parentId === null).map((x) => [x.title, x.position])).toEqual([
      ['B', 0],
      ['A', 1],
    ]);
    // Under its own child: refused.
    const cycle = await move(a.id, { space: 'company', parentId: c.id, position: 0 });
    expect(cycle.statusCode).toBe(409);
    expect(cycle.json()).toMatchObject({
      message: 'A page cannot be moved under itself or under one of its own subpages.',
    });
    expect((await move(a.id, { space: 'company', parentId: a.id, position: 0 })).statusCode).toBe(
      409,
    );
    // To the department's space, with C under it; search follows.
    const moved = await move(a.id, { space: FIELD_SPACE, parentId: null, position: 5 });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({
      spaceKey: FIELD_SPACE,
      spaceName: 'Field Operations',
      position: 0,
    });
    expect((await page(p.sam, c.id)).spaceKey).toBe(FIELD_SPACE);
    expect((await call(ctx, p.kim, 'GET', `/api/wiki/pages/${c.id}`)).statusCode).toBe(404);
    const kimSearch = await get<{ items: unknown[] }>(p.kim, '/api/search?q=text&type=wiki-page');
    expect(kimSearch.items).toHaveLength(1); // B only
    // A parent in another space is refused.
    const elsewhere = await move(b.id, { space: 'company', parentId: a.id, position: 0 });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json()).toMatchObject({
      message: 'The parent page must be in the same space.',
    });
  });

  it('follows, counts views, resolves titles and shows backlinks and missing links', async () => {
    const target = await createPage(ctx, p.priya, { title: 'Reading an OTDR trace' });
    const linking = await createPage(ctx, p.priya, {
      title: 'Splicing a 144-fibre cable',
      html:
        `<p>Then <a href="/wiki/pages/${target.id}">read the trace</a>, ` +
        `see <a href="${wikiTitleHref('company', 'fibre COLOUR codes').replaceAll('&', '&amp;')}">colours</a> ` +
        `and <a href="/wiki/pages/no-such-page">gone</a>.</p>`,
    });
    expect(linking.html).toContain(`<a href="/wiki/pages/${target.id}">read the trace</a>`);
    expect(linking.html).toContain(
      '<a href="/wiki/go?space=company&amp;title=fibre%20COLOUR%20codes" class="wiki-link-missing">colours</a>',
    );
    expect(linking.html).toContain('<a href="/wiki/pages/no-such-page" class="wiki-link-missing">');
    expect((await page(p.sam, target.id)).backlinks).toEqual([
      { id: linking.id, title: 'Splicing a 144-fibre cable', spaceName: 'Company' },
    ]);
    // The page a title link names comes later: the link works, and it has a backlink.
    const colours = await createPage(ctx, p.ada, { title: 'Fibre colour codes' });
    expect((await page(p.sam, linking.id)).html).toContain(
      '<a href="/wiki/go?space=company&amp;title=fibre%20COLOUR%20codes">colours</a>',
    );
    expect((await page(p.sam, colours.id)).backlinks.map((b) => b.id)).toEqual([linking.id]);
    const resolved = await get<{ id: string }>(
      p.sam,
      '/api/wiki/resolve?space=company&title=FIBRE%20colour%20codes',
    );
    expect(resolved).toEqual({ id: colours.id, title: 'Fibre colour codes' });
    expect(
      (await call(ctx, p.sam, 'GET', '/api/wiki/resolve?space=company&title=Nope')).statusCode,
    ).toBe(404);
    // A link to a page the viewer cannot open is missing for them, not for others.
    const hidden = await createPage(ctx, p.priya, { title: 'Field kit', space: FIELD_SPACE });
    const pointer = await createPage(ctx, p.priya, {
      title: 'Kit pointer',
      html: `<p><a href="/wiki/pages/${hidden.id}">kit</a></p>`,
    });
    expect((await page(p.kim, pointer.id)).html).toContain('class="wiki-link-missing"');
    expect((await page(p.sam, pointer.id)).html).not.toContain('wiki-link-missing');
    expect((await page(p.sam, hidden.id)).backlinks.map((b) => b.id)).toEqual([pointer.id]);
    // A save keeps the links it keeps, and drops and adds the others.
    const resaved = await call(ctx, p.priya, 'PUT', `/api/wiki/pages/${linking.id}`, {
      baseRevision: linking.revision,
      title: linking.title,
      html: `<p><a href="/wiki/pages/${target.id}">trace</a>, <a href="/wiki/pages/${hidden.id}">kit</a>.</p>`,
    });
    expect(resaved.statusCode).toBe(200);
    expect((await page(p.sam, target.id)).backlinks.map((b) => b.id)).toEqual([linking.id]);
    expect((await page(p.sam, colours.id)).backlinks).toEqual([]);
    expect((await page(p.sam, hidden.id)).backlinks.map((b) => b.id)).toEqual([
      pointer.id,
      linking.id,
    ]);

    // Following, and the list filter.
    const followUrl = `/api/wiki/pages/${target.id}/follow`;
    const followed = await call(ctx, p.sam, 'PUT', followUrl);
    // A PUT that starts the following created it (201 with its URL); again, nothing changes.
    expect(followed.statusCode).toBe(201);
    expect(followed.headers.location).toBe(followUrl);
    expect(followed.json()).toEqual({ following: true, followerCount: 1 });
    const again = await call(ctx, p.sam, 'PUT', followUrl);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toEqual({ following: true, followerCount: 1 });
    await call(ctx, p.kim, 'PUT', followUrl);
    expect((await page(p.sam, target.id)).following).toBe(true);
    expect((await list(p.sam, '?following=true')).items.map((x) => x.id)).toEqual([target.id]);
    const unfollowed = await call(ctx, p.sam, 'DELETE', followUrl);
    expect(unfollowed.statusCode).toBe(204);
    expect(unfollowed.body).toBe('');
    expect(await page(p.sam, target.id)).toMatchObject({ following: false, followerCount: 1 });
    // Not following already: nothing changes.
    expect((await call(ctx, p.sam, 'DELETE', followUrl)).statusCode).toBe(204);
    expect((await list(p.sam, '?following=true')).total).toBe(0);

    // Views, counted atomically.
    const views = await Promise.all(
      [p.sam, p.kim, p.sam].map((who) =>
        call(ctx, who, 'POST', `/api/wiki/pages/${target.id}/view`),
      ),
    );
    expect(views.map((r) => r.statusCode)).toEqual([204, 204, 204]);
    // The author's own visit is answered but not counted.
    expect((await call(ctx, p.priya, 'POST', `/api/wiki/pages/${target.id}/view`)).statusCode).toBe(
      204,
    );
    expect((await page(p.sam, target.id)).viewCount).toBe(3);
    expect((await list(p.sam, '?sort=views')).items[0]?.id).toBe(target.id);
    expect((await call(ctx, p.kim, 'POST', `/api/wiki/pages/${hidden.id}/view`)).statusCode).toBe(
      404,
    );
  });

  it('writes in a course space only with course.edit there, and shows it to its participants', async () => {
    const course = await createPage(ctx, p.priya, { title: 'Week 1', space: COURSE_SPACE });
    expect(course).toMatchObject({ spaceKey: COURSE_SPACE, spaceName: 'Splicing' });
    expect((await page(p.sam, course.id)).can.edit).toBe(false);
    expect((await call(ctx, p.kim, 'GET', `/api/wiki/pages/${course.id}`)).statusCode).toBe(404);
    // A system instructor holds course.edit in every course: Omar may write there too.
    expect((await page(p.omar, course.id)).can.edit).toBe(true);
    const found = await get<{ items: { id: string; courseId: string | null }[] }>(
      p.sam,
      '/api/search?q=text&type=wiki-page',
    );
    expect(found.items).toEqual([expect.objectContaining({ id: course.id, courseId: COURSE })]);

    // Deleting the course deletes its space's pages, their files and their search documents.
    const image = await uploadImage(ctx, p.priya);
    await savePage(ctx, p.priya, course, { html: `<p><img src="/api/files/${image}" /></p>` });
    expect((await call(ctx, p.ada, 'DELETE', `/api/courses/${COURSE}`)).statusCode).toBe(204);
    expect((await call(ctx, p.ada, 'GET', `/api/wiki/pages/${course.id}`)).statusCode).toBe(404);
    expect((await call(ctx, p.priya, 'GET', `/api/files/${image}`)).statusCode).toBe(404);
    expect((await get<{ total: number }>(p.ada, '/api/search?q=text&type=wiki-page')).total).toBe(
      0,
    );
  });
});
