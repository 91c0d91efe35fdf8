import { defaultUserSettings, NOTIFICATION_KINDS } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createClock,
  createTestDatabase,
  createTestUser,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestDatabase,
} from '../../test/helpers';
import {
  notificationChannelChoices,
  readUserSettings,
  writeUserSettings,
} from './user-settings-repository';

const available = await testDatabaseAvailable();
const AT = '2026-11-22T09:00:00.000Z';

describe.skipIf(!available)(`user settings repository (${TEST_DB_KIND})`, () => {
  let database: TestDatabase;
  const clock = createClock();
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(async () => {
    await database.close();
  });

  const user = async () => (await createTestUser({ database, clock })).user.id;

  it('reads the defaults for someone who never saved', async () => {
    expect(await readUserSettings(database.db, await user())).toEqual(defaultUserSettings());
  });

  it('stores the whole settings, and a channel row only where it is not the default', async () => {
    const id = await user();
    const settings = defaultUserSettings();
    settings.colorScheme = 'dark';
    settings.timeZone = 'Europe/Berlin';
    settings.dateFormat = 'iso';
    settings.startPage = '/library';
    settings.reducedMotion = 'reduce';
    settings.notifications.announcement = 'email';
    settings.notifications['wiki.page-changed'] = 'none';
    await writeUserSettings(database.db, id, settings, AT);
    expect(await readUserSettings(database.db, id)).toEqual(settings);
    const rows = await database.db
      .selectFrom('user_notification_channels')
      .select(['kind', 'channel'])
      .where('user_id', '=', id)
      .orderBy('kind')
      .execute();
    expect(rows).toEqual([
      { kind: 'announcement', channel: 'email' },
      { kind: 'wiki.page-changed', channel: 'none' },
    ]);

    // Back to the default: the row goes; the other choice stays.
    settings.notifications.announcement = 'in-app';
    await writeUserSettings(database.db, id, settings, AT);
    const after = await database.db
      .selectFrom('user_notification_channels')
      .select('kind')
      .where('user_id', '=', id)
      .execute();
    expect(after).toEqual([{ kind: 'wiki.page-changed' }]);
    expect((await readUserSettings(database.db, id)).notifications.announcement).toBe('in-app');
  });

  it('reads a stored value it no longer understands as the defaults', async () => {
    const id = await user();
    await database.db
      .insertInto('user_settings')
      .values({ user_id: id, value: '{"colorScheme":"purple","dateFormat":"iso"', updated_at: AT })
      .execute();
    await database.db
      .insertInto('user_notification_channels')
      .values([
        { user_id: id, kind: 'retired.kind', channel: 'email' },
        { user_id: id, kind: 'announcement', channel: 'pigeon' },
        { user_id: id, kind: 'account.new-sign-in', channel: 'none' },
      ])
      .execute();
    expect(await readUserSettings(database.db, id)).toEqual(defaultUserSettings());
    expect((await notificationChannelChoices(database.db, 'account.new-sign-in')).size).toBe(0);
  });

  it('tells delivery who chose something other than the default, among everyone or some', async () => {
    const [ana, ben, cat] = [await user(), await user(), await user()];
    const settings = defaultUserSettings();
    settings.notifications.announcement = 'email';
    await writeUserSettings(database.db, ana, settings, AT);
    settings.notifications.announcement = 'none';
    await writeUserSettings(database.db, ben, settings, AT);
    // Cat saved, but kept the default: no row, no entry.
    await writeUserSettings(database.db, cat, defaultUserSettings(), AT);

    const everyone = await notificationChannelChoices(database.db, 'announcement');
    expect(Object.fromEntries(everyone)).toEqual({ [ana]: 'email', [ben]: 'none' });
    const some = await notificationChannelChoices(database.db, 'announcement', [ben, cat]);
    expect(Object.fromEntries(some)).toEqual({ [ben]: 'none' });
    expect((await notificationChannelChoices(database.db, 'assignment.new')).size).toBe(0);
    expect((await notificationChannelChoices(database.db, 'announcement', [])).size).toBe(0);
  });

  it('reads a list of ids longer than one IN list, in chunks', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(await user());
    const settings = defaultUserSettings();
    settings.notifications['library.item-added'] = 'email';
    for (const id of ids) await writeUserSettings(database.db, id, settings, AT);
    // 1,200 ids, most of them nobody's: three chunks of at most 500.
    const many = [
      ...Array.from({ length: 600 }, (_, i) => `nobody-${i}`),
      ...ids,
      ...Array.from({ length: 597 }, (_, i) => `nobody-else-${i}`),
    ];
    const found = await notificationChannelChoices(database.db, 'library.item-added', many);
    expect([...found.keys()].sort()).toEqual([...ids].sort());
    expect(NOTIFICATION_KINDS).toContain('library.item-added');
  });

  it('writes inside a caller’s transaction too', async () => {
    const id = await user();
    const settings = defaultUserSettings();
    settings.colorScheme = 'light';
    await database.db.transaction().execute(async (trx) => {
      await writeUserSettings(trx, id, settings, AT);
    });
    expect((await readUserSettings(database.db, id)).colorScheme).toBe('light');
  });
});
