/**
 * The authentication method kept in browser storage (spec §4): one of core's AUTH_METHODS,
 * 'local' when absent. A stored method the server does not enable falls back to the server's
 * default method ('disabled' in dev mode, so a stored 'disabled' outlives dev mode only until the
 * server says it is off).
 */
import { AuthMethodSchema, STORAGE_KEYS, type AuthMethod } from '@learning-hub/core';

export const DEFAULT_AUTH_METHOD: AuthMethod = 'local';

/** Labels shown for each method (sign-in form, sessions table, admin pages). */
export const AUTH_METHOD_LABELS: Readonly<Record<AuthMethod, string>> = {
  disabled: 'Development mode',
  local: 'Local account',
  ldap: 'Company directory (LDAP)',
  moodle: 'Moodle',
  sso: 'Single sign-on',
};

function storedMethod(): string | null {
  try {
    return window.localStorage.getItem(STORAGE_KEYS.authMethod);
  } catch {
    return null;
  }
}

/**
 * The stored method when it is a known method and (if `enabled` is given) one the server enables.
 * Otherwise 'local' when that is allowed, else `fallback` (the server's default method) when that
 * is enabled, else the first enabled method.
 */
export function getAuthMethod(
  enabled?: readonly AuthMethod[],
  fallback: AuthMethod = DEFAULT_AUTH_METHOD,
): AuthMethod {
  const parsed = AuthMethodSchema.safeParse(storedMethod());
  const candidate = parsed.success ? parsed.data : DEFAULT_AUTH_METHOD;
  if (!enabled || enabled.includes(candidate)) return candidate;
  if (enabled.includes(fallback)) return fallback;
  return enabled[0] ?? DEFAULT_AUTH_METHOD;
}

export function setAuthMethod(method: AuthMethod): void {
  try {
    window.localStorage.setItem(STORAGE_KEYS.authMethod, method);
  } catch {
    // Storage unavailable (private mode, quota): the method simply is not remembered.
  }
}

/** Whether the method stored in this browser is exactly `method`. */
export function isStoredAuthMethod(method: AuthMethod): boolean {
  return storedMethod() === method;
}
