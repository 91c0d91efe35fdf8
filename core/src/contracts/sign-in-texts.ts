/**
 * What the sign-in page and the app's start need of the sign-in providers, without their schemas
 * (contracts/auth-providers.ts): the methods, why an account may be refused, and the texts of a
 * failed single sign-on. Plain values, so that the first page builds none of the providers'
 * settings schemas (docs/front-end.md "Each area's code in its own chunks").
 */

export const PROVIDER_METHODS = ['ldap', 'moodle', 'sso'] as const;
export type ProviderMethod = (typeof PROVIDER_METHODS)[number];

/** Why an account may not sign in, whichever method tried (server answers, SSO error texts). */
export const ACCOUNT_REFUSALS = {
  conflict: 'An account with this username already signs in another way. Contact an administrator.',
  deactivated: 'This account is deactivated. Contact an administrator.',
  notAllowed: 'Your account is not allowed to sign in here',
} as const;
export type AccountRefusal = keyof typeof ACCOUNT_REFUSALS;

/**
 * A single sign-on that fails comes back to `/login?sso_error=<code>`: a code, never text, so a
 * crafted link cannot put words of its own on the sign-in page. The page shows the code's text
 * (the details are in the server's auth log).
 */
export const SSO_ERROR_MESSAGES = {
  expired_state: 'This sign-in link is no longer valid. Please start again.',
  refused: 'The identity provider did not sign you in.',
  account_conflict: ACCOUNT_REFUSALS.conflict,
  deactivated: ACCOUNT_REFUSALS.deactivated,
  not_allowed: ACCOUNT_REFUSALS.notAllowed,
  unavailable: 'The identity provider could not be reached. Please try again later.',
  misconfigured: 'Single sign-on is not set up correctly. Contact an administrator.',
  method_disabled: 'Single sign-on is not enabled',
  unknown_provider: 'This single sign-on provider is not available',
  dev_mode: 'Authentication is disabled in development mode',
  failed: 'Single sign-on failed',
} as const;
export type SsoErrorCode = keyof typeof SSO_ERROR_MESSAGES;

/** The text of an `sso_error` code; an unknown code gets the generic text. */
export function ssoErrorMessage(code: string): string {
  return Object.hasOwn(SSO_ERROR_MESSAGES, code)
    ? SSO_ERROR_MESSAGES[code as SsoErrorCode]
    : SSO_ERROR_MESSAGES.failed;
}
