/**
 * A read thread of the SQLite read pool (read-pool.ts, docs/architecture.md "Where work runs"):
 * its own read-only connection to the database file, running the SELECTs the request thread
 * compiled and sends it, one at a time. Loaded as it is (Node strips the types) from the source
 * tree, and as `dist/read-worker.js` from the build; so it imports nothing of the project.
 */
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';

interface ReadWorkerData {
  path: string;
  /** 'checkpoint': this thread copies the WAL into the database file instead (see below). */
  role?: 'read' | 'checkpoint';
  /** How often the checkpoint thread checkpoints. */
  everyMs?: number;
}

interface ReadRequest {
  id: number;
  sql: string;
  parameters: readonly unknown[];
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Below the request thread in the CPU's queue (nice 10): on a busy machine the thread that
 * answers every request runs first, and an expensive read waits a little instead. Linux keeps a
 * nice value per thread (its id is under /proc/thread-self); elsewhere this does nothing.
 */
function lowerThisThreadsPriority(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}

lowerThisThreadsPriority();

const { path, role = 'read', everyMs = 100 } = workerData as ReadWorkerData;

if (role === 'checkpoint') {
  // The WAL checkpoint, off the request thread: the main connection's automatic one copied a
  // thousand pages into the database file inside whichever commit crossed the mark, holding the
  // event loop for 6–40 ms. Here a passive checkpoint (it never waits for, nor blocks, the writer
  // or the readers) runs on its own connection every `everyMs`.
  const writer = new Database(path, { fileMustExist: true });
  writer.pragma('busy_timeout = 0');
  setInterval(() => {
    try {
      writer.pragma('wal_checkpoint(PASSIVE)');
    } catch {
      // Busy (another connection checkpoints): the next turn tries again.
    }
  }, everyMs);
}

const database =
  role === 'read' ? new Database(path, { readonly: true, fileMustExist: true }) : null;
database?.pragma('busy_timeout = 5000');
database?.pragma('query_only = ON');

/** Prepared statements by SQL text (least recently used dropped first), as on the main connection. */
const statements = new Map<string, Database.Statement>();

function prepare(sqlText: string): Database.Statement {
  const cached = statements.get(sqlText);
  if (cached) {
    statements.delete(sqlText);
    statements.set(sqlText, cached);
    return cached;
  }
  const statement = (database as Database.Database).prepare(sqlText);
  statements.set(sqlText, statement);
  if (statements.size > STATEMENT_CACHE_SIZE) {
    statements.delete(statements.keys().next().value as string);
  }
  return statement;
}

/** Structured clone turns a Buffer into a Uint8Array; better-sqlite3 binds Buffers. */
const bindable = (value: unknown) =>
  value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value) : value;

// Told once the connection is open: a thread stopped while it still loads better-sqlite3's native
// module takes the whole process down (napi's fatal error), so stopping waits for this.
parentPort?.postMessage({ ready: true });

parentPort?.on('message', (request: ReadRequest) => {
  try {
    const statement = prepare(request.sql);
    if (!statement.reader) {
      throw Object.assign(new Error('The read pool runs only statements that return rows.'), {
        code: 'READ_POOL_NOT_A_READ',
      });
    }
    const rows = statement.all(request.parameters.map(bindable));
    parentPort?.postMessage({ id: request.id, rows });
  } catch (error) {
    const { message, code, name } = error as { message?: string; code?: unknown; name?: string };
    parentPort?.postMessage({
      id: request.id,
      error: {
        message: message ?? String(error),
        name: name ?? 'Error',
        ...(typeof code === 'string' ? { code } : {}),
      },
    });
  }
});
