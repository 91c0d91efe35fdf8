/**
 * A new library item of a department or a course is announced to the people who may open it
 * there; an item for everyone is not.
 */
import type { Notification } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import { call, FIELD, wikiPeople, type Person } from '../wiki/test-fixture';

let ctx: TestContext;

beforeEach(async () => {
  ctx = await createTestApp();
});

afterEach(async () => {
  await ctx.close();
});

async function added(who: Person): Promise<Notification[]> {
  const response = await call(ctx, who, 'GET', '/api/notifications');
  return (response.json() as { items: Notification[] }).items.filter(
    (n) => n.kind === 'library.item-added',
  );
}

describe('library notices', () => {
  it('tells a department’s people of its new item, and nobody of an item for everyone', async () => {
    const p = await wikiPeople(ctx);
    const created = await call(ctx, p.priya, 'POST', '/api/library/items', {
      title: 'Splice closure checklist',
      url: 'https://example.com/closure',
      scope: { type: 'department', departmentId: FIELD },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json() as { id: string };
    const [notice] = await added(p.sam);
    expect(notice).toMatchObject({
      title: 'New in the library: Splice closure checklist',
      link: `/library/${id}`,
    });
    // Another department's people, and the one who added it, are not told.
    expect(await added(p.kim)).toEqual([]);
    expect(await added(p.omar)).toEqual([]);
    expect(await added(p.priya)).toEqual([]);

    const everyone = await call(ctx, p.priya, 'POST', '/api/library/items', {
      title: 'OTDR vendor manual',
      url: 'https://example.com/otdr',
      scope: { type: 'everyone' },
    });
    expect(everyone.statusCode).toBe(201);
    expect(await added(p.kim)).toEqual([]);
    expect(await added(p.sam)).toHaveLength(1);
  });
});
