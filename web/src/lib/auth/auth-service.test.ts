import { AuthLogEventSchema, SELF_BUILT_TOKEN_LIFETIME_MS } from '@learning-hub/core';
import { describe, expect, it, vi } from 'vitest';
import { mockFetch, NETWORK_FAILURE, type FetchMock, type MockRoute } from '../../test/fetch-mock';
import { buildSession, buildUser, storeSession } from '../../test/fixtures';
import { changePassword, login, logout, updateProfile } from './auth-service';
import { readSession } from './session-storage';

const credentials = { username: '  Sam ', password: ' pass word ' };
const user = buildUser();

function loginAnswers(answer: MockRoute): FetchMock {
  return mockFetch({ 'POST /api/auth/local': answer });
}

/** Log calls are fire and forget: give them a tick to be sent. */
async function loggedEvents(fetchMock: FetchMock) {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return fetchMock.callsTo('POST /api/auth/log').map((c) => AuthLogEventSchema.parse(c.body));
}

describe('auth service: local login error texts (spec §8)', () => {
  it("uses the server's error field", async () => {
    loginAnswers({
      status: 401,
      body: {
        success: false,
        error: 'Invalid username or password',
        code: 'INVALID_CREDENTIALS',
        message: 'Invalid username or password',
      },
    });
    expect(await login('local', credentials)).toEqual({
      success: false,
      error: 'Invalid username or password',
      code: 'INVALID_CREDENTIALS',
    });
  });

  it('keeps retryAfter of a throttled attempt', async () => {
    loginAnswers({
      status: 429,
      body: {
        success: false,
        error: 'Too many attempts',
        code: 'TOO_MANY_ATTEMPTS',
        retryAfter: 60,
      },
    });
    expect(await login('local', credentials)).toMatchObject({
      error: 'Too many attempts',
      retryAfter: 60,
    });
  });

  it("falls back to 'Authentication failed (HTTP {status})'", async () => {
    loginAnswers({ status: 500, body: { code: 'INTERNAL_ERROR', message: 'Internal error' } });
    expect(await login('local', credentials)).toMatchObject({
      success: false,
      error: 'Authentication failed (HTTP 500)',
    });
    loginAnswers({ status: 502 });
    expect(await login('local', credentials)).toMatchObject({
      error: 'Authentication failed (HTTP 502)',
    });
  });

  it("reports a network failure as 'Authentication service unavailable'", async () => {
    loginAnswers(NETWORK_FAILURE);
    expect(await login('local', credentials)).toEqual({
      success: false,
      error: 'Authentication service unavailable',
    });
  });

  it("answers success false without error with 'Authentication failed'", async () => {
    loginAnswers({ body: { success: false } });
    expect(await login('local', credentials)).toEqual({
      success: false,
      error: 'Authentication failed',
    });
    loginAnswers({ body: { success: false, error: 'Account locked' } });
    expect(await login('local', credentials)).toEqual({ success: false, error: 'Account locked' });
  });

  it("returns an exception's message, or 'Login failed'", async () => {
    loginAnswers({
      body: { success: true, user, token: 't', expiresAt: new Date().toISOString() },
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('Storage quota exceeded');
    });
    expect(await login('local', credentials)).toEqual({
      success: false,
      error: 'Storage quota exceeded',
    });
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('');
    });
    expect(await login('local', credentials)).toEqual({ success: false, error: 'Login failed' });
  });

  it('rejects a success answer without a valid user', async () => {
    loginAnswers({ body: { success: true, user: { id: 1 }, token: 't' } });
    expect(await login('local', credentials)).toEqual({
      success: false,
      error: 'The server sent an unexpected response',
    });
  });

  it('fails in disabled mode and for a method without a client provider (spec §5)', async () => {
    mockFetch();
    expect(await login('disabled', credentials)).toEqual({
      success: false,
      error: 'Authentication is disabled in development mode',
    });
    expect(await login('kerberos', credentials)).toEqual({
      success: false,
      error: 'Invalid authentication method configured',
    });
  });
});

describe('auth service: local login success', () => {
  it('sends the credentials exactly as typed and stores the session', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const fetchMock = loginAnswers({
      body: { success: true, user, token: 'server-token', expiresAt },
    });
    const result = await login('local', credentials);
    expect(result.success).toBe(true);
    expect(fetchMock.callsTo('POST /api/auth/local')[0]?.body).toEqual({
      username: '  Sam ',
      password: ' pass word ',
    });
    expect(fetchMock.callsTo('POST /api/auth/local')[0]?.headers.authorization).toBeUndefined();
    expect(readSession()).toEqual({
      isAuthenticated: true,
      user,
      token: 'server-token',
      expiresAt,
    });
  });

  it('builds its own token valid 8 hours when the server returns none', async () => {
    loginAnswers({ body: { success: true, user } });
    const now = Date.parse('2025-05-01T08:00:00.000Z');
    vi.spyOn(Date, 'now').mockReturnValue(now);
    const result = await login('local', credentials, { now: () => now });
    vi.mocked(Date.now).mockRestore();
    expect(result.success && result.session.token).toMatch(/^client\.[\w-]{43}$/);
    expect(result.success && Date.parse(result.session.expiresAt)).toBe(
      now + SELF_BUILT_TOKEN_LIFETIME_MS,
    );
  });

  it('logs attempt and success, and attempt and failure, with ipAddress client-side', async () => {
    let fetchMock = loginAnswers({
      body: {
        success: true,
        user,
        token: 't',
        expiresAt: new Date(Date.now() + 1e6).toISOString(),
      },
    });
    await login('local', credentials);
    let events = await loggedEvents(fetchMock);
    expect(events.map((e) => e.event)).toEqual(['login_attempt', 'login_success']);
    expect(events.every((e) => e.ipAddress === 'client-side' && e.username === '  Sam ')).toBe(
      true,
    );
    expect(events.every((e) => e.authMethod === 'local')).toBe(true);

    fetchMock = loginAnswers({
      status: 401,
      body: { success: false, error: 'Invalid username or password' },
    });
    await login('local', credentials);
    events = await loggedEvents(fetchMock);
    expect(events.map((e) => [e.event, e.error ?? null])).toEqual([
      ['login_attempt', null],
      ['login_failure', 'Invalid username or password'],
    ]);
  });

  it('ignores a failing auth log', async () => {
    mockFetch({
      'POST /api/auth/log': NETWORK_FAILURE,
      'POST /api/auth/local': {
        body: {
          success: true,
          user,
          token: 't',
          expiresAt: new Date(Date.now() + 1e6).toISOString(),
        },
      },
    });
    expect((await login('local', credentials)).success).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
});

describe('auth service: profile, password, logout', () => {
  it("needs a signed-in user: 'User not authenticated'", async () => {
    const fetchMock = mockFetch();
    expect(await updateProfile({ firstname: 'X' })).toEqual({
      success: false,
      error: 'User not authenticated',
    });
    expect(await changePassword({ currentPassword: 'a', newPassword: 'b' })).toEqual({
      success: false,
      error: 'User not authenticated',
    });
    expect(fetchMock.calls.filter((c) => c.path !== '/api/auth/log')).toEqual([]);
  });

  it('updates the profile and the stored user', async () => {
    storeSession(buildSession(user));
    const updated = { ...user, firstname: 'Samuel' };
    const fetchMock = mockFetch({
      'PUT /api/auth/profile': { body: { user: updated } },
    });
    expect(await updateProfile({ firstname: 'Samuel' })).toEqual({ success: true, user: updated });
    expect(fetchMock.callsTo('PUT /api/auth/profile')[0]?.body).toEqual({ firstname: 'Samuel' });
    expect(readSession()?.user.firstname).toBe('Samuel');
  });

  it("uses the server's message, else 'Failed to update profile'", async () => {
    storeSession(buildSession(user));
    mockFetch({
      'PUT /api/auth/profile': {
        status: 400,
        body: { code: 'VALIDATION_ERROR', message: 'Email is taken' },
      },
    });
    expect(await updateProfile({ email: 'x@example.com' })).toEqual({
      success: false,
      error: 'Email is taken',
      code: 'VALIDATION_ERROR',
    });
    mockFetch({ 'PUT /api/auth/profile': { status: 500 } });
    expect(await updateProfile({ email: 'x@example.com' })).toMatchObject({
      error: 'Failed to update profile',
    });
    mockFetch({ 'PUT /api/auth/profile': NETWORK_FAILURE });
    expect(await updateProfile({ email: 'x@example.com' })).toMatchObject({
      error: 'Network error occurred',
    });
  });

  it("changes the password; 'Failed to change password' without a server message", async () => {
    storeSession(buildSession(user));
    const fetchMock = mockFetch({
      'POST /api/auth/change-password': { body: { revokedSessions: 2 } },
    });
    expect(
      await changePassword({ currentPassword: 'old pass', newPassword: 'new pass 1' }),
    ).toEqual({
      success: true,
      revokedSessions: 2,
    });
    expect(fetchMock.callsTo('POST /api/auth/change-password')[0]?.body).toEqual({
      currentPassword: 'old pass',
      newPassword: 'new pass 1',
    });
    mockFetch({
      'POST /api/auth/change-password': {
        status: 400,
        body: { code: 'INVALID_CURRENT_PASSWORD', message: 'Current password is incorrect' },
      },
    });
    expect(await changePassword({ currentPassword: 'x', newPassword: 'y' })).toEqual({
      success: false,
      error: 'Current password is incorrect',
      code: 'INVALID_CURRENT_PASSWORD',
    });
    mockFetch({ 'POST /api/auth/change-password': { status: 503 } });
    expect(await changePassword({ currentPassword: 'x', newPassword: 'y' })).toMatchObject({
      error: 'Failed to change password',
    });
  });

  it('logs out on the server and reports a failure', async () => {
    storeSession(buildSession(user));
    let fetchMock = mockFetch({ 'POST /api/auth/logout': { body: { redirectTo: null } } });
    expect(await logout()).toEqual({ success: true, redirectTo: null });
    expect((await loggedEvents(fetchMock)).map((e) => e.event)).toEqual(['logout']);
    fetchMock = mockFetch({ 'POST /api/auth/logout': NETWORK_FAILURE });
    expect(await logout()).toEqual({ success: false, redirectTo: null });
    expect((await loggedEvents(fetchMock)).map((e) => e.event)).toEqual(['logout_failure']);
  });

  it("passes on Moodle's logout page, and only an http(s) address", async () => {
    const moodleUser = buildUser({ authMethod: 'moodle' });
    storeSession(buildSession(moodleUser));
    const fetchMock = mockFetch({
      'POST /api/auth/logout': {
        body: { redirectTo: 'https://moodle.example.com/login/logout.php' },
      },
    });
    expect(await logout()).toEqual({
      success: true,
      redirectTo: 'https://moodle.example.com/login/logout.php',
    });
    expect((await loggedEvents(fetchMock))[0]).toMatchObject({
      event: 'logout',
      authMethod: 'moodle',
      username: 'student',
    });
    mockFetch({
      'POST /api/auth/logout': { body: { redirectTo: 'javascript:alert(1)' } },
    });
    expect(await logout()).toEqual({ success: true, redirectTo: null });
  });
});
