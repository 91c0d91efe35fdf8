/**
 * Several instances with Redis between them (REDIS_URL): what one instance sends reaches the
 * connections of another; and when a real redis-server goes away and comes back, nothing crashes,
 * each instance keeps serving its own connections, and the others catch up on what they missed.
 */
import type { Notification } from '@learning-hub/core';
import type { FastifyInstance } from 'fastify';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { redisServerAvailable, startRedis, type RedisFixture } from '../../../../scripts/fixtures';
import {
  bearer,
  createSecondInstance,
  createTestApp,
  createTestUser,
  requireTool,
  signIn,
  type TestContext,
} from '../../test/helpers';
import { LIVE_PATH } from './live-channel';

const haveRedis = requireTool(
  'redis-server',
  redisServerAvailable(),
  'apt-get install redis-server',
);

let redis: RedisFixture;
let ctx: TestContext;
let second: { app: FastifyInstance; close(): Promise<void> };
const clients: ClientSocket[] = [];

async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

function client(base: string, token: string): Promise<ClientSocket> {
  const socket = connectClient(base, {
    path: LIVE_PATH,
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
  });
  clients.push(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

function collect(socket: ClientSocket, event: string): unknown[] {
  const got: unknown[] = [];
  socket.on(event, (payload: unknown) => got.push(payload));
  return got;
}

describe.skipIf(!haveRedis)('the live channel across instances (Redis)', () => {
  let baseA: string;
  let baseB: string;

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  beforeEach(async () => {
    ctx = await createTestApp({ env: { REDIS_URL: redis.url } });
    second = await createSecondInstance(ctx, { REDIS_URL: redis.url });
    baseA = await listen(ctx.app);
    baseB = await listen(second.app);
    await expect.poll(() => ctx.app.live.state().redis).toBe('up');
    await expect.poll(() => second.app.live.state().redis).toBe('up');
  });

  afterEach(async () => {
    for (const socket of clients.splice(0)) socket.disconnect();
    await second.close();
    await ctx.close();
  });

  async function people() {
    const admin = await createTestUser(ctx, { role: 'admin' });
    const student = await createTestUser(ctx);
    return {
      admin: { ...admin, token: await signIn(ctx.app, admin.user.username, admin.password) },
      student: {
        ...student,
        token: await signIn(ctx.app, student.user.username, student.password),
      },
    };
  }

  const sendTest = async (token: string, userId: string) => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/notifications/test',
      headers: bearer(token),
      payload: { userId },
    });
    expect(response.statusCode).toBe(201);
    return response.json<{ id: string }>().id;
  };

  it('brings what one instance sends to a connection on another', async () => {
    const { admin, student } = await people();
    const onB = await client(baseB, student.token);
    const got = collect(onB, 'notification');
    const id = await sendTest(admin.token, student.user.id);
    await expect.poll(() => got.map((n) => (n as Notification).id)).toEqual([id]);
  });

  it('ends a session’s connections on every instance at once', async () => {
    const { student } = await people();
    const onB = await client(baseB, student.token);
    const ended = new Promise((resolve) => onB.once('disconnect', resolve));
    // Signed out through instance A; the connection is on B.
    await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: bearer(student.token),
    });
    expect(await ended).toBe('io server disconnect');
  });

  it('survives Redis going away: each instance serves its own, the others catch up when it is back', async () => {
    const { admin, student } = await people();
    const onA = await client(baseA, admin.token);
    const onB = await client(baseB, student.token);
    const gotOnA = collect(onA, 'notification');
    const gotOnB = collect(onB, 'notification');
    const resyncs = collect(onB, 'resync');

    await redis.stop();
    await expect.poll(() => second.app.live.state().redis).toBe('down');

    // Sent through A while Redis is away: stored, and A's own connection gets its copy.
    const toStudent = await sendTest(admin.token, student.user.id);
    const toAdmin = await sendTest(admin.token, admin.user.id);
    await expect.poll(() => gotOnA.map((n) => (n as Notification).id)).toEqual([toAdmin]);
    expect(gotOnB).toEqual([]);
    // Both instances still answer.
    for (const app of [ctx.app, second.app]) {
      const health = await app.inject({ method: 'GET', url: '/healthz' });
      expect(health.statusCode).toBe(200);
    }

    await redis.start();
    // B tells its connections to catch up; the student's client asks for what came after the
    // last event it had (none here: the whole list), and finds the one it missed.
    await expect.poll(() => resyncs.length, { timeout: 15_000 }).toBeGreaterThan(0);
    const missed = await second.app.inject({
      method: 'GET',
      url: '/api/notifications',
      headers: bearer(student.token),
    });
    expect(missed.json<{ items: Notification[] }>().items.map((n) => n.id)).toEqual([toStudent]);
    // And live delivery across instances works again.
    await expect.poll(() => second.app.live.state().redis).toBe('up');
    const after = await sendTest(admin.token, student.user.id);
    await expect.poll(() => gotOnB.map((n) => (n as Notification).id)).toEqual([after]);
  });
});
