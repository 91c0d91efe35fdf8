/**
 * The auth service of spec §7/§8: sign-in with every method (local, directory, Moodle, single
 * sign-on) with the exact error texts, the fire-and-forget auth log, sign-out (with Moodle's
 * logout page), profile update and password change against the server.
 */
import {
  ChangePasswordResponseSchema,
  FailedAttemptsSchema,
  MeResponseSchema,
  PROVIDER_METHODS,
  ProfileUpdateResponseSchema,
  PublicUserSchema,
  SELF_BUILT_TOKEN_LIFETIME_MS,
  SESSION_LIFETIME_MS,
  SignOutResultSchema,
  type AuthMethod,
  type ProviderMethod,
  type ChangePassword,
  type Credentials,
  type FailedAttempts,
  type MeResponse,
  type ProfileUpdate,
  type PublicUser,
} from '@learning-hub/core';
import {
  NETWORK_ERROR_MESSAGE,
  UNEXPECTED_RESPONSE,
  api,
  errorCode,
  hasServerMessage,
  isNetworkError,
  rawRequest,
} from '../api-client';
import { logAuthEvent } from './auth-log';
import {
  readSession,
  updateSessionUser,
  writeSession,
  type StoredSession,
} from './session-storage';

export const AUTH_MESSAGES = {
  disabled: 'Authentication is disabled in development mode',
  invalidMethod: 'Invalid authentication method configured',
  serviceUnavailable: 'Authentication service unavailable',
  failed: 'Authentication failed',
  failedHttp: (status: number) => `Authentication failed (HTTP ${status})`,
  loginFailed: 'Login failed',
  notAuthenticated: 'User not authenticated',
  profileFailed: 'Failed to update profile',
  passwordFailed: 'Failed to change password',
} as const;

export type LoginResult =
  | {
      success: true;
      user: PublicUser;
      session: StoredSession;
      /** Attempts at this account that failed since its previous sign-in, when there were any. */
      failedAttempts?: FailedAttempts;
    }
  | { success: false; error: string; code?: string; retryAfter?: number };

export type ActionResult<T> =
  ({ success: true } & T) | { success: false; error: string; code?: string };

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A random opaque token for servers that return none (spec §7); valid 8 h (spec §9). */
export function buildClientToken(): string {
  const bytes = new Uint8Array(32);
  crypto.getRandomValues(bytes);
  const base64 = btoa(String.fromCharCode(...bytes));
  return `client.${base64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')}`;
}

/** The session of a successful answer; throws when the answer is not one. */
function sessionFrom(
  body: Record<string, unknown>,
  method: 'local' | ProviderMethod,
  now: () => number,
): StoredSession {
  const parsedUser = PublicUserSchema.safeParse(body.user);
  if (!parsedUser.success) throw new Error(UNEXPECTED_RESPONSE);
  const user = parsedUser.data;
  const serverToken = text(body.token);
  // Spec §7: only the local sign-in builds its own token when the server returns none.
  if (!serverToken && method !== 'local') throw new Error(UNEXPECTED_RESPONSE);
  const token = serverToken ?? buildClientToken();
  const lifetime = serverToken ? SESSION_LIFETIME_MS[method] : SELF_BUILT_TOKEN_LIFETIME_MS;
  const serverExpiry = serverToken ? text(body.expiresAt) : undefined;
  const expiresAt =
    serverExpiry && !Number.isNaN(Date.parse(serverExpiry))
      ? serverExpiry
      : new Date(now() + lifetime).toISOString();
  return { isAuthenticated: true, user, token, expiresAt };
}

/** The server's notice of failed attempts in a successful answer, when it sent a valid one. */
function failedAttemptsOf(body: Record<string, unknown>): { failedAttempts?: FailedAttempts } {
  const parsed = FailedAttemptsSchema.safeParse(body.failedAttempts);
  return parsed.success ? { failedAttempts: parsed.data } : {};
}

function failureExtra(body: Record<string, unknown>): { code?: string; retryAfter?: number } {
  return {
    ...(text(body.code) ? { code: text(body.code) } : {}),
    ...(typeof body.retryAfter === 'number' ? { retryAfter: body.retryAfter } : {}),
  };
}

async function loginLocal(credentials: Credentials, now: () => number): Promise<LoginResult> {
  const { username } = credentials;
  const fail = (error: string, extra: { code?: string; retryAfter?: number } = {}) => {
    logAuthEvent({ username, event: 'login_failure', authMethod: 'local', error });
    return { success: false as const, error, ...extra };
  };
  try {
    let response;
    try {
      response = await rawRequest('/api/auth/local', {
        method: 'POST',
        // Sent exactly as typed: never trimmed or normalised.
        body: { username: credentials.username, password: credentials.password },
        auth: false,
      });
    } catch (error) {
      if (isNetworkError(error)) return fail(AUTH_MESSAGES.serviceUnavailable);
      throw error;
    }
    const body = isRecord(response.body) ? response.body : {};
    const extra = failureExtra(body);
    if (!response.ok) {
      return fail(text(body.error) ?? AUTH_MESSAGES.failedHttp(response.status), extra);
    }
    if (body.success !== true) return fail(text(body.error) ?? AUTH_MESSAGES.failed, extra);

    const session = sessionFrom(body, 'local', now);
    writeSession(session);
    logAuthEvent({ username, event: 'login_success', authMethod: 'local' });
    return { success: true, user: session.user, session, ...failedAttemptsOf(body) };
  } catch (error) {
    return fail(
      error instanceof Error && error.message ? error.message : AUTH_MESSAGES.loginFailed,
    );
  }
}

/** The error texts of spec §8 for the sign-ins through a provider. */
export const PROVIDER_MESSAGES: Readonly<
  Record<
    ProviderMethod,
    { error: (message: string) => string; failed: (status: number | null) => string }
  >
> = {
  ldap: {
    error: (message) => `LDAP authentication error: ${message}`,
    failed: (status) => `LDAP authentication failed (HTTP ${status ?? 200})`,
  },
  moodle: {
    error: (message) => `Moodle authentication error: ${message}`,
    failed: () => 'Moodle authentication failed',
  },
  sso: {
    error: (message) => `SSO authentication error: ${message}`,
    failed: () => 'SSO authentication failed',
  },
};

const PROVIDER_PATHS: Readonly<Record<ProviderMethod, string>> = {
  ldap: '/api/auth/ldap',
  moodle: '/api/auth/moodle',
  sso: '/api/auth/sso',
};

/** The body of a provider sign-in (spec §7): credentials plus the provider's id, if any. */
function providerBody(
  method: ProviderMethod,
  credentials: Credentials | string,
  provider: string | undefined,
): Record<string, unknown> {
  if (method === 'sso') return { credentials, ssoConfig: provider };
  const creds = credentials as Credentials;
  // Sent exactly as typed: never trimmed or normalised.
  const body: Record<string, unknown> = {
    credentials: { username: creds.username, password: creds.password },
  };
  if (provider !== undefined) body[method === 'ldap' ? 'ldapConfig' : 'moodleConfig'] = provider;
  return body;
}

async function loginWithProvider(
  method: ProviderMethod,
  credentials: Credentials | string,
  provider: string | undefined,
  now: () => number,
): Promise<LoginResult> {
  const messages = PROVIDER_MESSAGES[method];
  // Single sign-on has no username until the server answers.
  const username = typeof credentials === 'string' ? '' : credentials.username;
  const fail = (error: string, extra: { code?: string; retryAfter?: number } = {}) => {
    logAuthEvent({ username, event: 'login_failure', authMethod: method, error });
    return { success: false as const, error, ...extra };
  };
  try {
    const response = await rawRequest(PROVIDER_PATHS[method], {
      method: 'POST',
      body: providerBody(method, credentials, provider),
      auth: false,
    });
    const body = isRecord(response.body) ? response.body : {};
    const extra = failureExtra(body);
    const serverMessage = text(body.message) ?? text(body.error);
    if (!response.ok || body.success !== true) {
      return fail(
        serverMessage
          ? messages.error(serverMessage)
          : messages.failed(response.ok ? null : response.status),
        extra,
      );
    }
    const session = sessionFrom(body, method, now);
    writeSession(session);
    logAuthEvent({
      username: session.user.username,
      event: 'login_success',
      authMethod: method,
    });
    return { success: true, user: session.user, session, ...failedAttemptsOf(body) };
  } catch (error) {
    const message =
      error instanceof Error && error.message ? error.message : AUTH_MESSAGES.loginFailed;
    return fail(messages.error(message));
  }
}

export interface LoginOptions {
  /** The provider of a directory, Moodle or single sign-on sign-in: its id (ldapConfig, …). */
  provider?: string;
  now?: () => number;
}

function isProviderMethod(method: string): method is ProviderMethod {
  return (PROVIDER_METHODS as readonly string[]).includes(method);
}

/**
 * Signs in with the given method (spec §7): local and directory/Moodle sign-ins take a username
 * and password, single sign-on the one-time code the server's callback handed the browser.
 * Every attempt, success and failure is logged to the server. 'disabled' and unknown methods fail
 * with the texts of spec §5 without calling the server.
 */
export async function login(
  method: AuthMethod | string,
  credentials: Credentials | string,
  options: LoginOptions = {},
): Promise<LoginResult> {
  const now = options.now ?? Date.now;
  const username = typeof credentials === 'string' ? '' : credentials.username;
  if (method === 'local') {
    if (typeof credentials === 'string') return { success: false, error: AUTH_MESSAGES.failed };
    logAuthEvent({ username, event: 'login_attempt', authMethod: 'local' });
    return loginLocal(credentials, now);
  }
  if (isProviderMethod(method)) {
    logAuthEvent({ username, event: 'login_attempt', authMethod: method });
    return loginWithProvider(method, credentials, options.provider, now);
  }
  if (method === 'disabled') {
    const error = AUTH_MESSAGES.disabled;
    logAuthEvent({ username, event: 'login_attempt', authMethod: 'disabled' });
    logAuthEvent({ username, event: 'login_failure', authMethod: 'disabled', error });
    return { success: false, error };
  }
  return { success: false, error: AUTH_MESSAGES.invalidMethod };
}

/**
 * A single sign-on that came back with an error instead of a code (`/login?sso_error=…`): logged
 * as a failed attempt; returns the text to show (spec §8).
 */
export function reportSsoError(message: string): string {
  const error = PROVIDER_MESSAGES.sso.error(message);
  logAuthEvent({ username: '', event: 'login_attempt', authMethod: 'sso' });
  logAuthEvent({ username: '', event: 'login_failure', authMethod: 'sso', error });
  return error;
}

/** Where the browser goes to start single sign-on with a provider, coming back to `returnTo`. */
export function ssoStartUrl(provider: string, returnTo: string): string {
  const search = new URLSearchParams({ provider });
  if (returnTo !== '/') search.set('returnTo', returnTo);
  return `/api/auth/sso/start?${search.toString()}`;
}

/** GET /api/auth/me: the current user, session and permission snapshot. */
export function fetchMe(): Promise<MeResponse> {
  return api.get('/api/auth/me', MeResponseSchema);
}

export interface LogoutResult {
  /** False when the server could not be told; the caller clears the local session either way. */
  success: boolean;
  /** Where the browser goes after clearing its state (the Moodle site's logout page), if anywhere. */
  redirectTo: string | null;
}

/** Only an absolute http(s) address is followed. */
function safeRedirect(raw: string | null): string | null {
  if (!raw) return null;
  try {
    const url = new URL(raw);
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}

/**
 * Ends the session on the server (POST /api/auth/logout) and logs the outcome. In Moodle mode the
 * server names the Moodle site's logout page, where the browser goes once its state is cleared
 * (spec §4). The caller clears the local session either way.
 */
export async function logout(user: PublicUser | null = null): Promise<LogoutResult> {
  const current = user ?? readSession()?.user ?? null;
  const username = current?.username ?? '';
  const authMethod = current?.authMethod ?? 'local';
  try {
    const answer = await api.post('/api/auth/logout', undefined, SignOutResultSchema, {
      handleUnauthorized: false,
    });
    logAuthEvent({ username, event: 'logout', authMethod });
    return { success: true, redirectTo: safeRedirect(answer.redirectTo) };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    logAuthEvent({ username, event: 'logout_failure', authMethod, error: message });
    return { success: false, redirectTo: null };
  }
}

function actionError(
  error: unknown,
  fallback: string,
): { success: false; error: string; code?: string } {
  const code = errorCode(error);
  const message = isNetworkError(error)
    ? NETWORK_ERROR_MESSAGE
    : hasServerMessage(error)
      ? error.message
      : fallback;
  return code ? { success: false, error: message, code } : { success: false, error: message };
}

/**
 * PUT /api/auth/profile; on success the stored user is replaced. In dev mode there is no stored
 * session: the server answers for its developer admin (spec §4), so the call goes without a token.
 */
export async function updateProfile(
  changes: ProfileUpdate,
  options: { devMode?: boolean } = {},
): Promise<ActionResult<{ user: PublicUser }>> {
  const session = readSession();
  if (!session && !options.devMode) {
    return { success: false, error: AUTH_MESSAGES.notAuthenticated };
  }
  try {
    const { user } = await api.put('/api/auth/profile', changes, ProfileUpdateResponseSchema);
    if (session) updateSessionUser(user);
    return { success: true, user };
  } catch (error) {
    return actionError(error, AUTH_MESSAGES.profileFailed);
  }
}

/** POST /api/auth/change-password; the server ends the user's other sessions. */
export async function changePassword(
  payload: ChangePassword,
): Promise<ActionResult<{ revokedSessions: number }>> {
  if (!readSession()) return { success: false, error: AUTH_MESSAGES.notAuthenticated };
  try {
    const { revokedSessions } = await api.post(
      '/api/auth/change-password',
      payload,
      ChangePasswordResponseSchema,
    );
    return { success: true, revokedSessions };
  } catch (error) {
    return actionError(error, AUTH_MESSAGES.passwordFailed);
  }
}
