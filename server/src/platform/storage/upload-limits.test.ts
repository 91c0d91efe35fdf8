/**
 * Per-person upload limits (storage/file-service.ts, docs/classroom.md "Upload limits"): the rate,
 * the bytes not yet attached, all the bytes stored, the reservations that make them hold under
 * concurrent uploads (also across two instances), and the clean-up of what is left unattached.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { multipartBody } from './test-files';
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

const available = await testDatabaseAvailable();
const KB = 1024;
const HOUR = 3_600_000;

/** Small limits: files of at most 10 KB, 20 KB unattached, 40 KB in all. */
const LIMITS = {
  UPLOAD_MAX_BYTES: String(10 * KB),
  UPLOAD_USER_MAX_UNATTACHED_BYTES: String(20 * KB),
  UPLOAD_USER_MAX_STORED_BYTES: String(40 * KB),
};

const UNATTACHED_MESSAGE = (used: string) =>
  `You have ${used} of uploads not yet attached to anything, and the limit is 20 KB, so this ` +
  'file does not fit. Attach them (save what they belong to) or remove them before uploading ' +
  'more; uploads left unattached are removed after 24 hours.';

describe.skipIf(!available)(`upload limits (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  afterEach(async () => {
    await ctx?.close();
  });

  async function start(env: Record<string, string>) {
    ctx = await createTestApp({
      env,
      beforeReady: (app) => {
        app.files.registerFileOwner('note', { canRead: () => true, canAttach: () => true });
      },
    });
    const person = async (username: string) => {
      const created = await createTestUser(ctx, { username, role: 'student' });
      return { ...created, token: await signIn(ctx.app, username, created.password) };
    };
    return { sam: await person('sam'), kim: await person('kim') };
  }

  function upload(token: string, bytes: number, app = ctx.app) {
    const body = multipartBody('data.bin', randomBytes(bytes));
    return app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
  }

  const filesOf = (userId: string) =>
    ctx.database.db
      .selectFrom('files')
      .select(['id', 'size'])
      .where('uploaded_by', '=', userId)
      .execute();
  const reservations = () =>
    ctx.database.db.selectFrom('upload_reservations').selectAll().execute();
  const objects = () =>
    readdirSync(ctx.filesDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());

  it('holds each person to a rate of uploads, with the seconds to wait (429, Retry-After)', async () => {
    const { sam, kim } = await start({ UPLOAD_RATE_LIMIT: '3', UPLOAD_RATE_WINDOW_SECONDS: '60' });
    for (let i = 0; i < 3; i += 1) expect((await upload(sam.token, 100)).statusCode).toBe(201);

    const refused = await upload(sam.token, 100);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many uploads: at most 3 files in 1 minute. Try again in 60 seconds.',
      details: { retryAfter: 60 },
    });
    expect(refused.headers['retry-after']).toBe('60');
    expect(refused.headers.connection).toBe('close');
    expect(await filesOf(sam.user.id)).toHaveLength(3);

    ctx.clock.advance(45_000);
    const later = await upload(sam.token, 100);
    expect(later.statusCode).toBe(429);
    expect(later.json().message).toBe(
      'Too many uploads: at most 3 files in 1 minute. Try again in 15 seconds.',
    );
    expect(later.headers['retry-after']).toBe('15');
    // Another person has a rate of their own.
    expect((await upload(kim.token, 100)).statusCode).toBe(201);

    // A new window once this one ends; uploads sent at once get no further than the rate.
    ctx.clock.advance(15_000);
    const burst = await Promise.all(Array.from({ length: 8 }, () => upload(sam.token, 100)));
    expect(burst.map((r) => r.statusCode).sort()).toEqual([201, 201, 201, 429, 429, 429, 429, 429]);
    expect(await filesOf(sam.user.id)).toHaveLength(6);
  });

  it('refuses an upload that does not fit in what a person may keep unattached (413)', async () => {
    const { sam, kim } = await start(LIMITS);
    const first = (await upload(sam.token, 8 * KB)).json();
    expect((await upload(sam.token, 8 * KB)).statusCode).toBe(201);

    const refused = await upload(sam.token, 8 * KB);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      code: 'UPLOAD_QUOTA_EXCEEDED',
      message: UNATTACHED_MESSAGE('16 KB'),
      details: { limit: 'unattached', limitBytes: 20 * KB, usedBytes: 16 * KB },
    });
    expect(refused.headers.connection).toBe('close');
    // Nothing of it is kept: no row, no object, no reservation.
    expect(await filesOf(sam.user.id)).toHaveLength(2);
    expect(objects()).toHaveLength(2);
    expect(await reservations()).toEqual([]);

    // What is left still fits, to the byte; then nothing does.
    expect((await upload(sam.token, 4 * KB)).statusCode).toBe(201);
    const full = await upload(sam.token, 1);
    expect(full.statusCode).toBe(413);
    expect(full.json().message).toBe(UNATTACHED_MESSAGE('20 KB'));
    // Each person has limits of their own.
    expect((await upload(kim.token, 8 * KB)).statusCode).toBe(201);

    // Attaching a file, or removing one, makes room.
    await ctx.app.files.attach(sam.user, first.id, { type: 'note', id: 'n1' });
    const fits = (await upload(sam.token, 8 * KB)).json();
    expect((await upload(sam.token, 1)).statusCode).toBe(413);
    const removed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/files/${fits.id}`,
      headers: bearer(sam.token),
    });
    expect(removed.statusCode).toBe(204);
    expect((await upload(sam.token, 8 * KB)).statusCode).toBe(201);
  });

  it('refuses an upload that does not fit in what a person may store in all (413)', async () => {
    const { sam } = await start(LIMITS);
    for (let i = 0; i < 5; i += 1) {
      const file = await upload(sam.token, 8 * KB);
      expect(file.statusCode).toBe(201);
      await ctx.app.files.attach(sam.user, file.json().id, { type: 'note', id: `n${i}` });
    }
    const refused = await upload(sam.token, 1);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      code: 'UPLOAD_QUOTA_EXCEEDED',
      message:
        'Your files take 40 KB of the 40 KB each person may store, so this file does not fit. ' +
        'Remove files you no longer need before uploading more.',
      details: { limit: 'stored', limitBytes: 40 * KB, usedBytes: 40 * KB },
    });
  });

  it('lets only the uploads that fit through when they race (on PostgreSQL, through two instances)', async () => {
    const { sam } = await start(LIMITS);
    // Several instances share a PostgreSQL database. SQLite is one server process; two SQLite
    // connections in one test process would block each other's event loop while waiting for the
    // write lock (better-sqlite3 waits synchronously), so there the uploads race in one instance.
    const second = TEST_DB_KIND === 'postgres' ? await createSecondInstance(ctx, LIMITS) : null;
    try {
      // Six uploads of 8 KB at once, half through each instance: 20 KB holds two of them.
      const answers = await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          upload(sam.token, 8 * KB, i % 2 === 0 || !second ? ctx.app : second.app),
        ),
      );
      expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 413, 413, 413, 413]);
      for (const refused of answers.filter((a) => a.statusCode === 413)) {
        expect(refused.json()).toMatchObject({
          code: 'UPLOAD_QUOTA_EXCEEDED',
          details: { limit: 'unattached', limitBytes: 20 * KB },
        });
      }
    } finally {
      await second?.close();
    }
    const stored = await filesOf(sam.user.id);
    expect(stored.map((f) => Number(f.size))).toEqual([8 * KB, 8 * KB]);
    expect(objects()).toHaveLength(2);
    expect(await reservations()).toEqual([]);
  });

  it('forgets reservations of uploads that died, and removes unattached uploads after the set hours', async () => {
    const { sam } = await start({ ...LIMITS, UPLOAD_UNATTACHED_HOURS: '2' });
    // A process died mid-upload, its reservation left behind.
    const at = new Date(ctx.clock.now()).toISOString();
    await ctx.database.db
      .insertInto('upload_reservations')
      .values({ id: 'lost', user_id: sam.user.id, bytes: 20 * KB, created_at: at })
      .execute();
    const held = await upload(sam.token, 1 * KB);
    expect(held.statusCode).toBe(413);
    expect(held.json().message).toBe(
      UNATTACHED_MESSAGE('20 KB').replace('after 24 hours', 'after 2 hours'),
    );

    ctx.clock.advance(6 * HOUR + 1);
    const token = await signIn(ctx.app, 'sam', sam.password);
    const kept = (await upload(token, 1 * KB)).json();
    expect(await ctx.app.files.cleanupOrphans()).toBe(0);
    expect(await reservations()).toEqual([]);

    // Two hours (UPLOAD_UNATTACHED_HOURS), not a day.
    ctx.clock.advance(2 * HOUR - 1);
    expect(await ctx.app.files.cleanupOrphans()).toBe(0);
    ctx.clock.advance(2);
    expect(await ctx.app.files.cleanupOrphans()).toBe(1);
    expect((await filesOf(sam.user.id)).map((f) => f.id)).not.toContain(kept.id);
    expect(objects()).toEqual([]);
  });

  it('sweeps by itself at start, and never removes a file an attach won, nor keeps one it lost', async () => {
    const { sam } = await start({});
    const uploaded = [];
    for (let i = 0; i < 8; i += 1) uploaded.push((await upload(sam.token, 64)).json());
    // Started before the uploads are old enough: its own sweep at start finds nothing.
    const second = await createSecondInstance(ctx);
    ctx.clock.advance(24 * HOUR + 1);
    let attached: string[] = [];
    try {
      const [outcomes, removedHere, removedThere] = await Promise.all([
        Promise.all(
          uploaded.map((f: { id: string }) =>
            ctx.app.files.attach(sam.user, f.id, { type: 'note', id: f.id }).then(
              () => ({ id: f.id, attached: true }),
              (error: unknown) => {
                expect(error).toMatchObject({ code: 'NOT_FOUND' });
                return { id: f.id, attached: false };
              },
            ),
          ),
        ),
        ctx.app.files.cleanupOrphans(),
        second.app.files.cleanupOrphans(),
      ]);
      attached = outcomes.filter((o) => o.attached).map((o) => o.id);
      expect(removedHere + removedThere).toBe(uploaded.length - attached.length);
    } finally {
      await second.close();
    }
    const rows = await ctx.database.db.selectFrom('files').select(['id', 'owner_id']).execute();
    expect(rows.map((r) => r.id).sort()).toEqual([...attached].sort());
    for (const row of rows) expect(row.owner_id).toBe(row.id);
    expect(objects()).toHaveLength(attached.length);

    // A server that starts sweeps at once (then hourly), without being asked.
    const token = await signIn(ctx.app, 'sam', sam.password);
    const old = (await upload(token, 64)).json();
    ctx.clock.advance(24 * HOUR + 1);
    const third = await createSecondInstance(ctx);
    try {
      await expect
        .poll(async () =>
          (await ctx.database.db.selectFrom('files').select('id').execute()).map((r) => r.id),
        )
        .not.toContain(old.id);
    } finally {
      await third.close();
    }
  });
});
