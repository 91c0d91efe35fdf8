/**
 * A pool of child processes for CPU- and memory-heavy work that must not run on the thread that
 * answers requests (docs/jobs.md, "Where the work runs"). A child runs one named task at a time
 * from its task table (content-tasks.ts for the server's own); the parent
 *
 * - keeps at most `size` children, started when first needed and reused;
 * - queues tasks first in, first out while all children are busy;
 * - caps each child's memory twice: `--max-old-space-size` for the V8 heap, and a watchdog that
 *   reads the child's resident set from /proc every `watchIntervalMs` and kills it (SIGKILL) past
 *   `maxRssBytes` — the external memory of ArrayBuffers (an inflated PDF stream) is not on the
 *   V8 heap, so only the watchdog stops a decompression bomb;
 * - kills a child whose task runs past its `timeoutMs`, or whose task's `signal` aborts;
 * - runs the children at a lower priority (nice 10), so requests get the CPU first;
 * - replaces a killed or dead child when the next task needs one.
 *
 * Why processes and not worker_threads: a thread's `resourceLimits` cap only its V8 heap, and a
 * thread's ArrayBuffers are the server's own memory, which a killed thread does not give back.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, rm } from 'node:fs/promises';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import { formatBytes } from '../platform/storage/file-store';

/** A task table: task names and their functions (run in the child). */
export type TaskTable = Record<string, (input: never) => Promise<unknown>>;

export type TaskInput<T extends TaskTable, K extends keyof T> = Parameters<T[K]>[0];
export type TaskOutput<T extends TaskTable, K extends keyof T> = Awaited<ReturnType<T[K]>>;

/** What the parent sends a child, and what the child answers. */
export type ToChild = { id: number; task: string; input: unknown };
export type FromChild =
  | { ready: true }
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; name: string; message: string };

/** Why a task was stopped from outside: the child was killed (or died) while running it. */
export type TaskStop = 'memory' | 'time' | 'exit';

/**
 * A task whose child was killed for its memory or its time, or died under it. Deterministic for
 * `memory` and `time`: the same input ends the same way (a caller does not retry it).
 */
export class TaskStopped extends Error {
  override name = 'TaskStopped';
  constructor(
    readonly reason: TaskStop,
    message: string,
    /** The limit that was passed: bytes for `memory`, ms for `time`. */
    readonly limit: number,
  ) {
    super(message);
  }
}

/** The error a task threw in the child, rebuilt in the parent (its name and message). */
export class TaskFailed extends Error {
  constructor(name: string, message: string) {
    super(message);
    this.name = name;
  }
}

export interface ProcessPoolOptions {
  /**
   * The child's module (JavaScript, run by plain Node.js), or how to get it: a function called
   * once, when the first child is started (e.g. to bundle it from TypeScript source).
   */
  entry: URL | (() => Promise<URL>);
  /** Children at most (default 1). */
  size?: number;
  /** A child whose resident set passes this is killed (default 512 MB). */
  maxRssBytes?: number;
  /** How often the watchdog reads the children's memory (default 50 ms). */
  watchIntervalMs?: number;
  /** A child not ready this long after it was started is killed (default 30 s). */
  startTimeoutMs?: number;
  /** Where files handed to children are written (`withFile`). */
  tempDir: string;
  log?: FastifyBaseLogger;
}

export interface RunOptions {
  /** The task's time limit once a child has it; past it the child is killed. */
  timeoutMs: number;
  /** Aborting removes the task from the queue, or kills the child running it. */
  signal?: AbortSignal | undefined;
}

interface Task {
  name: string;
  input: unknown;
  options: RunOptions;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  onAbort?: () => void;
}

interface Worker {
  child: ChildProcess;
  pid: number;
  ready: boolean;
  task: Task | undefined;
  taskId: number;
  timer: NodeJS.Timeout | undefined;
  /** Why the pool killed it (the error its task rejects with), if it did. */
  killedFor: Error | undefined;
  exited: Promise<void>;
}

const MB = 1024 * 1024;

/** The children's niceness (Unix: 0 normal, 19 lowest). */
const CHILD_NICENESS = 10;

/** Resident set of `pid` in bytes (/proc/<pid>/statm on Linux), or null elsewhere or gone. */
async function rssOf(pid: number): Promise<number | null> {
  try {
    const statm = await readFile(`/proc/${pid}/statm`, 'latin1');
    const pages = Number(statm.split(' ')[1]);
    return Number.isFinite(pages) ? pages * 4096 : null;
  } catch {
    return null;
  }
}

export class ProcessPool<T extends TaskTable> {
  readonly #entry: URL | (() => Promise<URL>);
  #entryUrl: Promise<URL> | undefined;
  #resolved: URL | undefined;
  readonly #size: number;
  readonly #maxRssBytes: number;
  readonly #watchIntervalMs: number;
  readonly #startTimeoutMs: number;
  readonly #tempDir: string;
  readonly #log: FastifyBaseLogger | undefined;
  readonly #workers = new Set<Worker>();
  readonly #queue: Task[] = [];
  #nextId = 1;
  #closed = false;
  #watch: NodeJS.Timeout | undefined;
  #watching = false;

  constructor(options: ProcessPoolOptions) {
    this.#entry = options.entry;
    this.#size = Math.max(1, options.size ?? 1);
    this.#maxRssBytes = options.maxRssBytes ?? 512 * MB;
    this.#watchIntervalMs = options.watchIntervalMs ?? 50;
    this.#startTimeoutMs = options.startTimeoutMs ?? 30_000;
    this.#tempDir = options.tempDir;
    this.#log = options.log;
  }

  /** The memory cap of a child, in bytes. */
  get maxRssBytes(): number {
    return this.#maxRssBytes;
  }

  /** The process ids of the children now running (for tests and the health page). */
  get pids(): number[] {
    return [...this.#workers].map((w) => w.pid);
  }

  /**
   * Runs task `name` on `input` in a child. Rejects with TaskStopped when the child is killed
   * for its memory or time (or dies), TaskFailed with the task's own error, the signal's reason
   * when it aborts, and an Error when the pool is closed.
   */
  run<K extends keyof T & string>(
    name: K,
    input: TaskInput<T, K>,
    options: RunOptions,
  ): Promise<TaskOutput<T, K>> {
    return new Promise<unknown>((resolve, reject) => {
      if (this.#closed) return reject(new Error('The content workers are shut down.'));
      const { signal } = options;
      if (signal?.aborted) return reject(signal.reason as Error);
      const task: Task = { name, input, options, resolve, reject };
      if (signal) {
        task.onAbort = () => this.#abort(task);
        signal.addEventListener('abort', task.onAbort, { once: true });
      }
      this.#queue.push(task);
      if (this.#resolved) return this.#dispatch();
      const entry = this.#entry;
      this.#entryUrl ??= entry instanceof URL ? Promise.resolve(entry) : entry();
      this.#entryUrl.then(
        (url) => {
          this.#resolved = url;
          this.#dispatch();
        },
        (error: unknown) => {
          this.#entryUrl = undefined;
          this.#log?.error({ err: error }, 'content worker: its module could not be made');
          this.#failQueued(error);
        },
      );
    }) as Promise<TaskOutput<T, K>>;
  }

  /**
   * Writes `stream` to a new file in the pool's temporary directory, calls `use` with its path
   * (to hand to a task) and removes the file afterwards, whatever happened.
   */
  async withFile<R>(stream: Readable, use: (path: string) => Promise<R>): Promise<R> {
    await mkdir(this.#tempDir, { recursive: true });
    const path = join(this.#tempDir, `${randomUUID()}.tmp`);
    try {
      await pipeline(stream, createWriteStream(path, { flags: 'wx' }));
      return await use(path);
    } finally {
      await rm(path, { force: true });
    }
  }

  /** Rejects the queued tasks, kills every child and waits until they have gone. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#watch);
    for (const task of this.#queue.splice(0)) {
      this.#settle(task);
      task.reject(new Error('The content workers are shut down.'));
    }
    const exits = [...this.#workers].map((worker) => {
      this.#kill(worker, new Error('The content workers are shut down.'));
      return worker.exited;
    });
    await Promise.all(exits);
  }

  #dispatch(): void {
    while (!this.#closed && this.#queue.length > 0) {
      let worker = [...this.#workers].find((w) => !w.task && !w.killedFor);
      if (!worker) {
        if (this.#workers.size >= this.#size) return;
        worker = this.#spawn();
        if (!worker) return;
      }
      const task = this.#queue.shift() as Task;
      worker.task = task;
      if (worker.ready) this.#send(worker);
    }
  }

  #spawn(): Worker | undefined {
    if (!this.#resolved) return undefined;
    const execArgv = [`--max-old-space-size=${Math.max(16, Math.floor(this.#maxRssBytes / MB))}`];
    let child: ChildProcess;
    try {
      child = fork(this.#resolved, [], {
        execArgv,
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
    } catch (error) {
      this.#failQueued(error);
      return undefined;
    }
    let exited!: () => void;
    const worker: Worker = {
      child,
      pid: child.pid ?? -1,
      ready: false,
      task: undefined,
      taskId: 0,
      timer: undefined,
      killedFor: undefined,
      exited: new Promise<void>((resolve) => (exited = resolve)),
    };
    this.#workers.add(worker);
    worker.timer = setTimeout(
      () => this.#kill(worker, new Error('The content worker did not start.')),
      this.#startTimeoutMs,
    );
    child.on('message', (message: FromChild) => this.#onMessage(worker, message));
    let gone = false;
    const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
      if (gone) return;
      gone = true;
      this.#onExit(worker, code, signal);
      exited();
    };
    child.on('error', (error) => {
      this.#log?.error({ err: error, pid: worker.pid }, 'content worker: process error');
      worker.killedFor ??= error;
      // A child that could not be started at all sends no 'exit'.
      if (child.pid === undefined) onExit(null, null);
      else this.#kill(worker, error);
    });
    child.once('exit', onExit);
    if (child.pid === undefined) {
      this.#kill(worker, new Error('The content worker did not start.'));
    } else {
      // Below the server in the scheduler's eyes: on a busy machine requests get the CPU first.
      try {
        setPriority(child.pid, CHILD_NICENESS);
      } catch {
        // not allowed here (some containers): the child runs at the server's priority
      }
    }
    this.#startWatch();
    return worker;
  }

  #send(worker: Worker): void {
    const task = worker.task;
    if (!task) return;
    worker.taskId = this.#nextId++;
    clearTimeout(worker.timer);
    worker.timer = setTimeout(() => {
      const seconds = Math.round(task.options.timeoutMs / 100) / 10;
      this.#kill(
        worker,
        new TaskStopped('time', `The task took longer than ${seconds} s.`, task.options.timeoutMs),
      );
    }, task.options.timeoutMs);
    const message: ToChild = { id: worker.taskId, task: task.name, input: task.input };
    try {
      worker.child.send(message, (error) => {
        if (error) this.#kill(worker, error);
      });
    } catch (error) {
      this.#kill(worker, error as Error);
    }
  }

  #onMessage(worker: Worker, message: FromChild): void {
    if ('ready' in message) {
      worker.ready = true;
      clearTimeout(worker.timer);
      worker.timer = undefined;
      if (worker.task) this.#send(worker);
      else this.#dispatch();
      return;
    }
    const task = worker.task;
    if (!task || message.id !== worker.taskId || worker.killedFor) return;
    clearTimeout(worker.timer);
    worker.timer = undefined;
    worker.task = undefined;
    this.#settle(task);
    if (message.ok) task.resolve(message.value);
    else task.reject(new TaskFailed(message.name, message.message));
    void this.#afterTask(worker);
  }

  /** A child that kept much of a large task's memory is retired rather than reused. */
  async #afterTask(worker: Worker): Promise<void> {
    const rss = await rssOf(worker.pid);
    if (rss !== null && rss > this.#maxRssBytes * 0.75 && !worker.task) {
      this.#kill(worker, new Error('retired'));
    }
    this.#dispatch();
  }

  #onExit(worker: Worker, code: number | null, signal: NodeJS.Signals | null): void {
    clearTimeout(worker.timer);
    this.#workers.delete(worker);
    const task = worker.task;
    worker.task = undefined;
    if (task) {
      this.#settle(task);
      // V8 aborts the process when its heap is full (--max-old-space-size).
      const heapFull = signal === 'SIGABRT' || code === 134;
      task.reject(
        worker.killedFor ??
          (heapFull
            ? this.#memoryError()
            : new TaskStopped(
                'exit',
                `The worker stopped unexpectedly (${signal ?? `exit code ${code}`}).`,
                0,
              )),
      );
    } else if (!worker.ready && !worker.killedFor && !this.#closed) {
      // It could not start at all: fail what waits rather than start children forever.
      this.#failQueued(new Error(`The content worker could not start (exit code ${code}).`));
    }
    if (this.#workers.size === 0) {
      clearInterval(this.#watch);
      this.#watch = undefined;
    }
    this.#dispatch();
  }

  #memoryError(): TaskStopped {
    return new TaskStopped(
      'memory',
      `The task needed more memory than allowed (over ${formatBytes(this.#maxRssBytes)}).`,
      this.#maxRssBytes,
    );
  }

  #kill(worker: Worker, why: Error): void {
    worker.killedFor ??= why;
    if (worker.child.exitCode !== null || worker.child.signalCode !== null) return;
    try {
      worker.child.kill('SIGKILL');
    } catch (error) {
      this.#log?.error({ err: error, pid: worker.pid }, 'content worker: could not kill');
    }
  }

  #abort(task: Task): void {
    const queued = this.#queue.indexOf(task);
    const reason = task.options.signal?.reason as Error;
    if (queued >= 0) {
      this.#queue.splice(queued, 1);
      this.#settle(task);
      task.reject(reason);
      return;
    }
    const worker = [...this.#workers].find((w) => w.task === task);
    if (worker) this.#kill(worker, reason);
  }

  #settle(task: Task): void {
    if (task.onAbort) task.options.signal?.removeEventListener('abort', task.onAbort);
  }

  #failQueued(error: unknown): void {
    for (const task of this.#queue.splice(0)) {
      this.#settle(task);
      task.reject(error);
    }
  }

  /** The memory watchdog: while there are children, reads each one's resident set. */
  #startWatch(): void {
    if (this.#watch) return;
    this.#watch = setInterval(() => void this.#check(), this.#watchIntervalMs);
    this.#watch.unref();
  }

  async #check(): Promise<void> {
    if (this.#watching) return;
    this.#watching = true;
    try {
      await Promise.all(
        [...this.#workers].map(async (worker) => {
          const rss = await rssOf(worker.pid);
          if (rss !== null && rss > this.#maxRssBytes) this.#kill(worker, this.#memoryError());
        }),
      );
    } finally {
      this.#watching = false;
    }
  }
}
