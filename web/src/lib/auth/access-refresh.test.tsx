import { UserListSchema } from '@learning-hub/core';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildMe, buildUser, listOf } from '../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../test/render-app';
import { api } from '../api-client';
import { ACCESS_REFRESH_INTERVAL_MS } from './auth-context';

const admin = buildUser({ role: 'admin', firstname: 'Ada' });
const demoted = { ...admin, role: 'instructor' };
const forbidden = {
  status: 403,
  body: { code: 'FORBIDDEN', message: 'Missing required permission: user.view' },
};

function setVisibility(state: DocumentVisibilityState) {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => state });
}

afterEach(() => {
  vi.useRealTimers();
  setVisibility('visible');
});

describe('access snapshot refresh', () => {
  it('reloads the permissions after a 403 FORBIDDEN, and the guard follows the server', async () => {
    const fetchMock = signedInAs(admin, {
      'GET /api/admin/roles': { body: { ...listOf([]) } },
      'GET /api/departments': { body: { ...listOf([]) } },
    });
    fetchMock.set({
      // An admin took this user's admin role away meanwhile: the server refuses.
      'GET /api/admin/users': () => {
        fetchMock.set({ 'GET /api/auth/me': { body: buildMe(demoted) } });
        return forbidden;
      },
    });
    const { router } = renderApp('/admin');
    await findHeading('Welcome, Ada');
    expect(router.state.location.pathname).toBe('/');
    expect(fetchMock.callsTo('GET /api/auth/me')).toHaveLength(2);
    expect(screen.queryByRole('link', { name: 'Admin Settings' })).not.toBeInTheDocument();
  });

  it('shares one reload between 403s that arrive together', async () => {
    const fetchMock = signedInAs(admin, { 'GET /api/x': forbidden });
    renderApp('/');
    await findHeading('Welcome, Ada');
    await Promise.allSettled([1, 2, 3, 4].map(() => api.get('/api/x', UserListSchema)));
    await waitFor(() => expect(fetchMock.callsTo('GET /api/auth/me').length).toBeGreaterThan(1));
    // The first load, one reload for the 403s, and at most one queued behind it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchMock.callsTo('GET /api/auth/me').length).toBeLessThanOrEqual(3);
  });

  it('does not reload for a 403 to a request made without a session', async () => {
    const fetchMock = signedInAs(admin, { 'GET /api/x': forbidden });
    renderApp('/');
    await findHeading('Welcome, Ada');
    await api.get('/api/x', UserListSchema, { auth: false }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(fetchMock.callsTo('GET /api/auth/me')).toHaveLength(1);
  });

  it('reloads when the window regains focus', async () => {
    const fetchMock = signedInAs(admin);
    renderApp('/');
    await findHeading('Welcome, Ada');
    fetchMock.set({ 'GET /api/auth/me': { body: buildMe({ ...admin, firstname: 'Adele' }) } });
    fireEvent.focus(window);
    await findHeading('Welcome, Adele');
    expect(fetchMock.callsTo('GET /api/auth/me')).toHaveLength(2);
  });

  it('reloads every minute while the tab is visible', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const fetchMock = signedInAs(admin);
    renderApp('/');
    await findHeading('Welcome, Ada');
    const calls = () => fetchMock.callsTo('GET /api/auth/me').length;

    setVisibility('hidden');
    act(() => vi.advanceTimersByTime(ACCESS_REFRESH_INTERVAL_MS));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls()).toBe(1);

    // Coming back to the tab reloads at once.
    setVisibility('visible');
    fireEvent(document, new Event('visibilitychange'));
    await waitFor(() => expect(calls()).toBe(2));

    act(() => vi.advanceTimersByTime(ACCESS_REFRESH_INTERVAL_MS - 1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls()).toBe(2);
    act(() => vi.advanceTimersByTime(1));
    await waitFor(() => expect(calls()).toBe(3));
  });

  it('stops reloading once signed out', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const fetchMock = signedInAs(admin, {
      'POST /api/auth/logout': { body: { redirectTo: null } },
    });
    const { user } = renderApp('/');
    await findHeading('Welcome, Ada');
    await user.click(screen.getByRole('button', { name: /Account menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Logout' }));
    await findHeading('Sign in');
    act(() => vi.advanceTimersByTime(ACCESS_REFRESH_INTERVAL_MS * 2));
    fireEvent.focus(window);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(fetchMock.callsTo('GET /api/auth/me')).toHaveLength(1);
  });
});
