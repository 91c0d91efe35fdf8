/**
 * The process pool on real child processes (test-worker.ts): tasks answered over IPC, a child
 * killed for its memory (held outside the V8 heap) or its time and replaced, the queue first in
 * first out, a task's signal, and no child left behind when the pool closes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProcessPool, TaskFailed, TaskStopped } from './process-pool';
import { sourceEntry } from './source-entry';
import type { testTasks } from './test-worker';

const MB = 1024 * 1024;

/** Whether process `pid` still exists. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('process pool', { timeout: 60_000 }, () => {
  let dir: string;
  let pool: ProcessPool<typeof testTasks>;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'lh-pool-'));
    pool = new ProcessPool<typeof testTasks>({
      entry: sourceEntry(new URL('./test-worker.ts', import.meta.url)),
      size: 1,
      maxRssBytes: 160 * MB,
      tempDir: dir,
    });
  });
  afterEach(async () => {
    const pids = pool.pids;
    await pool.close();
    expect(pool.pids).toEqual([]);
    for (const pid of pids) expect(alive(pid)).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  });

  it('runs tasks in one reused child, with Buffers over IPC and the task’s own errors', async () => {
    const run = { timeoutMs: 30_000 };
    const bytes = Buffer.alloc(3 * MB, 7);
    expect(await pool.run('test.echo', { bytes, text: 'splice' }, run)).toEqual({
      length: 3 * MB,
      text: 'SPLICE',
    });
    const [pid] = pool.pids;
    expect(pid).not.toBe(process.pid);
    const failed = await pool.run('test.throw', { message: 'no such page' }, run).catch((e) => e);
    expect(failed).toBeInstanceOf(TaskFailed);
    expect(failed).toMatchObject({ name: 'RangeError', message: 'no such page' });
    expect(await pool.run('test.echo', { bytes: Buffer.from('x'), text: 'a' }, run)).toEqual({
      length: 1,
      text: 'A',
    });
    expect(pool.pids).toEqual([pid]);
  });

  it('kills a child past its memory cap, and the next task gets a new child', async () => {
    await pool.run('test.echo', { bytes: Buffer.from('x'), text: 'a' }, { timeoutMs: 30_000 });
    const [first] = pool.pids;
    const before = process.memoryUsage.rss();
    const error = await pool.run('test.grow', {}, { timeoutMs: 60_000 }).catch((e) => e);
    expect(error).toBeInstanceOf(TaskStopped);
    expect(error).toMatchObject({ reason: 'memory', limit: 160 * MB });
    expect((error as Error).message).toBe(
      'The task needed more memory than allowed (over 160 MB).',
    );
    expect(alive(first as number)).toBe(false);
    // The memory was the child's, not this process's.
    expect(process.memoryUsage.rss() - before).toBeLessThan(100 * MB);
    const next = { bytes: Buffer.from('y'), text: 'b' };
    expect(await pool.run('test.echo', next, { timeoutMs: 30_000 })).toEqual({
      length: 1,
      text: 'B',
    });
    expect(pool.pids).toHaveLength(1);
    expect(pool.pids).not.toContain(first);
  });

  it('kills a child past the task’s time, queues in order, and follows a task’s signal', async () => {
    await pool.run('test.echo', { bytes: Buffer.from('x'), text: 'a' }, { timeoutMs: 30_000 });
    const [first] = pool.pids;
    const order: string[] = [];
    // A child stuck on the CPU (its own event loop blocked) is stopped at its time limit.
    const spinning = pool.run('test.spin', {}, { timeoutMs: 300 }).catch((e) => e);
    // Queued behind it, in order; the middle one is withdrawn while it waits.
    const withdraw = new AbortController();
    const queued = pool
      .run(
        'test.echo',
        { bytes: Buffer.from('1'), text: 'one' },
        {
          timeoutMs: 30_000,
          signal: withdraw.signal,
        },
      )
      .catch((e) => e);
    const second = pool
      .run('test.echo', { bytes: Buffer.from('2'), text: 'two' }, { timeoutMs: 30_000 })
      .then((r) => order.push(r.text));
    const third = pool
      .run('test.echo', { bytes: Buffer.from('3'), text: 'three' }, { timeoutMs: 30_000 })
      .then((r) => order.push(r.text));
    withdraw.abort(new Error('withdrawn'));
    expect(await queued).toMatchObject({ message: 'withdrawn' });
    const stopped = await spinning;
    expect(stopped).toBeInstanceOf(TaskStopped);
    expect(stopped).toMatchObject({ reason: 'time', message: 'The task took longer than 0.3 s.' });
    expect(alive(first as number)).toBe(false);
    await Promise.all([second, third]);
    expect(order).toEqual(['TWO', 'THREE']);

    // A running task's signal kills its child.
    const [runner] = pool.pids;
    const stop = new AbortController();
    const running = pool.run('test.spin', {}, { timeoutMs: 30_000, signal: stop.signal });
    setTimeout(() => stop.abort(new Error('server stopping')), 200);
    await expect(running).rejects.toThrow('server stopping');
    expect(alive(runner as number)).toBe(false);
  });

  it('rejects the task of a child that dies, and refuses work once closed', async () => {
    const died = await pool.run('test.exit', {}, { timeoutMs: 30_000 }).catch((e) => e);
    expect(died).toBeInstanceOf(TaskStopped);
    expect(died).toMatchObject({ reason: 'exit', message: expect.stringContaining('exit code 3') });
    const waiting = pool.run('test.spin', {}, { timeoutMs: 30_000 }).catch((e) => e);
    const queued = pool
      .run('test.echo', { bytes: Buffer.from('x'), text: 'a' }, { timeoutMs: 1 })
      .catch((e) => e);
    const pids = pool.pids;
    await pool.close();
    expect(await waiting).toMatchObject({ message: 'The content workers are shut down.' });
    expect(await queued).toMatchObject({ message: 'The content workers are shut down.' });
    for (const pid of pids) expect(alive(pid)).toBe(false);
    await expect(
      pool.run('test.echo', { bytes: Buffer.from('x'), text: 'a' }, { timeoutMs: 1000 }),
    ).rejects.toThrow('shut down');
  });
});
