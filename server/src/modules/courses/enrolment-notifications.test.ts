/**
 * The notices of roles given: an enrolment by the course's staff, a course role, a department
 * role; nothing for a role one already had or gave oneself.
 */
import type { Notification } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import { sendEndingNotices } from '../../platform/access/expiry-notices';
import { classroom, type Person } from '../assignments/test-fixture';

let ctx: TestContext;
let room: Awaited<ReturnType<typeof classroom>>;

beforeEach(async () => {
  ctx = await createTestApp();
  room = await classroom(ctx);
}, 60_000);

afterEach(async () => {
  await ctx.close();
});

async function notices(who: Person): Promise<Notification[]> {
  const response = await ctx.app.inject({
    method: 'GET',
    url: '/api/notifications',
    headers: who.headers,
  });
  return (response.json() as { items: Notification[] }).items;
}

const put = (who: Person, userId: string, body: object) =>
  ctx.app.inject({
    method: 'PUT',
    url: `/api/courses/${room.courseId}/participants/${userId}`,
    headers: who.headers,
    payload: body,
  });

describe('notices of roles given', () => {
  it('tells a person enrolled by the course’s staff, once', async () => {
    const added = await put(room.teacher, room.outsider.id, {
      roles: ['course-student'],
      endsAt: '2027-06-30T00:00:00.000Z',
    });
    expect(added.statusCode, added.body).toBe(201);
    const [notice] = await notices(room.outsider);
    expect(notice).toMatchObject({
      kind: 'enrolment.added',
      title: 'You are enrolled in FO-201 · Fusion splicing',
      body: 'Your enrolment runs until 2027-06-30.',
      link: `/classroom/${room.courseId}`,
    });
    // The same roles again: nothing new, nothing told.
    expect(
      (await put(room.teacher, room.outsider.id, { roles: ['course-student'], endsAt: null }))
        .statusCode,
    ).toBe(200);
    expect(await notices(room.outsider)).toHaveLength(1);
  });

  it('tells of a course role given beside an enrolment', async () => {
    const changed = await put(room.teacher, room.bob.id, {
      roles: ['course-student', 'course-assistant'],
      endsAt: null,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    const [notice] = await notices(room.bob);
    expect(notice).toMatchObject({ kind: 'role.assigned' });
    expect(notice?.title).toMatch(/^You are now course assistant in FO-201/);
  });

  it('tells of an enrolment or a role that ends within 7 days, once per end date', async () => {
    const soon = new Date(ctx.clock.now() + 3 * 24 * 3_600_000).toISOString();
    const far = new Date(ctx.clock.now() + 30 * 24 * 3_600_000).toISOString();
    expect(
      (await put(room.teacher, room.outsider.id, { roles: ['course-student'], endsAt: soon }))
        .statusCode,
    ).toBe(201);
    expect(
      (await put(room.teacher, room.bob.id, { roles: ['course-student'], endsAt: far })).statusCode,
    ).toBe(200);
    const db = ctx.database.db;
    expect(await sendEndingNotices(ctx.app, db, ctx.clock.now())).toBe(1);
    expect(await sendEndingNotices(ctx.app, db, ctx.clock.now())).toBe(0);
    const ending = (await notices(room.outsider)).filter((n) => n.kind === 'enrolment.ending');
    expect(ending).toHaveLength(1);
    expect(ending[0]?.title).toBe('Your enrolment in FO-201 · Fusion splicing ends soon');
    expect((await notices(room.bob)).filter((n) => n.kind === 'enrolment.ending')).toEqual([]);
  });
});
