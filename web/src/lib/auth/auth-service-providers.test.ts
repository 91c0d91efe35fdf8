import { AuthLogEventSchema, SESSION_LIFETIME_MS } from '@learning-hub/core';
import { describe, expect, it } from 'vitest';
import { mockFetch, NETWORK_FAILURE, type FetchMock, type MockRoute } from '../../test/fetch-mock';
import { buildUser } from '../../test/fixtures';
import { login, reportSsoError, ssoStartUrl } from './auth-service';
import { readSession } from './session-storage';

const credentials = { username: ' jdoe', password: 'pass word ' };
const ldapUser = buildUser({ username: 'jdoe', authMethod: 'ldap', ldapGroups: ['staff'] });
const moodleUser = buildUser({ username: 'jdoe', authMethod: 'moodle', moodleId: 42 });
const ssoUser = buildUser({ username: 'jdoe', authMethod: 'sso', ssoProvider: 'azure' });

async function loggedEvents(fetchMock: FetchMock) {
  await new Promise((resolve) => setTimeout(resolve, 0));
  return fetchMock.callsTo('POST /api/auth/log').map((c) => AuthLogEventSchema.parse(c.body));
}

function failure(status: number, message: string, code = 'INVALID_CREDENTIALS') {
  return { status, body: { success: false, message, error: message, code } };
}

describe('auth service: directory (LDAP) sign-in (spec §7, §8)', () => {
  const answers = (answer: MockRoute) => mockFetch({ 'POST /api/auth/ldap': answer });

  it('sends credentials exactly as typed plus ldapConfig, and stores an 8-hour session', async () => {
    const expiresAt = new Date(Date.now() + SESSION_LIFETIME_MS.ldap).toISOString();
    const fetchMock = answers({
      body: { success: true, user: ldapUser, token: 'ldap-token', expiresAt },
    });
    const result = await login('ldap', credentials, { provider: 'corp' });
    expect(result.success).toBe(true);
    const call = fetchMock.callsTo('POST /api/auth/ldap')[0];
    expect(call?.body).toEqual({
      credentials: { username: ' jdoe', password: 'pass word ' },
      ldapConfig: 'corp',
    });
    expect(call?.headers.authorization).toBeUndefined();
    expect(readSession()).toEqual({
      isAuthenticated: true,
      user: ldapUser,
      token: 'ldap-token',
      expiresAt,
    });
    const events = await loggedEvents(fetchMock);
    expect(events.map((e) => [e.event, e.authMethod, e.username])).toEqual([
      ['login_attempt', 'ldap', ' jdoe'],
      ['login_success', 'ldap', 'jdoe'],
    ]);
  });

  it('leaves ldapConfig out when no provider is named', async () => {
    const fetchMock = answers({
      body: { success: true, user: ldapUser, token: 't', expiresAt: new Date().toISOString() },
    });
    await login('ldap', credentials);
    expect(fetchMock.callsTo('POST /api/auth/ldap')[0]?.body).toEqual({
      credentials: { username: ' jdoe', password: 'pass word ' },
    });
  });

  it("falls back to an 8-hour expiry when the server's is missing", async () => {
    answers({ body: { success: true, user: ldapUser, token: 't' } });
    const now = Date.parse('2025-05-01T08:00:00.000Z');
    const result = await login('ldap', credentials, { now: () => now });
    expect(result.success && Date.parse(result.session.expiresAt)).toBe(now + 8 * 3_600_000);
  });

  it("'LDAP authentication error: {server message}' for a refusal with a message", async () => {
    const fetchMock = answers(failure(401, 'Invalid username or password'));
    expect(await login('ldap', credentials)).toEqual({
      success: false,
      error: 'LDAP authentication error: Invalid username or password',
      code: 'INVALID_CREDENTIALS',
    });
    const events = await loggedEvents(fetchMock);
    expect(events.map((e) => [e.event, e.error ?? null])).toEqual([
      ['login_attempt', null],
      ['login_failure', 'LDAP authentication error: Invalid username or password'],
    ]);
    answers(failure(503, 'The directory server cannot be reached', 'SERVICE_UNAVAILABLE'));
    expect(await login('ldap', credentials)).toMatchObject({
      error: 'LDAP authentication error: The directory server cannot be reached',
      code: 'SERVICE_UNAVAILABLE',
    });
  });

  it('keeps retryAfter of a throttled attempt', async () => {
    answers({
      status: 429,
      body: {
        success: false,
        message: 'Too many attempts',
        error: 'Too many attempts',
        code: 'TOO_MANY_ATTEMPTS',
        retryAfter: 30,
      },
    });
    expect(await login('ldap', credentials)).toEqual({
      success: false,
      error: 'LDAP authentication error: Too many attempts',
      code: 'TOO_MANY_ATTEMPTS',
      retryAfter: 30,
    });
  });

  it("'LDAP authentication failed (HTTP {status})' without a server message", async () => {
    answers({ status: 502 });
    expect(await login('ldap', credentials)).toEqual({
      success: false,
      error: 'LDAP authentication failed (HTTP 502)',
    });
    answers({ status: 500, body: { code: 'INTERNAL_ERROR' } });
    expect(await login('ldap', credentials)).toMatchObject({
      error: 'LDAP authentication failed (HTTP 500)',
    });
  });

  it("'LDAP authentication error: {message}' for a network failure or an exception", async () => {
    answers(NETWORK_FAILURE);
    expect(await login('ldap', credentials)).toEqual({
      success: false,
      error: 'LDAP authentication error: Network error occurred',
    });
    answers({ body: { success: true, user: { id: 1 }, token: 't' } });
    expect(await login('ldap', credentials)).toEqual({
      success: false,
      error: 'LDAP authentication error: The server sent an unexpected response',
    });
    // A provider sign-in never builds its own token.
    answers({ body: { success: true, user: ldapUser } });
    expect(await login('ldap', credentials)).toMatchObject({
      error: 'LDAP authentication error: The server sent an unexpected response',
    });
    expect(readSession()).toBeNull();
  });
});

describe('auth service: Moodle sign-in (spec §7, §8)', () => {
  const answers = (answer: MockRoute) => mockFetch({ 'POST /api/auth/moodle': answer });

  it('sends credentials plus moodleConfig and stores the session', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const fetchMock = answers({
      body: { success: true, user: moodleUser, token: 'm-token', expiresAt },
    });
    const result = await login('moodle', credentials, { provider: 'campus' });
    expect(result).toMatchObject({ success: true, user: moodleUser });
    expect(fetchMock.callsTo('POST /api/auth/moodle')[0]?.body).toEqual({
      credentials: { username: ' jdoe', password: 'pass word ' },
      moodleConfig: 'campus',
    });
    expect(readSession()?.token).toBe('m-token');
    expect((await loggedEvents(fetchMock)).map((e) => [e.event, e.authMethod])).toEqual([
      ['login_attempt', 'moodle'],
      ['login_success', 'moodle'],
    ]);
  });

  it("'Moodle authentication error: {message}' for a failure with a message", async () => {
    const fetchMock = answers(failure(401, 'Invalid username or password'));
    expect(await login('moodle', credentials)).toEqual({
      success: false,
      error: 'Moodle authentication error: Invalid username or password',
      code: 'INVALID_CREDENTIALS',
    });
    expect((await loggedEvents(fetchMock)).map((e) => [e.event, e.authMethod])).toEqual([
      ['login_attempt', 'moodle'],
      ['login_failure', 'moodle'],
    ]);
    answers({ body: { success: false, message: 'Moodle is in maintenance mode' } });
    expect(await login('moodle', credentials)).toMatchObject({
      error: 'Moodle authentication error: Moodle is in maintenance mode',
    });
  });

  it("'Moodle authentication failed' without a message", async () => {
    answers({ status: 504 });
    expect(await login('moodle', credentials)).toEqual({
      success: false,
      error: 'Moodle authentication failed',
    });
    answers({ body: { success: false } });
    expect(await login('moodle', credentials)).toMatchObject({
      error: 'Moodle authentication failed',
    });
  });

  it("'Moodle authentication error: {message}' for a network failure", async () => {
    answers(NETWORK_FAILURE);
    expect(await login('moodle', credentials)).toEqual({
      success: false,
      error: 'Moodle authentication error: Network error occurred',
    });
  });
});

describe('auth service: single sign-on (spec §7, §8)', () => {
  const answers = (answer: MockRoute) => mockFetch({ 'POST /api/auth/sso': answer });

  it('exchanges the one-time code (credentials) with ssoConfig for a session', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
    const fetchMock = answers({
      body: { success: true, user: ssoUser, token: 'sso-token', expiresAt },
    });
    const result = await login('sso', 'one-time-code', { provider: 'azure' });
    expect(result).toMatchObject({ success: true, user: ssoUser });
    expect(fetchMock.callsTo('POST /api/auth/sso')[0]?.body).toEqual({
      credentials: 'one-time-code',
      ssoConfig: 'azure',
    });
    expect(readSession()).toEqual({
      isAuthenticated: true,
      user: ssoUser,
      token: 'sso-token',
      expiresAt,
    });
    expect((await loggedEvents(fetchMock)).map((e) => [e.event, e.authMethod, e.username])).toEqual(
      [
        ['login_attempt', 'sso', ''],
        ['login_success', 'sso', 'jdoe'],
      ],
    );
  });

  it("'SSO authentication error: {message}' / 'SSO authentication failed'", async () => {
    answers(
      failure(
        401,
        'This sign-in code is not valid (used, expired or unknown). Please sign in again.',
      ),
    );
    expect(await login('sso', 'used-code', { provider: 'azure' })).toEqual({
      success: false,
      error:
        'SSO authentication error: This sign-in code is not valid (used, expired or unknown). Please sign in again.',
      code: 'INVALID_CREDENTIALS',
    });
    answers({ status: 500 });
    expect(await login('sso', 'code', { provider: 'azure' })).toEqual({
      success: false,
      error: 'SSO authentication failed',
    });
    answers(NETWORK_FAILURE);
    expect(await login('sso', 'code', { provider: 'azure' })).toEqual({
      success: false,
      error: 'SSO authentication error: Network error occurred',
    });
  });

  it("reports a callback error in the spec's words and logs it", async () => {
    const fetchMock = mockFetch();
    expect(reportSsoError('The identity provider refused: access_denied')).toBe(
      'SSO authentication error: The identity provider refused: access_denied',
    );
    expect((await loggedEvents(fetchMock)).map((e) => [e.event, e.authMethod])).toEqual([
      ['login_attempt', 'sso'],
      ['login_failure', 'sso'],
    ]);
  });

  it('builds the start address with the provider and a same-site return path', () => {
    expect(ssoStartUrl('azure', '/')).toBe('/api/auth/sso/start?provider=azure');
    expect(ssoStartUrl('azure', '/library?x=1')).toBe(
      '/api/auth/sso/start?provider=azure&returnTo=%2Flibrary%3Fx%3D1',
    );
  });
});

describe('auth service: dev mode and unknown methods (spec §5)', () => {
  it('refuses a sign-in in disabled mode without calling the server, and logs it', async () => {
    const fetchMock = mockFetch();
    expect(await login('disabled', credentials)).toEqual({
      success: false,
      error: 'Authentication is disabled in development mode',
    });
    expect(fetchMock.calls.filter((c) => c.path !== '/api/auth/log')).toEqual([]);
    expect((await loggedEvents(fetchMock)).map((e) => [e.event, e.authMethod, e.error])).toEqual([
      ['login_attempt', 'disabled', null],
      ['login_failure', 'disabled', 'Authentication is disabled in development mode'],
    ]);
  });

  it("'Invalid authentication method configured' for an unknown method", async () => {
    const fetchMock = mockFetch();
    expect(await login('kerberos', credentials)).toEqual({
      success: false,
      error: 'Invalid authentication method configured',
    });
    expect(fetchMock.calls.filter((c) => c.path !== '/api/auth/log')).toEqual([]);
  });
});
