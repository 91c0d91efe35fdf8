/**
 * The SQLite read pool (read-pool.ts): reads run on other threads, see every committed write,
 * refuse writes and transactions, keep SQLite's error codes, and survive a thread's death.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, withoutThreads, type DatabaseHandle } from './index';
import { readiness, stopThread } from './read-pool';

// SQLite only: once per run, in the SQLite project.
describe.skipIf(process.env.TEST_DB === 'postgres')('the SQLite read pool', () => {
  let dir: string;
  let handle: DatabaseHandle;
  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lh-read-pool-'));
    handle = openDatabase({ kind: 'sqlite', path: join(dir, 'reads.db'), readThreads: 2 });
    await sql`create table notes (id integer primary key, body text not null)`.execute(handle.db);
  });
  afterEach(async () => {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is a pool of its own, and reads what the main connection has committed', async () => {
    expect(handle.reads).not.toBe(handle.db);
    await handle.db
      .insertInto('notes' as never)
      .values({ id: 1, body: 'splice' } as never)
      .execute();
    const { rows } = await sql<{ body: string }>`select body from notes where id = ${1}`.execute(
      handle.reads,
    );
    expect(rows).toEqual([{ body: 'splice' }]);
    // A write committed after a read is in the next read.
    await handle.db
      .insertInto('notes' as never)
      .values({ id: 2, body: 'trace' } as never)
      .execute();
    const after = await sql<{ n: number }>`select count(*) as n from notes`.execute(handle.reads);
    expect(after.rows[0]?.n).toBe(2);
  });

  it('runs a read off the thread that answers requests', async () => {
    // A read of about a few hundred milliseconds: on this thread it would hold the event loop,
    // so the timer set after it could only fire once it was done.
    const order: string[] = [];
    const read =
      sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 1000000)
      select count(*) as c from n`
        .execute(handle.reads)
        .then(() => order.push('read'));
    await new Promise((resolve) => setTimeout(resolve, 0)).then(() => order.push('timer'));
    await read;
    expect(order).toEqual(['timer', 'read']);
  });

  it.runIf(process.platform === 'linux')(
    'runs reads at once on all its threads, below the request thread in the CPU’s queue (nice 10)',
    async () => {
      const niceOf = (tid: string) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        // Fields after the command's closing parenthesis; nice is the 19th field of the line.
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const before = new Set(readdirSync('/proc/self/task'));
      // Four slow reads at once: a second thread starts only when a read waits for the first
      // (Kysely runs an adapter's queries one at a time unless it says it has many connections).
      await Promise.all(
        Array.from({ length: 4 }, () =>
          sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 200000)
            select count(*) as c from n`.execute(handle.reads),
        ),
      );
      const added = readdirSync('/proc/self/task').filter((tid) => !before.has(tid));
      expect(added.map(niceOf)).toEqual([10, 10]);
      expect(niceOf(String(process.pid))).toBe(0);
    },
  );

  it('refuses writes and transactions, and keeps SQLite’s error codes', async () => {
    await expect(
      sql`insert into notes (id, body) values (3, 'x')`.execute(handle.reads),
    ).rejects.toThrow(/only statements that return rows/);
    await expect(
      sql`insert into notes (id, body) values (3, 'x') returning id`.execute(handle.reads),
    ).rejects.toMatchObject({ code: expect.stringMatching(/^SQLITE_READONLY/) });
    await expect(sql`select * from nowhere`.execute(handle.reads)).rejects.toMatchObject({
      code: 'SQLITE_ERROR',
      message: expect.stringContaining('no such table'),
    });
    await expect(handle.reads.transaction().execute(async () => undefined)).rejects.toThrow(
      /single reads/,
    );
    // Still answering after the refusals.
    const { rows } = await sql<{ one: number }>`select 1 as one`.execute(handle.reads);
    expect(rows).toEqual([{ one: 1 }]);
  });

  it('runs many reads at once on its threads, each answered with its own rows', async () => {
    await handle.db
      .insertInto('notes' as never)
      .values(Array.from({ length: 50 }, (_, i) => ({ id: i + 1, body: `note ${i + 1}` })) as never)
      .execute();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        sql<{ body: string }>`select body from notes where id = ${i + 1}`.execute(handle.reads),
      ),
    );
    expect(answers.map((a) => a.rows[0]?.body)).toEqual(
      Array.from({ length: 50 }, (_, i) => `note ${i + 1}`),
    );
  });

  it('checkpoints the WAL on a thread of its own, not in the commits', async () => {
    const path = join(dir, 'checkpoints.db');
    const own = openDatabase({ kind: 'sqlite', path, checkpointThread: true });
    try {
      const { rows } = await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(
        own.db,
      );
      expect(rows[0]?.wal_autocheckpoint).toBe(0);
      await sql`create table pages (id integer primary key, body text not null)`.execute(own.db);
      for (let i = 0; i < 20; i += 1) {
        await sql`insert into pages (body) select hex(randomblob(512)) from (
            with recursive n(i) as (select 1 union all select i + 1 from n where i < 100)
            select i from n)`.execute(own.db);
      }
      // About 2 MB went to the WAL; the database file only grows when pages are copied into it.
      for (let tries = 0; statSync(path).size < 1_000_000 && tries < 100; tries += 1) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(statSync(path).size).toBeGreaterThan(1_000_000);
    } finally {
      await own.close();
    }
  });

  it('is the database itself in memory and on request (no threads)', async () => {
    const memory = openDatabase({ kind: 'sqlite', path: ':memory:', readThreads: 2 });
    const none = openDatabase({ kind: 'sqlite', path: join(dir, 'none.db'), readThreads: 0 });
    try {
      expect(memory.reads).toBe(memory.db);
      expect(none.reads).toBe(none.db);
    } finally {
      await memory.close();
      await none.close();
    }
  });

  it('stops a thread only once it has started (a thread stopped while it loads SQLite kills the process)', async () => {
    // A thread that takes 200 ms to start, as one loading better-sqlite3 on a busy machine does.
    const worker = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const until = Date.now() + 200;
       while (Date.now() < until);
       parentPort.postMessage({ ready: true });
       setInterval(() => {}, 1000);`,
      { eval: true },
    );
    const said: unknown[] = [];
    worker.on('message', (message) => said.push(message));
    const ready = readiness(worker);
    await stopThread(worker, ready);
    expect(said).toEqual([{ ready: true }]);
    expect(worker.threadId).toBe(-1); // stopped
  });

  it('leaves the short-lived commands without threads', () => {
    expect(
      withoutThreads({ kind: 'sqlite', path: 'x.db', readThreads: 4, checkpointThread: true }),
    ).toEqual({
      kind: 'sqlite',
      path: 'x.db',
      readThreads: 0,
      checkpointThread: false,
    });
  });
});
