import type { AdminUser, UserAccount } from '@learning-hub/core';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MockRoutes } from '../../../test/fetch-mock';
import { buildUser, listOf } from '../../../test/fixtures';
import { renderApp, signedInAs } from '../../../test/render-app';
import { buildAdminUser, buildCustomRole, buildRoles, DEPARTMENTS } from '../testing';
import { ONE_TIME_PASSWORD_NOTICE } from './create-user-modal';

// Lazy pages and Mantine's dialogs on a busy machine: generous time for the first render.
vi.setConfig({ testTimeout: 30_000 });
const FIRST_RENDER = { timeout: 10_000 };

const admin = buildUser({ role: 'admin', id: 'user-admin' });
const sam = buildAdminUser({
  id: 'u-sam',
  username: 'sam',
  firstname: 'Sam',
  lastname: 'Rivera',
  email: 'sam@fiberco.example',
  department: 'Customer Support',
  departmentId: 'customer-support',
});

function accountOf(user: AdminUser, overrides: Partial<UserAccount> = {}): UserAccount {
  return {
    userId: user.id,
    authMethod: user.authMethod,
    provider: null,
    providerOwned: [],
    abilities: {
      edit: { allowed: true, reason: null },
      deactivate: user.isActive
        ? { allowed: true, reason: null }
        : { allowed: false, reason: 'The account is already deactivated.' },
      reactivate: user.isActive
        ? { allowed: false, reason: 'The account is active.' }
        : { allowed: true, reason: null },
    },
    ...overrides,
  };
}

function userRoutes(user: AdminUser, account = accountOf(user), more: MockRoutes = {}) {
  const base = `/api/admin/users/${user.id}`;
  return signedInAs(admin, {
    [`GET ${base}`]: { body: user },
    [`GET ${base}/account`]: { body: account },
    [`GET ${base}/assignments`]: { body: { ...listOf([]) } },
    'GET /api/admin/roles': { body: buildRoles([buildCustomRole()]) },
    'GET /api/departments': { body: DEPARTMENTS },
    ...more,
  });
}

async function openAccount(path = '/admin/users/u-sam?tab=account') {
  const view = renderApp(path);
  await screen.findByRole('heading', { name: 'Details' }, FIRST_RENDER);
  return view;
}

describe('admin: creating a user', () => {
  function setup(more: MockRoutes = {}) {
    return signedInAs(admin, {
      'GET /api/admin/users': { body: { items: [sam], total: 1, page: 1, pageSize: 25 } },
      'GET /api/admin/roles': { body: buildRoles([buildCustomRole()]) },
      'GET /api/departments': { body: DEPARTMENTS },
      ...more,
    });
  }

  it('creates a local account and shows its one-time password once, with a copy button', async () => {
    const erin = buildAdminUser({
      id: 'u-erin',
      username: 'erin.tech',
      firstname: 'Erin',
      lastname: 'Tech',
      role: 'instructor',
      isDefaultPassword: true,
      mustChangePassword: true,
    });
    const fetchMock = setup({
      'POST /api/admin/users': {
        status: 201,
        body: { ...erin, oneTimePassword: 'Kp4nWz7qRt2mXv9bHs3d' },
      },
    });
    const { user } = renderApp('/admin');
    await user.click(await screen.findByRole('button', { name: 'Create user' }, FIRST_RENDER));
    const dialog = await screen.findByRole('dialog', { name: 'Create a user' });
    await user.type(within(dialog).getByLabelText(/^Username/), 'erin.tech');
    await user.type(within(dialog).getByLabelText(/^First name/), 'Erin');
    await user.type(within(dialog).getByLabelText(/^Last name/), 'Tech');
    await user.click(within(dialog).getByRole('combobox', { name: 'Department' }));
    await user.click(await screen.findByRole('option', { name: 'Field Operations' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Role' }));
    await user.click(await screen.findByRole('option', { name: 'Instructor' }));
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));

    const shown = await screen.findByRole('dialog', { name: 'User created' });
    expect(fetchMock.callsTo('POST /api/admin/users')[0]?.body).toEqual({
      username: 'erin.tech',
      firstname: 'Erin',
      lastname: 'Tech',
      email: null,
      departmentId: 'field-operations',
      role: 'instructor',
    });
    expect(within(shown).getByLabelText('One-time password')).toHaveValue('Kp4nWz7qRt2mXv9bHs3d');
    expect(within(shown).getByText(ONE_TIME_PASSWORD_NOTICE)).toBeInTheDocument();
    await user.click(within(shown).getByRole('button', { name: 'Copy the password' }));
    expect(await navigator.clipboard.readText()).toBe('Kp4nWz7qRt2mXv9bHs3d');
    expect(
      await within(shown).findByRole('button', { name: 'Password copied' }),
    ).toBeInTheDocument();

    // Once closed it is gone: opening the dialog again starts a new, empty form.
    await user.click(within(shown).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByDisplayValue('Kp4nWz7qRt2mXv9bHs3d')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create user' }));
    const again = await screen.findByRole('dialog', { name: 'Create a user' });
    expect(within(again).getByLabelText(/^Username/)).toHaveValue('');
    expect(screen.queryByDisplayValue('Kp4nWz7qRt2mXv9bHs3d')).not.toBeInTheDocument();
  });

  it('checks the form before calling the server and shows its refusal', async () => {
    const fetchMock = setup({
      'POST /api/admin/users': {
        status: 409,
        body: {
          code: 'CONFLICT',
          message: 'A user named "sam" already exists. Choose another username.',
        },
      },
    });
    const { user } = renderApp('/admin');
    await user.click(await screen.findByRole('button', { name: 'Create user' }, FIRST_RENDER));
    const dialog = await screen.findByRole('dialog', { name: 'Create a user' });
    await user.type(within(dialog).getByLabelText(/^Username/), 'two words');
    await user.type(within(dialog).getByLabelText('Email'), 'nope');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(
      await within(dialog).findByText(
        'Use letters, digits and . _ - @ (starting with a letter or digit)',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getByText('First name is required')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter a valid email address')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/admin/users')).toHaveLength(0);

    const username = within(dialog).getByLabelText(/^Username/);
    await user.clear(username);
    await user.type(username, 'sam');
    await user.clear(within(dialog).getByLabelText('Email'));
    await user.type(within(dialog).getByLabelText(/^First name/), 'Sam');
    await user.type(within(dialog).getByLabelText(/^Last name/), 'Again');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'A user named "sam" already exists. Choose another username.',
    );
    expect(screen.queryByRole('dialog', { name: 'User created' })).not.toBeInTheDocument();
  });
});

describe('admin: tables on a phone', () => {
  it('lets the keyboard scroll a table that is wider than the screen', async () => {
    signedInAs(admin, {
      'GET /api/admin/users': { body: { items: [sam], total: 1, page: 1, pageSize: 25 } },
      'GET /api/admin/roles': { body: buildRoles() },
      'GET /api/departments': { body: DEPARTMENTS },
    });
    renderApp('/admin');
    const table = await screen.findByRole('table', { name: 'Users & Roles' }, FIRST_RENDER);
    // The scroll area's viewport, which holds the table, takes keyboard focus.
    expect(table.closest('[tabindex="0"]')).not.toBeNull();
  });
});

describe('admin: editing a user', () => {
  it('saves the changed names only', async () => {
    let current = sam;
    const fetchMock = userRoutes(sam, accountOf(sam), {
      'GET /api/admin/users/u-sam': () => ({ body: current }),
      'PATCH /api/admin/users/u-sam': () => {
        current = { ...sam, firstname: 'Samuel' };
        return { body: current };
      },
    });
    const { user } = await openAccount();
    const save = screen.getByRole('button', { name: 'Save details' });
    expect(save).toBeDisabled();
    const first = screen.getByLabelText(/^First name/);
    await user.clear(first);
    await user.type(first, 'Samuel');
    await user.click(save);
    expect(await screen.findByText('Samuel Rivera was updated.')).toBeInTheDocument();
    expect(fetchMock.callsTo('PATCH /api/admin/users/u-sam')[0]?.body).toEqual({
      firstname: 'Samuel',
    });
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Samuel Rivera' }),
    ).toBeInTheDocument();
  });

  it('shows the fields a directory account gets from its provider read-only', async () => {
    const bob = buildAdminUser({
      id: 'u-bob',
      username: 'bob',
      firstname: 'Bob',
      lastname: 'Builder',
      email: 'bob@corp.example',
      authMethod: 'ldap',
      ldapGroups: [],
      ldapAttributes: {},
    });
    const fetchMock = userRoutes(
      bob,
      accountOf(bob, {
        authMethod: 'ldap',
        provider: { id: 'corp-ldap', label: 'Corporate directory' },
        providerOwned: ['firstname', 'lastname', 'email'],
      }),
      { 'PATCH /api/admin/users/u-bob': { body: { ...bob, departmentId: 'field-operations' } } },
    );
    const { user } = await openAccount('/admin/users/u-bob?tab=account');
    for (const label of [/^First name/, /^Last name/, 'Email']) {
      expect(screen.getByLabelText(label)).toHaveAttribute('readonly');
    }
    expect(screen.getAllByText('From Corporate directory: change it there.')).toHaveLength(3);
    const department = screen.getByRole('combobox', { name: 'Department' });
    expect(department).not.toHaveAttribute('readonly');

    await user.click(department);
    await user.click(await screen.findByRole('option', { name: 'Field Operations' }));
    await user.click(screen.getByRole('button', { name: 'Save details' }));
    await waitFor(() =>
      expect(fetchMock.callsTo('PATCH /api/admin/users/u-bob')[0]?.body).toEqual({
        departmentId: 'field-operations',
      }),
    );
  });

  it('shows why the details cannot be changed', async () => {
    userRoutes(
      sam,
      accountOf(sam, {
        abilities: {
          edit: { allowed: false, reason: 'Only an admin can change an admin' },
          deactivate: { allowed: false, reason: 'Only an admin can change an admin' },
          reactivate: { allowed: false, reason: 'The account is active.' },
        },
      }),
    );
    await openAccount();
    expect(
      screen.getByText('You cannot change these details: Only an admin can change an admin.'),
    ).toBeInTheDocument();
    expect(screen.getByLabelText(/^First name/)).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save details' })).not.toBeInTheDocument();
    expect(
      screen.getByText('Cannot be deactivated: Only an admin can change an admin'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Deactivate' })).not.toBeInTheDocument();
  });
});

describe('admin: deactivating and reactivating', () => {
  it('deactivates after confirmation, ending the sessions', async () => {
    const fetchMock = userRoutes(sam, accountOf(sam), {
      'PUT /api/admin/users/u-sam/active': {
        body: { ...sam, isActive: false, endedSessions: 2 },
      },
    });
    const { user } = await openAccount();
    expect(screen.getByText('Active')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Sam Rivera?' });
    expect(dialog).toHaveTextContent(
      'Sam Rivera will be signed out on every device at once and cannot sign in until reactivated.',
    );
    expect(fetchMock.callsTo('PUT /api/admin/users/u-sam/active')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(
      await screen.findByText('Sam Rivera is deactivated; 2 sessions were ended.'),
    ).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/admin/users/u-sam/active')[0]?.body).toEqual({
      active: false,
    });
  });

  it('cancels without calling the server, and shows a refusal in the dialog', async () => {
    const fetchMock = userRoutes(sam, accountOf(sam), {
      'PUT /api/admin/users/u-sam/active': {
        status: 409,
        body: { code: 'CONFLICT', message: 'At least one active admin must remain.' },
      },
    });
    const { user } = await openAccount();
    await user.click(screen.getByRole('button', { name: 'Deactivate' }));
    let dialog = await screen.findByRole('dialog', { name: 'Deactivate Sam Rivera?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(fetchMock.callsTo('PUT /api/admin/users/u-sam/active')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Deactivate' }));
    dialog = await screen.findByRole('dialog', { name: 'Deactivate Sam Rivera?' });
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'At least one active admin must remain.',
    );
  });

  it('reactivates a deactivated user after confirmation', async () => {
    const off = { ...sam, isActive: false };
    const fetchMock = userRoutes(off, accountOf(off), {
      'PUT /api/admin/users/u-sam/active': {
        body: { ...sam, isActive: true, endedSessions: 0 },
      },
    });
    const { user } = await openAccount();
    expect(screen.getByText('Deactivated')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Deactivate' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reactivate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reactivate Sam Rivera?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reactivate' }));
    expect(await screen.findByText('Sam Rivera can sign in again.')).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/admin/users/u-sam/active')[0]?.body).toEqual({
      active: true,
    });
  });

  it('says why one cannot deactivate oneself', async () => {
    const me = buildAdminUser({ ...admin, id: 'user-admin' });
    userRoutes(
      me,
      accountOf(me, {
        abilities: {
          edit: { allowed: true, reason: null },
          deactivate: { allowed: false, reason: 'You cannot deactivate your own account.' },
          reactivate: { allowed: false, reason: 'The account is active.' },
        },
      }),
    );
    await openAccount('/admin/users/user-admin?tab=account');
    expect(
      screen.getByText('Cannot be deactivated: You cannot deactivate your own account.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Deactivate' })).not.toBeInTheDocument();
  });
});
