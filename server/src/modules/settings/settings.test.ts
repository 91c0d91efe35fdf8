import {
  defaultUserSettings,
  SETTINGS_MESSAGES,
  type UserSettings,
  type PermissionId,
  type UserSettingsView,
} from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import {
  bumpAccessVersion,
  grantUserPermission,
  revokeUserPermission,
} from '../../platform/access/access-repository';
import { createSession } from '../../platform/auth/session-repository';
import { findUserByUsername } from '../../platform/auth/user-repository';
import { notificationChannelChoices } from '../../platform/settings/user-settings-repository';
import { seedDemoData } from '../../seed';
import { seedDemoClassroom } from '../courses/seed';
import {
  bearer,
  createTestApp,
  createTestUser,
  signIn,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { canonicalTimeZone } from './routes';
import { seedDemoSettings } from './seed';

const available = await testDatabaseAvailable();
const AT = '2026-11-22T09:00:00.000Z';

describe.skipIf(!available)(`settings (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function signedIn(
    role: 'student' | 'instructor' | 'admin' = 'student',
    department?: string,
  ) {
    const { user, password } = await createTestUser(ctx, { role, department });
    const token = await signIn(ctx.app, user.username, password);
    const get = () =>
      ctx.app.inject({ method: 'GET', url: '/api/settings', headers: bearer(token) });
    const put = (payload: object) =>
      ctx.app.inject({ method: 'PUT', url: '/api/settings', headers: bearer(token), payload });
    return { user, token, get, put };
  }

  it('answers the defaults, email not set up, and the start pages a student may choose', async () => {
    const { get } = await signedIn('student', 'Field Operations');
    const response = await get();
    expect(response.statusCode).toBe(200);
    const view = response.json<UserSettingsView>();
    expect(view.settings).toEqual(defaultUserSettings());
    expect(view.emailAvailable).toBe(false);
    expect(view.startPages).toEqual([
      { path: '/', label: 'Home' },
      { path: '/classroom', label: 'Courses' },
      { path: '/learning-management', label: 'Learning Management' },
      { path: '/library', label: 'Library' },
      { path: '/wiki', label: 'Wiki' },
      { path: '/departments', label: 'Departments' },
    ]);
    // In no department, a student sees no department page (spec §6): not a start page either.
    const outside = await signedIn('student');
    const paths = (await outside.get()).json<UserSettingsView>().startPages.map((p) => p.path);
    expect(paths).not.toContain('/departments');
    expect(paths).toContain('/classroom');
  });

  it('says email is available when the server has a mail server', async () => {
    await ctx.close();
    ctx = await createTestApp({ env: { SMTP_URL: 'smtp://mail.example.com:2525' } });
    const { get } = await signedIn();
    expect((await get()).json<UserSettingsView>().emailAvailable).toBe(true);
  });

  it('stores the whole settings and answers them, for this person only', async () => {
    const ana = await signedIn();
    const ben = await signedIn();
    const settings: UserSettings = {
      ...defaultUserSettings(),
      colorScheme: 'dark',
      timeZone: 'Europe/Berlin',
      dateFormat: 'day-month-year',
      startPage: '/library',
      reducedMotion: 'reduce',
    };
    settings.notifications.announcement = 'email';
    settings.notifications['wiki.page-changed'] = 'none';
    settings.notifications['account.new-sign-in'] = 'email';
    const saved = await ana.put(settings);
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(settings);
    expect((await ana.get()).json<UserSettingsView>().settings).toEqual(settings);
    expect((await ben.get()).json<UserSettingsView>().settings).toEqual(defaultUserSettings());

    // What delivery reads: only the choices off the default.
    const choices = await notificationChannelChoices(ctx.database.db, 'announcement');
    expect(Object.fromEntries(choices)).toEqual({ [ana.user.id]: 'email' });

    // Kinds left out keep (go back to) their defaults; the zone is stored by its canonical name.
    const partial = await ana.put({
      ...settings,
      notifications: { announcement: 'email' },
      timeZone: 'utc',
    });
    expect(partial.statusCode).toBe(200);
    expect(partial.json<UserSettings>().notifications['wiki.page-changed']).toBe('in-app');
    expect(partial.json<UserSettings>().timeZone).toBe('UTC');
    expect(
      (await ana.put({ ...settings, timeZone: null })).json<UserSettings>().timeZone,
    ).toBeNull();
  });

  it('refuses what is not a setting, in words, and keeps what was stored', async () => {
    const { put, get } = await signedIn('student');
    const base = defaultUserSettings();
    const refusals: [object, string, string][] = [
      [
        { ...base, notifications: { 'no.such-kind': 'email' } },
        'body.notifications.no.such-kind',
        SETTINGS_MESSAGES.unknownKind('no.such-kind'),
      ],
      [
        { ...base, notifications: { 'account.password-changed': 'none' } },
        'body.notifications.account.password-changed',
        SETTINGS_MESSAGES.required('account.password-changed'),
      ],
      [
        { ...base, notifications: { announcement: 'fax' } },
        'body.notifications.announcement',
        SETTINGS_MESSAGES.badChannel,
      ],
      [
        { ...base, timeZone: 'Mars/Olympus_Mons' },
        'body.timeZone',
        SETTINGS_MESSAGES.badTimeZone('Mars/Olympus_Mons'),
      ],
      [{ ...base, timeZone: 'Europe/Berlin<script>' }, 'body.timeZone', 'That is not a time zone.'],
      [
        { ...base, startPage: '/admin' },
        'body.startPage',
        SETTINGS_MESSAGES.badStartPage('/admin'),
      ],
      // Not built yet: no one's start page.
      [
        { ...base, startPage: '/dashboard' },
        'body.startPage',
        SETTINGS_MESSAGES.badStartPage('/dashboard'),
      ],
      [{ ...base, colorScheme: 'sepia' }, 'body.colorScheme', 'Choose light, dark or system.'],
      [{ ...base, theme: 'dark' }, 'body', SETTINGS_MESSAGES.unknownField('theme')],
    ];
    for (const [payload, path, message] of refusals) {
      const response = await put(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({
        code: 'VALIDATION_ERROR',
        message,
        details: { issues: [{ path, message }] },
      });
    }
    // A field left out is refused too: the body is the whole settings.
    const { reducedMotion: _left, ...withoutOne } = base;
    expect((await put(withoutOne)).statusCode).toBe(400);
    expect((await get()).json<UserSettingsView>().settings).toEqual(base);
  });

  /**
   * Someone whose role grants nothing (a role nobody defined), with only the permissions given
   * here directly: the settings page and whatever else they are granted.
   */
  async function withOnly(...permissions: PermissionId[]) {
    const person = await signedIn('student');
    const db = ctx.database.db;
    await db
      .updateTable('users')
      .set({ role: 'no-such-role' })
      .where('id', '=', person.user.id)
      .execute();
    for (const permission of permissions) {
      await grantUserPermission(db, person.user.id, permission, null, AT);
    }
    await bumpAccessVersion(db, person.user.id);
    return person;
  }

  it('refuses a start page the person may not open, and answers / for one they lost', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    onTestFinished(() => warn.mockRestore());
    const person = await withOnly('user.view_profile', 'library.view');
    expect((await person.put({ ...defaultUserSettings(), startPage: '/library' })).statusCode).toBe(
      200,
    );
    const refused = await person.put({ ...defaultUserSettings(), startPage: '/classroom' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: SETTINGS_MESSAGES.startPageDenied('Courses'),
      details: { issues: [{ path: 'body.startPage' }] },
    });
    expect((await person.get()).json<UserSettingsView>().startPages).toEqual([
      { path: '/', label: 'Home' },
      { path: '/library', label: 'Library' },
      { path: '/wiki', label: 'Wiki' },
    ]);

    // library.view taken away: the library is no start page of theirs any more.
    await revokeUserPermission(ctx.database.db, person.user.id, 'library.view');
    const view = (await person.get()).json<UserSettingsView>();
    expect(view.settings.startPage).toBe('/');
    expect(view.startPages).toEqual([{ path: '/', label: 'Home' }]);
    // Saving anything else still works: the lost start page is not sent back.
    const saved = await person.put({ ...view.settings, colorScheme: 'dark' });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({ colorScheme: 'dark', startPage: '/' });
  });

  it('is for signed-in people who may see their profile', async () => {
    expect((await ctx.app.inject({ method: 'GET', url: '/api/settings' })).statusCode).toBe(401);
    expect(
      (
        await ctx.app.inject({
          method: 'PUT',
          url: '/api/settings',
          payload: defaultUserSettings(),
        })
      ).statusCode,
    ).toBe(401);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    onTestFinished(() => warn.mockRestore());
    const nobody = await withOnly('library.view');
    for (const response of [await nobody.get(), await nobody.put(defaultUserSettings())]) {
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({
        code: 'FORBIDDEN',
        message: 'Missing required permission: user.view_profile',
      });
    }
  });

  it('knows the zones of IANA, by their canonical names', () => {
    expect(canonicalTimeZone('Europe/Berlin')).toBe('Europe/Berlin');
    expect(canonicalTimeZone('Mars/Olympus_Mons')).toBeNull();
  });

  it('seeds a few demo people with their own settings, once', async () => {
    const db = ctx.database.db;
    const now = new Date(ctx.clock.now());
    await seedDemoData(db, now);
    await seedDemoClassroom(db, now);
    expect(await seedDemoSettings(db, now)).toBe(true);
    expect(await seedDemoSettings(db, now)).toBe(false);
    const instructor = await findUserByUsername(db, 'instructor');
    const { token } = await createSession(db, {
      userId: instructor?.id as string,
      method: 'local',
      now,
      lifetimeMs: 3_600_000,
      ipAddress: null,
      userAgent: null,
    });
    const view = (
      await ctx.app.inject({ method: 'GET', url: '/api/settings', headers: bearer(token) })
    ).json<UserSettingsView>();
    expect(view.settings).toMatchObject({ colorScheme: 'dark', dateFormat: 'day-month-year' });
    const student = await findUserByUsername(db, 'student');
    const email = await notificationChannelChoices(db, 'announcement');
    expect(email.get(student?.id as string)).toBe('email');
  });
});
