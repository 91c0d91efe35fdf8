import type { PublicUser } from '@learning-hub/core';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MockRoutes } from '../../../test/fetch-mock';
import { buildUser } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import {
  buildAuthSettings,
  buildProvider,
  buildRoles,
  buildSignInTestResult,
  buildTestStep,
  DEPARTMENTS,
} from '../testing';
import { browserNavigation } from './auth-test-page';

const admin = buildUser({ role: 'admin' });
const directory = buildProvider();
const moodle = buildProvider({ method: 'moodle', enabled: false });
const sso = buildProvider({ method: 'sso' });
const settings = buildAuthSettings({
  methods: { local: true, ldap: true, moodle: true, sso: true },
  providers: [directory, moodle, sso],
});

/** The account a dry-run directory sign-in would create (toPublicUser of a directory user). */
const jordan: Partial<PublicUser> = {
  ...buildUser({
    id: 'user-jdoe',
    username: 'jdoe',
    email: 'jordan.doe@example.com',
    firstname: 'Jordan',
    lastname: 'Doe',
    role: 'instructor',
    department: 'Field Operations',
    departmentId: 'field-operations',
    authMethod: 'ldap',
  }),
  ldapGroups: ['lms-instructors', 'field-ops'],
  ldapAttributes: { mail: 'jordan.doe@example.com', departmentNumber: 'Field Operations' },
};

const passed = buildSignInTestResult({
  steps: [
    buildTestStep({ name: 'Connect to ldap://ldap.example.com:389', ms: 8 }),
    buildTestStep({ name: 'Bind as cn=reader,dc=example,dc=com', ms: 4 }),
    buildTestStep({
      name: 'Find the user',
      ms: 1520,
      detail: 'uid=jdoe,ou=people,dc=example,dc=com',
    }),
    buildTestStep({ name: 'Map groups to roles', ms: 0, detail: 'role instructor' }),
  ],
  user: jordan,
  role: 'instructor',
  assignments: [
    {
      context: 'department:field-operations',
      label: 'Field Operations',
      roles: ['department-manager'],
    },
    {
      context: 'course:fiber-splicing-101',
      label: 'FO-101 · Fiber Splicing Fundamentals',
      roles: ['course-instructor', 'course-assistant'],
    },
    // A context that no longer exists: its key.
    { context: 'course:retired-course', label: null, roles: ['course-student'] },
  ],
  groups: ['lms-instructors', 'field-ops'],
});

function setup(more: MockRoutes = {}) {
  return signedInAs(admin, {
    'GET /api/admin/auth/settings': { body: settings },
    'GET /api/admin/roles': { body: buildRoles() },
    'GET /api/departments': { body: DEPARTMENTS },
    ...more,
  });
}

async function openAuthTest(path = '/auth-test', more: MockRoutes = {}) {
  const fetchMock = setup(more);
  const view = renderApp(path);
  await findHeading('Authentication Test');
  return { fetchMock, ...view };
}

describe('admin: authentication test', () => {
  it('preselects the provider named in the address, and switches provider', async () => {
    const { user, router } = await openAuthTest('/auth-test?provider=corp-moodle');
    const select = await screen.findByRole('combobox', { name: 'Provider' });
    expect(select).toHaveValue('Campus Moodle · Moodle (disabled)');
    expect(
      screen.getByText(
        'This provider is disabled: people cannot sign in with it, but it can be tested.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/Username/)).toBeInTheDocument();

    await user.click(select);
    await user.click(
      screen.getByRole('option', { name: 'Company SSO · Single sign-on (OpenID Connect)' }),
    );
    expect(router.state.location.search).toBe('?provider=corp-sso');
    expect(await screen.findByRole('button', { name: 'Sign in at Company SSO' })).toBeVisible();
    expect(screen.queryByLabelText(/Username/)).not.toBeInTheDocument();
  });

  it('starts with the first provider when none is named', async () => {
    await openAuthTest();
    expect(await screen.findByRole('combobox', { name: 'Provider' })).toHaveValue(
      'Corporate directory · Directory (LDAP)',
    );
  });

  it('runs a directory sign-in as a dry run and shows every step, the account and the access', async () => {
    const { fetchMock, user } = await openAuthTest('/auth-test?provider=corp-ldap', {
      'POST /api/admin/auth/test': { body: passed },
    });
    await user.click(await screen.findByRole('button', { name: 'Run test sign-in' }));
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/admin/auth/test')).toHaveLength(0);

    await user.type(screen.getByLabelText(/Username/), 'jdoe');
    await user.type(screen.getByLabelText(/^Password/), 'pa55word');
    await user.click(screen.getByRole('button', { name: 'Run test sign-in' }));

    const steps = await screen.findByRole('list', { name: 'Sign-in steps' });
    expect(fetchMock.callsTo('POST /api/admin/auth/test')[0]?.body).toEqual({
      provider: 'corp-ldap',
      username: 'jdoe',
      password: 'pa55word',
    });
    expect(screen.getByText('Passed')).toBeInTheDocument();
    const items = within(steps).getAllByRole('listitem');
    expect(items).toHaveLength(4);
    expect(items[0]).toHaveTextContent('1. Connect to ldap://ldap.example.com:389');
    expect(items[0]).toHaveTextContent('8 ms');
    expect(items[2]).toHaveTextContent('3. Find the user');
    expect(items[2]).toHaveTextContent('1.5 s');
    expect(items[2]).toHaveTextContent('uid=jdoe,ou=people,dc=example,dc=com');
    for (const item of items) expect(within(item).getByText('OK')).toBeInTheDocument();

    const account = screen.getByRole('region', { name: 'Account that would be used' });
    const rows = Object.fromEntries(
      within(account)
        .getAllByRole('row')
        .map((row) => [
          within(row).getByRole('rowheader').textContent,
          within(row).getByRole('cell').textContent,
        ]),
    );
    expect(rows).toEqual({
      Username: 'jdoe',
      'First name': 'Jordan',
      'Last name': 'Doe',
      Email: 'jordan.doe@example.com',
      Department: 'Field Operations',
      'Sign-in method': 'ldap',
    });

    const access = screen.getByRole('region', { name: 'Access that would be mapped' });
    // Names: the role once the roles are loaded; the contexts as the server named them.
    expect(await within(access).findByText('Instructor')).toBeInTheDocument();
    await waitFor(() =>
      expect(
        within(access)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual([
        'Field Operations: Department manager',
        'FO-101 · Fiber Splicing Fundamentals: Course instructor, Course assistant',
        'course:retired-course: Course student',
      ]),
    );

    const groups = screen.getByRole('region', { name: 'Groups found' });
    expect(within(groups).getByText('lms-instructors')).toBeInTheDocument();
    expect(within(groups).getByText('field-ops')).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Directory attributes' })).toHaveTextContent(
      '"departmentNumber": "Field Operations"',
    );
    expect(screen.queryByRole('region', { name: 'Claims received' })).not.toBeInTheDocument();
  });

  it('shows a failed sign-in with the step that failed and its error', async () => {
    const failed = buildSignInTestResult({
      ok: false,
      steps: [
        buildTestStep({ name: 'Connect to ldap://ldap.example.com:389', ms: 8 }),
        buildTestStep({
          name: 'Check the password',
          ok: false,
          ms: 35,
          error: 'Invalid username or password',
        }),
      ],
    });
    const { user } = await openAuthTest('/auth-test?provider=corp-ldap', {
      'POST /api/admin/auth/test': { body: failed },
    });
    await user.type(await screen.findByLabelText(/Username/), 'jdoe');
    await user.type(screen.getByLabelText(/^Password/), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Run test sign-in' }));

    const steps = await screen.findByRole('list', { name: 'Sign-in steps' });
    expect(
      screen.getByText('The sign-in would fail: see the step that failed.'),
    ).toBeInTheDocument();
    const [, check] = within(steps).getAllByRole('listitem');
    expect(within(check!).getByText('Failed')).toBeInTheDocument();
    expect(within(check!).getByText('Invalid username or password')).toBeInTheDocument();
    // The outcome badge says it too.
    expect(screen.getAllByText('Failed')).toHaveLength(2);
    expect(
      screen.queryByRole('region', { name: 'Account that would be used' }),
    ).not.toBeInTheDocument();
    expect(
      screen.queryByRole('region', { name: 'Access that would be mapped' }),
    ).not.toBeInTheDocument();
  });

  it('shows the server’s message when the test cannot run', async () => {
    const { user } = await openAuthTest('/auth-test?provider=corp-ldap', {
      'POST /api/admin/auth/test': {
        status: 400,
        body: { code: 'VALIDATION_ERROR', message: 'Username must be at most 256 characters' },
      },
    });
    await user.type(await screen.findByLabelText(/Username/), 'jdoe');
    await user.click(screen.getByRole('button', { name: 'Run test sign-in' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The test could not run');
    expect(alert).toHaveTextContent('Username must be at most 256 characters');
    expect(screen.queryByRole('list', { name: 'Sign-in steps' })).not.toBeInTheDocument();
  });

  it('starts a single sign-on test by going to the identity provider', async () => {
    const authorizationUrl =
      'https://id.example.com/realms/corp/protocol/openid-connect/auth?client_id=lms&state=s1';
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined);
    const { fetchMock, user } = await openAuthTest('/auth-test?provider=corp-sso', {
      'POST /api/admin/auth/test/sso/start': {
        status: 201,
        body: { testId: 'test-0123456789', authorizationUrl },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Sign in at Company SSO' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith(authorizationUrl));
    expect(assign).toHaveBeenCalledTimes(1);
    expect(fetchMock.callsTo('POST /api/admin/auth/test/sso/start')[0]?.body).toEqual({
      provider: 'corp-sso',
    });
  });

  it('says why a single sign-on test could not start, and stays here', async () => {
    const assign = vi.spyOn(browserNavigation, 'assign').mockImplementation(() => undefined);
    const { user } = await openAuthTest('/auth-test?provider=corp-sso', {
      'POST /api/admin/auth/test/sso/start': {
        status: 503,
        body: { code: 'SERVICE_UNAVAILABLE', message: 'The issuer could not be reached' },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Sign in at Company SSO' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The test could not start');
    expect(alert).toHaveTextContent('The issuer could not be reached');
    expect(assign).not.toHaveBeenCalled();
  });

  // Waits for the real one-second poll.
  it(
    'waits for the single sign-on result it came back with, then shows it',
    { timeout: 10_000 },
    async () => {
      const testId = 'Zm9vYmFyYmF6cXV4';
      const result = buildSignInTestResult({
        provider: 'corp-sso',
        method: 'sso',
        steps: [
          buildTestStep({ name: 'Exchange the code for tokens', ms: 140 }),
          buildTestStep({ name: 'Read the claims', ms: 2 }),
        ],
        user: {
          ...buildUser({ id: 'user-jdoe', username: 'jdoe', authMethod: 'sso' }),
          ssoProvider: 'corp-sso',
        },
        role: 'student',
        groups: ['lms-students'],
        claims: { sub: '8d3c', preferred_username: 'jdoe', groups: ['lms-students'] },
      });
      let asked = 0;
      const { fetchMock, user, router } = await openAuthTest(`/auth-test?sso_test=${testId}`, {
        [`GET /api/admin/auth/test/sso/${testId}`]: () => {
          asked += 1;
          return asked === 1 ? { status: 202, body: { pending: true } } : { body: result };
        },
      });
      expect(
        await screen.findByText("Waiting for the identity provider's answer…"),
      ).toBeInTheDocument();
      expect(screen.queryByRole('combobox', { name: 'Provider' })).not.toBeInTheDocument();

      const steps = await screen.findByRole('list', { name: 'Sign-in steps' }, { timeout: 4000 });
      expect(fetchMock.callsTo(`GET /api/admin/auth/test/sso/${testId}`)).toHaveLength(2);
      expect(within(steps).getAllByRole('listitem')[0]).toHaveTextContent(
        '1. Exchange the code for tokens',
      );
      expect(screen.queryByText(/Waiting for the identity provider/)).not.toBeInTheDocument();
      const account = screen.getByRole('region', { name: 'Account that would be used' });
      expect(account).toHaveTextContent('SSO providercorp-sso');
      const access = screen.getByRole('region', { name: 'Access that would be mapped' });
      // The role's display name, once the roles are loaded.
      expect(await within(access).findByText('Student')).toBeInTheDocument();
      expect(screen.getByRole('region', { name: 'Claims received' })).toHaveTextContent(
        '"preferred_username": "jdoe"',
      );

      // Back to the form, on the provider just tested.
      await user.click(screen.getByRole('button', { name: 'Run another test' }));
      expect(router.state.location.search).toBe('?provider=corp-sso');
      expect(await screen.findByRole('combobox', { name: 'Provider' })).toHaveValue(
        'Company SSO · Single sign-on (OpenID Connect)',
      );
    },
  );

  it('says there is nothing to test without providers', async () => {
    await openAuthTest('/auth-test', {
      'GET /api/admin/auth/settings': { body: buildAuthSettings() },
    });
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('No providers yet');
    expect(within(alert).getByRole('link', { name: 'Authentication settings' })).toHaveAttribute(
      'href',
      '/admin/authentication',
    );
    expect(screen.queryByRole('combobox', { name: 'Provider' })).not.toBeInTheDocument();
  });

  it('is for admins only', async () => {
    const fetchMock = signedInAs(buildUser({ role: 'student' }), {
      'GET /api/admin/auth/settings': { body: settings },
    });
    const { router } = renderApp('/auth-test');
    // Sent to the start page, which shows the spec's access-denied panel with the reason.
    await screen.findByRole('heading', { name: 'Access Denied' });
    expect(
      screen.getByText('You do not have permission to access this resource.'),
    ).toBeInTheDocument();
    expect(
      screen.getByText(
        'You do not have access to Authentication Test: Missing required permission: system.admin',
      ),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(fetchMock.callsTo('GET /api/admin/auth/settings')).toHaveLength(0);
  });
});
