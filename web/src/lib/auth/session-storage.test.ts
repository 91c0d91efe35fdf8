import { STORAGE_KEYS } from '@learning-hub/core';
import { describe, expect, it, vi } from 'vitest';
import { buildSession, buildUser, inHours, storeSession } from '../../test/fixtures';
import {
  clearSession,
  readSession,
  subscribeSession,
  updateSessionUser,
  writeSession,
} from './session-storage';

describe('session storage', () => {
  it('stores the session object of spec §3 under core STORAGE_KEYS.session', () => {
    const session = buildSession(buildUser());
    writeSession(session);
    const raw = JSON.parse(window.localStorage.getItem(STORAGE_KEYS.session) ?? 'null');
    expect(Object.keys(raw).sort()).toEqual(['expiresAt', 'isAuthenticated', 'token', 'user']);
    expect(readSession()).toEqual(session);
  });

  it('removes an expired session on read and treats it as absent', async () => {
    storeSession(buildSession(buildUser(), { expiresAt: inHours(-1) }));
    const listener = vi.fn();
    subscribeSession(listener);
    expect(readSession()).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.session)).toBeNull();
    await Promise.resolve();
    expect(listener).toHaveBeenCalledWith(null, 'expired');
  });

  it('judges expiry at the time given', () => {
    const session = storeSession(buildSession(buildUser(), { expiresAt: inHours(1) }));
    expect(readSession(Date.parse(session.expiresAt) - 1)).not.toBeNull();
    expect(readSession(Date.parse(session.expiresAt))).toBeNull();
  });

  it('removes a malformed session', () => {
    window.localStorage.setItem(STORAGE_KEYS.session, '{"isAuthenticated":true}');
    expect(readSession()).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.session)).toBeNull();
    window.localStorage.setItem(STORAGE_KEYS.session, 'not json');
    expect(readSession()).toBeNull();
  });

  it('replaces the stored user and clears with notification', () => {
    const session = storeSession(buildSession(buildUser()));
    updateSessionUser({ ...session.user, firstname: 'Samuel' });
    expect(readSession()?.user.firstname).toBe('Samuel');
    const listener = vi.fn();
    const unsubscribe = subscribeSession(listener);
    clearSession();
    unsubscribe();
    expect(listener).toHaveBeenCalledWith(null, 'cleared');
    expect(readSession()).toBeNull();
  });
});
