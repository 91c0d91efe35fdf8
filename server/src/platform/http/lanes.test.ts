/**
 * Lanes (lanes.ts): heavy requests take turns, a cheap request is answered between two of them,
 * and a request that waits too long for its turn is refused with a 503.
 */
import { AppError } from '@learning-hub/core';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import lanes, { Lane } from './lanes';

/** Holds the thread for `ms`, as a synchronous SQLite transaction does. */
function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    /* working */
  }
}

describe('lanes', () => {
  it('works the heavy requests of a lane one at a time, each after the last one’s answer', async () => {
    const app = Fastify();
    await app.register(lanes, { concurrency: { writes: 1 } });
    let working = 0;
    let most = 0;
    app.post('/heavy', { config: { lane: 'writes' } }, async () => {
      working += 1;
      most = Math.max(most, working);
      await new Promise((resolve) => setImmediate(resolve));
      busy(5);
      working -= 1;
      return { ok: true };
    });
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => app.inject({ method: 'POST', url: '/heavy' })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(most).toBe(1);
    await app.close();
  });

  it('hands a turn on in the next turn of the event loop, after what has arrived meanwhile', async () => {
    const lane = new Lane(1);
    const release = await lane.acquire(1_000);
    let granted = false;
    const next = lane.acquire(1_000).then((r) => {
      granted = true;
      return r;
    });
    release();
    // Not at once, nor after the promise jobs already queued: I/O callbacks (a cheap request's
    // bytes) run first.
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
    expect(granted).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(granted).toBe(true);
    (await next)();
  });

  it('lets a fixed number work at once and hands turns on in order', async () => {
    const lane = new Lane(2);
    const first = await lane.acquire(1_000);
    const second = await lane.acquire(1_000);
    expect(lane.active).toBe(2);
    const order: number[] = [];
    const third = lane.acquire(1_000).then((release) => {
      order.push(3);
      return release;
    });
    const fourth = lane.acquire(1_000).then((release) => {
      order.push(4);
      return release;
    });
    expect(lane.waiting).toBe(2);
    first();
    first(); // a second call gives nothing back twice
    (await third)();
    second();
    (await fourth)();
    expect(order).toEqual([3, 4]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(lane.active).toBe(0);
  });

  it('gives a turn back only in the next turn of the event loop, even with nobody waiting', async () => {
    // A heavy handler is synchronous once it has its turn: given back at once, the turn would go
    // to the next heavy request read in the same pass over the sockets, before any cheap one.
    const lane = new Lane(1);
    (await lane.acquire(1_000))();
    let granted = false;
    const next = lane.acquire(1_000).then((r) => {
      granted = true;
      return r;
    });
    for (let i = 0; i < 10; i += 1) await Promise.resolve();
    expect(granted).toBe(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect(granted).toBe(true);
    (await next)();
  });

  it('refuses with 503 SERVICE_UNAVAILABLE after waiting too long for a turn', async () => {
    const lane = new Lane(1);
    const held = await lane.acquire(1_000);
    const error = await lane.acquire(20).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(lane.waiting).toBe(0);
    held();
    const next = await lane.acquire(1_000);
    next();
  });
});
