import { describe, expect, it, vi } from 'vitest';
import { SETTINGS_MESSAGES, UserSettingsUpdateSchema } from './contracts/settings';
import { NOTIFICATION_KINDS } from './notification-kinds';
import {
  coerceDisplaySettings,
  coerceUserSettings,
  defaultUserSettings,
  startPageChoices,
  startPageRoute,
} from './settings';
import type { AccessSubject } from './access';

const issues = (value: unknown) => {
  const result = UserSettingsUpdateSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => [i.path.join('.'), i.message]);
};

describe('user settings', () => {
  it('have a default for every kind and field', () => {
    const settings = defaultUserSettings();
    expect(Object.keys(settings.notifications)).toEqual([...NOTIFICATION_KINDS]);
    expect(settings).toMatchObject({
      colorScheme: 'system',
      timeZone: null,
      dateFormat: 'locale',
      startPage: '/',
      reducedMotion: 'system',
    });
    expect(issues(settings)).toEqual([]);
  });

  it('refuse, in words, what is not a setting', () => {
    const base = defaultUserSettings();
    expect(issues({ ...base, extra: true })).toEqual([
      ['', SETTINGS_MESSAGES.unknownField('extra')],
    ]);
    expect(issues({ ...base, notifications: { 'no.such-kind': 'email' } })).toEqual([
      ['notifications.no.such-kind', SETTINGS_MESSAGES.unknownKind('no.such-kind')],
    ]);
    expect(issues({ ...base, notifications: { 'account.new-sign-in': 'none' } })).toEqual([
      ['notifications.account.new-sign-in', SETTINGS_MESSAGES.required('account.new-sign-in')],
    ]);
    expect(issues({ ...base, notifications: { announcement: 'fax' } })).toEqual([
      ['notifications.announcement', SETTINGS_MESSAGES.badChannel],
    ]);
    expect(issues({ ...base, startPage: '/admin' })).toEqual([
      ['startPage', SETTINGS_MESSAGES.badStartPage('/admin')],
    ]);
    expect(issues({ ...base, timeZone: 'Europe/Berlin; drop' })).toHaveLength(1);
    // A kind left out keeps its default: only the ones chosen need sending.
    expect(issues({ ...base, notifications: { announcement: 'email' } })).toEqual([]);
  });

  it('read a stored copy defensively, field by field', () => {
    expect(coerceDisplaySettings('garbage')).toEqual(coerceDisplaySettings({}));
    expect(
      coerceDisplaySettings({
        colorScheme: 'dark',
        timeZone: 'Not a zone!',
        dateFormat: 'iso',
        startPage: '/admin',
        reducedMotion: 42,
      }),
    ).toEqual({
      colorScheme: 'dark',
      timeZone: null,
      dateFormat: 'iso',
      startPage: '/',
      reducedMotion: 'system',
    });
    const coerced = coerceUserSettings({
      notifications: { announcement: 'email', 'account.new-sign-in': 'none', nope: 'email' },
    });
    expect(coerced.notifications.announcement).toBe('email');
    expect(coerced.notifications['account.new-sign-in']).toBe('in-app');
    expect(coerced.notifications).not.toHaveProperty('nope');
  });

  it('offer the built start pages the person may open', () => {
    const student: AccessSubject = {
      id: 'u1',
      role: 'student',
      isSuperAdmin: false,
      directPermissions: [],
      contextAssignments: [],
    };
    const paths = startPageChoices(student).map((c) => c.path);
    expect(paths[0]).toBe('/');
    expect(paths).toContain('/classroom');
    // Not built yet: never offered, whoever asks.
    expect(startPageRoute('/dashboard')?.built ?? false).toBe(false);
    expect(paths).not.toContain('/dashboard');
    expect(startPageChoices(student).find((c) => c.path === '/classroom')?.label).toBe('Courses');
    // A role nobody defined grants nothing (and core says so on the console).
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const nobody: AccessSubject = { ...student, role: 'no-such-role' };
    expect(startPageChoices(nobody).map((c) => c.path)).toEqual(['/']);
    warn.mockRestore();
  });
});
