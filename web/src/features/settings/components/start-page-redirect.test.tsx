import { defaultUserSettings, type UserSettingsView } from '@learning-hub/core';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../test/fetch-mock';
import { buildMe, buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp } from '../../../test/render-app';

const student = buildUser();

function server(startPage: string, person = student) {
  const view: UserSettingsView = {
    settings: { ...defaultUserSettings(), startPage },
    emailAvailable: false,
    startPages: [{ path: '/', label: 'Home' }],
  };
  return mockFetch({
    'POST /api/auth/local': {
      body: {
        success: true,
        user: person,
        token: 'tok',
        expiresAt: new Date(Date.now() + 3.6e6).toISOString(),
      },
    },
    'GET /api/auth/me': { body: buildMe(person) },
    'GET /api/settings': { body: view },
    'GET /api/me/learning': {
      body: { courses: [], dueSoon: [], overdue: [], recentGrades: [], teaching: [] },
    },
    'GET /api/library': { body: { ...listOf([]), categories: [] } },
    'GET /api/library/categories': { body: listOf([]) },
  });
}

async function signIn(path: string) {
  const view = renderApp(path);
  await findHeading('Sign in');
  await view.user.type(screen.getByLabelText(/Username/), 'student');
  await view.user.type(screen.getByLabelText(/Password/), 'pw');
  await view.user.click(screen.getByRole('button', { name: 'Sign in' }));
  return view;
}

describe('the start page after sign-in', () => {
  it('opens the person’s start page when no page was waiting', async () => {
    server('/library');
    const { router } = await signIn('/login');
    await findHeading('Library');
    expect(router.state.location.pathname).toBe('/library');
  });

  it('goes back to the page that sent to sign-in instead', async () => {
    server('/library');
    const { router } = await signIn('/login?next=%2Fsettings');
    await findHeading('Settings');
    expect(router.state.location.pathname).toBe('/settings');
  });

  it('opens Home when the start page is one the person may no longer open', async () => {
    // A role that grants nothing (custom, since deleted): the library is closed to them now.
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    server('/library', buildUser({ role: 'former-role' }));
    const { router } = await signIn('/login');
    await findHeading(/^Welcome, /);
    expect(router.state.location.pathname).toBe('/');
    // Not sent through the library's guard: no notice of a page refused.
    expect(screen.queryByText(/You do not have access to/)).not.toBeInTheDocument();
    warn.mockRestore();
  });
});
