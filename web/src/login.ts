/**
 * The entry of /login (web/login.html): the sign-in page is there as plain HTML, and the app's
 * code (~200 kB) loads at the first sign of use — a touch, a key, a focus, a submit — instead of
 * holding up the first page of every visitor (docs/front-end.md "The sign-in page before the
 * app"). The app starts at once when the static form is not what it would show: a stored session
 * (it goes on to the next page), a single sign-on return, another method than a local account.
 * No framework and no contracts here: this file and login-handoff.ts are all /login loads first.
 */
import { startStaticLogin } from './lib/static-login';

startStaticLogin({
  document,
  storage: (() => {
    try {
      return window.localStorage;
    } catch {
      return null;
    }
  })(),
  // Taken from the <link rel="preload"> of login.html (same URL, mode and credentials).
  fetchConfig: () =>
    fetch('/api/auth/config', {
      credentials: 'same-origin',
      headers: { Accept: 'application/json' },
    }).then((response) => {
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json() as Promise<unknown>;
    }),
  loadApp: () => import('./main'),
});
