/**
 * Notifications through the API and the service: storing with the thing announced, who gets a
 * copy, the list and its catch-up, marking read, the test notification, and the outbox sending
 * each event once whatever the number of instances.
 */
import type { Notification } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  bearer,
  createSecondInstance,
  createTestApp,
  createTestUser,
  signIn,
  type TestContext,
} from '../../test/helpers';
import { NOTIFICATION_BODY_MAX } from './notification-service';

let ctx: TestContext;

beforeEach(async () => {
  ctx = await createTestApp();
});

afterEach(async () => {
  await ctx.close();
});

async function person(role: 'student' | 'admin' = 'student') {
  const { user, password } = await createTestUser(ctx, { role });
  return { user, token: await signIn(ctx.app, user.username, password) };
}

function notify(
  recipients: string[],
  input: Partial<Parameters<TestContext['app']['notifications']['notify']>[1]> = {},
) {
  return ctx.database.db.transaction().execute((trx) =>
    ctx.app.notifications.notify(trx, {
      kind: 'assignment.new',
      title: 'New assignment: Splice log',
      body: 'Due on Friday.',
      link: '/classroom/fiber-101',
      recipients,
      ...input,
    }),
  );
}

async function list(token: string, query = '') {
  const response = await ctx.app.inject({
    method: 'GET',
    url: `/api/notifications${query}`,
    headers: bearer(token),
  });
  expect(response.statusCode, response.body).toBe(200);
  return {
    body: response.json<{ items: Notification[]; total: number; unreadCount: number }>(),
    response,
  };
}

describe('notify', () => {
  it('stores one copy per recipient, without duplicates and never for the one who acted', async () => {
    const actor = await person();
    const a = await person();
    const b = await person();
    const stored = await notify([a.user.id, b.user.id, a.user.id, actor.user.id], {
      actorId: actor.user.id,
    });
    expect(stored.recipients.sort()).toEqual([a.user.id, b.user.id].sort());
    expect((await list(actor.token)).body.total).toBe(0);
    const got = (await list(a.token)).body.items[0];
    expect(got).toMatchObject({
      id: stored.id,
      kind: 'assignment.new',
      priority: 'info',
      title: 'New assignment: Splice log',
      link: '/classroom/fiber-101',
      readAt: null,
    });
    expect(got?.actor?.id).toBe(actor.user.id);
  });

  it('leaves out whoever chose none for the kind, but never for a security notice', async () => {
    const a = await person();
    const b = await person();
    const current = await ctx.app.inject({
      method: 'GET',
      url: '/api/settings',
      headers: bearer(a.token),
    });
    const { settings } = current.json<{ settings: { notifications: Record<string, string> } }>();
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: bearer(a.token),
      payload: {
        ...settings,
        notifications: { ...settings.notifications, 'assignment.new': 'none' },
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const stored = await notify([a.user.id, b.user.id]);
    expect(stored.recipients).toEqual([b.user.id]);
    const security = await notify([a.user.id], { kind: 'account.password-changed' });
    expect(security.recipients).toEqual([a.user.id]);
  });

  it('keeps a notification only if the transaction of its thing commits', async () => {
    const a = await person();
    await expect(
      ctx.database.db.transaction().execute(async (trx) => {
        await ctx.app.notifications.notify(trx, {
          kind: 'announcement',
          title: 'Road closed',
          recipients: [a.user.id],
        });
        throw new Error('the announcement could not be saved');
      }),
    ).rejects.toThrow('could not be saved');
    expect((await list(a.token)).body.total).toBe(0);
  });

  it('cuts a long body to a line and flattens its white space', async () => {
    const a = await person();
    await notify([a.user.id], { body: `Line one\n\n${'word '.repeat(300)}` });
    const body = (await list(a.token)).body.items[0]?.body ?? '';
    expect(body.length).toBeLessThanOrEqual(NOTIFICATION_BODY_MAX);
    expect(body.length).toBeGreaterThan(NOTIFICATION_BODY_MAX - 10);
    expect(body.endsWith('…')).toBe(true);
    expect(body).not.toContain('\n');
  });
});

describe('GET /api/notifications', () => {
  it('lists one’s own, newest first, paged with a Link header, with the unread count', async () => {
    const a = await person();
    const b = await person();
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push((await notify([a.user.id], { title: `n${i}` })).id);
    await notify([b.user.id], { title: 'not for a' });
    const { body, response } = await list(a.token, '?pageSize=2');
    expect(body.items.map((n) => n.title)).toEqual(['n2', 'n1']);
    expect(body).toMatchObject({ total: 3, unreadCount: 3 });
    expect(response.headers.link).toContain('rel="next"');
  });

  it('catches up from an event id: what came after it, oldest first', async () => {
    const a = await person();
    const first = await notify([a.user.id], { title: 'first' });
    await notify([a.user.id], { title: 'second' });
    await notify([a.user.id], { title: 'third' });
    const { body } = await list(a.token, `?after=${first.id}`);
    const titles = body.items.map((n) => n.title);
    expect(titles.slice(titles.indexOf('second'))).toEqual(['second', 'third']);
  });

  it('refuses a malformed cursor or page with 400', async () => {
    const a = await person();
    for (const query of ['?after=../../etc', '?after=123', '?pageSize=500', '?unread=maybe']) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/notifications${query}`,
        headers: bearer(a.token),
      });
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });

  it('answers one notification to its recipient only (404 for anyone else)', async () => {
    const a = await person();
    const b = await person();
    const stored = await notify([a.user.id]);
    const own = await ctx.app.inject({
      method: 'GET',
      url: `/api/notifications/${stored.id}`,
      headers: bearer(a.token),
    });
    expect(own.statusCode).toBe(200);
    const other = await ctx.app.inject({
      method: 'GET',
      url: `/api/notifications/${stored.id}`,
      headers: bearer(b.token),
    });
    expect(other.statusCode).toBe(404);
  });

  it('needs a sign-in', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/notifications' });
    expect(response.statusCode).toBe(401);
  });
});

describe('POST /api/notifications/read', () => {
  it('marks some, then all, read; counts only those that were unread', async () => {
    const a = await person();
    const b = await person();
    const one = await notify([a.user.id, b.user.id]);
    await notify([a.user.id]);
    await notify([a.user.id]);
    const read = (payload: unknown, token = a.token) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/notifications/read',
        headers: bearer(token),
        payload: payload as object,
      });
    expect((await read({ ids: [one.id] })).json()).toEqual({ marked: 1, unreadCount: 2 });
    expect((await read({ ids: [one.id] })).json()).toEqual({ marked: 0, unreadCount: 2 });
    expect((await read({ all: true })).json()).toEqual({ marked: 2, unreadCount: 0 });
    // b's copy is b's own.
    expect((await list(b.token)).body.unreadCount).toBe(1);
    for (const bad of [
      { ids: [] },
      { ids: ['x'] },
      { all: false },
      { ids: [one.id], all: true },
      {},
    ]) {
      expect((await read(bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
  });
});

describe('POST /api/notifications/test', () => {
  it('is for admins; sends to oneself or to an active person, answering 201 with its id', async () => {
    const admin = await person('admin');
    const student = await person();
    const send = (token: string, payload: object) =>
      ctx.app.inject({
        method: 'POST',
        url: '/api/notifications/test',
        headers: bearer(token),
        payload,
      });
    expect((await send(student.token, {})).statusCode).toBe(403);
    const toSelf = await send(admin.token, {});
    expect(toSelf.statusCode).toBe(201);
    const { id } = toSelf.json<{ id: string }>();
    expect(toSelf.headers.location).toBe(`/api/notifications/${id}`);
    expect((await list(admin.token)).body.items[0]).toMatchObject({
      id,
      kind: 'test',
      actor: null,
    });

    const toStudent = await send(admin.token, { userId: student.user.id, priority: 'urgent' });
    expect(toStudent.statusCode).toBe(201);
    expect((await list(student.token)).body.items[0]).toMatchObject({ priority: 'urgent' });
    expect((await send(admin.token, { userId: 'nobody' })).statusCode).toBe(404);
    expect((await send(admin.token, { priority: 'loud' })).statusCode).toBe(400);
  });
});

describe('the outbox', () => {
  it('sends each stored event exactly once, whichever instances look at it', async () => {
    const a = await person();
    const other = await createSecondInstance(ctx);
    try {
      const sent: string[] = [];
      const record = { deliver: (n: Notification) => sent.push(n.id) };
      ctx.app.notifications.setSink(record);
      other.app.notifications.setSink(record);
      const stored = [];
      for (let i = 0; i < 5; i++) stored.push((await notify([a.user.id])).id);
      await Promise.all([
        ctx.app.notifications.dispatch(),
        other.app.notifications.dispatch(),
        ctx.app.notifications.dispatch(),
        other.app.notifications.dispatch(),
      ]);
      expect(sent.sort()).toEqual(stored.sort());
    } finally {
      await other.close();
    }
  });
});
