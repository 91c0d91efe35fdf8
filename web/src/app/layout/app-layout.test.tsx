import {
  AUTH_STATE_CHANGED_EVENT,
  NAV_ITEMS,
  STORAGE_KEYS,
  type SystemRoleId,
} from '@learning-hub/core';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, NETWORK_FAILURE } from '../../test/fetch-mock';
import { buildDevModeConfig, buildMe, buildUser } from '../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../test/render-app';
import { browserNavigation } from '../../lib/browser';

async function openNav(user: ReturnType<typeof renderApp>['user']) {
  await user.click(screen.getByRole('button', { name: 'Open navigation' }));
  return screen.findByRole('navigation', { name: 'Main navigation' });
}

describe('navigation menu', () => {
  it.each<SystemRoleId>(['student', 'instructor', 'admin'])(
    'shows a %s exactly the items NAV_ITEMS.visibleTo gives the role',
    async (role) => {
      signedInAs(buildUser({ role }));
      const { user } = renderApp('/');
      await findHeading(/^Welcome,/);
      const nav = await openNav(user);
      const labels = within(nav)
        .getAllByRole('link')
        .map((link) => link.textContent);
      const expected = NAV_ITEMS.filter(
        (item) => item.visibleTo === 'everyone' || item.visibleTo.includes(role),
      ).map((item) => item.label);
      expect(labels).toEqual(expected);
    },
  );

  it('shows the everyone items to a signed-out visitor, and a Login button but not on the sign-in page', async () => {
    mockFetch();
    const { user } = renderApp('/no/such/page');
    await findHeading('Page Not Found');
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    await user.click(screen.getByRole('link', { name: 'Login' }));
    await findHeading('Sign in');
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    const nav = await openNav(user);
    expect(
      within(nav)
        .getAllByRole('link')
        .map((l) => l.textContent),
    ).toEqual(['Home', 'Departments']);
  });

  it('links the logo to / and offers a skip link to the main content', async () => {
    signedInAs(buildUser());
    renderApp('/');
    await findHeading(/^Welcome,/);
    expect(screen.getByRole('link', { name: /Learning Hub/ })).toHaveAttribute('href', '/');
    expect(screen.getByRole('link', { name: 'Skip to main content' })).toHaveAttribute(
      'href',
      '#main-content',
    );
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content');
    expect(screen.getByRole('banner')).toBeInTheDocument();
  });
});

describe('avatar menu', () => {
  it('shows initials, full name, department, Profile Settings and Logout', async () => {
    signedInAs(
      buildUser({ firstname: 'grace', lastname: 'hopper', department: 'Network Engineering' }),
    );
    const { user } = renderApp('/');
    await findHeading('Welcome, grace');
    const trigger = screen.getByRole('button', { name: 'Account menu for grace hopper, GH' });
    expect(trigger).toHaveTextContent('GH');
    await user.click(trigger);
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByText('grace hopper')).toBeInTheDocument();
    expect(within(menu).getByText('Network Engineering')).toBeInTheDocument();
    expect(within(menu).getByRole('menuitem', { name: 'Profile Settings' })).toHaveAttribute(
      'href',
      '/profile-settings',
    );
    expect(within(menu).getByRole('menuitem', { name: 'Logout' })).toBeInTheDocument();
  });

  it("shows 'Student' for a user without a department", async () => {
    signedInAs(buildUser({ role: 'instructor', department: null, departmentId: null }));
    const { user } = renderApp('/');
    await findHeading(/^Welcome,/);
    await user.click(screen.getByRole('button', { name: /Account menu for/ }));
    expect(within(await screen.findByRole('menu')).getByText('Student')).toBeInTheDocument();
  });

  it('logs out on the server, clears the session and goes to /login', async () => {
    const fetchMock = signedInAs(buildUser(), {
      'POST /api/auth/logout': { body: { redirectTo: null } },
    });
    const events: unknown[] = [];
    const onChange = (e: Event) => events.push((e as CustomEvent).detail);
    window.addEventListener(AUTH_STATE_CHANGED_EVENT, onChange);
    const { user, router } = renderApp('/');
    await findHeading(/^Welcome,/);
    await user.click(screen.getByRole('button', { name: /Account menu for/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await findHeading('Sign in');
    window.removeEventListener(AUTH_STATE_CHANGED_EVENT, onChange);
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toBe('');
    expect(fetchMock.callsTo('POST /api/auth/logout')).toHaveLength(1);
    expect(window.localStorage.getItem(STORAGE_KEYS.session)).toBeNull();
    expect(events).toContainEqual({ isAuthenticated: false, userId: 'user-student' });
    expect(screen.queryByRole('button', { name: /Account menu for/ })).not.toBeInTheDocument();
  });

  it("goes to Moodle's logout page after a Moodle session, local state cleared", async () => {
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined);
    const moodleUser = buildUser({ authMethod: 'moodle' });
    signedInAs(moodleUser, {
      'POST /api/auth/logout': {
        body: { redirectTo: 'https://moodle.example.com/login/logout.php' },
      },
    });
    const { user } = renderApp('/');
    await findHeading(/^Welcome,/);
    await user.click(screen.getByRole('button', { name: /Account menu for/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://moodle.example.com/login/logout.php'),
    );
    expect(window.localStorage.getItem(STORAGE_KEYS.session)).toBeNull();
  });

  it('still signs out when the logout call fails', async () => {
    signedInAs(buildUser(), { 'POST /api/auth/logout': NETWORK_FAILURE });
    const { user, router } = renderApp('/');
    await findHeading(/^Welcome,/);
    await user.click(screen.getByRole('button', { name: /Account menu for/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await findHeading('Sign in');
    expect(router.state.location.pathname).toBe('/login');
    expect(window.localStorage.getItem(STORAGE_KEYS.session)).toBeNull();
  });
});

describe('dev mode and tab sync', () => {
  it("shows 'Dev Mode' when the server runs in dev mode", async () => {
    mockFetch({ 'GET /api/auth/config': { body: buildDevModeConfig() } });
    renderApp('/login');
    expect(await screen.findByText('Dev Mode')).toBeInTheDocument();
  });

  it('does not show it otherwise', async () => {
    const fetchMock = mockFetch();
    renderApp('/login');
    await findHeading('Sign in');
    await waitFor(() => expect(fetchMock.callsTo('GET /api/auth/config')).toHaveLength(1));
    expect(screen.queryByText('Dev Mode')).not.toBeInTheDocument();
  });

  it('signs this tab out when another tab signs out', async () => {
    const student = buildUser();
    signedInAs(student);
    const { router } = renderApp('/library');
    await findHeading('Library');
    const oldValue = window.localStorage.getItem(STORAGE_KEYS.session);
    window.localStorage.removeItem(STORAGE_KEYS.session);
    window.dispatchEvent(
      new StorageEvent('storage', { key: STORAGE_KEYS.session, oldValue, newValue: null }),
    );
    await findHeading('Sign in');
    expect(router.state.location.pathname).toBe('/login');
  });

  it('picks up a sign-in made in another tab', async () => {
    const fetchMock = mockFetch({ 'GET /api/auth/me': { body: buildMe(buildUser()) } });
    const { router } = renderApp('/login');
    await findHeading('Sign in');
    const session = {
      isAuthenticated: true,
      user: buildUser(),
      token: 'other-tab',
      expiresAt: new Date(Date.now() + 3.6e6).toISOString(),
    };
    window.localStorage.setItem(STORAGE_KEYS.session, JSON.stringify(session));
    window.dispatchEvent(
      new StorageEvent('storage', { key: STORAGE_KEYS.session, newValue: JSON.stringify(session) }),
    );
    await findHeading('Welcome, Sam');
    expect(router.state.location.pathname).toBe('/');
    expect(fetchMock.callsTo('GET /api/auth/me')[0]?.headers.authorization).toBe(
      'Bearer other-tab',
    );
  });

  it('signs out when the server says the session is over', async () => {
    signedInAs(buildUser(), {
      'GET /api/auth/me': {
        status: 401,
        body: { code: 'SESSION_EXPIRED', message: 'Session expired' },
      },
    });
    const { router } = renderApp('/library');
    await findHeading('Sign in');
    expect(router.state.location.search).toBe(`?next=${encodeURIComponent('/library')}`);
    expect(window.localStorage.getItem(STORAGE_KEYS.session)).toBeNull();
  });

  it('broadcasts authStateChanged on sign-in', async () => {
    const student = buildUser();
    mockFetch({
      'POST /api/auth/local': {
        body: {
          success: true,
          user: student,
          token: 'tok',
          expiresAt: new Date(Date.now() + 3.6e6).toISOString(),
        },
      },
      'GET /api/auth/me': { body: buildMe(student) },
    });
    const listener = vi.fn();
    window.addEventListener(AUTH_STATE_CHANGED_EVENT, listener);
    const { user } = renderApp('/login');
    await findHeading('Sign in');
    await user.type(screen.getByLabelText(/Username/), 'student');
    await user.type(screen.getByLabelText(/Password/), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await findHeading('Welcome, Sam');
    window.removeEventListener(AUTH_STATE_CHANGED_EVENT, listener);
    expect(listener).toHaveBeenCalledTimes(1);
    expect((listener.mock.calls[0]?.[0] as CustomEvent).detail).toEqual({
      isAuthenticated: true,
      userId: student.id,
    });
  });
});
