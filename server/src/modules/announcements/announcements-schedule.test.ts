/**
 * Scheduled announcements with the job service really working (SQLite's jobs table, pg-boss on
 * PostgreSQL) and two server instances on one database: each is published exactly once, at its
 * time; a changed time leaves the old job nothing to do; a publish run twice at once (two
 * instances, or a job retried) publishes once.
 */
import type { Announcement } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  createSecondInstance,
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { publishScheduled } from './announcement-service';
import { announcementFixture, type Fixture } from './test-fixture';

const available = await testDatabaseAvailable();
const SQLITE = TEST_DB_KIND === 'sqlite';
const FAST = { JOBS_POLL_INTERVAL_MS: '20' };
const HOUR = 3_600_000;

describe.skipIf(!available)(`announcements: scheduling (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let f: Fixture;
  let other: Awaited<ReturnType<typeof createSecondInstance>>;
  beforeEach(async () => {
    ctx = await createTestApp({ env: FAST });
    // pg-boss runs a job by the database's clock: the app's must be the real time there.
    if (!SQLITE) ctx.clock.set(Date.now());
    f = await announcementFixture(ctx);
    other = await createSecondInstance(ctx, FAST);
  });
  afterEach(async () => {
    await other.close();
    await ctx.close();
  });

  /** A time `ms` from now: on SQLite the clock is moved there, on PostgreSQL time passes. */
  const soon = (ms: number) => new Date(ctx.clock.now() + ms).toISOString();

  async function events(id: string): Promise<number> {
    const rows = await ctx.database.db
      .selectFrom('notification_events')
      .where('source_type', '=', 'announcement')
      .where('source_id', '=', id)
      .select('id')
      .execute();
    return rows.length;
  }

  async function state(id: string): Promise<Announcement> {
    const response = await f.as('ada', 'GET', `/api/announcements/${id}`);
    return response.json<Announcement>();
  }

  async function completedJobs(): Promise<number> {
    const done = await ctx.app.jobs.list({ state: 'completed', page: 1, pageSize: 100 });
    return done.items.filter((job) => job.name === 'announcements.publish').length;
  }

  async function startBoth() {
    await ctx.app.jobs.start();
    await other.app.jobs.start();
  }

  it('publishes a scheduled one once, at its time, with two instances working the queue', async () => {
    const a = await f.announce('ada', {
      publish: 'at',
      publishAt: soon(SQLITE ? HOUR : 1_500),
      requiresAck: true,
    });
    expect(a).toMatchObject({ state: 'scheduled', counts: null });
    expect(await f.mine('sam')).toEqual([]);
    await startBoth();
    if (SQLITE) {
      // Not before its time.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await state(a.id)).state).toBe('scheduled');
      ctx.clock.advance(HOUR);
    }
    await vi.waitFor(async () => expect((await state(a.id)).state).toBe('live'), {
      timeout: 15_000,
      interval: 50,
    });
    await vi.waitFor(async () => expect(await completedJobs()).toBe(1), {
      timeout: 15_000,
      interval: 50,
    });
    expect(await events(a.id)).toBe(1);
    expect((await state(a.id)).counts?.recipients).toBe(6);
    expect(await f.mine('sam')).toEqual([a.id]);
  });

  it('leaves the old job nothing to do when the time changes', async () => {
    const first = soon(SQLITE ? HOUR : 1_500);
    const a = await f.announce('ada', { publish: 'at', publishAt: first });
    const moved = await f.as('ada', 'PATCH', `/api/announcements/${a.id}`, {
      revision: a.revision,
      publishAt: soon(2 * HOUR),
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json<Announcement>()).toMatchObject({
      state: 'scheduled',
      publishAt: soon(2 * HOUR),
    });
    await startBoth();
    if (SQLITE) ctx.clock.advance(HOUR);
    // The job of the first time ran, and found it scheduled for another time.
    await vi.waitFor(async () => expect(await completedJobs()).toBe(1), {
      timeout: 15_000,
      interval: 50,
    });
    expect((await state(a.id)).state).toBe('scheduled');
    expect(await events(a.id)).toBe(0);
    if (SQLITE) {
      ctx.clock.advance(HOUR);
      await vi.waitFor(async () => expect((await state(a.id)).state).toBe('live'), {
        timeout: 15_000,
        interval: 50,
      });
      await vi.waitFor(async () => expect(await completedJobs()).toBe(2), {
        timeout: 15_000,
        interval: 50,
      });
      expect(await events(a.id)).toBe(1);
    }
  });

  it('publishes once when both instances publish the same one at the same moment', async () => {
    const publishAt = soon(HOUR);
    const a = await f.announce('ada', { publish: 'at', publishAt });
    ctx.clock.advance(HOUR);
    // Two instances on PostgreSQL. Two connections to one SQLite file in one process cannot run
    // transactions at once (better-sqlite3 waits for a lock without letting the other go on), so
    // there the same publish runs twice at once on one instance: a job retried, or sent twice.
    const second = SQLITE ? ctx.app : other.app;
    const secondDb = SQLITE ? ctx.database.db : other.db;
    const outcomes = await Promise.all([
      publishScheduled({ app: ctx.app, db: ctx.database.db, now: ctx.clock.now }, a.id, publishAt),
      publishScheduled({ app: second, db: secondDb, now: ctx.clock.now }, a.id, publishAt),
    ]);
    expect(outcomes.sort()).toEqual([false, true]);
    expect(await events(a.id)).toBe(1);
    const recipients = await ctx.database.db
      .selectFrom('announcement_recipients')
      .where('announcement_id', '=', a.id)
      .select('user_id')
      .execute();
    expect(recipients).toHaveLength(6);
  });
});
