/**
 * The live channel (docs/notifications.md, "The live channel"): Socket.IO on the app's own HTTP
 * server at `/api/live`. A connection is signed in with the session's bearer token at connect,
 * and the sign-in is judged again on every event the client sends, every SWEEP_MS for all
 * connections, and at once when a session ends (`endSession`, `endUserSessions`). Each connection
 * is in its person's room (`user:<id>`) and its session's (`session:<id>`); topics (`subscribe`)
 * are rooms an area declares with the rule of who may join, judged again when the person's
 * permissions change. With REDIS_URL, @socket.io/redis-adapter carries every emit between
 * instances; when Redis goes away each instance keeps serving its own connections, and when it
 * is back they are told to catch up (`resync`) from the store.
 */
import type { Server as HttpServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { NotificationIdSchema, type Notification } from '@learning-hub/core';
import { createAdapter } from '@socket.io/redis-adapter';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { Server, type Socket } from 'socket.io';
import { displayName } from '../auth/display-name';
import { listLiveSessions } from '../auth/session-repository';
import type { UserRecord } from '../auth/user-repository';
import type { Db } from '../db';
import type { ChangeTracker } from '../db/change-tracker';
import type { DatabaseOutage } from '../db/outage';
import type { SignIn } from '../http/access';
import { markDelivered } from '../notifications/notification-repository';
import type { NotificationSink } from '../notifications/notification-service';

/** Where the channel answers (same origin as the API; the client's `path`). */
export const LIVE_PATH = '/api/live';

/** How often every connection's session and permissions are checked again (ms). */
export const SWEEP_MS = 10_000;

/** Tables whose change may end a session or change what someone may join. */
const ACCESS_TABLES = [
  'sessions',
  'users',
  'access_epoch',
  'context_assignments',
  'user_permissions',
];

/** How often the change tracker is asked whether those changed (ms; an in-memory read). */
const WATCH_MS = 500;

/** Connections one person may hold on one instance (tabs and devices); more are refused. */
export const MAX_CONNECTIONS_PER_USER = 30;

/** Events one connection may send per EVENT_WINDOW_MS; beyond that they are refused. */
const EVENTS_PER_WINDOW = 60;
const EVENT_WINDOW_MS = 10_000;

/** Delivery receipts are written together, at most this often (ms). */
const RECEIPT_FLUSH_MS = 250;

/** Why the server ended a connection, as the client's `signed-out` event says. */
export type SignOutReason = 'UNAUTHENTICATED' | 'SESSION_EXPIRED' | 'PASSWORD_CHANGE_REQUIRED';

/** A kind of room an area offers (`wiki-page` presence, an announcement's counts). */
export interface LiveTopic {
  /** Whether the person may be in this topic's room for `id` now. */
  mayJoin(user: UserRecord, id: string): boolean | Promise<boolean>;
  /** The room's members are told who is in it, whenever that changes. */
  presence?: boolean;
}

/** One person in a presence room. */
export interface PresentPerson {
  id: string;
  name: string;
}

interface SocketData {
  userId: string;
  sessionId: string;
  name: string;
  accessVersion: number;
  /** `topic:id` rooms joined through `subscribe`. */
  topics: Set<string>;
  events: { windowStart: number; count: number };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the events are checked where they arrive
type AnyEvents = Record<string, (...args: any[]) => void>;
type LiveSocket = Socket<AnyEvents, AnyEvents, AnyEvents, SocketData>;

export interface LiveChannelOptions {
  db: Db;
  now: () => number;
  log: FastifyBaseLogger;
  outage: DatabaseOutage;
  signInOf: (token: string) => Promise<SignIn | { refused: SignOutReason }>;
  /** Redis between instances; null: this instance alone. */
  redisUrl: string | null;
  /** Receipts of these events were written (the notification service tells the areas). */
  onReceipts?: (eventIds: string[]) => void;
  /**
   * Tells when sessions, users or access change (the embedded database): connections are then
   * checked at once rather than at the next sweep. Null (PostgreSQL): the sweep, and the explicit
   * ends of sessions.
   */
  changes?: ChangeTracker | null;
  sweepMs?: number;
}

export type LiveState = { connections: number; redis: 'off' | 'up' | 'down'; instance: string };

/** The session of dev mode's developer (no row in the sessions table). */
const DEV_SESSION = 'dev-mode';

const roomOfUser = (userId: string) => `user:${userId}`;
const roomOfSession = (sessionId: string) => `session:${sessionId}`;
const roomOfTopic = (topic: string, id: string) => `topic:${topic}:${id}`;

export class LiveChannel implements NotificationSink {
  /** This process's name on the channel (the demo page shows which instance answered). */
  readonly instance = randomUUID().slice(0, 8);
  private io: Server | null = null;
  private readonly topics = new Map<string, LiveTopic>();
  private sweepTimer: NodeJS.Timeout | null = null;
  private watchTimer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> | null = null;
  private redis: { pub: Redis; sub: Redis; state: 'up' | 'down'; everUp: boolean } | null = null;
  private receipts = new Map<string, Set<string>>();
  private receiptTimer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly options: LiveChannelOptions) {}

  /** Declares a topic (an area, in its registration). */
  topic(name: string, topic: LiveTopic): void {
    if (this.topics.has(name)) throw new Error(`live topic ${name} is declared twice`);
    this.topics.set(name, topic);
  }

  /** Starts answering on the app's HTTP server. */
  attach(httpServer: HttpServer): void {
    const io = new Server(httpServer, {
      path: LIVE_PATH,
      serveClient: false,
      // The client's messages are small: receipts, pings, subscriptions.
      maxHttpBufferSize: 64 * 1024,
      transports: ['websocket', 'polling'],
    });
    this.io = io;
    if (this.options.redisUrl) this.connectRedis(io, this.options.redisUrl);
    io.use((socket, next) => {
      void this.admit(socket as LiveSocket).then(
        () => next(),
        (error: Error) => next(error),
      );
    });
    io.on('connection', (socket) => this.connected(socket as LiveSocket));
    // Another instance asks for a person's rooms to be judged again (their permissions changed).
    io.on('refresh-user', (userId: unknown) => {
      if (typeof userId === 'string') void this.refreshLocal(userId);
    });
  }

  /** Starts the periodic check of every connection (the server listens). */
  start(): void {
    if (this.sweepTimer) return;
    this.sweepTimer = setInterval(
      () => void this.checkConnections(),
      this.options.sweepMs ?? SWEEP_MS,
    );
    this.sweepTimer.unref();
    const changes = this.options.changes;
    if (changes) {
      let seen = changes.version(ACCESS_TABLES);
      this.watchTimer = setInterval(() => {
        const now = changes.version(ACCESS_TABLES);
        if (now === seen || (this.io?.engine.clientsCount ?? 0) === 0) return;
        seen = now;
        void this.checkConnections();
      }, WATCH_MS);
      this.watchTimer.unref();
    }
  }

  /** Ends every connection of this instance and lets go of Redis. */
  async close(): Promise<void> {
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    if (this.watchTimer) clearInterval(this.watchTimer);
    this.sweepTimer = null;
    this.watchTimer = null;
    await this.sweeping;
    await this.flushReceipts();
    if (this.io) {
      this.io.local.disconnectSockets(true);
      // Not io.close(): that would close the HTTP server, which Fastify closes itself.
      this.io.engine.close();
      this.io = null;
    }
    if (this.redis) {
      const { pub, sub } = this.redis;
      this.redis = null;
      pub.disconnect();
      sub.disconnect();
    }
  }

  state(): LiveState {
    return {
      connections: this.io?.engine.clientsCount ?? 0,
      redis: this.redis ? this.redis.state : 'off',
      instance: this.instance,
    };
  }

  // ------------------------------------------------------------------ sending

  /** Sends a stored notification to the connections of the people it is for (every instance). */
  deliver(notification: Notification, recipients: readonly string[]): void {
    if (!this.io || recipients.length === 0) return;
    this.io.to(recipients.map(roomOfUser)).emit('notification', notification);
  }

  /** Sends an event to every connection of these people (every instance). */
  toUsers(userIds: readonly string[], event: string, payload: unknown): void {
    if (!this.io || userIds.length === 0) return;
    this.io.to(userIds.map(roomOfUser)).emit(event, payload);
  }

  /** Sends an event to every connection of one person (their other tabs and devices). */
  toUser(userId: string, event: string, payload: unknown): void {
    this.io?.to(roomOfUser(userId)).emit(event, payload);
  }

  /** Sends an event to everyone in a topic's room. */
  toTopic(topic: string, id: string, event: string, payload: unknown): void {
    this.io?.to(roomOfTopic(topic, id)).emit(event, { topic, id, ...(payload as object) });
  }

  /** Ends the connections of one session at once (signed out, revoked), on every instance. */
  endSession(sessionId: string, reason: SignOutReason = 'SESSION_EXPIRED'): void {
    this.end(roomOfSession(sessionId), reason);
  }

  /**
   * Ends every connection of a person (deactivated, all their sessions ended), on every instance;
   * but those of `exceptSessionId` (the session that ended the others).
   */
  endUserSessions(
    userId: string,
    options: { reason?: SignOutReason; exceptSessionId?: string } = {},
  ): void {
    if (!this.io) return;
    const room = roomOfUser(userId);
    const except = options.exceptSessionId ? [roomOfSession(options.exceptSessionId)] : [];
    this.io
      .to(room)
      .except(except)
      .emit('signed-out', { code: options.reason ?? 'SESSION_EXPIRED' });
    this.io.in(room).except(except).disconnectSockets(true);
  }

  /**
   * A person's permissions changed: every instance judges their topic rooms again (they leave
   * what they may no longer see). Sessions ended are handled by endSession.
   */
  refreshUser(userId: string): void {
    void this.refreshLocal(userId);
    this.io?.serverSideEmit('refresh-user', userId);
  }

  private end(room: string, reason: SignOutReason): void {
    if (!this.io) return;
    this.io.to(room).emit('signed-out', { code: reason });
    this.io.in(room).disconnectSockets(true);
  }

  // ------------------------------------------------------------------ connections

  private async admit(socket: LiveSocket): Promise<void> {
    const given: unknown = (socket.handshake.auth as { token?: unknown }).token;
    const token = typeof given === 'string' ? given : given === undefined ? '' : null;
    const refuse = (code: string, message: string) =>
      Object.assign(new Error(message), { data: { code, message } });
    // An empty token is a sign-in only in dev mode (signInOf says).
    if (token === null || token.length > 512) {
      throw refuse('UNAUTHENTICATED', 'Sign in to receive live updates.');
    }
    const found = await this.options.signInOf(token);
    if ('refused' in found) throw refuse(found.refused, 'Sign in to receive live updates.');
    const sockets = await this.io!.in(roomOfUser(found.user.id)).local.fetchSockets();
    if (sockets.length >= MAX_CONNECTIONS_PER_USER) {
      throw refuse(
        'RATE_LIMITED',
        `You have ${MAX_CONNECTIONS_PER_USER} live connections open already. Close a tab and try again.`,
      );
    }
    socket.data = {
      userId: found.user.id,
      sessionId: found.session.id,
      name: displayName(found.user),
      accessVersion: found.user.accessVersion,
      topics: new Set(),
      events: { windowStart: this.options.now(), count: 0 },
    };
  }

  private connected(socket: LiveSocket): void {
    const { userId, sessionId } = socket.data;
    void socket.join([roomOfUser(userId), roomOfSession(sessionId)]);

    // Every event: the sign-in must still hold, and the client within its rate.
    socket.use((_packet, next) => {
      const at = this.options.now();
      const window = socket.data.events;
      if (at - window.windowStart > EVENT_WINDOW_MS) {
        window.windowStart = at;
        window.count = 0;
      }
      window.count += 1;
      if (window.count > EVENTS_PER_WINDOW) {
        next(
          Object.assign(new Error('Too many live events. Slow down.'), {
            data: { code: 'RATE_LIMITED' },
          }),
        );
        return;
      }
      const token = String((socket.handshake.auth as { token?: unknown }).token ?? '');
      this.options.signInOf(token).then(
        (found) => {
          if ('refused' in found || found.session.id !== sessionId) {
            socket.emit('signed-out', {
              code: 'refused' in found ? found.refused : 'UNAUTHENTICATED',
            });
            socket.disconnect(true);
            return;
          }
          next();
        },
        (error: unknown) => {
          this.reportFailure(error, 'checking a live connection');
          next(new Error('The server could not check your sign-in. Try again.'));
        },
      );
    });

    socket.on('rtt', (ack: unknown) => {
      if (typeof ack === 'function')
        (ack as (a: unknown) => void)({ serverTime: this.options.now(), instance: this.instance });
    });

    socket.on('delivered', (ids: unknown) => {
      if (!Array.isArray(ids) || ids.length === 0 || ids.length > 200) return;
      for (const id of ids) {
        if (!NotificationIdSchema.safeParse(id).success) return;
      }
      this.receipt(userId, ids as string[]);
    });

    socket.on('subscribe', (message: unknown, ack: unknown) => {
      const answer = typeof ack === 'function' ? (ack as (a: unknown) => void) : () => undefined;
      void this.subscribe(socket, message).then(answer, (error: unknown) => {
        this.reportFailure(error, 'joining a live topic');
        answer({
          ok: false,
          code: 'INTERNAL_ERROR',
          message: 'The server could not do that now. Try again.',
        });
      });
    });

    socket.on('unsubscribe', (message: unknown) => {
      const parsed = parseTopic(message);
      if (!parsed) return;
      const room = roomOfTopic(parsed.topic, parsed.id);
      if (!socket.data.topics.delete(room)) return;
      void socket.leave(room);
      if (this.topics.get(parsed.topic)?.presence)
        void this.announcePresence(parsed.topic, parsed.id);
    });

    socket.on('disconnecting', () => {
      for (const room of socket.data.topics) {
        const [, topic = '', id = ''] = room.split(':');
        if (this.topics.get(topic)?.presence) {
          // After the socket has left its rooms.
          setImmediate(() => void this.announcePresence(topic, id));
        }
      }
    });
  }

  private async subscribe(socket: LiveSocket, message: unknown): Promise<unknown> {
    const parsed = parseTopic(message);
    if (!parsed) return { ok: false, code: 'VALIDATION_ERROR', message: 'Name a topic and an id.' };
    const topic = this.topics.get(parsed.topic);
    if (!topic)
      return { ok: false, code: 'NOT_FOUND', message: `There is no live topic ${parsed.topic}.` };
    const token = String((socket.handshake.auth as { token?: unknown }).token ?? '');
    const found = await this.options.signInOf(token);
    if ('refused' in found) return { ok: false, code: found.refused, message: 'Sign in again.' };
    if (!(await topic.mayJoin(found.user, parsed.id))) {
      return {
        ok: false,
        code: 'NOT_FOUND',
        message: 'There is nothing here you may follow live.',
      };
    }
    const room = roomOfTopic(parsed.topic, parsed.id);
    socket.data.topics.add(room);
    await socket.join(room);
    if (topic.presence) await this.announcePresence(parsed.topic, parsed.id);
    return { ok: true };
  }

  /** Tells a presence room who is in it (across instances: the adapter asks the others). */
  private async announcePresence(topic: string, id: string): Promise<void> {
    if (!this.io) return;
    const room = roomOfTopic(topic, id);
    let sockets;
    try {
      sockets = await this.io.in(room).fetchSockets();
    } catch {
      // Another instance did not answer in time (Redis away): this instance's people only.
      sockets = await this.io.in(room).local.fetchSockets();
    }
    const people = new Map<string, PresentPerson>();
    for (const s of sockets) {
      const data = s.data as SocketData;
      people.set(data.userId, { id: data.userId, name: data.name });
    }
    this.io.to(room).emit('presence', { topic, id, people: [...people.values()] });
  }

  /** Judges a person's topic rooms on this instance again, leaving what they may not see now. */
  private async refreshLocal(userId: string): Promise<void> {
    if (!this.io) return;
    const sockets = await this.io.in(roomOfUser(userId)).local.fetchSockets();
    for (const remote of sockets) {
      const socket = this.io.sockets.sockets.get(remote.id) as LiveSocket | undefined;
      if (!socket) continue;
      const token = String((socket.handshake.auth as { token?: unknown }).token ?? '');
      const found = await this.options.signInOf(token);
      if ('refused' in found) {
        socket.emit('signed-out', { code: found.refused });
        socket.disconnect(true);
        continue;
      }
      socket.data.accessVersion = found.user.accessVersion;
      socket.data.name = displayName(found.user);
      for (const room of [...socket.data.topics]) {
        const [, topic = '', id = ''] = room.split(':');
        const declared = this.topics.get(topic);
        if (declared && (await declared.mayJoin(found.user, id))) continue;
        socket.data.topics.delete(room);
        await socket.leave(room);
        socket.emit('unsubscribed', { topic, id });
        if (declared?.presence) await this.announcePresence(topic, id);
      }
    }
  }

  /**
   * Every connection's session, judged again from the database: revoked, expired or deactivated
   * ends it (any instance may have ended it, or the command line); a changed access version
   * judges its topics again.
   */
  checkConnections(): Promise<void> {
    if (this.sweeping || !this.io) return this.sweeping ?? Promise.resolve();
    const io = this.io;
    this.sweeping = (async () => {
      const sockets = [...io.sockets.sockets.values()] as LiveSocket[];
      const sessionIds = [
        ...new Set(sockets.map((s) => s.data.sessionId).filter((id) => id && id !== DEV_SESSION)),
      ];
      if (sessionIds.length === 0) return;
      const live = await listLiveSessions(
        this.options.db,
        sessionIds,
        new Date(this.options.now()).toISOString(),
      );
      const changed = new Set<string>();
      for (const socket of sockets) {
        if (socket.data.sessionId === DEV_SESSION) continue;
        const found = live.get(socket.data.sessionId);
        if (!found) {
          socket.emit('signed-out', { code: 'SESSION_EXPIRED' });
          socket.disconnect(true);
        } else if (
          found.accessVersion !== socket.data.accessVersion &&
          socket.data.topics.size > 0
        ) {
          changed.add(socket.data.userId);
        }
      }
      for (const userId of changed) await this.refreshLocal(userId);
    })()
      .catch((error: unknown) => this.reportFailure(error, 'checking live connections'))
      .finally(() => {
        this.sweeping = null;
      });
    return this.sweeping;
  }

  // ------------------------------------------------------------------ receipts

  private receipt(userId: string, ids: readonly string[]): void {
    for (const id of ids) {
      let users = this.receipts.get(id);
      if (!users) this.receipts.set(id, (users = new Set()));
      users.add(userId);
    }
    this.receiptTimer ??= setTimeout(() => {
      this.receiptTimer = null;
      void this.flushReceipts();
    }, RECEIPT_FLUSH_MS);
  }

  /** Writes the delivery receipts gathered since the last flush (one statement per event). */
  private flushReceipts(): Promise<void> {
    if (this.receiptTimer) {
      clearTimeout(this.receiptTimer);
      this.receiptTimer = null;
    }
    const batch = this.receipts;
    this.receipts = new Map();
    if (batch.size === 0) return this.flushing;
    const at = new Date(this.options.now()).toISOString();
    this.flushing = this.flushing.then(async () => {
      const written: string[] = [];
      for (const [eventId, users] of batch) {
        try {
          await markDelivered(this.options.db, { eventId, userIds: [...users] }, at);
          written.push(eventId);
        } catch (error) {
          this.reportFailure(error, 'recording delivered notifications');
        }
      }
      if (written.length > 0) this.options.onReceipts?.(written);
    });
    return this.flushing;
  }

  // ------------------------------------------------------------------ Redis

  private connectRedis(io: Server, url: string): void {
    const retryStrategy = (times: number) => Math.min(100 * times, 2_000);
    // Publishing never waits for Redis: while it is away, what this instance sends reaches its
    // own connections, and the others catch up from the store when it is back (resync).
    const pub = new Redis(url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy,
      lazyConnect: false,
    });
    const sub = pub.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
    const redis = { pub, sub, state: 'down' as 'up' | 'down', everUp: false };
    this.redis = redis;
    // The adapter does not wait for its publishes: a refused one must not become an unhandled
    // rejection (which would end the process).
    const publish = pub.publish.bind(pub) as (
      channel: string,
      message: string | Buffer,
    ) => Promise<number>;
    (pub as unknown as { publish: typeof publish }).publish = (channel, message) =>
      publish(channel, message).catch(() => 0);
    let reported = false;
    const onError = (error: Error) => {
      if (reported) return;
      reported = true;
      this.options.log.warn(
        { err: { message: error.message } },
        'Redis is unreachable: live updates reach only the connections of this instance until it is back',
      );
    };
    pub.on('error', onError);
    sub.on('error', onError);
    sub.on('ready', () => {
      const wasDown = redis.everUp;
      redis.state = 'up';
      redis.everUp = true;
      reported = false;
      if (wasDown) {
        this.options.log.info('Redis is back: live connections catch up on what they missed');
        io.local.emit('resync', {});
      }
    });
    sub.on('end', () => (redis.state = 'down'));
    sub.on('close', () => (redis.state = 'down'));
    io.adapter(createAdapter(pub, sub, { requestsTimeout: 2_000 }));
  }

  private reportFailure(error: unknown, what: string): void {
    if (!this.options.outage.report(error, what))
      this.options.log.error({ err: error }, `${what} failed`);
  }
}

function parseTopic(message: unknown): { topic: string; id: string } | null {
  if (typeof message !== 'object' || message === null) return null;
  const { topic, id } = message as { topic?: unknown; id?: unknown };
  if (typeof topic !== 'string' || typeof id !== 'string') return null;
  if (!/^[a-z][a-z-]{0,39}$/.test(topic) || id.length === 0 || id.length > 200 || id.includes(':'))
    return null;
  return { topic, id };
}
