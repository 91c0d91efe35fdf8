/**
 * Announcements on the live channel (real sockets against the app listening on a port): a reader
 * with the hub open gets the notification the moment it is published; a manager watching an
 * announcement's counts gets them again when someone acknowledges it; only its managers may watch.
 */
import type { AnnouncementCounts, Notification } from '@learning-hub/core';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIVE_PATH } from '../../platform/live/live-channel';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { announcementFixture, audience, COURSE, type Fixture } from './test-fixture';

const available = await testDatabaseAvailable();

describe.skipIf(!available)(`announcements: live (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let f: Fixture;
  let base: string;
  const clients: ClientSocket[] = [];

  beforeEach(async () => {
    ctx = await createTestApp();
    f = await announcementFixture(ctx);
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const address = ctx.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    base = `http://127.0.0.1:${address.port}`;
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.disconnect();
    await ctx.close();
  });

  async function connect(token: string): Promise<ClientSocket> {
    const socket = connectClient(base, {
      path: LIVE_PATH,
      transports: ['websocket'],
      auth: { token },
      reconnection: false,
      timeout: 5_000,
    });
    clients.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', () => resolve());
      socket.once('connect_error', reject);
    });
    return socket;
  }

  function next<T>(socket: ClientSocket, event: string): Promise<T> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${event} within 5 s`)), 5_000);
      socket.once(event, (payload: T) => {
        clearTimeout(timer);
        resolve(payload);
      });
    });
  }

  const follow = (socket: ClientSocket, id: string) =>
    socket.emitWithAck('subscribe', { topic: 'announcement', id }) as Promise<{ ok: boolean }>;

  it('brings a published announcement to the open hub of each person it is for, at once', async () => {
    const sam = await connect(f.tokens.sam);
    const kim = await connect(f.tokens.kim);
    let kimGot = 0;
    kim.on('notification', () => (kimGot += 1));
    const arriving = next<Notification>(sam, 'notification');
    const a = await f.announce('ada', {
      title: 'Elm Street closed',
      priority: 'urgent',
      requiresAck: true,
      audience: audience({ courseIds: [COURSE] }),
    });
    const received = await arriving;
    expect(received).toMatchObject({
      kind: 'announcement',
      priority: 'urgent',
      title: 'Elm Street closed',
      body: 'A contractor cut the feeder.',
      link: `/?announcement=${a.id}`,
    });
    expect(received.actor?.id).toBe(f.ids.ada);
    expect(kimGot).toBe(0);
  });

  it('tells a manager watching the counts when someone acknowledges, and lets only managers watch', async () => {
    const a = await f.announce('tina', {
      requiresAck: true,
      audience: audience({ courseIds: [COURSE] }),
    });
    const tina = await connect(f.tokens.tina);
    const sam = await connect(f.tokens.sam);
    expect(await follow(tina, a.id)).toMatchObject({ ok: true });
    // Sam reads it; he does not manage it.
    expect(await follow(sam, a.id)).toMatchObject({ ok: false });

    const counted = next<{ topic: string; id: string; counts: AnnouncementCounts }>(
      tina,
      'announcement-counts',
    );
    const ack = await f.as('sam', 'POST', `/api/announcements/${a.id}/acknowledgement`);
    expect(ack.statusCode).toBe(201);
    expect(await counted).toMatchObject({
      topic: 'announcement',
      id: a.id,
      counts: { recipients: 1, acknowledged: 1, read: 1 },
    });
  });

  it('tells a manager watching the counts when copies are delivered', async () => {
    const a = await f.announce('tina', { audience: audience({ courseIds: [COURSE] }) });
    const tina = await connect(f.tokens.tina);
    expect(await follow(tina, a.id)).toMatchObject({ ok: true });
    const counted = next<{ counts: AnnouncementCounts }>(tina, 'announcement-counts');
    // Sam's app fetches his notifications (as a reconnecting client catches up): delivered.
    const list = await f.as('sam', 'GET', '/api/notifications');
    expect(list.statusCode).toBe(200);
    expect((await counted).counts).toMatchObject({ recipients: 1, delivered: 1 });
  });

  it('takes a withdrawn announcement off its readers’ open pages at once', async () => {
    const a = await f.announce('tina', { audience: audience({ courseIds: [COURSE] }) });
    const sam = await connect(f.tokens.sam);
    const gone = next<{ id: string }>(sam, 'announcement-withdrawn');
    const withdrawn = await f.as('tina', 'POST', `/api/announcements/${a.id}/withdrawal`);
    expect(withdrawn.statusCode, withdrawn.body).toBeLessThan(300);
    expect(await gone).toEqual({ id: a.id });
  });
});
