/**
 * Lanes (docs/architecture.md, "Where work runs"): requests whose own work holds the event loop
 * for milliseconds — a wiki save sanitises, parses and writes in one synchronous SQLite
 * transaction — declare a lane in their route config (`config: { lane: 'writes' }`). A lane lets
 * a fixed number of its requests work per turn of the event loop; the others wait their turn, in
 * order, without touching the event loop. A turn is given back in the event loop's next turn
 * (`setImmediate`), never straight away, so every cheap request read meanwhile (a page's
 * `/api/auth/me`, a lesson read) is answered between two heavy ones: under any number of saves, a
 * cheap request waits for at most one of them, not for all of them.
 *
 * A request waiting too long for its turn answers 503 with Retry-After (the server is overloaded
 * for that kind of work, not broken).
 */
import { AppError } from '@learning-hub/core';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/** The kinds of heavy requests, each with its own turns. */
export type LaneName = 'writes';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The lane whose turns the route's handler waits for (plugins/lanes.ts). */
    lane?: LaneName;
  }
  interface FastifyRequest {
    /** Hands the request's turn on (at most once); set while it holds one. */
    releaseLane: (() => void) | null;
  }
  interface FastifyInstance {
    /** The lanes by name (their turns in use and waiting: tests, the system page). */
    lanes: ReadonlyMap<LaneName, Lane>;
  }
}

export interface LaneOptions {
  /** Requests of each lane that work at once. */
  concurrency: Record<LaneName, number>;
  /** How long a request waits for its turn before it is answered 503. */
  maxWaitMs?: number;
}

/** A counter of turns with a queue of waiters, handed on in the event loop's next turn. */
export class Lane {
  #active = 0;
  readonly #waiting: Array<() => void> = [];

  constructor(readonly concurrency: number) {}

  get active(): number {
    return this.#active;
  }

  get waiting(): number {
    return this.#waiting.length;
  }

  /** Resolves with the function that gives the turn back; rejects after `maxWaitMs`. */
  acquire(maxWaitMs: number): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const grant = () => {
        this.#active += 1;
        let released = false;
        resolve(() => {
          if (released) return;
          released = true;
          this.#handOn();
        });
      };
      if (this.#active < this.concurrency && this.#waiting.length === 0) return grant();
      const timer = setTimeout(() => {
        const index = this.#waiting.indexOf(waiter);
        if (index !== -1) this.#waiting.splice(index, 1);
        reject(
          new AppError(
            'SERVICE_UNAVAILABLE',
            'The server is busy with work of this kind. Try again in a few seconds.',
          ),
        );
      }, maxWaitMs);
      timer.unref();
      const waiter = () => {
        clearTimeout(timer);
        grant();
      };
      this.#waiting.push(waiter);
    });
  }

  /**
   * Gives a turn back in the event loop's next turn, not now: a heavy handler is synchronous
   * once it has its turn, so a turn given back at once would go to the next heavy request read
   * in the same pass over the sockets — twenty saves would run back to back, and a cheap
   * request read after them would wait for all of them. Held until the next turn, it lets one
   * heavy request work per turn of the event loop, and every request read meanwhile is
   * answered in between.
   */
  #handOn(): void {
    setImmediate(() => {
      this.#active -= 1;
      while (this.#active < this.concurrency && this.#waiting.length > 0) {
        (this.#waiting.shift() as () => void)();
      }
    });
  }
}

const DEFAULT_MAX_WAIT_MS = 10_000;

/**
 * Waits for the event loop's next turn: a handler in a lane calls it between its heavy steps (a
 * save's write, then the page it answers with), so that what was read meanwhile is answered in
 * between. It keeps its turn in the lane.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

async function lanesPlugin(app: FastifyInstance, options: LaneOptions): Promise<void> {
  const lanes = new Map<LaneName, Lane>(
    (Object.entries(options.concurrency) as [LaneName, number][]).map(([name, n]) => [
      name,
      new Lane(Math.max(1, n)),
    ]),
  );
  const maxWaitMs = options.maxWaitMs ?? DEFAULT_MAX_WAIT_MS;
  app.decorate('lanes', lanes);
  app.decorateRequest('releaseLane', null);

  const release = (request: FastifyRequest) => {
    request.releaseLane?.();
    request.releaseLane = null;
  };

  app.addHook('onRoute', (route) => {
    const name = route.config?.lane;
    if (!name) return;
    const lane = lanes.get(name);
    if (!lane) throw new Error(`Route ${route.url} names an unknown lane "${name}".`);
    // Last of the route's hooks before the handler: the guard, validation and rate limits have
    // passed, so only requests that will really work wait for a turn.
    // A request that waited too long is a 503, which says when to come back (plugins/errors.ts).
    const take = async (request: FastifyRequest) => {
      request.releaseLane = await lane.acquire(maxWaitMs);
      // The client went away while it waited: its turn is handed on at once.
      if (request.raw.destroyed) release(request);
    };
    route.preHandler = [...[route.preHandler ?? []].flat(), take];
  });
  // The turn ends with the handler's work: when the answer is ready to send (errors included;
  // a client that went away meanwhile still gets its answer written, to nowhere), and at the
  // latest when the response is finished.
  app.addHook('onSend', async (request) => release(request));
  app.addHook('onResponse', async (request) => release(request));
}

export default fp(lanesPlugin, { name: 'lanes' });
