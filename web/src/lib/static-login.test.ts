import { STORAGE_KEYS } from '@learning-hub/core/constants';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { peekLoginHandoff, setLoginHandoff } from './login-handoff';
import { isLocalOnly, startStaticLogin } from './static-login';

const LOCAL_ONLY = { methods: ['local'], defaultMethod: 'local', devMode: false };

/** The static page's form as web/login.html has it. */
function staticPage(): HTMLFormElement {
  document.body.innerHTML = `
    <form id="static-login" novalidate>
      <input id="u" name="username" />
      <input id="p" name="password" type="password" />
      <p id="static-login-error" role="alert"></p>
      <button type="submit">Sign in</button>
    </form>`;
  return document.querySelector('form')!;
}

function start(
  options: {
    storage?: Record<string, string>;
    config?: () => Promise<unknown>;
    load?: () => Promise<unknown>;
  } = {},
) {
  const loadApp = vi.fn(options.load ?? (() => Promise.resolve()));
  const store = options.storage ?? {};
  startStaticLogin({
    document,
    storage: { getItem: (key) => store[key] ?? null },
    fetchConfig: options.config ?? (() => Promise.resolve(LOCAL_ONLY)),
    loadApp,
  });
  return loadApp;
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  setLoginHandoff(null);
  document.body.innerHTML = '';
});

describe("/login's static page", () => {
  it('loads the app only once it is used, and hands over the server configuration', async () => {
    staticPage();
    const loadApp = start();
    await tick();
    expect(loadApp).not.toHaveBeenCalled();
    expect(peekLoginHandoff()?.config).toEqual(LOCAL_ONLY);
    document.getElementById('u')!.focus();
    expect(loadApp).toHaveBeenCalledTimes(1);
    document.getElementById('p')!.dispatchEvent(new KeyboardEvent('keydown', { bubbles: true }));
    expect(loadApp).toHaveBeenCalledTimes(1);
  });

  it('keeps what is typed and where, and a submit, for the app', async () => {
    const form = staticPage();
    start();
    const username = document.getElementById('u') as HTMLInputElement;
    username.focus();
    username.value = 'student';
    username.dispatchEvent(new Event('input', { bubbles: true }));
    form.requestSubmit();
    await tick();
    expect(peekLoginHandoff()).toMatchObject({
      username: 'student',
      password: '',
      focused: 'username',
      submitted: true,
    });
    expect(form.querySelector('button')).toHaveAttribute('aria-busy', 'true');
  });

  it.each([
    ['a stored session', { storage: { [STORAGE_KEYS.session]: '{}' } }],
    ['another stored method', { storage: { [STORAGE_KEYS.authMethod]: 'sso' } }],
    ['another configuration', { config: () => Promise.resolve({ ...LOCAL_ONLY, devMode: true }) }],
    ['no configuration', { config: () => Promise.reject(new Error('offline')) }],
  ])('loads the app at once with %s', async (_, options) => {
    staticPage();
    const loadApp = start(options);
    await tick();
    expect(loadApp).toHaveBeenCalledTimes(1);
  });

  it('says when the app could not load, and tries again at the next touch', async () => {
    staticPage();
    const loadApp = start({ load: () => Promise.reject(new Error('offline')) });
    document.getElementById('u')!.focus();
    await tick();
    expect(document.getElementById('static-login-error')).toHaveTextContent(
      'The page could not load',
    );
    document.getElementById('p')!.focus();
    expect(loadApp).toHaveBeenCalledTimes(2);
  });

  it("names the colour-scheme toggle after the system's scheme, which the page follows", () => {
    staticPage();
    document.body.insertAdjacentHTML(
      'afterbegin',
      '<button type="button" aria-label="Switch to dark colour scheme"></button>',
    );
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('dark') }));
    start();
    expect(document.querySelector('button')).toHaveAttribute(
      'aria-label',
      'Switch to light colour scheme',
    );
  });

  it('knows the configuration the static form stands for', () => {
    expect(isLocalOnly(LOCAL_ONLY)).toBe(true);
    expect(isLocalOnly({ ...LOCAL_ONLY, methods: ['local', 'ldap'] })).toBe(false);
    expect(isLocalOnly(null)).toBe(false);
  });
});
