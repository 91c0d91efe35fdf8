import type { AuthSettings } from '@learning-hub/core';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MockRoutes } from '../../../test/fetch-mock';
import { buildUser } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import {
  buildAuthSettings,
  buildProvider,
  buildRoles,
  buildTestStep,
  DEPARTMENTS,
} from '../testing';

const admin = buildUser({ role: 'admin' });
const directory = buildProvider({ secretsSet: { bindPassword: true, clientSecret: false } });
const moodle = buildProvider({ method: 'moodle', enabled: false });
const settings = buildAuthSettings({
  methods: { local: true, ldap: true, moodle: false, sso: false },
  providers: [directory, moodle],
});

/** A Mantine switch: its label element also holds the description, so the name starts with it. */
function switchNamed(label: string) {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return screen.getByRole('switch', { name: new RegExp(`^${escaped}( |$)`) });
}

/** The provider form is large: its tests take a few seconds in jsdom. */
const FORM = { timeout: 20_000 };

/** Types into a field in one go (pasting): the provider form is large, keystrokes are slow. */
async function fill(user: UserEvent, field: HTMLElement, text: string) {
  await user.clear(field);
  await user.click(field);
  await user.paste(text);
}

async function openAuthentication(more: MockRoutes = {}, answer: AuthSettings = settings) {
  const fetchMock = signedInAs(admin, {
    'GET /api/admin/auth/settings': { body: answer },
    'GET /api/admin/roles': { body: buildRoles() },
    'GET /api/departments': { body: DEPARTMENTS },
    ...more,
  });
  const view = renderApp('/admin/authentication');
  await findHeading('Admin Settings');
  await screen.findByRole('heading', { level: 2, name: 'Sign-in methods' });
  return { fetchMock, ...view };
}

describe('admin: authentication', () => {
  it('shows which sign-in methods are on, and the providers with their status', async () => {
    await openAuthentication();
    expect(screen.getByRole('link', { name: 'Authentication' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(switchNamed('Local accounts')).toBeChecked();
    expect(switchNamed('Company directory (LDAP)')).toBeChecked();
    expect(switchNamed('Moodle')).not.toBeChecked();
    expect(switchNamed('Single sign-on')).not.toBeChecked();
    const devMode = switchNamed('Development mode');
    expect(devMode).not.toBeChecked();
    expect(devMode).toBeDisabled();
    expect(switchNamed('Company directory (LDAP)')).toHaveAccessibleName(
      /1 of 1 provider enabled\.$/,
    );
    expect(switchNamed('Moodle')).toHaveAccessibleName(
      /No enabled provider: not offered on the sign-in page\.$/,
    );
    expect(switchNamed('Single sign-on')).toHaveAccessibleName(
      /No provider yet: not offered on the sign-in page\.$/,
    );

    const table = screen.getByRole('table', { name: 'Providers' });
    const [ldapRow, moodleRow] = within(table).getAllByRole('row').slice(1);
    const ldapCells = within(ldapRow!).getAllByRole('cell');
    expect(ldapCells[0]).toHaveTextContent('Corporate directory');
    expect(ldapCells[0]).toHaveTextContent('corp-ldap');
    expect(ldapCells[1]).toHaveTextContent('Directory (LDAP)');
    expect(ldapCells[2]).toHaveTextContent(/^Enabled$/);
    const moodleCells = within(moodleRow!).getAllByRole('cell');
    expect(moodleCells[1]).toHaveTextContent('Moodle');
    expect(within(moodleCells[2]!).getByText('Disabled')).toBeInTheDocument();
    expect(within(moodleCells[2]!).getByText('Method off')).toBeInTheDocument();
    for (const action of ['Test', 'Edit', 'Delete']) {
      expect(
        within(moodleRow!).getByRole('button', { name: `${action} Campus Moodle` }),
      ).toBeInTheDocument();
    }
  });

  it('shows the development-mode notice when the server runs in dev mode', async () => {
    await openAuthentication({}, buildAuthSettings({ devMode: true }));
    expect(screen.getByText('Development mode is on')).toBeInTheDocument();
    expect(switchNamed('Development mode')).toBeChecked();
    expect(screen.getByText('No providers yet.')).toBeInTheDocument();
  });

  it('turns a method on and shows what the server answered', async () => {
    const { fetchMock, user } = await openAuthentication({
      'PUT /api/admin/auth/methods/moodle': {
        body: { ...settings, methods: { ...settings.methods, moodle: true } },
      },
    });
    const moodleSwitch = switchNamed('Moodle');
    // The server's settings from now on (the page reloads them after a change).
    fetchMock.set({
      'GET /api/admin/auth/settings': {
        body: { ...settings, methods: { ...settings.methods, moodle: true } },
      },
    });
    await user.click(moodleSwitch);
    expect(await screen.findByText('Moodle is on.')).toBeInTheDocument();
    expect(screen.getByText('Sign-in methods saved')).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/admin/auth/methods/moodle')).toHaveLength(1);
    expect(fetchMock.callsTo('PUT /api/admin/auth/methods/moodle')[0]?.body).toEqual({
      enabled: true,
    });
    expect(moodleSwitch).toBeChecked();
    const table = screen.getByRole('table', { name: 'Providers' });
    expect(within(table).queryByText('Method off')).not.toBeInTheDocument();
  });

  it('keeps the last method on when the server refuses to turn it off', async () => {
    const localOnly = buildAuthSettings({ providers: [directory] });
    const { fetchMock, user } = await openAuthentication(
      {
        'PUT /api/admin/auth/methods/local': {
          status: 409,
          body: { code: 'CONFLICT', message: 'At least one sign-in method must stay on' },
        },
      },
      localOnly,
    );
    const local = switchNamed('Local accounts');
    expect(local).toBeChecked();
    await user.click(local);
    expect(await screen.findByText('Not changed')).toBeInTheDocument();
    expect(screen.getByText('At least one sign-in method must stay on')).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/admin/auth/methods/local')[0]?.body).toEqual({
      enabled: false,
    });
    await waitFor(() => expect(local).toBeEnabled());
    expect(local).toBeChecked();
    expect(screen.queryByText('Sign-in methods saved')).not.toBeInTheDocument();
  });

  it(
    'creates a directory provider from the form, sending the password only when typed',
    FORM,
    async () => {
      const created = buildProvider({
        id: 'hq-ldap',
        label: 'HQ directory',
        secretsSet: { bindPassword: true, clientSecret: false },
      });
      const { fetchMock, user } = await openAuthentication({
        'POST /api/admin/auth/providers': { status: 201, body: created },
      });
      await user.click(screen.getByRole('button', { name: 'Add provider' }));
      await user.click(await screen.findByRole('menuitem', { name: 'Directory (LDAP)' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add a Directory (LDAP) provider' });
      await fill(user, within(dialog).getByLabelText(/Provider id/), 'hq-ldap');
      await fill(user, within(dialog).getByLabelText(/^Label/), 'HQ directory');
      await fill(
        user,
        within(dialog).getByLabelText(/Server addresses/),
        'ldap://ldap1.example.com\nldaps://ldap2.example.com:636',
      );
      await fill(
        user,
        within(dialog).getByLabelText('Service account (bind DN)'),
        ' cn=reader,dc=example,dc=com',
      );
      await fill(
        user,
        within(dialog).getByLabelText(/User search bases/),
        'ou=people,dc=example,dc=com',
      );
      await fill(user, within(dialog).getByLabelText('Service account password'), 's3cret');
      await user.click(within(dialog).getByRole('button', { name: 'Add role rule' }));
      await fill(user, within(dialog).getByLabelText('Directory group'), 'lms-instructors');
      await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
      await user.click(screen.getByRole('option', { name: 'Instructor' }));
      fetchMock.set({
        'GET /api/admin/auth/settings': {
          body: { ...settings, providers: [...settings.providers, created] },
        },
      });
      await user.click(within(dialog).getByRole('button', { name: 'Create provider' }));

      expect(await screen.findByText('HQ directory (hq-ldap) was created.')).toBeInTheDocument();
      expect(fetchMock.callsTo('POST /api/admin/auth/providers')[0]?.body).toEqual({
        method: 'ldap',
        id: 'hq-ldap',
        label: 'HQ directory',
        enabled: true,
        settings: {
          urls: ['ldap://ldap1.example.com', 'ldaps://ldap2.example.com:636'],
          port: 389,
          security: 'none',
          tlsRejectUnauthorized: true,
          bindDn: 'cn=reader,dc=example,dc=com',
          userSearchBases: ['ou=people,dc=example,dc=com'],
          userObjectFilter: '(objectClass=inetOrgPerson)',
          userAttribute: 'uid',
          attributes: { email: 'mail', firstname: 'givenName', lastname: 'sn', department: '' },
          groups: { mode: 'memberOf', searchBase: '', nameAttribute: 'cn' },
          timeoutMs: 5000,
          roleMapping: [{ group: 'lms-instructors', role: 'instructor' }],
          contextMapping: [],
          defaultRole: 'student',
          requireMappedGroup: false,
        },
        secrets: { bindPassword: 's3cret' },
      });
      await waitFor(() =>
        expect(screen.queryByRole('dialog', { name: /Add a Directory/ })).not.toBeInTheDocument(),
      );
      const table = screen.getByRole('table', { name: 'Providers' });
      expect(await within(table).findByText('HQ directory')).toBeInTheDocument();
    },
  );

  it(
    'says which required fields are missing and sends nothing until they are given',
    FORM,
    async () => {
      const created = buildProvider({ id: 'hq-ldap', label: 'HQ directory' });
      const { fetchMock, user } = await openAuthentication({
        'POST /api/admin/auth/providers': { status: 201, body: created },
      });
      await user.click(screen.getByRole('button', { name: 'Add provider' }));
      await user.click(await screen.findByRole('menuitem', { name: 'Directory (LDAP)' }));
      const dialog = await screen.findByRole('dialog', { name: 'Add a Directory (LDAP) provider' });
      await fill(user, within(dialog).getByLabelText(/Provider id/), 'hq-ldap');
      await fill(user, within(dialog).getByLabelText(/^Label/), 'HQ directory');
      await user.click(within(dialog).getByRole('button', { name: 'Create provider' }));

      expect(await within(dialog).findByText('Give at least one server')).toBeInTheDocument();
      expect(within(dialog).getByText('Give a search base')).toBeInTheDocument();
      expect(within(dialog).getByLabelText(/Server addresses/)).toHaveAttribute(
        'aria-invalid',
        'true',
      );
      expect(
        within(dialog).getByText('Some fields need attention: see the messages above.'),
      ).toBeInTheDocument();
      expect(fetchMock.callsTo('POST /api/admin/auth/providers')).toHaveLength(0);

      await fill(user, within(dialog).getByLabelText(/Server addresses/), 'ldap.example.com');
      await user.click(within(dialog).getByRole('button', { name: 'Create provider' }));
      expect(
        await within(dialog).findByText('Use ldap://host[:port] or ldaps://host[:port]'),
      ).toBeInTheDocument();
      expect(fetchMock.callsTo('POST /api/admin/auth/providers')).toHaveLength(0);

      await fill(
        user,
        within(dialog).getByLabelText(/Server addresses/),
        'ldap://ldap.example.com',
      );
      await fill(
        user,
        within(dialog).getByLabelText(/User search bases/),
        'ou=people,dc=example,dc=com',
      );
      await user.click(within(dialog).getByRole('button', { name: 'Create provider' }));
      expect(await screen.findByText('Provider created')).toBeInTheDocument();
      const [request] = fetchMock.callsTo('POST /api/admin/auth/providers');
      // No password typed: an anonymous search, no secret sent.
      expect(request?.body).toMatchObject({ id: 'hq-ldap', secrets: {} });
      expect((request?.body as { secrets: object }).secrets).toEqual({});
    },
  );

  it('maps a directory group to context roles in a department', FORM, async () => {
    const { fetchMock, user } = await openAuthentication({
      'PUT /api/admin/auth/providers/corp-ldap': { body: directory },
    });
    await user.click(screen.getByRole('button', { name: 'Edit Corporate directory' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Edit provider: Corporate directory',
    });
    await user.click(within(dialog).getByRole('button', { name: 'Add context rule' }));
    const rule = within(dialog).getByRole('group', { name: 'Context rule 1' });
    await user.click(within(dialog).getByRole('button', { name: 'Save provider' }));
    expect(await within(rule).findByText('Name the group')).toBeInTheDocument();
    expect(within(rule).getByText('Choose at least one role')).toBeInTheDocument();
    expect(within(rule).getByRole('combobox', { name: /Department/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    expect(fetchMock.callsTo('PUT /api/admin/auth/providers/corp-ldap')).toHaveLength(0);

    await fill(user, within(rule).getByLabelText('Directory group'), 'field-ops-leads');
    await user.click(within(rule).getByRole('combobox', { name: /Department/ }));
    await user.click(screen.getByRole('option', { name: 'Field Operations' }));
    await user.click(within(rule).getByRole('combobox', { name: /Context roles/ }));
    await user.click(screen.getByRole('option', { name: 'Department manager' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save provider' }));
    expect(await screen.findByText('Provider saved')).toBeInTheDocument();
    const [request] = fetchMock.callsTo('PUT /api/admin/auth/providers/corp-ldap');
    expect((request?.body as { settings: unknown }).settings).toMatchObject({
      roleMapping: [{ group: 'lms-instructors', role: 'instructor' }],
      contextMapping: [
        {
          group: 'field-ops-leads',
          context: { type: 'department', departmentId: 'field-operations' },
          roles: ['department-manager'],
        },
      ],
    });
  });

  it('shows the server’s reason when a provider cannot be created', FORM, async () => {
    const { user } = await openAuthentication({
      'POST /api/admin/auth/providers': {
        status: 409,
        body: { code: 'CONFLICT', message: 'A provider with the id "corp-ldap" already exists' },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Add provider' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Directory (LDAP)' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a Directory (LDAP) provider' });
    await fill(user, within(dialog).getByLabelText(/Provider id/), 'corp-ldap');
    await fill(user, within(dialog).getByLabelText(/^Label/), 'Another directory');
    await fill(user, within(dialog).getByLabelText(/Server addresses/), 'ldap://ldap.example.com');
    await fill(user, within(dialog).getByLabelText(/User search bases/), 'dc=example,dc=com');
    await user.click(within(dialog).getByRole('button', { name: 'Create provider' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'A provider with the id "corp-ldap" already exists',
    );
    expect(dialog).toBeInTheDocument();
  });

  it('edits a provider without touching its stored password', FORM, async () => {
    const { fetchMock, user } = await openAuthentication({
      'PUT /api/admin/auth/providers/corp-ldap': {
        body: { ...directory, label: 'Head office directory' },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Edit Corporate directory' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Edit provider: Corporate directory',
    });
    expect(within(dialog).getByLabelText(/Provider id/)).toHaveValue('corp-ldap');
    expect(within(dialog).getByLabelText(/Provider id/)).toHaveAttribute('readonly');
    expect(within(dialog).getByLabelText(/Server addresses/)).toHaveValue(
      'ldap://ldap.example.com:389',
    );
    expect(within(dialog).getByLabelText('Service account (bind DN)')).toHaveValue(
      'cn=reader,dc=example,dc=com',
    );
    expect(within(dialog).getByLabelText('Directory group')).toHaveValue('lms-instructors');
    await waitFor(() =>
      expect(within(dialog).getByRole('combobox', { name: 'Role' })).toHaveValue('Instructor'),
    );
    expect(within(dialog).getByRole('combobox', { name: /Default role/ })).toHaveValue('Student');
    // Write-only: whether it is set, never the value (no password field until Replace).
    const secret = within(dialog).getByRole('group', { name: 'Secret' });
    expect(within(secret).getByText('set')).toBeInTheDocument();
    expect(within(secret).queryByLabelText(/password/i)).not.toBeInTheDocument();
    expect(within(secret).getByRole('button', { name: 'Replace' })).toBeInTheDocument();

    await fill(user, within(dialog).getByLabelText(/^Label/), 'Head office directory');
    await user.click(within(dialog).getByRole('button', { name: 'Save provider' }));
    expect(await screen.findByText('Head office directory was updated.')).toBeInTheDocument();
    const body = fetchMock.callsTo('PUT /api/admin/auth/providers/corp-ldap')[0]?.body as {
      label: string;
      secrets: Record<string, unknown>;
      settings: Record<string, unknown>;
    };
    expect(body.label).toBe('Head office directory');
    expect(body.secrets).toEqual({});
    expect(body.secrets).not.toHaveProperty('bindPassword');
    expect(body.settings).toEqual(directory.settings);
  });

  it('asks for the new password when replacing it, and removes it on request', FORM, async () => {
    const { fetchMock, user } = await openAuthentication({
      'PUT /api/admin/auth/providers/corp-ldap': { body: directory },
    });
    await user.click(screen.getByRole('button', { name: 'Edit Corporate directory' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Edit provider: Corporate directory',
    });
    const secret = within(dialog).getByRole('group', { name: 'Secret' });
    await user.click(within(secret).getByRole('button', { name: 'Replace' }));
    expect(within(secret).getByLabelText('New service account password')).toHaveValue('');
    await user.click(within(dialog).getByRole('button', { name: 'Save provider' }));
    expect(
      await within(dialog).findByText('Enter the new value, or keep the stored one'),
    ).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/admin/auth/providers/corp-ldap')).toHaveLength(0);

    await user.click(within(secret).getByRole('button', { name: 'Keep the stored one' }));
    await user.click(within(secret).getByRole('button', { name: 'Remove' }));
    expect(within(secret).getByRole('status')).toHaveTextContent(
      'It will be removed when you save.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save provider' }));
    expect(await screen.findByText('Provider saved')).toBeInTheDocument();
    const [request] = fetchMock.callsTo('PUT /api/admin/auth/providers/corp-ldap');
    expect((request?.body as { secrets: unknown }).secrets).toEqual({ bindPassword: '' });
  });

  it('deletes a provider after confirmation', async () => {
    const { fetchMock, user } = await openAuthentication({
      'DELETE /api/admin/auth/providers/corp-ldap': { status: 204 },
    });
    await user.click(screen.getByRole('button', { name: 'Delete Corporate directory' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Corporate directory?' });
    expect(dialog).toHaveTextContent(
      'The provider corp-ldap and its stored secrets will be deleted',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetchMock.callsTo('DELETE /api/admin/auth/providers/corp-ldap')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Delete Corporate directory' }));
    const again = await screen.findByRole('dialog', { name: 'Delete Corporate directory?' });
    fetchMock.set({
      'GET /api/admin/auth/settings': { body: { ...settings, providers: [moodle] } },
    });
    await user.click(within(again).getByRole('button', { name: 'Delete provider' }));
    expect(await screen.findByText('Corporate directory was deleted.')).toBeInTheDocument();
    expect(fetchMock.callsTo('DELETE /api/admin/auth/providers/corp-ldap')).toHaveLength(1);
    const table = screen.getByRole('table', { name: 'Providers' });
    await waitFor(() =>
      expect(within(table).queryByText('Corporate directory')).not.toBeInTheDocument(),
    );
    expect(within(table).getByText('Campus Moodle')).toBeInTheDocument();
  });

  it('tests a provider’s connection and shows the failed step with its error', async () => {
    const { fetchMock, user } = await openAuthentication({
      'POST /api/admin/auth/providers/corp-ldap/test': {
        body: {
          ok: false,
          steps: [
            buildTestStep({ name: 'Connect to ldap://ldap.example.com:389', ms: 8 }),
            buildTestStep({
              name: 'Bind as the service account',
              ok: false,
              ms: 1520,
              error: 'Invalid credentials',
            }),
          ],
        },
      },
    });
    await user.click(screen.getByRole('button', { name: 'Test Corporate directory' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Connection test: Corporate directory',
    });
    const steps = await within(dialog).findByRole('list', { name: 'Connection test steps' });
    const [connect, bind] = within(steps).getAllByRole('listitem');
    expect(connect).toHaveTextContent('1. Connect to ldap://ldap.example.com:389');
    expect(within(connect!).getByText('OK')).toBeInTheDocument();
    expect(connect).toHaveTextContent('8 ms');
    expect(bind).toHaveTextContent('2. Bind as the service account');
    expect(within(bind!).getByText('Failed')).toBeInTheDocument();
    expect(bind).toHaveTextContent('1.5 s');
    expect(within(bind!).getByText('Invalid credentials')).toBeInTheDocument();
    expect(within(dialog).getByText('A step failed: see its error below.')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/admin/auth/providers/corp-ldap/test')).toHaveLength(1);
    expect(within(dialog).getByRole('link', { name: 'try a test sign-in' })).toHaveAttribute(
      'href',
      '/auth-test?provider=corp-ldap',
    );

    await user.click(within(dialog).getByRole('button', { name: 'Run again' }));
    await waitFor(() =>
      expect(fetchMock.callsTo('POST /api/admin/auth/providers/corp-ldap/test')).toHaveLength(2),
    );
  });

  it('shows the redirect URI the server gives in the single sign-on form', FORM, async () => {
    const uri = 'https://learning.example.org/api/auth/sso/callback';
    const created = buildProvider({
      method: 'sso',
      secretsSet: { bindPassword: false, clientSecret: true },
    });
    const { fetchMock, user } = await openAuthentication(
      { 'POST /api/admin/auth/providers': { status: 201, body: created } },
      { ...settings, ssoRedirectUri: uri },
    );
    await user.click(screen.getByRole('button', { name: 'Add provider' }));
    await user.click(
      await screen.findByRole('menuitem', { name: 'Single sign-on (OpenID Connect)' }),
    );
    const dialog = await screen.findByRole('dialog', {
      name: 'Add a Single sign-on (OpenID Connect) provider',
    });
    const redirect = within(dialog).getByLabelText('Redirect URI');
    expect(redirect).toHaveValue(uri);
    expect(redirect).toHaveAttribute('readonly');
    expect(within(dialog).getByLabelText('Client secret')).toHaveValue('');
    expect(within(dialog).getByLabelText(/Scopes/)).toHaveValue('openid profile email');

    await fill(user, within(dialog).getByLabelText(/Provider id/), 'corp-sso');
    await fill(user, within(dialog).getByLabelText(/^Label/), 'Company SSO');
    await fill(
      user,
      within(dialog).getByLabelText(/^Issuer/),
      'https://id.example.com/realms/corp',
    );
    await fill(user, within(dialog).getByLabelText(/^Client id/), 'lms');
    await fill(user, within(dialog).getByLabelText(/Scopes/), 'openid email groups');
    await fill(user, within(dialog).getByLabelText('Client secret'), 'client-s3cret');
    await user.click(within(dialog).getByRole('button', { name: 'Create provider' }));
    expect(await screen.findByText('Company SSO (corp-sso) was created.')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/admin/auth/providers')[0]?.body).toEqual({
      method: 'sso',
      id: 'corp-sso',
      label: 'Company SSO',
      enabled: true,
      settings: {
        issuer: 'https://id.example.com/realms/corp',
        clientId: 'lms',
        scopes: ['openid', 'email', 'groups'],
        usernameClaim: 'preferred_username',
        groupsClaim: 'groups',
        departmentClaim: '',
        allowInsecureHttp: false,
        roleMapping: [],
        contextMapping: [],
        defaultRole: 'student',
        requireMappedGroup: false,
      },
      secrets: { clientSecret: 'client-s3cret' },
    });
  });

  it('creates a Moodle provider, which has no secret and no group mapping', FORM, async () => {
    const created = buildProvider({ method: 'moodle' });
    const { fetchMock, user } = await openAuthentication({
      'POST /api/admin/auth/providers': { status: 201, body: created },
    });
    await user.click(screen.getByRole('button', { name: 'Add provider' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Moodle' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a Moodle provider' });
    expect(within(dialog).queryByRole('group', { name: 'Secret' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Add role rule' })).not.toBeInTheDocument();
    await fill(user, within(dialog).getByLabelText(/Provider id/), 'campus-moodle');
    await fill(user, within(dialog).getByLabelText(/^Label/), 'Campus Moodle');
    await fill(user, within(dialog).getByLabelText(/Site address/), 'moodle.example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create provider' }));
    expect(
      await within(dialog).findByText('Enter an http:// or https:// address'),
    ).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/admin/auth/providers')).toHaveLength(0);

    await fill(user, within(dialog).getByLabelText(/Site address/), 'https://moodle.example.com');
    await user.click(within(dialog).getByRole('combobox', { name: /Role for Moodle site/ }));
    await user.click(screen.getByRole('option', { name: 'Administrator' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create provider' }));
    expect(await screen.findByText('Provider created')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/admin/auth/providers')[0]?.body).toEqual({
      method: 'moodle',
      id: 'campus-moodle',
      label: 'Campus Moodle',
      enabled: true,
      settings: {
        siteUrl: 'https://moodle.example.com',
        service: 'moodle_mobile_app',
        siteAdminRole: 'admin',
        defaultRole: 'student',
        timeoutMs: 8000,
      },
      secrets: {},
    });
  });
});
