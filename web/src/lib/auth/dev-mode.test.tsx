import { AUTH_STATE_CHANGED_EVENT, STORAGE_KEYS } from '@learning-hub/core';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '../../test/fetch-mock';
import {
  buildAccess,
  buildAuthConfig,
  buildDevModeConfig,
  buildMe,
  buildSession,
  buildUser,
  storeSession,
} from '../../test/fixtures';
import { findHeading, renderApp } from '../../test/render-app';

/** The server's built-in developer admin, as GET /api/auth/me sends it in dev mode. */
const developer = buildUser({
  id: 'user-developer',
  role: 'admin',
  username: 'developer',
  firstname: 'Developer',
  lastname: 'Admin',
  email: null,
  department: null,
  departmentId: null,
  authMethod: 'disabled',
});
const devMe = {
  user: developer,
  session: {
    id: 'dev-mode',
    method: 'disabled' as const,
    expiresAt: buildMe(developer).session.expiresAt,
  },
  access: buildAccess(developer),
};

function devServer() {
  return mockFetch({
    'GET /api/auth/config': { body: buildDevModeConfig() },
    'GET /api/auth/me': { body: devMe },
    'POST /api/auth/logout': { body: { redirectTo: null } },
  });
}

describe('dev mode (spec §4: always authenticated as the developer admin)', () => {
  it('is signed in through /me without any token, and stores the method disabled', async () => {
    const fetchMock = devServer();
    const events: unknown[] = [];
    const onChange = (e: Event) => events.push((e as CustomEvent).detail);
    window.addEventListener(AUTH_STATE_CHANGED_EVENT, onChange);
    const { router } = renderApp('/');
    await findHeading('Welcome, Developer');
    // Never sent to /login on the way (the guard waits for dev mode to be entered).
    expect(router.state.location.pathname).toBe('/');
    expect(router.state.location.search).toBe('');
    window.removeEventListener(AUTH_STATE_CHANGED_EVENT, onChange);
    expect(screen.getByText('Dev Mode')).toBeInTheDocument();
    const me = fetchMock.callsTo('GET /api/auth/me');
    expect(me.length).toBeGreaterThan(0);
    expect(me.every((c) => c.headers.authorization === undefined)).toBe(true);
    expect(window.localStorage.getItem(STORAGE_KEYS.session)).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.authMethod)).toBe('disabled');
    expect(events).toEqual([{ isAuthenticated: true, userId: 'user-developer' }]);
  });

  it('opens admin pages as the developer admin', async () => {
    devServer();
    const { router } = renderApp('/admin-test');
    await findHeading('Permission Simulator');
    expect(router.state.location.pathname).toBe('/admin-test');
  });

  it('shows the login page as a notice with a way on, and no form', async () => {
    const fetchMock = devServer();
    const { user, router } = renderApp('/login');
    await findHeading('Sign in');
    expect(screen.getByText('Authentication is disabled in development mode')).toBeInTheDocument();
    expect(screen.queryByLabelText(/Username/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Go to Home' }));
    await findHeading('Welcome, Developer');
    expect(router.state.location.pathname).toBe('/');
    expect(fetchMock.callsTo('POST /api/auth/local')).toHaveLength(0);
  });

  it('stays signed in after Logout: dev mode cannot be signed out of', async () => {
    const fetchMock = devServer();
    const { user } = renderApp('/');
    await findHeading('Welcome, Developer');
    await user.click(screen.getByRole('button', { name: /Account menu for/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await findHeading('Sign in');
    expect(fetchMock.callsTo('POST /api/auth/logout')).toHaveLength(1);
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Account menu for Developer Admin, DA' }),
      ).toBeInTheDocument(),
    );
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
  });

  it("saves the developer's profile without a stored session, and says plainly there is no password", async () => {
    const renamed = { ...developer, firstname: 'Dana' };
    const fetchMock = devServer();
    fetchMock.set({
      'GET /api/auth/sessions': { body: { items: [], total: 0, page: 1, pageSize: 25 } },
      'PUT /api/auth/profile': { body: { user: renamed } },
    });
    const { user } = renderApp('/profile-settings');
    await findHeading('Profile Settings');
    // Before anything is typed: the developer account has no password to change.
    expect(
      screen.getByText(
        'You are signed in as the built-in developer account of dev mode. It has no password, so there is nothing to change here.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByLabelText(/Current password/)).not.toBeInTheDocument();

    const firstName = screen.getByLabelText(/First name/);
    await user.clear(firstName);
    await user.type(firstName, 'Dana');
    await user.click(screen.getByRole('button', { name: 'Save profile' }));
    expect(await screen.findByText('Profile updated')).toBeInTheDocument();
    expect(screen.queryByText('User not authenticated')).not.toBeInTheDocument();
    const [put] = fetchMock.callsTo('PUT /api/auth/profile');
    expect(put?.body).toEqual({ firstname: 'Dana' });
    expect(put?.headers.authorization).toBeUndefined();
    expect(
      screen.getByRole('button', { name: 'Account menu for Dana Admin, DA' }),
    ).toBeInTheDocument();
    expect(window.localStorage.getItem(STORAGE_KEYS.session)).toBeNull();
  });

  it('uses a stored session first when there is one', async () => {
    const student = buildUser();
    storeSession(buildSession(student));
    const fetchMock = mockFetch({
      'GET /api/auth/config': { body: buildDevModeConfig() },
      'GET /api/auth/me': { body: buildMe(student) },
    });
    renderApp('/');
    await findHeading('Welcome, Sam');
    expect(fetchMock.callsTo('GET /api/auth/me')[0]?.headers.authorization).toBe(
      `Bearer token-${student.id}`,
    );
  });

  it("outside dev mode, a stored 'disabled' gives way to the default and nobody is signed in", async () => {
    window.localStorage.setItem(STORAGE_KEYS.authMethod, 'disabled');
    const fetchMock = mockFetch({
      'GET /api/auth/config': {
        body: buildAuthConfig({
          methods: ['local', 'ldap'],
          providers: { ldap: [{ id: 'corp', label: 'Corp' }], moodle: [], sso: [] },
        }),
      },
    });
    const { router } = renderApp('/library');
    await findHeading('Sign in');
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByText('Dev Mode')).not.toBeInTheDocument();
    const [select] = screen.getAllByLabelText('Authentication method');
    expect(select).toHaveValue('Local account');
    expect(window.localStorage.getItem(STORAGE_KEYS.authMethod)).toBe('local');
    expect(fetchMock.callsTo('GET /api/auth/me')).toHaveLength(0);
    expect(within(screen.getByRole('banner')).queryByRole('link', { name: 'Login' })).toBeNull();
  });
});
