/**
 * The live channel over real sockets (socket.io-client against the app listening on a port): who
 * may connect, what reaches whom, catching up after a dropped connection, and connections ending
 * the moment their session does.
 */
import type { Notification } from '@learning-hub/core';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  TEST_DB_KIND,
  bearer,
  createTestApp,
  createTestUser,
  signIn,
  type TestContext,
} from '../../test/helpers';
import { revokeUserSessions } from '../auth/session-repository';
import { LIVE_PATH } from './live-channel';

let ctx: TestContext;
let base: string;
const clients: ClientSocket[] = [];

beforeEach(async () => {
  ctx = await createTestApp({
    beforeReady: (app) => {
      // A topic only admins may join, to check the rule is asked and asked again.
      app.live.topic('admin-room', {
        mayJoin: (user) => user.role === 'admin',
        presence: true,
      });
    },
  });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  await ctx.close();
});

function client(token: string | undefined): ClientSocket {
  const socket = connectClient(base, {
    path: LIVE_PATH,
    transports: ['websocket'],
    auth: token === undefined ? {} : { token },
    reconnection: false,
    timeout: 5_000,
  });
  clients.push(socket);
  return socket;
}

function connected(socket: ClientSocket): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
}

function next<T>(socket: ClientSocket, event: string, timeoutMs = 5_000): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no ${event} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    socket.once(event, (payload: T) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

async function person(role: 'student' | 'admin' = 'student') {
  const { user, password } = await createTestUser(ctx, { role });
  const token = await signIn(ctx.app, user.username, password);
  return { user, token };
}

async function sendTest(adminToken: string, userId?: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/notifications/test',
    headers: bearer(adminToken),
    payload: userId ? { userId, priority: 'urgent' } : {},
  });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: string; createdAt: string }>();
}

describe('the live channel', () => {
  it('refuses a connection without a live session, saying why', async () => {
    const noToken = client(undefined);
    const refused = await connected(noToken).catch((error: { data?: { code: string } }) => error);
    expect((refused as { data?: { code: string } }).data?.code).toBe('UNAUTHENTICATED');

    const forged = client('not-a-token');
    const refusedForged = await connected(forged).catch(
      (error: { data?: { code: string } }) => error,
    );
    expect((refusedForged as { data?: { code: string } }).data?.code).toBe('UNAUTHENTICATED');
  });

  it('brings a notification to its recipient only, at once, and records that it arrived', async () => {
    const admin = await person('admin');
    const student = await person();
    const other = await person();
    const studentSocket = client(student.token);
    const otherSocket = client(other.token);
    await Promise.all([connected(studentSocket), connected(otherSocket)]);
    let otherGot = 0;
    otherSocket.on('notification', () => (otherGot += 1));

    const arriving = next<Notification>(studentSocket, 'notification');
    const sent = await sendTest(admin.token, student.user.id);
    const received = await arriving;
    expect(received).toMatchObject({ id: sent.id, kind: 'test', priority: 'urgent', readAt: null });
    expect(received.actor?.id).toBe(admin.user.id);

    studentSocket.emit('delivered', [received.id]);
    await expect
      .poll(async () =>
        ctx.database.db
          .selectFrom('notifications')
          .where('event_id', '=', sent.id)
          .select('delivered_at')
          .executeTakeFirstOrThrow()
          .then((row) => row.delivered_at),
      )
      .not.toBeNull();
    expect(otherGot).toBe(0);
  });

  it('lets a client that was away catch up on what it missed, by the last id it had', async () => {
    const admin = await person('admin');
    const student = await person();
    const first = await sendTest(admin.token, student.user.id);
    // Away: two more are sent.
    const second = await sendTest(admin.token, student.user.id);
    const third = await sendTest(admin.token, student.user.id);

    const response = await ctx.app.inject({
      method: 'GET',
      url: `/api/notifications?after=${first.id}`,
      headers: bearer(student.token),
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ items: Notification[]; unreadCount: number }>();
    // Oldest first; the look-back may repeat the one it had (the client keeps one copy per id).
    const ids = body.items.map((n) => n.id);
    expect(ids.slice(-2)).toEqual([second.id, third.id]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(body.unreadCount).toBe(3);
  });

  it('tells every tab when notifications are read', async () => {
    const admin = await person('admin');
    const student = await person();
    const sent = await sendTest(admin.token, student.user.id);
    const tab = client(student.token);
    await connected(tab);
    const told = next<{ ids: string[]; unreadCount: number }>(tab, 'notifications-read');
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/notifications/read',
      headers: bearer(student.token),
      payload: { ids: [sent.id] },
    });
    expect(response.json()).toEqual({ marked: 1, unreadCount: 0 });
    expect(await told).toEqual({ ids: [sent.id], unreadCount: 0 });
  });

  it('tells a person’s other connections of settings saved elsewhere', async () => {
    const student = await person();
    const otherDevice = client(student.token);
    await connected(otherDevice);
    const told = next<{ colorScheme: string }>(otherDevice, 'settings');
    const current = await ctx.app.inject({
      method: 'GET',
      url: '/api/settings',
      headers: bearer(student.token),
    });
    const saved = await ctx.app.inject({
      method: 'PUT',
      url: '/api/settings',
      headers: bearer(student.token),
      payload: { ...current.json<{ settings: object }>().settings, colorScheme: 'dark' },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect((await told).colorScheme).toBe('dark');
  });

  it('ends a connection the moment its session is signed out', async () => {
    const student = await person();
    const socket = client(student.token);
    await connected(socket);
    const told = next<{ code: string }>(socket, 'signed-out');
    const ended = next<string>(socket, 'disconnect');
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(student.token),
    });
    expect(response.statusCode).toBe(200);
    expect(await told).toEqual({ code: 'SESSION_EXPIRED' });
    expect(await ended).toBe('io server disconnect');
    // And it cannot come back.
    const again = client(student.token);
    const refused = await connected(again).catch((error: { data?: { code: string } }) => error);
    expect((refused as { data?: { code: string } }).data?.code).toBe('SESSION_EXPIRED');
  });

  it('ends connections whose session was revoked elsewhere (the command line) at its next check', async () => {
    const student = await person();
    const socket = client(student.token);
    await connected(socket);
    const ended = next<string>(socket, 'disconnect');
    await revokeUserSessions(
      ctx.database.db,
      student.user.id,
      new Date(ctx.clock.now()).toISOString(),
      'password_reset_by_operator',
    );
    await ctx.app.live.checkConnections();
    expect(await ended).toBe('io server disconnect');
  });

  it.skipIf(TEST_DB_KIND !== 'sqlite')(
    'on the embedded database, ends them as soon as the change is written (no sweep needed)',
    async () => {
      const student = await person();
      const socket = client(student.token);
      await connected(socket);
      const ended = next<string>(socket, 'disconnect', 3_000);
      await revokeUserSessions(
        ctx.database.db,
        student.user.id,
        new Date(ctx.clock.now()).toISOString(),
        'password_reset_by_operator',
      );
      expect(await ended).toBe('io server disconnect');
    },
  );

  it('judges every event the client sends against the sign-in as it is now', async () => {
    const student = await person();
    const socket = client(student.token);
    await connected(socket);
    // Expired since it connected: the next event finds out.
    ctx.clock.advance(25 * 3_600_000);
    const ended = next<string>(socket, 'disconnect');
    socket.emit('rtt', () => undefined);
    expect(await ended).toBe('io server disconnect');
  });

  it('lets into a topic only who may join it, and takes them out when that changes', async () => {
    const admin = await person('admin');
    const student = await person();
    const adminSocket = client(admin.token);
    const studentSocket = client(student.token);
    await Promise.all([connected(adminSocket), connected(studentSocket)]);

    const refused = await studentSocket.emitWithAck('subscribe', { topic: 'admin-room', id: 'x' });
    expect(refused).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    const unknown = await studentSocket.emitWithAck('subscribe', { topic: 'nothing', id: 'x' });
    expect(unknown).toMatchObject({ ok: false, code: 'NOT_FOUND' });

    const presence = next<{ people: { id: string }[] }>(adminSocket, 'presence');
    expect(await adminSocket.emitWithAck('subscribe', { topic: 'admin-room', id: 'x' })).toEqual({
      ok: true,
    });
    expect((await presence).people.map((p) => p.id)).toEqual([admin.user.id]);

    // The admin becomes a student: the next check takes them out of the room.
    await ctx.database.db
      .updateTable('users')
      .set({ role: 'student', access_version: 99 })
      .where('id', '=', admin.user.id)
      .execute();
    const out = next<{ topic: string; id: string }>(adminSocket, 'unsubscribed');
    await ctx.app.live.checkConnections();
    expect(await out).toEqual({ topic: 'admin-room', id: 'x' });
  });
});
