/**
 * Who is editing a page now: the live channel's `wiki-editing` topic lets in those who may edit
 * the page, and tells them who else is there.
 */
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LIVE_PATH } from '../../platform/live/live-channel';
import { createTestApp, type TestContext } from '../../test/helpers';
import { createPage, FIELD_SPACE, wikiPeople, type Person } from './test-fixture';

let ctx: TestContext;
let base: string;
const sockets: ClientSocket[] = [];

beforeEach(async () => {
  ctx = await createTestApp();
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  const address = ctx.app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  base = `http://127.0.0.1:${address.port}`;
});

afterEach(async () => {
  for (const s of sockets.splice(0)) s.disconnect();
  await ctx.close();
});

function connect(who: Person): Promise<ClientSocket> {
  const socket = connectClient(base, {
    path: LIVE_PATH,
    transports: ['websocket'],
    auth: { token: who.token },
    reconnection: false,
  });
  sockets.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

describe('who is editing a wiki page', () => {
  it('lets in those who may edit it and tells them who else is there', async () => {
    const p = await wikiPeople(ctx);
    const page = await createPage(ctx, p.priya, { title: 'Splice trays', space: FIELD_SPACE });
    const [priya, ada, sam] = await Promise.all([connect(p.priya), connect(p.ada), connect(p.sam)]);
    const topic = { topic: 'wiki-editing', id: page.id };

    // Sam may read the page but not edit it.
    expect(await sam.emitWithAck('subscribe', topic)).toMatchObject({ ok: false });

    const seen: string[][] = [];
    priya.on('presence', (m: { people: { id: string }[] }) =>
      seen.push(m.people.map((x) => x.id).sort()),
    );
    expect(await priya.emitWithAck('subscribe', topic)).toEqual({ ok: true });
    expect(await ada.emitWithAck('subscribe', topic)).toEqual({ ok: true });
    await expect.poll(() => seen.at(-1)).toEqual([p.ada.id, p.priya.id].sort());
    // Ada closes the editor: Priya is alone again.
    ada.emit('unsubscribe', topic);
    await expect.poll(() => seen.at(-1)).toEqual([p.priya.id]);
  });
});
