/**
 * The static sign-in page of /login (web/login.html) until the app takes over: what starts the
 * app, and what it hands over (docs/front-end.md "The sign-in page before the app"). Imports
 * nothing but core's constants and the handoff: this is all the JavaScript /login loads first.
 */
import { STORAGE_KEYS } from '@learning-hub/core/constants';
import { peekLoginHandoff, setLoginHandoff, type LoginHandoff } from './login-handoff';

/** What makes the app load: any sign that someone is about to use the page. */
const START_EVENTS = ['pointerdown', 'touchstart', 'keydown', 'focusin', 'input'] as const;
const LOAD_FAILED = 'The page could not load. Check your connection and try again.';

export interface StaticLoginOptions {
  document: Document;
  storage: Pick<Storage, 'getItem'> | null;
  fetchConfig(): Promise<unknown>;
  loadApp(): Promise<unknown>;
}

/** Whether the server offers exactly what the static form is: a local account, no dev mode. */
export function isLocalOnly(config: unknown): boolean {
  if (typeof config !== 'object' || config === null) return false;
  const { methods, devMode } = config as { methods?: unknown; devMode?: unknown };
  return (
    devMode === false && Array.isArray(methods) && methods.length === 1 && methods[0] === 'local'
  );
}

function stored(storage: StaticLoginOptions['storage'], key: string): string | null {
  try {
    return storage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** Wires the static sign-in page; returns the function that starts the app (for tests). */
export function startStaticLogin({
  document: doc,
  storage,
  fetchConfig,
  loadApp,
}: StaticLoginOptions): () => void {
  const form = doc.querySelector<HTMLFormElement>('#static-login');
  const username = form?.querySelector<HTMLInputElement>('input[name="username"]');
  const password = form?.querySelector<HTMLInputElement>('input[name="password"]');
  const error = doc.getElementById('static-login-error');
  const submit = form?.querySelector<HTMLButtonElement>('button[type="submit"]');
  const handoff: LoginHandoff = {
    username: '',
    password: '',
    focused: null,
    submitted: false,
  };
  setLoginHandoff(handoff);

  // The static page follows the system's colour scheme (its styles); the toggle's name says so,
  // as the app's does.
  if (doc.defaultView?.matchMedia?.('(prefers-color-scheme: dark)').matches) {
    doc
      .querySelector('[aria-label="Switch to dark colour scheme"]')
      ?.setAttribute('aria-label', 'Switch to light colour scheme');
  }

  let loading = false;
  const start = () => {
    if (loading) return;
    loading = true;
    for (const type of START_EVENTS) doc.removeEventListener(type, start, true);
    loadApp().catch(() => {
      // Offline or a new release replaced the files: say so, and try again at the next touch.
      loading = false;
      if (error) error.textContent = LOAD_FAILED;
      submit?.removeAttribute('aria-busy');
      handoff.submitted = false;
      for (const type of START_EVENTS) doc.addEventListener(type, start, true);
    });
  };

  if (!form || !username || !password) {
    start();
    return start;
  }

  // Kept current until the app's form replaces this one (the app reads it then). The focus is
  // read a moment after it moves: a field removed by the app blurs first (with a `change`, in
  // Chrome), and that is not the user leaving it.
  const current = () => peekLoginHandoff() === handoff && form.isConnected;
  const syncValues = () => {
    if (!current()) return;
    handoff.username = username.value;
    handoff.password = password.value;
  };
  const syncFocus = () => {
    if (!current()) return;
    const active = doc.activeElement;
    handoff.focused = active === username ? 'username' : active === password ? 'password' : null;
  };
  form.addEventListener('input', syncValues);
  form.addEventListener('change', syncValues);
  form.addEventListener('focusin', syncFocus);
  form.addEventListener('focusout', () => queueMicrotask(syncFocus));
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    syncValues();
    handoff.submitted = true;
    if (error) error.textContent = '';
    submit?.setAttribute('aria-busy', 'true');
    start();
  });
  for (const type of START_EVENTS) doc.addEventListener(type, start, true);

  const params = new URLSearchParams(doc.location.search);
  const method = stored(storage, STORAGE_KEYS.authMethod);
  if (
    stored(storage, STORAGE_KEYS.session) !== null ||
    params.has('sso_code') ||
    params.has('sso_error') ||
    (method !== null && method !== 'local')
  ) {
    start();
    return start;
  }
  fetchConfig().then(
    (config) => {
      handoff.config = config;
      if (!isLocalOnly(config)) start();
    },
    () => start(),
  );
  return start;
}
