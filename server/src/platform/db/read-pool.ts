/**
 * The SQLite read pool (docs/architecture.md, "Where work runs"): a `Db` whose queries run on
 * worker threads, each with its own read-only connection to the same database file, so the
 * expensive reads (search, the library list, the catalogue, the department page) use the
 * machine's other cores and the thread that answers requests only compiles the query and reads
 * the rows it gets back. SQLite in WAL mode lets readers run beside the one writer; a read sees
 * every transaction committed before it started, so a write a caller was told about is always
 * in what it reads next.
 *
 * Only single statements that return rows run here: no transactions (a read that must see its
 * own uncommitted writes uses the transaction it is in) and no writes (the connections are
 * read-only). Threads start on the first query and are replaced when one dies.
 */
import { Worker } from 'node:worker_threads';
import type { CompiledQuery } from 'kysely';
import {
  Kysely,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryResult,
} from 'kysely';
import type { Database } from './schema';

interface Pending {
  id: number;
  sql: string;
  parameters: readonly unknown[];
  resolve: (rows: unknown[]) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  busy: Pending | null;
  /** Settles when the thread has opened its connection, or has stopped. */
  ready: Promise<void>;
}

type ReadReply =
  | { ready: true }
  | { id: number; rows: unknown[] }
  | { id: number; error: { message: string; name: string; code?: string } };

/** How long stopping a thread waits for it to finish starting. */
const START_WAIT_MS = 10_000;

/**
 * Resolves once `worker` says it is ready (its first message) or stops. A thread terminated
 * while it is still loading better-sqlite3's native module takes the whole process down with a
 * fatal napi error (it happened to the admin command line), so a thread is only ever stopped
 * once this has settled.
 */
export function readiness(worker: Worker): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      worker.off('message', done);
      worker.off('exit', done);
      worker.off('error', done);
      resolve();
    };
    const timer = setTimeout(done, START_WAIT_MS);
    timer.unref();
    worker.once('message', done);
    worker.once('exit', done);
    worker.once('error', done);
  });
}

/** Stops `worker` once it has finished starting (see readiness). */
export async function stopThread(worker: Worker, ready: Promise<void>): Promise<void> {
  worker.ref(); // the process stays up until it has stopped
  await ready;
  await worker.terminate();
}

/** The read thread's file: the source beside this one, or the build's `read-worker.js`. */
function workerUrl(): URL {
  const source = import.meta.url.endsWith('.ts');
  return new URL(source ? './read-worker.ts' : './read-worker.js', import.meta.url);
}

/** An error a read thread sent back, with SQLite's code (e.g. SQLITE_BUSY) kept. */
function readError(sent: { message: string; name: string; code?: string }): Error {
  return Object.assign(new Error(sent.message), {
    name: sent.name,
    ...(sent.code ? { code: sent.code } : {}),
  });
}

/** A fixed number of read threads over one database file, with a queue of waiting reads. */
export class ReadThreads {
  readonly #path: string;
  readonly #size: number;
  readonly #slots: Slot[] = [];
  readonly #queue: Pending[] = [];
  #nextId = 1;
  #closed = false;

  constructor(path: string, size: number) {
    this.#path = path;
    this.#size = Math.max(1, size);
  }

  /** Reads waiting for a thread (for tests and the admin's system page). */
  get waiting(): number {
    return this.#queue.length;
  }

  run(sqlText: string, parameters: readonly unknown[]): Promise<unknown[]> {
    if (this.#closed) return Promise.reject(new Error('The read pool is closed.'));
    return new Promise((resolve, reject) => {
      this.#queue.push({ id: this.#nextId++, sql: sqlText, parameters, resolve, reject });
      this.#dispatch();
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    const closed = new Error('The read pool is closed.');
    for (const pending of this.#queue.splice(0)) pending.reject(closed);
    const slots = this.#slots.splice(0);
    await Promise.all(
      slots.map(async (slot) => {
        slot.busy?.reject(closed);
        slot.busy = null;
        await stopThread(slot.worker, slot.ready);
      }),
    );
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      let slot = this.#slots.find((s) => s.busy === null);
      if (!slot && this.#slots.length < this.#size) slot = this.#spawn();
      if (!slot) return;
      const next = this.#queue.shift() as Pending;
      slot.busy = next;
      slot.worker.ref();
      slot.worker.postMessage({ id: next.id, sql: next.sql, parameters: next.parameters });
    }
  }

  #spawn(): Slot {
    const worker = new Worker(workerUrl(), { workerData: { path: this.#path } });
    const slot: Slot = { worker, busy: null, ready: readiness(worker) };
    // An idle read thread does not keep the process alive (the pool is closed with the
    // database); a busy one does, until its reply is in.
    worker.unref();
    worker.on('message', (reply: ReadReply) => {
      if ('ready' in reply) return;
      const pending = slot.busy;
      if (!pending || pending.id !== reply.id) return;
      slot.busy = null;
      slot.worker.unref();
      if ('error' in reply) pending.reject(readError(reply.error));
      else pending.resolve(reply.rows);
      this.#dispatch();
    });
    const lost = (error: Error) => {
      const index = this.#slots.indexOf(slot);
      if (index === -1) return;
      this.#slots.splice(index, 1);
      slot.busy?.reject(error);
      slot.busy = null;
      if (!this.#closed) this.#dispatch();
    };
    worker.on('error', (error) => lost(error));
    worker.on('exit', (code) => lost(new Error(`A read thread stopped (exit code ${code}).`)));
    this.#slots.push(slot);
    return slot;
  }
}

class ReadPoolConnection implements DatabaseConnection {
  constructor(private readonly threads: ReadThreads) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const rows = await this.threads.run(compiled.sql, compiled.parameters);
    return { rows: rows as R[] };
  }

  // eslint-disable-next-line require-yield
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The read pool does not stream; use the main connection.');
  }
}

const NO_TRANSACTIONS =
  'The read pool runs single reads; a transaction belongs on the main connection.';

class ReadPoolDriver implements Driver {
  readonly #connection: ReadPoolConnection;

  constructor(private readonly threads: ReadThreads) {
    this.#connection = new ReadPoolConnection(threads);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return this.#connection;
  }

  beginTransaction(): Promise<void> {
    return Promise.reject(new Error(NO_TRANSACTIONS));
  }

  commitTransaction(): Promise<void> {
    return Promise.reject(new Error(NO_TRANSACTIONS));
  }

  rollbackTransaction(): Promise<void> {
    return Promise.reject(new Error(NO_TRANSACTIONS));
  }

  async releaseConnection(): Promise<void> {}

  async destroy(): Promise<void> {
    await this.threads.close();
  }
}

/**
 * SQLite's adapter, but with many connections: Kysely runs the queries of an adapter that has one
 * connection one at a time (a mutex per database), which here would leave all threads but one
 * idle. Each read runs on its own, so they may overlap.
 */
class ReadPoolAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true;
  }
}

class ReadPoolDialect implements Dialect {
  constructor(private readonly threads: ReadThreads) {}

  createAdapter() {
    return new ReadPoolAdapter();
  }

  createDriver(): Driver {
    return new ReadPoolDriver(this.threads);
  }

  createQueryCompiler() {
    return new SqliteQueryCompiler();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}

/**
 * Starts the thread that checkpoints the WAL of `path` (read-worker.ts, role 'checkpoint'), for a
 * main connection whose automatic checkpoint is off. `onStop` is called if it stops by itself (the
 * caller turns the automatic checkpoint back on); `stop()` ends it.
 */
export function startCheckpointThread(
  path: string,
  onStop: (error: Error) => void,
): { stop(): Promise<void> } {
  const worker = new Worker(workerUrl(), { workerData: { path, role: 'checkpoint' } });
  const ready = readiness(worker);
  worker.unref();
  let stopping = false;
  const stopped = (error: Error) => {
    if (!stopping) onStop(error);
    stopping = true;
  };
  worker.on('error', stopped);
  worker.on('exit', (code) =>
    stopped(new Error(`The checkpoint thread stopped (exit code ${code}).`)),
  );
  return {
    async stop() {
      stopping = true;
      await stopThread(worker, ready);
    },
  };
}

/** A `Db` over `threads` read threads of the SQLite file `path`; destroy() stops them. */
export function openReadPool(path: string, threads: number): Kysely<Database> {
  return new Kysely<Database>({ dialect: new ReadPoolDialect(new ReadThreads(path, threads)) });
}
