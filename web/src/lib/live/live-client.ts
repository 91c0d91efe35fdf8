/**
 * The web app's end of the live channel (docs/notifications.md, "The client"). One connection per
 * tab, opened once the person is signed in and the page has loaded and the browser is idle (socket.io-client is
 * loaded then, in a chunk of its own), with spec §9's policy: a connection time-out of
 * LIVE_UPDATE_TIMEOUT_MS and LIVE_UPDATE_RECONNECT_ATTEMPTS reconnect attempts, after which the
 * state is `offline` until `retry()`. Every (re)connection catches up from the store with the last
 * event id this tab had, so nothing is lost across a dropped connection or a server restart.
 *
 * Plain state and listeners (no React, no zod): the hooks in use-live.ts read it.
 */
import {
  LIVE_UPDATE_RECONNECT_ATTEMPTS,
  LIVE_UPDATE_TIMEOUT_MS,
  type Notification,
} from '@learning-hub/core';
import type { ManagerOptions, Socket, SocketOptions } from 'socket.io-client';
import { api } from '../api-client';

/** Where the server answers (platform/live/live-channel.ts LIVE_PATH). */
export const LIVE_PATH = '/api/live';

export type LiveStatus =
  /** Not started (signed out, or before the first paint). */
  | 'idle'
  | 'connecting'
  | 'connected'
  /** Lost; trying again (attempt `attempt` of LIVE_UPDATE_RECONNECT_ATTEMPTS). */
  | 'reconnecting'
  /** Every attempt failed: nothing live until `retry()`. */
  | 'offline';

export interface LiveState {
  status: LiveStatus;
  /** `websocket` or `polling` while connected. */
  transport: string | null;
  /** The attempt under way while reconnecting (1…LIVE_UPDATE_RECONNECT_ATTEMPTS). */
  attempt: number;
  /** The last round trip measured (`measureRoundTrip`), in ms. */
  roundTripMs: number | null;
  /** The server instance that answered the last round trip. */
  instance: string | null;
  /** When the connection was last lost, for the demo's log. */
  lastDisconnectReason: string | null;
}

type Handler = (payload: unknown) => void;

const INITIAL: LiveState = {
  status: 'idle',
  transport: null,
  attempt: 0,
  roundTripMs: null,
  instance: null,
  lastDisconnectReason: null,
};

/** How many catch-up items one request asks for (the API's cap). */
const CATCH_UP_PAGE = 200;

/** Ids of events this tab has had, so a catch-up that repeats one is not shown twice. */
const SEEN_CAPACITY = 2_000;

export interface LiveClientOptions {
  /** The session's bearer token now ('' in dev mode). */
  token(): string;
  /** The server ended the sign-in (signed out elsewhere, revoked, expired). */
  onSignedOut(): void;
}

export class LiveClient {
  private state: LiveState = INITIAL;
  private readonly stateListeners = new Set<() => void>();
  private readonly handlers = new Map<string, Set<Handler>>();
  private socket: Socket | null = null;
  private starting: Promise<void> | null = null;
  private stopped = true;
  private lastEventId: string | null = null;
  private readonly seen = new Set<string>();
  /** Topics this tab follows (re-joined after every reconnection). */
  private readonly topics = new Map<string, { topic: string; id: string; count: number }>();
  /** Whether this tab's socket has been connected before (a `connect` is then a reconnection). */
  private connectedBefore = false;
  /** For the demo's "go offline": reconnect attempts go where nothing answers. */
  private unreachable = false;

  constructor(private readonly options: LiveClientOptions) {}

  getState = (): LiveState => this.state;

  subscribeState = (listener: () => void): (() => void) => {
    this.stateListeners.add(listener);
    return () => this.stateListeners.delete(listener);
  };

  /** Listens to an event of the channel (`notification`, `notifications-read`, `presence`, …). */
  on(event: string, handler: Handler): () => void {
    let set = this.handlers.get(event);
    if (!set) this.handlers.set(event, (set = new Set()));
    set.add(handler);
    return () => set.delete(handler);
  }

  /** Opens the connection (loads socket.io-client the first time). */
  start(): Promise<void> {
    this.stopped = false;
    this.starting ??= this.open();
    return this.starting;
  }

  /** Closes it for good (signed out). */
  stop(): void {
    this.stopped = true;
    this.socket?.disconnect();
    this.socket = null;
    this.starting = null;
    this.lastEventId = null;
    this.connectedBefore = false;
    this.seen.clear();
    this.setState(INITIAL);
  }

  /** After `offline`: tries again from the first attempt. */
  retry(): void {
    this.unreachable = false;
    if (!this.socket) {
      void this.start();
      return;
    }
    this.socket.io.opts.path = LIVE_PATH;
    this.setState({ status: 'connecting', attempt: 0 });
    this.socket.connect();
  }

  /**
   * The demo's "drop": the connection is cut as a network would cut it (not a clean sign-off), so
   * the reconnect policy runs. `offline: true` makes every attempt fail too, to watch the policy
   * end in `offline`.
   */
  drop(options: { offline?: boolean } = {}): void {
    if (!this.socket) return;
    this.unreachable = options.offline ?? false;
    if (this.unreachable) this.socket.io.opts.path = `${LIVE_PATH}-unreachable`;
    this.socket.io.engine?.close();
  }

  /** Round trip to the server and back, in ms (the demo shows it). */
  async measureRoundTrip(): Promise<number | null> {
    const socket = this.socket;
    if (!socket?.connected) return null;
    const started = performance.now();
    try {
      const answer = (await socket.timeout(LIVE_UPDATE_TIMEOUT_MS).emitWithAck('rtt')) as {
        instance?: string;
      };
      const ms = Math.round(performance.now() - started);
      this.setState({ roundTripMs: ms, instance: answer.instance ?? null });
      return ms;
    } catch {
      return null;
    }
  }

  /**
   * Follows a topic (an area's room: a wiki page's editors, an announcement's counts) while the
   * returned function is not called. Resolves with the server's answer to the first join.
   */
  follow(topic: string, id: string): { ready: Promise<{ ok: boolean }>; leave(): void } {
    const key = `${topic}:${id}`;
    const entry = this.topics.get(key) ?? { topic, id, count: 0 };
    entry.count += 1;
    this.topics.set(key, entry);
    const ready = entry.count === 1 ? this.join(topic, id) : Promise.resolve({ ok: true });
    let left = false;
    return {
      ready,
      leave: () => {
        if (left) return;
        left = true;
        entry.count -= 1;
        if (entry.count > 0) return;
        this.topics.delete(key);
        this.socket?.emit('unsubscribe', { topic, id });
      },
    };
  }

  private async join(topic: string, id: string): Promise<{ ok: boolean }> {
    const socket = this.socket;
    if (!socket?.connected) return { ok: false };
    try {
      return (await socket
        .timeout(LIVE_UPDATE_TIMEOUT_MS)
        .emitWithAck('subscribe', { topic, id })) as {
        ok: boolean;
      };
    } catch {
      return { ok: false };
    }
  }

  private setState(change: Partial<LiveState>): void {
    this.state = { ...this.state, ...change };
    for (const listener of this.stateListeners) listener();
  }

  private emit(event: string, payload: unknown): void {
    for (const handler of this.handlers.get(event) ?? []) handler(payload);
  }

  private async open(): Promise<void> {
    this.setState({ status: 'connecting', attempt: 0 });
    const { io } = await import('socket.io-client');
    if (this.stopped) return;
    const options: Partial<ManagerOptions & SocketOptions> = {
      path: LIVE_PATH,
      // Spec §9.
      timeout: LIVE_UPDATE_TIMEOUT_MS,
      reconnectionAttempts: LIVE_UPDATE_RECONNECT_ATTEMPTS,
      transports: ['websocket', 'polling'],
      tryAllTransports: true,
      // Read at every attempt: a token renewed since is used.
      auth: (send) => send({ token: this.options.token() }),
    };
    const socket = io(options);
    this.socket = socket;

    socket.on('connect', () => {
      this.setState({
        status: 'connected',
        attempt: 0,
        transport: socket.io.engine?.transport.name ?? null,
      });
      socket.io.engine?.once('upgrade', (transport: { name: string }) =>
        this.setState({ transport: transport.name }),
      );
      for (const { topic, id } of this.topics.values()) void this.join(topic, id);
      void this.catchUp(this.connectedBefore);
      this.connectedBefore = true;
    });
    socket.on('disconnect', (reason) => {
      this.setState({ transport: null, lastDisconnectReason: reason });
      // The server ended it on purpose (signed out): no reconnecting.
      if (reason === 'io server disconnect') {
        this.setState({ status: 'offline' });
        this.options.onSignedOut();
      } else if (socket.active) this.setState({ status: 'reconnecting' });
    });
    socket.on('connect_error', (error: Error & { data?: { code?: string } }) => {
      const code = error.data?.code;
      if (code === 'UNAUTHENTICATED' || code === 'SESSION_EXPIRED') {
        this.setState({ status: 'offline' });
        this.options.onSignedOut();
      }
    });
    socket.io.on('reconnect_attempt', (attempt) =>
      this.setState({ status: 'reconnecting', attempt }),
    );
    socket.io.on('reconnect_failed', () => this.setState({ status: 'offline' }));

    socket.on('notification', (notification: Notification) => this.received([notification], true));
    socket.on('resync', () => void this.catchUp());
    socket.on('signed-out', () => this.options.onSignedOut());
    // Everything else goes to whoever listens.
    socket.onAny((event: string, payload: unknown) => {
      if (event !== 'notification') this.emit(event, payload);
    });
  }

  /** New notifications (live, or from a catch-up): each once per tab. */
  private received(list: readonly Notification[], live: boolean): void {
    const fresh = list.filter((n) => !this.seen.has(n.id));
    for (const n of fresh) {
      this.seen.add(n.id);
      if (this.lastEventId === null || n.id > this.lastEventId) this.lastEventId = n.id;
    }
    if (this.seen.size > SEEN_CAPACITY) {
      const drop = this.seen.size - SEEN_CAPACITY;
      let i = 0;
      for (const id of this.seen) {
        if (i++ >= drop) break;
        this.seen.delete(id);
      }
    }
    if (fresh.length === 0) return;
    if (live)
      this.socket?.emit(
        'delivered',
        fresh.map((n) => n.id),
      );
    for (const n of fresh) this.emit('notification', n);
  }

  /**
   * What was made since this tab's last event (the store answers; the catch-up also records them
   * delivered). The first connection of a tab has nothing to catch up: the bell reads the list.
   * A reconnection of a tab that has no event yet (nothing arrived, its list was empty) cannot
   * name a cursor: the listeners are told to read the list again (`reload`).
   */
  private async catchUp(reconnected = true): Promise<void> {
    const after = this.lastEventId;
    if (after === null) {
      if (reconnected) this.emit('reload', null);
      return;
    }
    try {
      const { NotificationListSchema } = await import('@learning-hub/core/contracts/notifications');
      const page = await api.get(
        `/api/notifications?after=${after}&pageSize=${CATCH_UP_PAGE}`,
        NotificationListSchema,
      );
      this.received(page.items, false);
      this.emit('unread-count', page.unreadCount);
    } catch {
      // The next connection tries again.
    }
  }

  /**
   * Marks notifications as had (the bell's list), so they are not shown again and the next
   * catch-up starts after the newest.
   */
  markSeen(ids: readonly string[]): void {
    for (const id of ids) {
      this.seen.add(id);
      if (this.lastEventId === null || id > this.lastEventId) this.lastEventId = id;
    }
  }
}
