/**
 * A person's own settings (migration 0022; docs/settings.md): their display settings as one JSON
 * row, and their notification channels as one row per kind they moved off its default. In the
 * platform, not the settings area, because notification delivery reads the channels
 * (`notificationChannelChoices`) and the platform imports no area.
 */
import {
  coerceDisplaySettings,
  coerceUserSettings,
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  NOTIFICATION_KIND_INFO,
  type DisplaySettings,
  type NotificationChannel,
  type NotificationKind,
  type UserSettings,
} from '@learning-hub/core';
import type { Db } from '../db';

/** Ids per `in (…)` list: far below SQLite's and PostgreSQL's limits on bound parameters. */
const IN_LIST_CHUNK = 500;

function isChannel(value: string): value is NotificationChannel {
  return (NOTIFICATION_CHANNELS as readonly string[]).includes(value);
}

function isKind(value: string): value is NotificationKind {
  return (NOTIFICATION_KINDS as readonly string[]).includes(value);
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/**
 * The person's settings: the defaults for whatever they never chose. A stored value that is no
 * longer valid (a kind or a value a later version dropped) reads as its default.
 */
export async function readUserSettings(db: Db, userId: string): Promise<UserSettings> {
  const [row, channels] = await Promise.all([
    db.selectFrom('user_settings').select('value').where('user_id', '=', userId).executeTakeFirst(),
    db
      .selectFrom('user_notification_channels')
      .select(['kind', 'channel'])
      .where('user_id', '=', userId)
      .execute(),
  ]);
  return coerceUserSettings({
    ...coerceDisplaySettings(row ? parseJson(row.value) : null),
    notifications: Object.fromEntries(channels.map((c) => [c.kind, c.channel])),
  });
}

/**
 * Stores the person's whole settings in one transaction: the display settings as their row, and
 * a channel row for each kind whose channel is not its default (the rows of kinds put back to
 * their default go). The caller has validated them (core's contract).
 */
export async function writeUserSettings(
  db: Db,
  userId: string,
  settings: UserSettings,
  at: string,
): Promise<void> {
  const display: DisplaySettings = {
    colorScheme: settings.colorScheme,
    timeZone: settings.timeZone,
    dateFormat: settings.dateFormat,
    startPage: settings.startPage,
    reducedMotion: settings.reducedMotion,
  };
  const value = JSON.stringify(display);
  const chosen = NOTIFICATION_KINDS.filter(
    (kind) => settings.notifications[kind] !== NOTIFICATION_KIND_INFO[kind].defaultChannel,
  ).map((kind) => ({ user_id: userId, kind, channel: settings.notifications[kind] }));
  const work = async (trx: Db) => {
    await trx
      .insertInto('user_settings')
      .values({ user_id: userId, value, updated_at: at })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ value, updated_at: at }))
      .execute();
    await trx.deleteFrom('user_notification_channels').where('user_id', '=', userId).execute();
    if (chosen.length > 0)
      await trx.insertInto('user_notification_channels').values(chosen).execute();
  };
  await (db.isTransaction ? work(db) : db.transaction().execute(work));
}

/**
 * Who chose a channel other than `kind`'s default: user id → their channel. Everyone else gets
 * the default (NOTIFICATION_KIND_INFO[kind].defaultChannel). With `userIds`, only among them
 * (read `IN_LIST_CHUNK` ids at a time); without, among everyone.
 */
export async function notificationChannelChoices(
  db: Db,
  kind: NotificationKind,
  userIds?: readonly string[],
): Promise<Map<string, NotificationChannel>> {
  const found = new Map<string, NotificationChannel>();
  const fallback = NOTIFICATION_KIND_INFO[kind].defaultChannel;
  const add = (rows: readonly { user_id: string; channel: string }[]) => {
    for (const row of rows) {
      // A stored channel no longer valid, or `none` on a kind that is now required: the default.
      if (!isChannel(row.channel) || row.channel === fallback) continue;
      if (row.channel === 'none' && NOTIFICATION_KIND_INFO[kind].required) continue;
      found.set(row.user_id, row.channel);
    }
  };
  if (!isKind(kind)) return found;
  const base = db
    .selectFrom('user_notification_channels')
    .select(['user_id', 'channel'])
    .where('kind', '=', kind);
  if (userIds === undefined) {
    add(await base.execute());
    return found;
  }
  const unique = [...new Set(userIds)];
  for (let i = 0; i < unique.length; i += IN_LIST_CHUNK) {
    add(await base.where('user_id', 'in', unique.slice(i, i + IN_LIST_CHUNK)).execute());
  }
  return found;
}
