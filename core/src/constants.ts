/**
 * Business constants and limits of spec §9, in one place. Every other module imports them from
 * here; nothing else writes these numbers.
 */

const HOUR_MS = 60 * 60 * 1000;

/** Session lifetime per authentication method (spec §9). */
export const SESSION_LIFETIME_MS = {
  local: 24 * HOUR_MS,
  ldap: 8 * HOUR_MS,
  moodle: 8 * HOUR_MS,
  sso: 8 * HOUR_MS,
  disabled: 24 * HOUR_MS,
} as const;

/** A token the client builds itself (server returned none) is valid this long (spec §9). */
export const SELF_BUILT_TOKEN_LIFETIME_MS = 8 * HOUR_MS;

/** Directory defaults (spec §9). */
export const LDAP_DEFAULT_PORT = 389;
export const LDAP_DEFAULT_USER_ATTRIBUTE = 'uid';

/** Live-update connection settings (spec §9). */
export const LIVE_UPDATE_TIMEOUT_MS = 10_000;
export const LIVE_UPDATE_RECONNECT_ATTEMPTS = 5;

/** Permission-check audit ring size and default view sizes (spec §9). */
export const AUDIT_LOG_CAPACITY = 1000;
export const AUDIT_USER_VIEW_DEFAULT = 50;
export const AUDIT_ALL_VIEW_DEFAULT = 100;

/** Error monitor (spec §9): at most this many errors, disabled by default. */
export const ERROR_MONITOR_CAPACITY = 100;
export const ERROR_MONITOR_ENABLED_BY_DEFAULT = false;

/** Performance thresholds (spec §9). */
export const PAGE_LOAD_THRESHOLD_MS = 3000;
export const ANIMATION_THRESHOLD_FPS = 30;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** Password rules (NIST SP 800-63B): length only, no composition rules. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Browser storage keys (spec §4: the session and the method live in browser storage). */
export const STORAGE_KEYS = {
  session: 'learning-hub.session',
  authMethod: 'learning-hub.authMethod',
  /** The last settings applied on this device (docs/settings.md): a reload applies them at once. */
  settings: 'learning-hub.settings',
} as const;

/** Name of the window event broadcast on sign-in and sign-out (spec §4). */
export const AUTH_STATE_CHANGED_EVENT = 'authStateChanged';
