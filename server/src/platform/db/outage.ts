/**
 * What the server does while its database is away (docs/architecture.md, "Faults"): it keeps
 * answering. Every part that meets a connection-level failure (isDatabaseUnavailable) tells this
 * one watcher instead of logging it: a request answered 503, a background-job poll, an idle
 * connection the server ended, the hourly clean-up. The watcher logs the first failure of an
 * outage once, then looks (`select 1`, every second) until the database answers again and logs
 * that once, with how long it was away and how many failures it absorbed. Nothing is refused on
 * its word: every request still tries the database, so service resumes with the first query that
 * gets through.
 */
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseReachable, postgresPool, type Db } from '.';
import { isDatabaseUnavailable } from './errors';

/** How often the watcher looks whether the database is back, during an outage. */
const PROBE_INTERVAL_MS = 1_000;

export class DatabaseOutage {
  #since: number | null = null;
  #failures = 0;
  #timer: NodeJS.Timeout | undefined;
  #probing = false;
  #closed = false;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
    private readonly probeIntervalMs = PROBE_INTERVAL_MS,
  ) {
    // An idle connection the server ended (a restart) is dropped by the pool (db/index.ts).
    postgresPool(db)?.on('error', (error) => this.report(error, 'an idle database connection'));
  }

  /** Whether an outage is under way (from its first failure until `select 1` answers again). */
  get down(): boolean {
    return this.#since !== null;
  }

  /**
   * Records `error` from `where` if it is a connection-level failure (and returns true): logged
   * when it is the first of an outage, counted otherwise. Other errors are left to the caller.
   */
  report(error: unknown, where: string): boolean {
    if (!isDatabaseUnavailable(error)) return false;
    this.#failures += 1;
    if (this.#since !== null || this.#closed) return true;
    this.#since = Date.now();
    this.log.error(
      { err: error, where },
      'the database is not reachable: requests are answered 503 and background jobs wait until it is back',
    );
    this.#timer = setInterval(() => void this.#probe(), this.probeIntervalMs);
    this.#timer.unref();
    return true;
  }

  /** Stops looking (the app is closing). */
  close(): void {
    this.#closed = true;
    clearInterval(this.#timer);
  }

  async #probe(): Promise<void> {
    if (this.#probing || this.#since === null) return;
    this.#probing = true;
    try {
      if (!(await isDatabaseReachable(this.db)) || this.#since === null) return;
      this.log.warn(
        { downMs: Date.now() - this.#since, failures: this.#failures },
        'the database is reachable again',
      );
      clearInterval(this.#timer);
      this.#since = null;
      this.#failures = 0;
    } finally {
      this.#probing = false;
    }
  }
}
