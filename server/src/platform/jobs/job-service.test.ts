import { Writable } from 'node:stream';
import type { JobSummary } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import {
  bearer,
  createSecondInstance,
  createTestApp,
  createTestUser,
  signIn,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { claimJob } from './job-repository';
import { defineJob, FinalJobError, type JobService, type ListedJob } from './types';

const available = await testDatabaseAvailable();
const FAST = { JOBS_POLL_INTERVAL_MS: '20' };
const SQLITE = TEST_DB_KIND === 'sqlite';

const Echo = defineJob('test.echo', z.object({ n: z.number().int() }));

async function jobOf(jobs: JobService, id: string | null): Promise<ListedJob | undefined> {
  const { items: all } = await jobs.list({ page: 1, pageSize: 100 });
  return all.find((job) => job.id === id);
}

/** Waits (polling, no fixed sleep) until job `id` is in `state`. */
async function until(jobs: JobService, id: string | null, state: JobSummary['state']) {
  return vi.waitFor(
    async () => {
      const job = await jobOf(jobs, id);
      expect(job?.state).toBe(state);
      return job as ListedJob;
    },
    { timeout: 10_000, interval: 20 },
  );
}

describe.skipIf(!available)(`background jobs (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp({ env: FAST });
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('runs a job once with its data, and refuses data that does not fit', async () => {
    const { jobs } = ctx.app;
    const seen: [number, number][] = [];
    jobs.register(Echo, async (data, { attempt }) => {
      seen.push([data.n, attempt]);
    });
    await jobs.start();
    const id = await jobs.send(Echo, { n: 7 });
    const done = await until(jobs, id, 'completed');
    expect(seen).toEqual([[7, 1]]);
    expect(done).toMatchObject({ name: 'test.echo', attempts: 1, lastError: null });
    expect(done.completedAt).not.toBeNull();
    await expect(jobs.send(Echo, { n: 'seven' } as never)).rejects.toThrow(z.ZodError);
  });

  it('retries a failing job with backoff, then fails it with the error; an admin retries it', async () => {
    const { jobs } = ctx.app;
    let calls = 0;
    let healed = false;
    jobs.register(
      Echo,
      async () => {
        calls += 1;
        if (!healed) throw new Error(`boom ${calls}`);
      },
      // PostgreSQL runs on real time: retry at once there; SQLite follows the test's clock.
      SQLITE
        ? { retryLimit: 2, retryDelaySeconds: 10, backoff: true }
        : { retryLimit: 1, retryDelaySeconds: 0, backoff: false },
    );
    await jobs.start();
    const id = await jobs.send(Echo, { n: 1 });
    if (SQLITE) {
      const first = await until(jobs, id, 'retry');
      expect(first).toMatchObject({ attempts: 1, lastError: 'boom 1' });
      expect(Date.parse(first.startAfter) - ctx.clock.now()).toBe(10_000);
      ctx.clock.advance(10_000);
      const second = await vi.waitFor(
        async () => {
          const job = await jobOf(jobs, id);
          expect(job).toMatchObject({ state: 'retry', attempts: 2 });
          return job as ListedJob;
        },
        { timeout: 10_000, interval: 20 },
      );
      // Backoff: twice the delay before the third attempt.
      expect(Date.parse(second.startAfter) - ctx.clock.now()).toBe(20_000);
      ctx.clock.advance(20_000);
    }
    const failed = await until(jobs, id, 'failed');
    const attempts = SQLITE ? 3 : 2;
    expect(failed).toMatchObject({
      attempts,
      maxAttempts: attempts,
      lastError: `boom ${attempts}`,
    });
    expect(calls).toBe(attempts);
    const failedList = await jobs.list({ state: 'failed', page: 1, pageSize: 10 });
    expect(failedList.items.map((job) => job.id)).toEqual([id]);

    const admin = await createTestUser(ctx, { username: 'root', role: 'admin' });
    const token = await signIn(ctx.app, 'root', admin.password);
    const listed = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/jobs?state=failed',
      headers: bearer(token),
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json()).toMatchObject({
      total: 1,
      page: 1,
      items: [{ id, state: 'failed', lastError: `boom ${attempts}` }],
    });

    healed = true;
    const retried = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/jobs/${id}/retry`,
      headers: bearer(token),
    });
    expect(retried.statusCode).toBe(204);
    const done = await until(jobs, id, 'completed');
    expect(done.attempts).toBe(attempts + 1);
    expect(calls).toBe(attempts + 1);

    const again = await ctx.app.inject({
      method: 'POST',
      url: `/api/admin/jobs/${id}/retry`,
      headers: bearer(token),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'CONFLICT' });
  });

  it('fails a job at once, its retries unused, when the handler throws a FinalJobError', async () => {
    const { jobs } = ctx.app;
    let calls = 0;
    jobs.register(
      Echo,
      async () => {
        calls += 1;
        throw new FinalJobError('The PDF needs more memory than allowed (over 512 MB) to read.');
      },
      { retryLimit: 2, retryDelaySeconds: 0, backoff: false },
    );
    await jobs.start();
    const id = await jobs.send(Echo, { n: 1 });
    expect(await until(jobs, id, 'failed')).toMatchObject({
      attempts: 1,
      lastError: 'The PDF needs more memory than allowed (over 512 MB) to read.',
    });
    expect(calls).toBe(1);
  });

  it('never runs a job sent in a transaction that rolled back', async () => {
    const { jobs } = ctx.app;
    const seen: number[] = [];
    jobs.register(Echo, async (data) => {
      seen.push(data.n);
    });
    await expect(
      ctx.database.db.transaction().execute(async (trx) => {
        await jobs.send(Echo, { n: 1 }, { trx });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const kept = await ctx.database.db
      .transaction()
      .execute((trx) => jobs.send(Echo, { n: 2 }, { trx }));
    await jobs.start();
    await until(jobs, kept, 'completed');
    expect(seen).toEqual([2]);
    expect((await jobs.list({ page: 1, pageSize: 10 })).total).toBe(1);
  });

  it.runIf(SQLITE)('deletes finished jobs a week after they finished', async () => {
    const { jobs } = ctx.app;
    jobs.register(Echo, () => Promise.resolve());
    await jobs.start();
    const id = await jobs.send(Echo, { n: 4 });
    await until(jobs, id, 'completed');
    ctx.clock.advance(6 * 24 * 3600_000);
    const kept = await jobs.send(Echo, { n: 5 });
    await until(jobs, kept, 'completed');
    ctx.clock.advance(24 * 3600_000 + 1000);
    await jobs.send(Echo, { n: 6 });
    await vi.waitFor(
      async () => expect((await jobs.list({ page: 1, pageSize: 10 })).total).toBe(2),
      { timeout: 10_000, interval: 20 },
    );
    expect(await jobOf(jobs, id)).toBeUndefined();
    expect(await jobOf(jobs, kept)).toBeDefined();
  });

  it('runs a job later when its start is in the future', async () => {
    const { jobs } = ctx.app;
    const seen: number[] = [];
    jobs.register(Echo, async (data) => {
      seen.push(data.n);
    });
    await jobs.start();
    const startAfter = SQLITE ? ctx.clock.now() + 60_000 : Date.now() + 600;
    const id = await jobs.send(Echo, { n: 3 }, { startAfter });
    expect((await jobOf(jobs, id))?.state).toBe('created');
    if (SQLITE) {
      expect(seen).toEqual([]);
      ctx.clock.advance(60_000);
    }
    await until(jobs, id, 'completed');
    expect(seen).toEqual([3]);
  });

  it('keeps a job through a restart: another instance runs it', async () => {
    // This instance only sends (its workers never start).
    ctx.app.jobs.register(Echo, () => Promise.reject(new Error('not here')));
    const id = await ctx.app.jobs.send(Echo, { n: 5 });
    if (SQLITE) {
      // A worker took it and its process died: the job stays active until its lease runs out.
      const at = ctx.clock.now();
      const taken = await claimJob(
        ctx.database.db,
        'test.echo',
        new Date(at).toISOString(),
        new Date(at + 300_000).toISOString(),
      );
      expect(taken?.id).toBe(id);
    }
    await ctx.app.close();
    const next = await createSecondInstance(ctx, FAST);
    try {
      const seen: [number, number][] = [];
      next.app.jobs.register(Echo, async (data, { attempt }) => {
        seen.push([data.n, attempt]);
      });
      await next.app.jobs.start();
      if (SQLITE) {
        expect((await jobOf(next.app.jobs, id))?.state).toBe('active');
        ctx.clock.advance(300_000);
      }
      await until(next.app.jobs, id, 'completed');
      expect(seen).toEqual([[5, SQLITE ? 2 : 1]]);
    } finally {
      await next.close();
    }
  });

  it('runs each job once with two instances working the queue', async () => {
    const other = await createSecondInstance(ctx, FAST);
    try {
      const runs: number[] = [];
      for (const jobs of [ctx.app.jobs, other.app.jobs]) {
        jobs.register(
          Echo,
          async (data) => {
            runs.push(data.n);
            await new Promise((resolve) => setTimeout(resolve, 5));
          },
          { concurrency: 3 },
        );
        await jobs.start();
      }
      const ids = await Promise.all(
        Array.from({ length: 12 }, (_, n) => ctx.app.jobs.send(Echo, { n })),
      );
      await vi.waitFor(
        async () => {
          const done = await ctx.app.jobs.list({ state: 'completed', page: 1, pageSize: 100 });
          expect(done.total).toBe(ids.length);
        },
        { timeout: 15_000, interval: 50 },
      );
      expect(runs.toSorted((a, b) => a - b)).toEqual(ids.map((_, n) => n));
    } finally {
      await other.close();
    }
  });

  it('waits for a running job when it stops', async () => {
    const { jobs } = ctx.app;
    let release!: () => void;
    const finished: number[] = [];
    const started = new Promise<void>((resolveStarted) => {
      jobs.register(Echo, async (data) => {
        resolveStarted();
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        finished.push(data.n);
      });
    });
    await jobs.start();
    const id = await jobs.send(Echo, { n: 9 });
    await started;
    const stopping = jobs.stop(5000);
    release();
    await stopping;
    expect(finished).toEqual([9]);
    expect((await jobOf(jobs, id))?.state).toBe('completed');
  });

  it.runIf(SQLITE)(
    'puts a job that outlives the stop back to wait, its attempt not counted',
    async () => {
      const { jobs } = ctx.app;
      let aborted = false;
      jobs.register(Echo, (_data, { signal }) => {
        signal.addEventListener('abort', () => {
          aborted = true;
        });
        return new Promise(() => {});
      });
      await jobs.start();
      const id = await jobs.send(Echo, { n: 1 });
      await until(jobs, id, 'active');
      await jobs.stop(50);
      expect(aborted).toBe(true);
      expect(await jobOf(jobs, id)).toMatchObject({ state: 'retry', attempts: 0, lastError: null });
    },
  );

  it('logs no error while it starts, works and stops', async () => {
    const errors: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n')) if (line) errors.push(line);
        done();
      },
    });
    const logged = await createTestApp({ env: FAST, logger: { level: 'error', stream } });
    try {
      const { jobs } = logged.app;
      jobs.register(Echo, () => Promise.resolve());
      await jobs.start();
      await until(jobs, await jobs.send(Echo, { n: 1 }), 'completed');
      // pg-boss's start-up work (its schema's background migrations, supervision) runs meanwhile.
      await new Promise((resolve) => setTimeout(resolve, SQLITE ? 50 : 1500));
    } finally {
      await logged.close();
    }
    expect(errors).toEqual([]);
  });

  describe('admin routes', () => {
    it('are refused to a student and without a session; bad input is a 400', async () => {
      const student = await createTestUser(ctx, { username: 'learner', role: 'student' });
      const token = await signIn(ctx.app, 'learner', student.password);
      for (const request of [
        { method: 'GET' as const, url: '/api/admin/jobs' },
        { method: 'POST' as const, url: '/api/admin/jobs/x/retry' },
      ]) {
        expect((await ctx.app.inject({ ...request, headers: bearer(token) })).statusCode).toBe(403);
        expect((await ctx.app.inject(request)).statusCode).toBe(401);
      }
      const admin = await createTestUser(ctx, { username: 'root', role: 'admin' });
      const adminToken = await signIn(ctx.app, 'root', admin.password);
      for (const url of ['/api/admin/jobs?state=sleeping', '/api/admin/jobs?page=0']) {
        const bad = await ctx.app.inject({ method: 'GET', url, headers: bearer(adminToken) });
        expect(bad.statusCode).toBe(400);
        expect(bad.json()).toMatchObject({ code: 'VALIDATION_ERROR', message: expect.any(String) });
      }
      const missing = await ctx.app.inject({
        method: 'POST',
        url: '/api/admin/jobs/no-such-job/retry',
        headers: bearer(adminToken),
      });
      expect(missing.statusCode).toBe(404);
      const empty = await ctx.app.inject({
        method: 'GET',
        url: '/api/admin/jobs?state=created&page=2&pageSize=5',
        headers: bearer(adminToken),
      });
      expect(empty.json()).toEqual({ items: [], total: 0, page: 2, pageSize: 5 });
    });
  });
});
