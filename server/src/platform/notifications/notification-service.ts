/**
 * The one way anything in the hub tells people something (docs/notifications.md): `notify(trx,
 * …)` stores the event and one copy per recipient in the transaction of the thing it announces,
 * so a notification exists exactly when its thing does. Sending it live is the outbox's work
 * (`NotificationDispatcher`): any instance takes each stored event once and sends it on the live
 * channel; a client that was away catches up from the store (`GET /api/notifications?after=`).
 */
import {
  NOTIFICATION_KIND_INFO,
  type Notification,
  type NotificationChannel,
  type NotificationKind,
  type NotificationPriority,
} from '@learning-hub/core';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db';
import type { DatabaseOutage } from '../db/outage';
import { sortableId } from '../ids';
import {
  claimUndispatched,
  findActorName,
  insertNotification,
  listRecipientIds,
  sourcesOfEvents,
  type NotificationEventRow,
} from './notification-repository';

/** A body longer than this is cut (with an ellipsis): a notification is a line, not the thing. */
export const NOTIFICATION_BODY_MAX = 500;
export const NOTIFICATION_TITLE_MAX = 200;

/** Delivery watchers hear at most this often, per type of source (ms). */
const DELIVERY_TELL_MS = 1_000;

/** How long after `notify` the outbox looks, when nobody calls `dispatch()` (ms). */
const SOON_MS = 25;

/** What an area announces. */
export interface NotificationInput {
  kind: NotificationKind;
  priority?: NotificationPriority;
  title: string;
  /** Plain text (richTextToPlainText for rich text); cut at NOTIFICATION_BODY_MAX. */
  body?: string;
  /** The app's path to the thing. */
  link?: string | null;
  /** What it is about, for the area's own counts (`deliveryCounts`). */
  source?: { type: string; id: string } | null;
  /** Who caused it; null for the system. Never among the recipients of their own action. */
  actorId?: string | null;
  /**
   * The people it is for, as the area resolved them through the permission model now: only who
   * may see the thing. Duplicates are dropped; the actor is left out.
   */
  recipients: readonly string[];
}

/** What `notify` stored. */
export interface StoredNotification {
  id: string;
  createdAt: string;
  /** The people it was stored for (after their choices and the actor were taken out). */
  recipients: string[];
}

/**
 * Each recipient's choice for one kind, where it differs from the kind's default (the settings
 * page, platform/settings). The default when nothing is given: everyone has the default.
 */
export type ChannelChoices = (
  db: Db,
  kind: NotificationKind,
  userIds: readonly string[],
) => Promise<Map<string, NotificationChannel>>;

/** Where the dispatcher sends a stored event: the live channel (platform/live). */
export interface NotificationSink {
  deliver(notification: Notification, recipients: readonly string[]): void;
}

function cut(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1).trimEnd()}…`;
}

export class NotificationService {
  private sink: NotificationSink | null = null;
  private readonly dispatcher: NotificationDispatcher;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly options: {
      channelChoices: ChannelChoices;
      /** Whether email is set up on this server (SMTP_URL). */
      emailAvailable: boolean;
      /** Sends the urgent emails waiting (email.ts), after an urgent notification is stored. */
      onUrgentEmail?: () => void;
      log: FastifyBaseLogger;
      outage: DatabaseOutage;
      /** How often the outbox is looked at without being woken (ms). */
      pollMs?: number;
    },
  ) {
    this.dispatcher = new NotificationDispatcher(db, now, options.log, options.outage, {
      pollMs: options.pollMs ?? 1_000,
      send: (event, recipients, actorName) => this.send(event, recipients, actorName),
    });
  }

  /** Where stored events go live (set by the live channel when it starts). */
  setSink(sink: NotificationSink | null): void {
    this.sink = sink;
  }

  /**
   * Stores a notification in `trx` (the transaction of the thing it announces). It is sent a few
   * milliseconds later (the transaction has committed by then, as a rule); call `dispatch()` once
   * the transaction has committed to send it at once. Whatever is missed, the outbox's poll sends
   * within a second.
   */
  async notify(trx: Db, input: NotificationInput): Promise<StoredNotification> {
    const info = NOTIFICATION_KIND_INFO[input.kind];
    const wanted = [...new Set(input.recipients)].filter((id) => id !== input.actorId);
    const choices =
      wanted.length > 0 ? await this.options.channelChoices(trx, input.kind, wanted) : new Map();
    const recipients = [];
    for (const userId of wanted) {
      const channel = choices.get(userId) ?? info.defaultChannel;
      if (channel === 'none' && !info.required) continue;
      recipients.push({ userId, email: channel === 'email' && this.options.emailAvailable });
    }
    const createdAt = new Date(this.now()).toISOString();
    const id = sortableId();
    await insertNotification(
      trx,
      {
        id,
        kind: input.kind,
        priority: input.priority ?? 'info',
        title: cut(input.title, NOTIFICATION_TITLE_MAX),
        body: cut(input.body ?? '', NOTIFICATION_BODY_MAX),
        link: input.link ?? null,
        sourceType: input.source?.type ?? null,
        sourceId: input.source?.id ?? null,
        actorId: input.actorId ?? null,
        createdAt,
      },
      recipients,
    );
    if (recipients.length > 0) this.dispatchSoon();
    if (input.priority === 'urgent' && recipients.some((r) => r.email)) this.urgentEmail = true;
    return { id, createdAt, recipients: recipients.map((r) => r.userId) };
  }

  private soon: NodeJS.Timeout | null = null;
  private urgentEmail = false;

  private dispatchSoon(): void {
    if (this.soon) return;
    this.soon = setTimeout(() => {
      this.soon = null;
      void this.dispatch();
      if (this.urgentEmail) {
        this.urgentEmail = false;
        this.options.onUrgentEmail?.();
      }
    }, SOON_MS);
    this.soon.unref();
  }

  /** Sends what is stored and not sent yet, now (after the transaction that stored it). */
  dispatch(): Promise<void> {
    return this.dispatcher.run();
  }

  private readonly deliveryWatchers = new Map<string, (sourceIds: string[]) => void>();
  /** Source ids waiting for their watcher (at most one call per DELIVERY_TELL_MS per type). */
  private readonly deliveredSoon = new Map<string, { ids: Set<string>; timer: NodeJS.Timeout }>();

  /**
   * Calls `watch` with the ids of the things of `sourceType` whose notifications were delivered
   * (a client's receipt, a catch-up), at most once a second per type with what gathered meanwhile:
   * an area that shows delivery counts live (the announcements' manager) tells its watchers.
   */
  onDelivered(sourceType: string, watch: (sourceIds: string[]) => void): void {
    this.deliveryWatchers.set(sourceType, watch);
  }

  /** Receipts were recorded for these events: their sources' watchers hear of it. */
  async delivered(eventIds: readonly string[]): Promise<void> {
    if (this.deliveryWatchers.size === 0 || eventIds.length === 0) return;
    const sources = await sourcesOfEvents(this.db, eventIds);
    for (const [type, ids] of sources) {
      const watch = this.deliveryWatchers.get(type);
      if (!watch) continue;
      const pending = this.deliveredSoon.get(type);
      if (pending) {
        for (const id of ids) pending.ids.add(id);
        continue;
      }
      const entry = {
        ids: new Set(ids),
        timer: setTimeout(() => {
          this.deliveredSoon.delete(type);
          watch([...entry.ids]);
        }, DELIVERY_TELL_MS),
      };
      entry.timer.unref();
      this.deliveredSoon.set(type, entry);
    }
  }

  /** Starts the outbox's polling (the server listens). */
  start(): void {
    this.dispatcher.start();
  }

  async stop(): Promise<void> {
    for (const { timer } of this.deliveredSoon.values()) clearTimeout(timer);
    this.deliveredSoon.clear();
    if (this.soon) clearTimeout(this.soon);
    this.soon = null;
    await this.dispatcher.stop();
  }

  private send(event: NotificationEventRow, recipients: string[], actorName: string | null): void {
    this.sink?.deliver(
      {
        id: event.id,
        kind: event.kind,
        priority: event.priority,
        title: event.title,
        body: event.body,
        link: event.link,
        actor: event.actorId && actorName ? { id: event.actorId, name: actorName } : null,
        createdAt: event.createdAt,
        readAt: null,
      },
      recipients,
    );
  }
}

/**
 * The outbox: takes stored events no instance has sent yet and sends them. Woken by `run()` after
 * a write, and every `pollMs` for events stored by another instance that stopped before sending,
 * or by a transaction that committed after its `run()`.
 */
class NotificationDispatcher {
  private running: Promise<void> | null = null;
  private again = false;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly now: () => number,
    private readonly log: FastifyBaseLogger,
    private readonly outage: DatabaseOutage,
    private readonly options: {
      pollMs: number;
      send: (event: NotificationEventRow, recipients: string[], actorName: string | null) => void;
    },
  ) {}

  start(): void {
    this.stopped = false;
    if (this.timer) return;
    this.timer = setInterval(() => void this.run(), this.options.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** One pass (or, when one is running, one more after it). Never rejects. */
  run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.pass()
      .catch((error: unknown) => {
        if (!this.outage.report(error, 'sending notifications')) {
          this.log.error({ err: error }, 'sending notifications failed');
        }
      })
      .finally(() => {
        this.running = null;
        if (this.again && !this.stopped) {
          this.again = false;
          void this.run();
        }
      });
    return this.running;
  }

  private async pass(): Promise<void> {
    for (;;) {
      const claimed = await claimUndispatched(this.db, new Date(this.now()).toISOString(), 20);
      for (const event of claimed) {
        const [recipients, actorName] = await Promise.all([
          listRecipientIds(this.db, event.id),
          event.actorId ? findActorName(this.db, event.actorId) : null,
        ]);
        this.options.send(event, recipients, actorName);
      }
      if (claimed.length < 20 || this.stopped) return;
    }
  }
}
