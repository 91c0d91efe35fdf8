import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MockRequest } from '../../../test/fetch-mock';
import { buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { buildAdminUser, buildCustomRole, buildRoles, DEPARTMENTS } from '../testing';

const admin = buildUser({ role: 'admin' });
const sam = buildAdminUser({
  id: 'u-sam',
  username: 'sam',
  firstname: 'Sam',
  lastname: 'Rivera',
  department: 'Customer Support',
  departmentId: 'customer-support',
  directPermissions: ['library.upload'],
  assignmentCount: 2,
});
const priya = buildAdminUser({
  id: 'u-priya',
  role: 'instructor',
  username: 'priya',
  firstname: 'Priya',
  lastname: 'Shah',
});

function query(request: MockRequest) {
  return Object.fromEntries(new URLSearchParams(request.search));
}

function setup(total = 2) {
  return signedInAs(admin, {
    'GET /api/admin/users': (request) => {
      const q = query(request);
      const users = q.search === 'sam' ? [sam] : q.role === 'instructor' ? [priya] : [sam, priya];
      return {
        body: {
          items: users,
          total: q.search || q.role ? users.length : total,
          page: Number(q.page),
          pageSize: Number(q.pageSize),
        },
      };
    },
    'GET /api/admin/users/u-sam': { body: sam },
    'GET /api/admin/users/u-sam/assignments': { body: { ...listOf([]) } },
    'GET /api/admin/roles': {
      body: buildRoles([buildCustomRole()], { student: 1, instructor: 1, admin: 1 }),
    },
    'GET /api/departments': { body: DEPARTMENTS },
  });
}

describe('admin: users list', () => {
  it('lists users with role, department and counts', async () => {
    const fetchMock = setup();
    renderApp('/admin');
    await findHeading('Admin Settings');
    const table = await screen.findByRole('table', { name: 'Users & Roles' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const cells = within(rows[0]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(cells).toEqual(['Sam Rivera', 'sam', 'Student', 'Customer Support', '1', '2']);
    expect(within(rows[1]!).getByText('Instructor')).toBeInTheDocument();
    expect(query(fetchMock.callsTo('GET /api/admin/users')[0]!)).toEqual({
      page: '1',
      pageSize: '25',
    });
    expect(screen.getByText('Showing 1–2 of 2 users')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Users & Roles' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('searches on the server, debounced', async () => {
    const fetchMock = setup();
    const { user, router } = renderApp('/admin');
    await screen.findByRole('table', { name: 'Users & Roles' });
    await user.type(screen.getByLabelText('Search'), 'sam');
    await waitFor(() => expect(router.state.location.search).toBe('?q=sam'));
    const searches = () =>
      fetchMock
        .callsTo('GET /api/admin/users')
        .map((c) => query(c).search)
        .filter((s) => s !== undefined);
    await waitFor(() => expect(searches()).toContain('sam'));
    // One request for the whole word, none per keystroke.
    expect(searches()).toEqual(['sam']);
    await screen.findByText('Showing 1–1 of 1 users');
  });

  it('filters by role (system and custom) and by department', async () => {
    const fetchMock = setup();
    const { user } = renderApp('/admin');
    await screen.findByRole('table', { name: 'Users & Roles' });
    await user.click(screen.getByRole('combobox', { name: 'Role' }));
    expect(screen.getByRole('option', { name: 'Field trainer' })).toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Instructor' }));
    await waitFor(() =>
      expect(query(fetchMock.callsTo('GET /api/admin/users').at(-1)!)).toMatchObject({
        role: 'instructor',
        page: '1',
      }),
    );
    await user.click(screen.getByRole('combobox', { name: 'Department' }));
    await user.click(screen.getByRole('option', { name: 'Field Operations' }));
    await waitFor(() =>
      expect(query(fetchMock.callsTo('GET /api/admin/users').at(-1)!)).toMatchObject({
        role: 'instructor',
        department: 'field-operations',
      }),
    );
  });

  it('pages through the users', async () => {
    const fetchMock = setup(60);
    const { user } = renderApp('/admin');
    await screen.findByText('Showing 1–2 of 60 users');
    const pager = screen.getByRole('navigation', { name: 'Users pages' });
    await user.click(within(pager).getByRole('button', { name: 'Page 3' }));
    await waitFor(() =>
      expect(query(fetchMock.callsTo('GET /api/admin/users').at(-1)!)).toEqual({
        page: '3',
        pageSize: '25',
      }),
    );
  });

  it('opens a user from the list', async () => {
    setup();
    const { user, router } = renderApp('/admin');
    await user.click(await screen.findByRole('link', { name: 'Sam Rivera' }));
    expect(
      await screen.findByRole('heading', { level: 2, name: 'Sam Rivera' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/users/u-sam');
  });

  it('keeps non-admins out of every admin page', async () => {
    signedInAs(buildUser({ role: 'instructor' }));
    const { router } = renderApp('/admin/roles');
    await findHeading('Welcome, Ines');
    expect(router.state.location.pathname).toBe('/');
  });
});
