import { STORAGE_KEYS } from '@learning-hub/core';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { PHONE_QUERY } from '../../../lib/use-phone';
import { buildMe, buildSessionInfo, buildUser } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';

const student = buildUser();
const sessions = [
  buildSessionInfo({ id: 's-current', current: true }),
  buildSessionInfo({
    id: 's-phone',
    current: false,
    ipAddress: '10.0.0.9',
    userAgent: 'Phone Browser',
  }),
];
const sessionRoutes = {
  'GET /api/auth/sessions': {
    body: { items: sessions, total: sessions.length, page: 1, pageSize: 25 },
  },
};

function storedUser() {
  return JSON.parse(window.localStorage.getItem(STORAGE_KEYS.session) ?? 'null')?.user;
}

describe('profile settings: profile form', () => {
  it('shows read-only account facts and saves changed fields', async () => {
    const updated = { ...student, firstname: 'Samuel' };
    const fetchMock = signedInAs(student, {
      ...sessionRoutes,
      'PUT /api/auth/profile': { body: { user: updated } },
    });
    const { user } = renderApp('/profile-settings');
    await findHeading('Profile Settings');
    expect(screen.getByLabelText('Username')).toHaveValue('student');
    expect(screen.getByLabelText('Username')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Role')).toHaveValue('Student');
    expect(screen.getByLabelText('Department')).toHaveValue('Network Engineering');

    const firstName = screen.getByLabelText(/First name/);
    await user.clear(firstName);
    await user.type(firstName, 'Samuel');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/auth/profile')[0]?.body).toEqual({ firstname: 'Samuel' });
    expect(storedUser().firstname).toBe('Samuel');
    expect(
      screen.getByRole('button', { name: /Account menu for Samuel Student/ }),
    ).toBeInTheDocument();
  });

  it('validates the fields', async () => {
    const fetchMock = signedInAs(student, sessionRoutes);
    const { user } = renderApp('/profile-settings');
    await findHeading('Profile Settings');
    await user.clear(screen.getByLabelText(/First name/));
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('First name is required')).toBeInTheDocument();
    expect(screen.getByText('Enter a valid email address')).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/auth/profile')).toHaveLength(0);
  });

  it("shows the server's message", async () => {
    signedInAs(student, {
      ...sessionRoutes,
      'PUT /api/auth/profile': {
        status: 409,
        body: { code: 'CONFLICT', message: 'That email address is already in use' },
      },
    });
    const { user } = renderApp('/profile-settings');
    await findHeading('Profile Settings');
    await user.clear(screen.getByLabelText('Email'));
    await user.type(screen.getByLabelText('Email'), 'taken@example.com');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'That email address is already in use',
    );
  });

  it('learns from a PASSWORD_CHANGE_REQUIRED answer that the password must change', async () => {
    const fetchMock = signedInAs(student, {
      ...sessionRoutes,
      'PUT /api/auth/profile': {
        status: 403,
        body: { code: 'PASSWORD_CHANGE_REQUIRED', message: 'You must change your password first' },
      },
    });
    const { user } = renderApp('/profile-settings');
    await findHeading('Profile Settings');
    fetchMock.set({
      'GET /api/auth/me': { body: buildMe({ ...student, mustChangePassword: true }) },
    });
    await user.type(screen.getByLabelText(/Last name/), 's');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(
      await screen.findByText('You must change your password before continuing.'),
    ).toBeInTheDocument();
    expect(fetchMock.callsTo('GET /api/auth/me')).toHaveLength(2);
  });
});

describe('profile settings: password', () => {
  async function fill(
    user: ReturnType<typeof renderApp>['user'],
    current: string,
    next: string,
    confirm: string,
  ) {
    if (current) await user.type(screen.getByLabelText(/Current password/), current);
    if (next) await user.type(screen.getByLabelText(/^New password/), next);
    if (confirm) await user.type(screen.getByLabelText(/Confirm new password/), confirm);
    await user.click(screen.getByRole('button', { name: 'Change password' }));
  }

  it('says before anything is typed that a directory account changes its password, and the names its directory sets, elsewhere', async () => {
    const directoryUser = buildUser({ authMethod: 'ldap', ldapGroups: [], ldapAttributes: {} });
    signedInAs(directoryUser, {
      ...sessionRoutes,
      'GET /api/auth/profile': {
        body: {
          provider: { id: 'corp-ldap', label: 'Corporate directory' },
          providerOwned: ['firstname', 'lastname'],
        },
      },
    });
    renderApp('/profile-settings');
    await findHeading('Profile Settings');
    await waitFor(() => expect(screen.getByLabelText(/First name/)).toHaveAttribute('readonly'));
    expect(screen.getByLabelText(/Last name/)).toHaveAttribute('readonly');
    expect(screen.getAllByText('From Corporate directory: change it there.')).toHaveLength(2);
    expect(screen.getByLabelText('Email')).not.toHaveAttribute('readonly');
    expect(
      screen.getByText('This account signs in through another service: change its password there.'),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText(/Current password/)).not.toBeInTheDocument();
  });

  it('checks length and confirmation before calling the server', async () => {
    const fetchMock = signedInAs(student, sessionRoutes);
    const { user } = renderApp('/profile-settings');
    await findHeading('Profile Settings');
    await fill(user, 'old password', 'short', 'different');
    expect(await screen.findByText('Password must be at least 8 characters.')).toBeInTheDocument();
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/auth/change-password')).toHaveLength(0);
  });

  it("shows the server's reason beside the field", async () => {
    signedInAs(student, {
      ...sessionRoutes,
      'POST /api/auth/change-password': {
        status: 400,
        body: { code: 'INVALID_CURRENT_PASSWORD', message: 'Current password is incorrect' },
      },
    });
    const { user } = renderApp('/profile-settings');
    await findHeading('Profile Settings');
    await fill(user, 'wrong password', 'a new passphrase', 'a new passphrase');
    expect(await screen.findByText('Current password is incorrect')).toBeInTheDocument();
    expect(screen.getByLabelText(/Current password/)).toHaveAccessibleDescription(
      'Current password is incorrect',
    );
  });

  it('sends the user on to where they were going once a forced change is done', async () => {
    const forced = buildUser({ isDefaultPassword: true });
    const fetchMock = signedInAs(forced, {
      ...sessionRoutes,
      'POST /api/auth/change-password': { body: { revokedSessions: 1 } },
    });
    const { user, router } = renderApp('/library');
    await findHeading('Profile Settings');
    expect(
      screen.getByText('You must change your password before continuing.'),
    ).toBeInTheDocument();
    fetchMock.set({ 'GET /api/auth/me': { body: buildMe(student) } });
    await fill(user, 'default pass', 'a new passphrase', 'a new passphrase');
    await findHeading('Library');
    expect(router.state.location.pathname).toBe('/library');
    expect(fetchMock.callsTo('POST /api/auth/change-password')[0]?.body).toEqual({
      currentPassword: 'default pass',
      newPassword: 'a new passphrase',
    });
    expect(storedUser().isDefaultPassword).toBe(false);
  });
});

describe('profile settings: sessions', () => {
  it('lists the sessions and marks this device', async () => {
    signedInAs(student, sessionRoutes);
    renderApp('/profile-settings');
    await findHeading('Profile Settings');
    const table = await screen.findByRole('table', { name: 'Active sessions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('This device')).toBeInTheDocument();
    expect(within(rows[0]!).queryByRole('button', { name: 'End session' })).not.toBeInTheDocument();
    expect(within(rows[1]!).getByText('Phone Browser')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Local account')).toBeInTheDocument();
  });

  it('shows one card per session on a phone, with the same End session', async () => {
    const matchMedia = window.matchMedia;
    vi.stubGlobal('matchMedia', (query: string) => ({
      ...matchMedia(query),
      matches: query === PHONE_QUERY,
    }));
    signedInAs(student, sessionRoutes);
    renderApp('/profile-settings');
    const list = await screen.findByRole('list', { name: 'Active sessions' });
    expect(screen.queryByRole('table', { name: 'Active sessions' })).not.toBeInTheDocument();
    const [mine, phone] = within(list).getAllByRole('listitem');
    expect(mine).toHaveTextContent('This device');
    expect(phone).toHaveTextContent('User agentPhone Browser');
    expect(phone).toHaveTextContent('Address10.0.0.9');
    expect(within(phone!).getByRole('button', { name: 'End session' })).toBeInTheDocument();
  });

  it('ends one session after confirmation', async () => {
    const fetchMock = signedInAs(student, {
      ...sessionRoutes,
      'DELETE /api/auth/sessions/s-phone': { status: 204 },
    });
    const { user } = renderApp('/profile-settings');
    const table = await screen.findByRole('table', { name: 'Active sessions' });
    await user.click(within(table).getByRole('button', { name: 'End session' }));
    const dialog = await screen.findByRole('dialog', { name: 'End this session?' });
    await user.click(within(dialog).getByRole('button', { name: 'End session' }));
    expect(await screen.findByText('Session ended')).toBeInTheDocument();
    expect(fetchMock.callsTo('DELETE /api/auth/sessions/s-phone')).toHaveLength(1);
    await waitFor(() => expect(fetchMock.callsTo('GET /api/auth/sessions')).toHaveLength(2));
  });

  it('ends all other sessions after confirmation', async () => {
    const fetchMock = signedInAs(student, {
      ...sessionRoutes,
      'POST /api/auth/sessions/revoke-others': { body: { revoked: 1 } },
    });
    const { user } = renderApp('/profile-settings');
    await screen.findByRole('table', { name: 'Active sessions' });
    await user.click(screen.getByRole('button', { name: 'End all other sessions' }));
    const dialog = await screen.findByRole('dialog', { name: 'End all other sessions?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetchMock.callsTo('POST /api/auth/sessions/revoke-others')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'End all other sessions' }));
    await user.click(
      within(await screen.findByRole('dialog')).getByRole('button', {
        name: 'End all other sessions',
      }),
    );
    expect(await screen.findByText('1 session was ended.')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/auth/sessions/revoke-others')).toHaveLength(1);
  });
});
