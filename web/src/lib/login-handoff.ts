/**
 * What /login's static page (web/login.html, web/src/login.ts) hands to the app when the app
 * takes over: the server's sign-in configuration it already fetched, what was typed into its form
 * and whether that form was submitted before the app was there (docs/front-end.md "The sign-in
 * page before the app"). Kept up to date by login.ts until the app's form replaces the static one.
 */
export interface LoginHandoff {
  /** The answer of GET /api/auth/config, unparsed (the app parses it with its contract). */
  config?: unknown;
  username: string;
  password: string;
  /** The field that had the focus, so the app's form gives it back. */
  focused: 'username' | 'password' | null;
  /** The static form was submitted: the app's form submits these values once it is there. */
  submitted: boolean;
}

let handoff: LoginHandoff | null = null;

export function setLoginHandoff(value: LoginHandoff | null): void {
  handoff = value;
}

/** The handoff, if the page started as the static sign-in page and the app has not taken it. */
export function peekLoginHandoff(): LoginHandoff | null {
  return handoff;
}
