import {
  defaultUserSettings,
  SETTINGS_MESSAGES,
  type UserSettings,
  type UserSettingsView,
} from '@learning-hub/core';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { formatDateTime } from '../../../lib/format';
import { PHONE_QUERY } from '../../../lib/use-phone';
import type { MockRequest } from '../../../test/fetch-mock';
import { buildUser } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { EMAIL_NOT_SET_UP, SAVED } from './settings-page';

const student = buildUser();

function view(overrides: Partial<UserSettingsView> = {}): UserSettingsView {
  return {
    settings: defaultUserSettings(),
    emailAvailable: true,
    startPages: [
      { path: '/', label: 'Home' },
      { path: '/classroom', label: 'Courses' },
      { path: '/library', label: 'Library' },
    ],
    ...overrides,
  };
}

/** A server that stores what it is sent and answers it (as PUT /api/settings does). */
function storingServer(initial = view()) {
  let stored: UserSettings = initial.settings;
  return {
    'GET /api/settings': () => ({ body: { ...initial, settings: stored } }),
    'PUT /api/settings': (request: MockRequest) => {
      stored = request.body as UserSettings;
      return { body: stored };
    },
  };
}

const status = () => screen.getByRole('status', { name: '' });

describe('settings page', () => {
  it('saves each change at once, applies it, and says so', async () => {
    const server = signedInAs(student, storingServer());
    const { user } = renderApp('/settings');
    await findHeading('Settings');
    const schemes = screen.getByRole('radiogroup', { name: 'Colour scheme' });
    expect(within(schemes).getByRole('radio', { name: 'As the device' })).toBeChecked();

    await user.click(within(schemes).getByRole('radio', { name: 'Dark' }));
    // Applied at once, everywhere: Mantine's scheme on the document.
    await waitFor(() =>
      expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark'),
    );
    await waitFor(() => expect(status()).toHaveTextContent(SAVED));
    const puts = server.callsTo('PUT /api/settings');
    expect(puts).toHaveLength(1);
    // The whole settings, as the contract asks.
    expect(puts[0]?.body).toEqual({ ...defaultUserSettings(), colorScheme: 'dark' });

    await user.click(screen.getByRole('radio', { name: 'Year, month, day (ISO 8601)' }));
    await waitFor(() => expect(server.callsTo('PUT /api/settings')).toHaveLength(2));
    expect(server.callsTo('PUT /api/settings')[1]?.body).toMatchObject({
      colorScheme: 'dark',
      dateFormat: 'iso',
    });
    await user.click(screen.getByRole('radio', { name: 'Reduce motion' }));
    await waitFor(() => expect(document.documentElement.dataset.reducedMotion).toBe('reduce'));

    const announcements = screen.getByRole('radiogroup', {
      name: 'Announcements: how it reaches you',
    });
    await user.click(within(announcements).getByRole('radio', { name: 'Email' }));
    await waitFor(() => expect(server.callsTo('PUT /api/settings')).toHaveLength(4));
    const last = server.callsTo('PUT /api/settings')[3]?.body as UserSettings;
    expect(last.notifications.announcement).toBe('email');
    expect(last.reducedMotion).toBe('reduce');
  });

  it('shows a live example of each date format, in the chosen zone', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-12-31T23:30:00.000Z') });
    try {
      signedInAs(
        student,
        storingServer(view({ settings: { ...defaultUserSettings(), timeZone: 'Asia/Tokyo' } })),
      );
      renderApp('/settings');
      await findHeading('Settings');
      // Half past eight in the morning of New Year's Day in Tokyo.
      expect(screen.getByText('Now: 01/01/2027 08:30')).toBeInTheDocument();
      expect(screen.getByText('Now: 01/01/2027 8:30 AM')).toBeInTheDocument();
      expect(screen.getByText('Now: 2027-01-01 08:30')).toBeInTheDocument();
      const locale = formatDateTime('2026-12-31T23:30:00.000Z', {
        dateFormat: 'locale',
        timeZone: 'Asia/Tokyo',
      });
      expect(screen.getByText(`Now: ${locale}`)).toBeInTheDocument();
      expect(screen.getByRole('combobox', { name: /Time zone/ })).toHaveValue('Asia/Tokyo');
    } finally {
      vi.useRealTimers();
    }
  });

  it('chooses a time zone by searching, or the device’s own', async () => {
    const server = signedInAs(student, storingServer());
    const { user } = renderApp('/settings');
    await findHeading('Settings');
    const zone = screen.getByRole('combobox', { name: /Time zone/ });
    expect((zone as HTMLInputElement).value).toMatch(/^This device’s time zone \(.+\)$/);
    await user.click(zone);
    await user.clear(zone);
    await user.type(zone, 'Berlin');
    await user.click(await screen.findByRole('option', { name: 'Europe/Berlin' }));
    await waitFor(() => expect(server.callsTo('PUT /api/settings')).toHaveLength(1));
    expect(server.callsTo('PUT /api/settings')[0]?.body).toMatchObject({
      timeZone: 'Europe/Berlin',
    });
    await user.click(zone);
    await user.clear(zone);
    await user.type(zone, 'device');
    await user.click(await screen.findByRole('option', { name: /^This device’s time zone/ }));
    await waitFor(() => expect(server.callsTo('PUT /api/settings')).toHaveLength(2));
    expect(server.callsTo('PUT /api/settings')[1]?.body).toMatchObject({ timeZone: null });
  });

  it('shows a refusal in words, puts the choice back, and tries again on request', async () => {
    let refuse = true;
    const server = signedInAs(student, {
      'GET /api/settings': { body: view() },
      'PUT /api/settings': (request) =>
        refuse
          ? {
              status: 400,
              body: {
                code: 'VALIDATION_ERROR',
                message: SETTINGS_MESSAGES.startPageDenied('Courses'),
                details: { issues: [{ path: 'body.startPage', message: 'x' }] },
              },
            }
          : { body: request.body },
    });
    const { user } = renderApp('/settings');
    await findHeading('Settings');
    const startPage = screen.getByRole('combobox', { name: 'Start page' });
    expect(startPage).toHaveValue('Home');
    await user.click(startPage);
    await user.click(await screen.findByRole('option', { name: 'Courses' }));

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Your change was not saved');
    expect(alert).toHaveTextContent(SETTINGS_MESSAGES.startPageDenied('Courses'));
    // What the server last confirmed is what shows.
    await waitFor(() => expect(startPage).toHaveValue('Home'));

    refuse = false;
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(status()).toHaveTextContent(SAVED));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(startPage).toHaveValue('Courses');
    expect(server.callsTo('PUT /api/settings')).toHaveLength(2);
    expect(server.callsTo('PUT /api/settings')[1]?.body).toMatchObject({ startPage: '/classroom' });
  });

  it('keeps the security notices from being turned off, and says when email is not set up', async () => {
    signedInAs(student, storingServer(view({ emailAvailable: false })));
    renderApp('/settings');
    await findHeading('Settings');
    expect(screen.getByText(EMAIL_NOT_SET_UP)).toBeInTheDocument();
    const signIns = screen.getByRole('radiogroup', { name: 'New sign-ins: how it reaches you' });
    expect(within(signIns).getByRole('radio', { name: 'None' })).toBeDisabled();
    expect(within(signIns).getByRole('radio', { name: 'Email' })).toBeEnabled();
    const grades = screen.getByRole('radiogroup', { name: 'Grades: how it reaches you' });
    expect(within(grades).getByRole('radio', { name: 'None' })).toBeEnabled();
  });

  it('lists the notifications as a table on a wide screen and as cards on a phone', async () => {
    signedInAs(student, storingServer());
    const wide = renderApp('/settings');
    await findHeading('Settings');
    const table = screen.getByRole('table', { name: 'Notifications' });
    expect(within(table).getByRole('columnheader', { name: 'Delivery' })).toBeInTheDocument();
    expect(within(table).getAllByRole('row')).toHaveLength(1 + 13);
    expect(screen.queryByText(EMAIL_NOT_SET_UP)).not.toBeInTheDocument();
    wide.unmount();

    const matchMedia = window.matchMedia;
    vi.stubGlobal('matchMedia', (query: string) => ({
      ...matchMedia(query),
      matches: query === PHONE_QUERY || matchMedia(query).matches,
    }));
    const { user } = renderApp('/settings');
    await findHeading('Settings');
    expect(screen.queryByRole('table', { name: 'Notifications' })).not.toBeInTheDocument();
    const cards = screen.getByRole('list', { name: 'Notifications' });
    const announcements = within(cards).getAllByRole('listitem')[0]!;
    expect(announcements).toHaveTextContent('Announcements');
    expect(announcements).toHaveTextContent('An announcement is published to you.');
    await user.click(within(announcements).getByRole('radio', { name: 'None' }));
    await waitFor(() =>
      expect(within(announcements).getByRole('radio', { name: 'None' })).toBeChecked(),
    );
  });
});
