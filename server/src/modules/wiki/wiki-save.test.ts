import type { WikiConflict, WikiPage } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import {
  call,
  createPage,
  FIELD_SPACE,
  savePage,
  uploadImage,
  wikiPeople,
  type WikiPeople,
} from './test-fixture';

const available = await testDatabaseAvailable();

describe.skipIf(!available)(`saving wiki pages (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let p: WikiPeople;

  beforeEach(async () => {
    ctx = await createTestApp();
    p = await wikiPeople(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const revisionCount = async (pageId: string) =>
    Number(
      (
        await ctx.database.db
          .selectFrom('wiki_revisions')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('page_id', '=', pageId)
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('of two saves on one base at once, exactly one wins; the other gets the conflict', async () => {
    const page = await createPage(ctx, p.priya, { title: 'Manhole entry checklist' });
    for (let round = 1; round <= 3; round += 1) {
      const [first, second] = await Promise.all(
        [p.priya, p.ada].map((who, i) =>
          call(ctx, who, 'PUT', `/api/wiki/pages/${page.id}`, {
            baseRevision: round,
            title: page.title,
            html: `<p>Round ${round}, save ${i}.</p>`,
          }),
        ),
      );
      const answers = [first, second].map((r) => r?.statusCode).sort();
      expect(answers).toEqual([200, 409]);
      const lost = [first, second].find((r) => r?.statusCode === 409);
      expect(lost?.json()).toMatchObject({
        code: 'WIKI_EDIT_CONFLICT',
        message: 'Someone else saved this page while you were editing it.',
        details: { baseRevision: round, current: { number: round + 1 } },
      });
      expect(await revisionCount(page.id)).toBe(round + 1);
    }
    const current = await call(ctx, p.sam, 'GET', `/api/wiki/pages/${page.id}`);
    expect((current.json() as WikiPage).revision).toBe(4);
  });

  it('saves and creates take their turn in the writes lane (plugins/lanes.ts)', async () => {
    const page = await createPage(ctx, p.priya, { title: 'Pole climbing' });
    const lane = ctx.app.lanes.get('writes');
    if (!lane) throw new Error('no writes lane');
    // Every turn of the lane taken (one on SQLite, four on PostgreSQL).
    const held = await Promise.all(
      Array.from({ length: lane.concurrency }, () => lane.acquire(5_000)),
    );
    let done = false;
    const save = call(ctx, p.priya, 'PUT', `/api/wiki/pages/${page.id}`, {
      baseRevision: 1,
      title: page.title,
      html: '<p>Harness first.</p>',
    }).then((r) => {
      done = true;
      return r;
    });
    const create = createPage(ctx, p.priya, { title: 'Pole climbing, part two' });
    let waited = 0;
    let doneWhileHeld = true;
    try {
      // Both reach the lane (after their sign-in check, which reads the database on PostgreSQL).
      for (; lane.waiting < 2 && waited < 100; waited += 1) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      doneWhileHeld = done;
      for (const release of held) release();
      await Promise.allSettled([save, create]);
    }
    expect(waited).toBeLessThan(100);
    expect(doneWhileHeld).toBe(false);
    expect((await save).statusCode).toBe(200);
    await create;
  });

  it('of ten restores of one revision at once, exactly one writes; nine get a 409', async () => {
    const page = await createPage(ctx, p.priya, { title: 'Duct rodding' });
    await savePage(ctx, p.priya, page, { title: page.title, html: '<p>Changed.</p>' });
    const url = `/api/wiki/pages/${page.id}/revisions/1/restore`;
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => call(ctx, p.priya, 'POST', url)),
    );
    expect(answers.map((r) => r?.statusCode).sort()).toEqual([200, ...Array(9).fill(409)]);
    for (const lost of answers.filter((r) => r?.statusCode === 409)) {
      expect(lost?.json()).toMatchObject({ code: 'CONFLICT' });
    }
    expect(await revisionCount(page.id)).toBe(3);
    // Restoring the text the page already has again is refused, with the reason.
    const again = await call(ctx, p.priya, 'POST', url, {});
    expect(again?.json()).toEqual({
      code: 'CONFLICT',
      message:
        'The page already has the title and text of revision 1: there is nothing to restore.',
    });
  });

  it('describes the restore body as optional, as the route takes it', async () => {
    const doc = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
    const operation = doc.json().paths['/api/wiki/pages/{pageId}/revisions/{revisionId}/restore']
      .post as { requestBody: { required?: boolean; content: Record<string, unknown> } };
    expect(operation.requestBody.required).toBe(false);
    // The body is a named schema: follow its $ref to the shape.
    const body = operation.requestBody.content['application/json'] as {
      schema: { $ref?: string };
    };
    const name = body.schema.$ref?.split('/').pop() ?? '';
    const schema = name ? doc.json().components.schemas[name] : body.schema;
    expect(schema).toMatchObject({
      type: 'object',
      properties: { summary: { type: 'string', maxLength: 300 } },
    });
    expect(schema.required ?? []).toEqual([]);
  });

  it('answers a stale save with a block merge: different paragraphs merge, the same one conflicts', async () => {
    const base = '<p>Open the lid.</p><p>Test the air.</p><p>Enter.</p>';
    const page = await createPage(ctx, p.priya, { title: 'Manhole entry', html: base });
    await savePage(ctx, p.ada, page, {
      html: '<p>Open the lid with the hook.</p><p>Test the air.</p><p>Enter.</p>',
    });
    const stale = (html: string, title = page.title) =>
      call(ctx, p.priya, 'PUT', `/api/wiki/pages/${page.id}`, {
        baseRevision: 1,
        title,
        html,
      });

    const apart = await stale(
      '<p>Open the lid.</p><p>Test the air.</p><p>Enter with a harness.</p><script>alert(1)</script>',
      'Manhole entry (confined space)',
    );
    expect(apart.statusCode).toBe(409);
    const merged = apart.json().details as WikiConflict;
    expect(merged).toMatchObject({
      baseRevision: 1,
      current: {
        number: 2,
        author: { id: p.ada.id },
        html: '<p>Open the lid with the hook.</p><p>Test the air.</p><p>Enter.</p>',
      },
      mine: {
        title: 'Manhole entry (confined space)',
        html: '<p>Open the lid.</p><p>Test the air.</p><p>Enter with a harness.</p>',
      },
      merge: {
        title: 'Manhole entry (confined space)',
        conflicts: 0,
        blocks: [
          {
            kind: 'merged',
            html: '<p>Open the lid with the hook.</p><p>Test the air.</p><p>Enter with a harness.</p>',
          },
        ],
      },
    });

    const same = await stale('<p>Open the lid slowly.</p><p>Test the air.</p><p>Enter.</p>');
    expect(same.statusCode).toBe(409);
    expect((same.json().details as WikiConflict).merge).toEqual({
      title: 'Manhole entry',
      conflicts: 1,
      blocks: [
        {
          kind: 'conflict',
          base: '<p>Open the lid.</p>',
          mine: '<p>Open the lid slowly.</p>',
          theirs: '<p>Open the lid with the hook.</p>',
        },
        { kind: 'merged', html: '<p>Test the air.</p><p>Enter.</p>' },
      ],
    });
    // Nothing of the stale saves was written.
    expect(await revisionCount(page.id)).toBe(2);
  });

  it('refuses bad input with a readable 4xx and stores only sanitised HTML and plain titles', async () => {
    const post = (body: object, who = p.priya) =>
      call(ctx, who, 'POST', '/api/wiki/pages', { space: 'company', html: '<p>x</p>', ...body });
    const refusal = async (body: object, status: number, message?: string, who = p.priya) => {
      const response = await post(body, who);
      expect(response.statusCode, response.body).toBe(status);
      const answer = response.json() as { code: string; message: string };
      expect(answer.message).toEqual(message ?? expect.any(String));
      return answer;
    };
    await refusal({ title: 'A', space: 'department:nowhere' }, 404, 'Space not found');
    await refusal({ title: 'A', space: 'course:nowhere' }, 404, 'Space not found');
    await refusal({ title: 'A', space: 'mars' }, 400);
    // A department Omar may not view is not there for him: the same answer as no space at all.
    await refusal({ title: 'A', space: FIELD_SPACE }, 404, 'Space not found', p.omar);
    await refusal({ title: 'A', parentId: 'no-such-page' }, 404, 'There is no such parent page.');
    const fieldPage = await createPage(ctx, p.priya, { title: 'Kit', space: FIELD_SPACE });
    // So is a parent he may not see.
    await refusal(
      { title: 'A', parentId: fieldPage.id },
      404,
      'There is no such parent page.',
      p.omar,
    );
    await refusal(
      { title: 'A', parentId: fieldPage.id },
      400,
      'The parent page must be in the same space.',
    );
    for (const title of ['Bell\u0007', 'Two\nlines', 'a/b', '', '   ', 'x'.repeat(151)]) {
      await refusal({ title }, 400);
    }
    await refusal({ title: 'A', summary: 'x'.repeat(301) }, 400);
    await refusal({ title: 'A', html: `<p>${'x'.repeat(500_000)}</p>` }, 400);
    await refusal({ title: 'A', html: '<p>\u0000</p>' }, 400);
    await refusal({ title: 'A', extra: true }, 400);

    // XSS: the title and summary are plain text, stored as typed; the HTML is sanitised.
    const xss = await createPage(ctx, p.priya, {
      title: '<img src=x onerror=alert(1)>',
      summary: '<script>alert(1)</script>',
      html: '<p onclick="alert(1)">Hi<img src=x onerror=alert(1)><a href="javascript:alert(1)">x</a></p>',
    });
    expect(xss.title).toBe('<img src=x onerror=alert(1)>');
    expect(xss.currentRevision.summary).toBe('<script>alert(1)</script>');
    expect(xss.html).toBe('<p>Hi<a>x</a></p>');
    const stored = await ctx.database.db
      .selectFrom('wiki_revisions')
      .select('html')
      .where('page_id', '=', xss.id)
      .executeTakeFirstOrThrow();
    expect(stored.html).toBe('<p>Hi<a>x</a></p>');

    // Titles are unique in a space whatever their case and spacing, not across spaces.
    await createPage(ctx, p.priya, { title: 'Manhole entry checklist' });
    await refusal(
      { title: 'manhole  ENTRY checklist' },
      409,
      'A page called “manhole  ENTRY checklist” already exists in this space.',
    );
    await createPage(ctx, p.priya, { title: 'Manhole entry checklist', space: FIELD_SPACE });
    const other = await createPage(ctx, p.priya, { title: 'Other' });
    const renamed = await call(ctx, p.priya, 'PUT', `/api/wiki/pages/${other.id}`, {
      baseRevision: 1,
      title: 'MANHOLE entry checklist',
      html: '<p>x</p>',
    });
    expect(renamed.statusCode).toBe(409);
    expect(renamed.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'A page called “MANHOLE entry checklist” already exists in this space.',
    });
    const ahead = await call(ctx, p.priya, 'PUT', `/api/wiki/pages/${other.id}`, {
      baseRevision: 5,
      title: 'Other',
      html: '<p>x</p>',
    });
    expect(ahead.statusCode).toBe(400);
    expect(ahead.json()).toMatchObject({ message: 'This page has no such revision.' });
    const badMove = await call(ctx, p.ada, 'POST', `/api/wiki/pages/${other.id}/move`, {
      space: 'company',
      parentId: null,
      position: -1,
    });
    expect(badMove.statusCode).toBe(400);

    // A page in the trash is not saved (409 to whoever may still see it).
    await call(ctx, p.ada, 'DELETE', `/api/wiki/pages/${other.id}`);
    const trashed = await call(ctx, p.ada, 'PUT', `/api/wiki/pages/${other.id}`, {
      baseRevision: 1,
      title: 'Other',
      html: '<p>y</p>',
    });
    expect(trashed.statusCode).toBe(409);
    expect(
      (
        await call(ctx, p.priya, 'PUT', `/api/wiki/pages/${other.id}`, {
          baseRevision: 1,
          title: 'Other',
          html: '<p>y</p>',
        })
      ).statusCode,
    ).toBe(404);
  });

  it('attaches the images a page refers to, serves them signed, and deletes them with the page', async () => {
    const image = await uploadImage(ctx, p.priya);
    const created = await createPage(ctx, p.priya, {
      title: 'Splice tray',
      space: FIELD_SPACE,
      html: `<p><img src="/api/files/${image}" alt="tray" /></p>`,
    });
    expect(created.html).toMatch(
      new RegExp(
        `<img src="/api/files/${image}\\?exp=\\d+&amp;sid=[^"]+&amp;sig=[^"]+" alt="tray" />`,
      ),
    );
    const file = await ctx.database.db
      .selectFrom('files')
      .select(['owner_type', 'owner_id'])
      .where('id', '=', image)
      .executeTakeFirstOrThrow();
    expect(file).toEqual({ owner_type: 'wiki-page', owner_id: created.id });
    expect((await call(ctx, p.sam, 'GET', `/api/files/${image}`)).statusCode).toBe(200);
    expect((await call(ctx, p.kim, 'GET', `/api/files/${image}`)).statusCode).toBe(403);
    // Saved back with its signature: stored without it.
    const signed = created.html;
    const saved = await savePage(ctx, p.priya, created, { html: signed });
    expect(saved.revision).toBe(2);
    const stored = await ctx.database.db
      .selectFrom('wiki_pages')
      .select('html')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(stored.html).toBe(`<p><img src="/api/files/${image}" alt="tray" /></p>`);

    await call(ctx, p.ada, 'DELETE', `/api/wiki/pages/${created.id}`);
    expect((await call(ctx, p.sam, 'GET', `/api/files/${image}`)).statusCode).toBe(403);
    expect((await call(ctx, p.ada, 'DELETE', `/api/wiki/trash/${created.id}`)).statusCode).toBe(
      204,
    );
    expect((await call(ctx, p.priya, 'GET', `/api/files/${image}`)).statusCode).toBe(404);
  });
});
