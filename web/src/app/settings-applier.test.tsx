import {
  defaultUserSettings,
  STORAGE_KEYS,
  type UserSettings,
  type UserSettingsView,
} from '@learning-hub/core';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { settingsKey } from '../features/settings/api/settings-api';
import { formatDateTime } from '../lib/format';
import { readStoredSettings } from '../lib/settings/stored-settings';
import { mockFetch, type MockRequest } from '../test/fetch-mock';
import { buildSessionInfo, buildUser } from '../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../test/render-app';

const student = buildUser();
const settingsOf = (changes: Partial<UserSettings>): UserSettings => ({
  ...defaultUserSettings(),
  ...changes,
});
const viewOf = (settings: UserSettings): UserSettingsView => ({
  settings,
  emailAvailable: false,
  startPages: [{ path: '/', label: 'Home' }],
});
const scheme = () => document.documentElement.getAttribute('data-mantine-color-scheme');
const sessions = [buildSessionInfo({ lastUsedAt: '2025-03-01T10:30:00.000Z' })];
const sessionRoutes = {
  'GET /api/auth/sessions': {
    body: { items: sessions, total: sessions.length, page: 1, pageSize: 25 },
  },
};

function keep(userId: string | null, settings: UserSettings) {
  window.localStorage.setItem(STORAGE_KEYS.settings, JSON.stringify({ userId, settings }));
}

describe('settings applier', () => {
  it('applies the browser’s copy from the first render, then what the server says, and keeps it', async () => {
    keep(student.id, settingsOf({ colorScheme: 'dark' }));
    let answer: (value: { body: UserSettingsView }) => void = () => undefined;
    signedInAs(student, {
      ...sessionRoutes,
      'GET /api/settings': () => new Promise((resolve) => (answer = resolve)),
    });
    renderApp('/profile-settings');
    // Before the server has answered: no frame of the wrong scheme.
    expect(scheme()).toBe('dark');
    await findHeading('Profile Settings');
    expect(scheme()).toBe('dark');

    answer({ body: viewOf(settingsOf({ colorScheme: 'light', dateFormat: 'iso' })) });
    await waitFor(() => expect(scheme()).toBe('light'));
    expect(readStoredSettings()).toEqual({
      userId: student.id,
      settings: settingsOf({ colorScheme: 'light', dateFormat: 'iso' }),
    });
  });

  it('follows the query’s data at once: scheme, dates and motion, and keeps what is typed', async () => {
    signedInAs(student, sessionRoutes);
    const { user, queryClient } = renderApp('/profile-settings');
    await findHeading('Profile Settings');
    const table = await screen.findByRole('table', { name: /sessions/i });
    const locale = formatDateTime('2025-03-01T10:30:00.000Z');
    expect(within(table).getByText(locale)).toBeInTheDocument();
    const firstName = screen.getByLabelText(/First name/);
    await user.clear(firstName);
    await user.type(firstName, 'Typed, not saved');

    // What the live channel (or anything else) does with new settings: set the query's data.
    act(() => {
      queryClient.setQueryData(
        settingsKey,
        settingsOf({
          colorScheme: 'dark',
          dateFormat: 'iso',
          timeZone: 'Asia/Tokyo',
          reducedMotion: 'reduce',
        }),
      );
    });
    await waitFor(() => expect(scheme()).toBe('dark'));
    // 10:30 UTC is 19:30 in Tokyo.
    expect(within(table).getByText('2025-03-01 19:30')).toBeInTheDocument();
    expect(within(table).queryByText(locale)).not.toBeInTheDocument();
    expect(document.documentElement.dataset.reducedMotion).toBe('reduce');
    expect(firstName).toHaveValue('Typed, not saved');

    act(() => {
      queryClient.setQueryData(settingsKey, settingsOf({ dateFormat: 'day-month-year' }));
    });
    expect(await within(table).findByText('01/03/2025 10:30')).toBeInTheDocument();
    expect(document.documentElement.dataset.reducedMotion).toBeUndefined();
    expect(scheme()).toBe('light');
    expect(firstName).toHaveValue('Typed, not saved');
  });

  it('follows what another tab of this browser saved', async () => {
    signedInAs(student, sessionRoutes);
    renderApp('/profile-settings');
    await findHeading('Profile Settings');
    await waitFor(() => expect(readStoredSettings()?.userId).toBe(student.id));
    const table = await screen.findByRole('table', { name: /sessions/i });

    const raw = JSON.stringify({
      userId: student.id,
      settings: settingsOf({ colorScheme: 'dark', dateFormat: 'iso' }),
    });
    act(() => {
      window.localStorage.setItem(STORAGE_KEYS.settings, raw);
      window.dispatchEvent(
        new StorageEvent('storage', {
          key: STORAGE_KEYS.settings,
          newValue: raw,
          storageArea: window.localStorage,
        }),
      );
    });
    await waitFor(() => expect(scheme()).toBe('dark'));
    expect(await within(table).findByText('2025-03-01 10:30')).toBeInTheDocument();
  });

  it('reads a copy it cannot make sense of as the defaults', async () => {
    window.localStorage.setItem(STORAGE_KEYS.settings, '{"settings":{"colorScheme":"plaid"');
    signedInAs(student, {
      ...sessionRoutes,
      'GET /api/settings': () => new Promise(() => undefined),
    });
    renderApp('/profile-settings');
    await findHeading('Profile Settings');
    expect(scheme()).toBe('light');
  });

  it('saves the header’s colour-scheme button as the person’s setting', async () => {
    const puts: MockRequest[] = [];
    signedInAs(student, {
      ...sessionRoutes,
      'PUT /api/settings': (request) => {
        puts.push(request);
        return { body: request.body };
      },
    });
    const { user } = renderApp('/profile-settings');
    await findHeading('Profile Settings');
    await user.click(screen.getByRole('button', { name: 'Switch to dark colour scheme' }));
    await waitFor(() => expect(scheme()).toBe('dark'));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]?.body).toEqual(settingsOf({ colorScheme: 'dark' }));
    expect(screen.getByRole('button', { name: 'Switch to light colour scheme' })).toBeVisible();
  });

  it('puts the header’s choice back and says so when it cannot be saved', async () => {
    signedInAs(student, {
      ...sessionRoutes,
      'PUT /api/settings': { status: 503, body: { code: 'UNAVAILABLE', message: 'Try later.' } },
    });
    const { user } = renderApp('/profile-settings');
    await findHeading('Profile Settings');
    await user.click(screen.getByRole('button', { name: 'Switch to dark colour scheme' }));
    expect(await screen.findByText('Colour scheme not saved')).toBeInTheDocument();
    await waitFor(() => expect(scheme()).toBe('light'));
  });

  it('keeps a visitor’s choice in this browser alone', async () => {
    const fetchMock = mockFetch({ 'GET /api/auth/me': { status: 401, body: {} } });
    const { user } = renderApp('/login');
    await findHeading('Sign in');
    await user.click(screen.getByRole('button', { name: 'Switch to dark colour scheme' }));
    await waitFor(() => expect(scheme()).toBe('dark'));
    expect(readStoredSettings()).toEqual({
      userId: null,
      settings: settingsOf({ colorScheme: 'dark' }),
    });
    expect(fetchMock.callsTo('PUT /api/settings')).toHaveLength(0);
    expect(fetchMock.callsTo('GET /api/settings')).toHaveLength(0);
  });
});
