import { buildOverview } from '../../../test/classroom-fixtures';
import { STORAGE_KEYS, type PublicUser } from '@learning-hub/core';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { formatDateTime } from '../../../lib/format';
import { setLoginHandoff } from '../../../lib/login-handoff';
import { mockFetch, NETWORK_FAILURE } from '../../../test/fetch-mock';
import { buildAuthConfig, buildMe, buildUser } from '../../../test/fixtures';
import { findHeading, renderApp } from '../../../test/render-app';
import staticLoginHtml from '../../../../login.html?raw';

const student = buildUser();

/** The names a visitor meets on login.html, the page drawn before the app (docs/front-end.md). */
function staticLoginNames() {
  const page = new DOMParser().parseFromString(staticLoginHtml, 'text/html');
  const named = (selector: string) =>
    [...page.body.querySelectorAll(selector)].map((element) =>
      (element.getAttribute('aria-label') ?? element.textContent ?? '').replace(/\s+/g, ' ').trim(),
    );
  return {
    title: page.title,
    headings: named('h1'),
    labels: named('label').map((label) => label.replace(/ \*$/, '')),
    buttons: named('button'),
    links: named('a[href]'),
  };
}

describe('login page', () => {
  it('is what login.html draws before the app: the same heading, fields, buttons and links', async () => {
    mockFetch();
    renderApp('/login');
    await findHeading('Sign in');
    const drawn = staticLoginNames();
    expect(drawn.title).toBe('Sign in · Learning Hub');
    expect(drawn.headings).toEqual(['Sign in']);
    expect(drawn.labels).toEqual(['Username', 'Password']);
    for (const label of drawn.labels) {
      expect(screen.getByLabelText(new RegExp(`^${label}`))).toBeInTheDocument();
    }
    for (const name of drawn.buttons) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    for (const name of drawn.links) {
      expect(screen.getByRole('link', { name })).toBeInTheDocument();
    }
    // Neither offers a Login button on the sign-in page itself.
    expect(drawn.links).not.toContain('Login');
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    // And nothing the app's form asks for is missing from the static one.
    const form = screen.getByRole('button', { name: 'Sign in' }).closest('form')!;
    expect(within(form).getAllByRole('textbox').length + 1).toBe(drawn.labels.length);
  });

  it('validates inline without calling the server', async () => {
    const fetchMock = mockFetch();
    const { user } = renderApp('/login');
    await findHeading('Sign in');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/auth/local')).toHaveLength(0);
  });

  it('never starts the password strength worker (it rates new passwords only)', async () => {
    const created = vi.fn();
    vi.stubGlobal('Worker', created); // the test setup unstubs globals after each test
    mockFetch();
    const { user } = renderApp('/login');
    await findHeading('Sign in');
    await user.type(screen.getByLabelText(/Username/), 'student');
    await user.type(screen.getByLabelText(/Password/), 'a long enough password');
    await new Promise((resolve) => setTimeout(resolve, 300)); // past the meter's typing pause
    expect(created).not.toHaveBeenCalled();
  });

  it("shows the server's error in an alert", async () => {
    mockFetch({
      'POST /api/auth/local': {
        status: 401,
        body: {
          success: false,
          error: 'Invalid username or password',
          code: 'INVALID_CREDENTIALS',
        },
      },
    });
    const { user } = renderApp('/login');
    await findHeading('Sign in');
    await user.type(screen.getByLabelText(/Username/), 'student');
    await user.type(screen.getByLabelText(/Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid username or password');
  });

  it('shows the auth service error when the server cannot be reached', async () => {
    mockFetch({ 'POST /api/auth/local': NETWORK_FAILURE });
    const { user } = renderApp('/login');
    await findHeading('Sign in');
    await user.type(screen.getByLabelText(/Username/), 'student');
    await user.type(screen.getByLabelText(/Password/), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Authentication service unavailable',
    );
  });

  it('shows loading while signing in, stores the method, then goes home', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    mockFetch({
      'POST /api/auth/local': async () => {
        await gate;
        return {
          body: {
            success: true,
            user: student,
            token: 'tok',
            expiresAt: new Date(Date.now() + 3.6e6).toISOString(),
          },
        };
      },
      'GET /api/auth/me': { body: buildMe(student) },
    });
    const { user, router } = renderApp('/login');
    await findHeading('Sign in');
    await user.type(screen.getByLabelText(/Username/), 'student');
    await user.type(screen.getByLabelText(/Password/), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Sign in' })).toHaveAttribute(
        'data-loading',
        'true',
      ),
    );
    release();
    await findHeading('Welcome, Sam');
    expect(router.state.location.pathname).toBe('/');
    expect(window.localStorage.getItem(STORAGE_KEYS.authMethod)).toBe('local');
  });

  it("takes over what was typed into /login's static page, and its submit", async () => {
    const fetchMock = mockFetch({
      'POST /api/auth/local': {
        body: {
          success: true,
          user: student,
          token: 'tok',
          expiresAt: new Date(Date.now() + 3.6e6).toISOString(),
        },
      },
      'GET /api/auth/me': { body: buildMe(student) },
    });
    onTestFinished(() => setLoginHandoff(null));
    setLoginHandoff({
      username: 'student',
      password: 'typed before the app',
      focused: 'password',
      submitted: true,
    });
    const { router } = renderApp('/login');
    await findHeading('Welcome, Sam');
    expect(fetchMock.callsTo('POST /api/auth/local')[0]?.body).toEqual({
      username: 'student',
      password: 'typed before the app',
    });
    expect(router.state.location.pathname).toBe('/');
  });

  it("gives the focus back to the static page's field, once", async () => {
    mockFetch();
    onTestFinished(() => setLoginHandoff(null));
    setLoginHandoff({ username: 'stu', password: '', focused: 'username', submitted: false });
    renderApp('/login');
    await findHeading('Sign in');
    const field = screen.getByLabelText(/Username/);
    await waitFor(() => expect(field).toHaveFocus());
    expect(field).toHaveValue('stu');
    expect(screen.getByLabelText(/Password/)).toHaveValue('');
  });

  it('offers the method only when the server enables more than one', async () => {
    mockFetch();
    renderApp('/login');
    await findHeading('Sign in');
    expect(screen.queryByLabelText('Authentication method')).not.toBeInTheDocument();
  });

  it('offers the enabled methods when there are several', async () => {
    const fetchMock = mockFetch({
      'GET /api/auth/config': {
        body: buildAuthConfig({
          methods: ['local', 'ldap'],
          providers: { ldap: [{ id: 'corp', label: 'Corp' }], moodle: [], sso: [] },
        }),
      },
    });
    renderApp('/login');
    await findHeading('Sign in');
    const [select] = await screen.findAllByLabelText('Authentication method');
    expect(select).toHaveValue('Local account');
    expect(fetchMock.callsTo('GET /api/auth/config')).toHaveLength(1);
  });
});

const providers = {
  ldap: [
    { id: 'corp', label: 'Corporate directory' },
    { id: 'lab', label: 'Lab directory' },
  ],
  moodle: [{ id: 'campus', label: 'Campus Moodle' }],
  sso: [
    { id: 'azure', label: 'Azure AD' },
    { id: 'keycloak', label: 'Keycloak' },
  ],
};
const allMethods = buildAuthConfig({
  methods: ['local', 'ldap', 'moodle', 'sso'],
  providers,
});

function sessionAnswer(user: PublicUser) {
  return {
    body: {
      success: true,
      user,
      token: `tok-${user.authMethod}`,
      expiresAt: new Date(Date.now() + 3.6e6).toISOString(),
    },
  };
}

async function chooseMethod(user: ReturnType<typeof renderApp>['user'], label: string) {
  const [select] = await screen.findAllByLabelText('Authentication method');
  await user.click(select!);
  await user.click(await screen.findByRole('option', { name: label }));
}

describe('login page: directory, Moodle and single sign-on', () => {
  it('labels every method', async () => {
    mockFetch({ 'GET /api/auth/config': { body: allMethods } });
    const { user } = renderApp('/login');
    await findHeading('Sign in');
    const [select] = await screen.findAllByLabelText('Authentication method');
    await user.click(select!);
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Local account',
      'Company directory (LDAP)',
      'Moodle',
      'Single sign-on',
    ]);
  });

  it('signs in with the chosen directory and remembers the method', async () => {
    const ldapUser = buildUser({ authMethod: 'ldap' });
    const fetchMock = mockFetch({
      'GET /api/auth/config': { body: allMethods },
      'POST /api/auth/ldap': sessionAnswer(ldapUser),
      'GET /api/auth/me': { body: buildMe(ldapUser) },
    });
    const { user, router } = renderApp('/login?next=%2Flibrary');
    await findHeading('Sign in');
    await chooseMethod(user, 'Company directory (LDAP)');
    expect(window.localStorage.getItem(STORAGE_KEYS.authMethod)).toBe('ldap');
    const [directory] = screen.getAllByLabelText('Directory');
    expect(directory).toHaveValue('Corporate directory');
    await user.click(directory!);
    await user.click(await screen.findByRole('option', { name: 'Lab directory' }));
    await user.type(screen.getByLabelText(/Username/), 'jdoe');
    await user.type(screen.getByLabelText(/Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await findHeading('Library');
    expect(router.state.location.pathname).toBe('/library');
    expect(fetchMock.callsTo('POST /api/auth/ldap')[0]?.body).toEqual({
      credentials: { username: 'jdoe', password: 'secret' },
      ldapConfig: 'lab',
    });
  });

  it("shows a directory refusal in the spec's words", async () => {
    mockFetch({
      'GET /api/auth/config': { body: allMethods },
      'POST /api/auth/ldap': {
        status: 401,
        body: {
          success: false,
          message: 'Invalid username or password',
          error: 'Invalid username or password',
          code: 'INVALID_CREDENTIALS',
        },
      },
    });
    window.localStorage.setItem(STORAGE_KEYS.authMethod, 'ldap');
    const { user } = renderApp('/login');
    await findHeading('Sign in');
    await user.type(screen.getByLabelText(/Username/), 'jdoe');
    await user.type(screen.getByLabelText(/Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'LDAP authentication error: Invalid username or password',
    );
  });

  it('signs in with Moodle (no provider choice when there is one site)', async () => {
    const moodleUser = buildUser({ authMethod: 'moodle' });
    const fetchMock = mockFetch({
      'GET /api/auth/config': { body: allMethods },
      'POST /api/auth/moodle': sessionAnswer(moodleUser),
      'GET /api/auth/me': { body: buildMe(moodleUser) },
    });
    const { user } = renderApp('/login');
    await findHeading('Sign in');
    await chooseMethod(user, 'Moodle');
    expect(screen.queryByLabelText('Moodle site')).not.toBeInTheDocument();
    await user.type(screen.getByLabelText(/Username/), 'jdoe');
    await user.type(screen.getByLabelText(/Password/), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await findHeading('Welcome, Sam');
    expect(fetchMock.callsTo('POST /api/auth/moodle')[0]?.body).toEqual({
      credentials: { username: 'jdoe', password: 'secret' },
      moodleConfig: 'campus',
    });
  });

  it('offers one sign-on link per provider, returning to the remembered page', async () => {
    mockFetch({ 'GET /api/auth/config': { body: allMethods } });
    window.localStorage.setItem(STORAGE_KEYS.authMethod, 'sso');
    renderApp('/login?next=%2Flibrary');
    await findHeading('Sign in');
    expect(screen.queryByLabelText(/Username/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in with Azure AD' })).toHaveAttribute(
      'href',
      '/api/auth/sso/start?provider=azure&returnTo=%2Flibrary',
    );
    expect(screen.getByRole('link', { name: 'Sign in with Keycloak' })).toHaveAttribute(
      'href',
      '/api/auth/sso/start?provider=keycloak&returnTo=%2Flibrary',
    );
  });

  it('exchanges the one-time code, clears it from the address and goes to next', async () => {
    const ssoUser = buildUser({ authMethod: 'sso', ssoProvider: 'azure' });
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const fetchMock = mockFetch({
      'GET /api/auth/config': { body: allMethods },
      'POST /api/auth/sso': async () => {
        await gate;
        return sessionAnswer(ssoUser);
      },
      'GET /api/auth/me': { body: buildMe(ssoUser) },
    });
    const { router } = renderApp('/login?sso_code=abc123&sso_provider=azure&next=%2Flibrary');
    expect(await screen.findByText('Completing sign-in with Azure AD…')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?next=%2Flibrary');
    release();
    await findHeading('Library');
    expect(router.state.location.pathname).toBe('/library');
    expect(fetchMock.callsTo('POST /api/auth/sso')).toHaveLength(1);
    expect(fetchMock.callsTo('POST /api/auth/sso')[0]?.body).toEqual({
      credentials: 'abc123',
      ssoConfig: 'azure',
    });
    expect(window.localStorage.getItem(STORAGE_KEYS.authMethod)).toBe('sso');
  });

  it('ignores an unsafe next after single sign-on', async () => {
    const ssoUser = buildUser({ authMethod: 'sso' });
    mockFetch({
      'GET /api/auth/config': { body: allMethods },
      'POST /api/auth/sso': sessionAnswer(ssoUser),
      'GET /api/auth/me': { body: buildMe(ssoUser) },
    });
    const { router } = renderApp(
      `/login?sso_code=abc&sso_provider=azure&next=${encodeURIComponent('//evil.example.com')}`,
    );
    await findHeading('Welcome, Sam');
    expect(router.state.location.pathname).toBe('/');
  });

  it('shows a used or expired code as an SSO error and offers the providers again', async () => {
    mockFetch({
      'GET /api/auth/config': { body: allMethods },
      'POST /api/auth/sso': {
        status: 401,
        body: {
          success: false,
          message:
            'This sign-in code is not valid (used, expired or unknown). Please sign in again.',
          error: 'This sign-in code is not valid (used, expired or unknown). Please sign in again.',
          code: 'INVALID_CREDENTIALS',
        },
      },
    });
    const { router } = renderApp('/login?sso_code=used&sso_provider=azure');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'SSO authentication error: This sign-in code is not valid (used, expired or unknown). Please sign in again.',
    );
    expect(router.state.location.search).toBe('');
    expect(screen.getByRole('link', { name: 'Sign in with Azure AD' })).toBeInTheDocument();
  });

  it("shows the text of the callback's sso_error code in the form's alert and logs it", async () => {
    const fetchMock = mockFetch({ 'GET /api/auth/config': { body: allMethods } });
    const { router } = renderApp('/login?sso_error=refused');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'SSO authentication error: The identity provider did not sign you in.',
    );
    expect(router.state.location.search).toBe('');
    expect(fetchMock.callsTo('POST /api/auth/sso')).toHaveLength(0);
    await waitFor(() =>
      expect(fetchMock.callsTo('POST /api/auth/log').map((c) => c.body)).toContainEqual(
        expect.objectContaining({ event: 'login_failure', authMethod: 'sso' }),
      ),
    );
  });

  it('never shows text a crafted link puts in sso_error', async () => {
    mockFetch({ 'GET /api/auth/config': { body: allMethods } });
    renderApp(`/login?sso_error=${encodeURIComponent('Your account is locked. Call +1 555 0100')}`);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'SSO authentication error: Single sign-on failed',
    );
    expect(screen.queryByText(/555 0100/)).not.toBeInTheDocument();
  });

  it('shows only the sign-on links when single sign-on is the only method', async () => {
    mockFetch({
      'GET /api/auth/config': {
        body: buildAuthConfig({ methods: ['sso'], defaultMethod: 'sso', providers }),
      },
    });
    renderApp('/login');
    await findHeading('Sign in');
    expect(screen.queryByLabelText('Authentication method')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign in with Azure AD' })).toBeInTheDocument();
  });
});

describe('notice of failed sign-in attempts', () => {
  const lastAt = '2026-11-22T08:55:00.000Z';

  it('tells the owner how many attempts failed since their last sign-in, until dismissed', async () => {
    mockFetch({
      'POST /api/auth/local': {
        body: { ...sessionAnswer(student).body, failedAttempts: { count: 3, lastAt } },
      },
      'GET /api/auth/me': { body: buildMe(student) },
      // The start page the user lands on asks for their courses.
      'GET /api/me/learning': { body: buildOverview() },
    });
    const { user } = renderApp('/login');
    await findHeading('Sign in');
    await user.type(screen.getByLabelText(/Username/), 'student');
    await user.type(screen.getByLabelText(/Password/), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await findHeading('Welcome, Sam');
    const notice = await screen.findByRole('alert');
    expect(notice).toHaveTextContent('Failed sign-in attempts');
    expect(notice).toHaveTextContent(
      `There were 3 failed attempts to sign in to your account since your last sign-in, the last on ${formatDateTime(lastAt)}. If this was not you, change your password.`,
    );
    // It stays until the user closes it.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.getByRole('alert')).toBeInTheDocument();
    await user.click(within(notice).getByRole('button'));
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
  });

  it('says "1 failed attempt" after a single one, also after single sign-on', async () => {
    const ssoUser = buildUser({ authMethod: 'sso', ssoProvider: 'azure' });
    mockFetch({
      'GET /api/auth/config': { body: allMethods },
      'POST /api/auth/sso': {
        body: { ...sessionAnswer(ssoUser).body, failedAttempts: { count: 1, lastAt } },
      },
      'GET /api/auth/me': { body: buildMe(ssoUser) },
    });
    renderApp('/login?sso_code=abc123&sso_provider=azure');
    await findHeading('Welcome, Sam');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'There was 1 failed attempt to sign in to your account since your last sign-in',
    );
  });

  it('shows nothing when no attempt failed', async () => {
    mockFetch({
      'POST /api/auth/local': sessionAnswer(student),
      'GET /api/auth/me': { body: buildMe(student) },
    });
    const { user } = renderApp('/login');
    await findHeading('Sign in');
    await user.type(screen.getByLabelText(/Username/), 'student');
    await user.type(screen.getByLabelText(/Password/), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await findHeading('Welcome, Sam');
    expect(screen.queryByText('Failed sign-in attempts')).not.toBeInTheDocument();
  });
});
