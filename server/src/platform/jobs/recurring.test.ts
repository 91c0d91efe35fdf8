/**
 * A recurring job: one run waits whatever the number of starts, each run sends the next one an
 * interval on before its work, and the work runs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import { defineRecurringJob, registerRecurring } from './recurring';

const Tick = defineRecurringJob('test.tick');
const EVERY_MS = 60_000;

let ctx: TestContext | undefined;

afterEach(async () => {
  await ctx?.close();
  ctx = undefined;
});

describe('recurring jobs', () => {
  it('keeps exactly one run waiting and sends the next one from each run', async () => {
    let runs = 0;
    ctx = await createTestApp({
      beforeReady: (app) =>
        registerRecurring(app, Tick, async () => void (runs += 1), {
          everyMs: EVERY_MS,
          now: () => ctx!.clock.now(),
        }),
    });
    const { app, clock } = ctx;
    // Every instance sends one at start: one waits.
    await app.jobs.send(Tick, {}, { singletonKey: Tick.name });
    await app.jobs.send(Tick, {}, { singletonKey: Tick.name });
    const waiting = async () =>
      (await app.jobs.list({ state: 'created', page: 1, pageSize: 10 })).items.filter(
        (j) => j.name === Tick.name,
      );
    expect(await waiting()).toHaveLength(1);
    await app.jobs.start();
    await expect.poll(() => runs, { timeout: 10_000 }).toBe(1);
    const [next] = await waiting();
    expect(next).toBeDefined();
    expect(Date.parse(next!.startAfter)).toBe(clock.now() + EVERY_MS);
  });
});
