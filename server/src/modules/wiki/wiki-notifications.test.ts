/**
 * A followed page's followers hear of a change: not its author, and only those who may see the
 * page now (docs/notifications.md, "What the areas raise").
 */
import type { NotificationList } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import { call, createPage, FIELD_SPACE, savePage, wikiPeople, type Person } from './test-fixture';

let ctx: TestContext;

beforeEach(async () => {
  ctx = await createTestApp();
});

afterEach(async () => {
  await ctx.close();
});

async function notices(who: Person) {
  const response = await call(ctx, who, 'GET', '/api/notifications');
  expect(response.statusCode).toBe(200);
  return (response.json() as NotificationList).items.filter((n) => n.kind === 'wiki.page-changed');
}

describe('following a wiki page', () => {
  it('tells the followers who may see the page of a change by someone else', async () => {
    const p = await wikiPeople(ctx);
    const page = await createPage(ctx, p.priya, { title: 'Splice trays', space: FIELD_SPACE });
    // Sam (Field Operations) and Kim (Customer Support) follow; Kim cannot open Field Operations'
    // space (she follows nothing she may see: the follow itself is refused or hidden).
    expect((await call(ctx, p.sam, 'PUT', `/api/wiki/pages/${page.id}/follow`)).statusCode).toBe(
      201,
    );
    expect((await call(ctx, p.priya, 'PUT', `/api/wiki/pages/${page.id}/follow`)).statusCode).toBe(
      201,
    );
    const kimFollow = await call(ctx, p.kim, 'PUT', `/api/wiki/pages/${page.id}/follow`);
    expect(kimFollow.statusCode).toBe(404);

    await savePage(ctx, p.priya, page, {
      html: '<p>Trays hold 12 splices.</p>',
      summary: 'Tray size',
    });
    const [notice] = await notices(p.sam);
    expect(notice).toMatchObject({
      title: '“Splice trays” was changed',
      body: 'Tray size',
      link: `/wiki/pages/${page.id}`,
    });
    expect(notice?.actor?.id).toBe(p.priya.id);
    // The author is not told of their own change.
    expect(await notices(p.priya)).toEqual([]);
    expect(await notices(p.kim)).toEqual([]);
  });

  it('does not tell a follower who may no longer see the page', async () => {
    const p = await wikiPeople(ctx);
    const page = await createPage(ctx, p.priya, { title: 'Closure prep', space: FIELD_SPACE });
    expect((await call(ctx, p.sam, 'PUT', `/api/wiki/pages/${page.id}/follow`)).statusCode).toBe(
      201,
    );
    // Sam moves to Customer Support: Field Operations' space is closed to him now.
    const db = ctx.database.db;
    const support = await db
      .selectFrom('departments')
      .where('name', '=', 'Customer Support')
      .select('id')
      .executeTakeFirstOrThrow();
    await db
      .updateTable('users')
      .set({ department_id: support.id, access_version: 50 })
      .where('id', '=', p.sam.id)
      .execute();
    await savePage(ctx, p.priya, page, { html: '<p>New prep steps.</p>' });
    expect(await notices(p.sam)).toEqual([]);
  });
});
