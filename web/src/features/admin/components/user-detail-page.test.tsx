import { describeGrant, type AdminUser, type Grant } from '@learning-hub/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MockRoutes } from '../../../test/fetch-mock';
import { buildUser, listOf } from '../../../test/fixtures';
import { renderApp, signedInAs } from '../../../test/render-app';
import { toLocalInput } from '../utils/dates';
import {
  buildAdminUser,
  buildAssignment,
  buildRoles,
  COURSES,
  DEPARTMENTS,
  ownDepartment,
} from '../testing';

const admin = buildUser({ role: 'admin', id: 'user-admin' });
const sam = buildAdminUser({
  id: 'u-sam',
  firstname: 'Sam',
  lastname: 'Rivera',
  username: 'sam',
  directPermissions: ['wiki.edit'],
  assignmentCount: 1,
});

function routes(user: AdminUser = sam, more: MockRoutes = {}): MockRoutes {
  const base = `/api/admin/users/${user.id}`;
  return {
    [`GET ${base}`]: { body: user },
    [`GET ${base}/assignments`]: {
      body: { ...listOf([ownDepartment(user.id), buildAssignment({ userId: user.id })]) },
    },
    'GET /api/admin/roles': { body: buildRoles() },
    'GET /api/departments': { body: DEPARTMENTS },
    'GET /api/courses': { body: COURSES },
    ...more,
  };
}

async function openSam(more: MockRoutes = {}) {
  const fetchMock = signedInAs(admin, routes(sam, more));
  const view = renderApp('/admin/users/u-sam');
  await screen.findByRole('heading', { level: 2, name: 'Sam Rivera' });
  return { fetchMock, ...view };
}

async function pick(
  user: ReturnType<typeof renderApp>['user'],
  label: string,
  option: string | RegExp,
  type?: string,
) {
  const input = screen.getByRole('combobox', { name: label });
  await user.click(input);
  if (type) await user.type(input, type);
  await user.click(await screen.findByRole('option', { name: option }));
}

describe('admin: user detail, role', () => {
  it('changes a role directly when admin is not involved', async () => {
    const { fetchMock, user } = await openSam({
      'PUT /api/admin/users/u-sam/role': { body: { ...sam, role: 'instructor' } },
    });
    await pick(user, 'Role', 'Instructor');
    await user.click(screen.getByRole('button', { name: 'Change role' }));
    expect(await screen.findByText('Sam Rivera is now Instructor.')).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/admin/users/u-sam/role')[0]?.body).toEqual({
      role: 'instructor',
    });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("confirms a change involving admin and shows the server's refusal", async () => {
    const { fetchMock, user } = await openSam({
      'PUT /api/admin/users/u-sam/role': {
        status: 409,
        body: { code: 'CONFLICT', message: 'At least one active admin must remain.' },
      },
    });
    await pick(user, 'Role', 'Administrator');
    await user.click(screen.getByRole('button', { name: 'Change role' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change role to Administrator?' });
    expect(fetchMock.callsTo('PUT /api/admin/users/u-sam/role')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Change role' }));
    expect(await screen.findByText('At least one active admin must remain.')).toBeInTheDocument();
    expect(screen.getByText('Could not change the role')).toBeInTheDocument();
  });
});

describe('admin: user detail, direct permissions', () => {
  it('grants a permission picked from the catalogue', async () => {
    const { fetchMock, user } = await openSam({
      'POST /api/admin/users/u-sam/permissions': {
        status: 201,
        body: { ...sam, directPermissions: ['wiki.edit', 'library.upload'] },
      },
    });
    const input = screen.getByRole('combobox', { name: 'Add a permission' });
    await user.click(input);
    // Grouped by resource; the ones held already are not offered.
    expect(screen.getByText('library')).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: /^wiki\.edit/ })).not.toBeInTheDocument();
    await user.type(input, 'library.up');
    await user.click(screen.getByRole('option', { name: /library\.upload/ }));
    await user.click(screen.getByRole('button', { name: 'Grant' }));
    expect(await screen.findByText('Permission granted')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/admin/users/u-sam/permissions')[0]?.body).toEqual({
      permission: 'library.upload',
    });
    // The user is reloaded to show the new list.
    await waitFor(() => expect(fetchMock.callsTo('GET /api/admin/users/u-sam')).toHaveLength(2));
  });

  it('revokes a permission after confirmation', async () => {
    const { fetchMock, user } = await openSam({
      'DELETE /api/admin/users/u-sam/permissions/wiki.edit': { status: 204 },
    });
    await user.click(screen.getByRole('button', { name: 'Revoke wiki.edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke wiki.edit?' });
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    expect(await screen.findByText('Permission revoked')).toBeInTheDocument();
    expect(fetchMock.callsTo('DELETE /api/admin/users/u-sam/permissions/wiki.edit')).toHaveLength(
      1,
    );
  });
});

describe('admin: user detail, assignments', () => {
  it('lists assignments; the own-department one is derived and cannot be edited', async () => {
    await openSam();
    const table = await screen.findByRole('table', { name: 'Context assignments' });
    const [derived, course] = within(table).getAllByRole('row').slice(1);
    expect(within(derived!).getByText('Own department')).toBeInTheDocument();
    expect(within(derived!).queryByRole('button')).not.toBeInTheDocument();
    expect(within(course!).getByText('course:fiber-splicing-101')).toBeInTheDocument();
    expect(within(course!).getByText('Course student')).toBeInTheDocument();
    expect(within(course!).getByText('In force')).toBeInTheDocument();
    expect(within(course!).getByText('Never')).toBeInTheDocument();
  });

  it('creates an assignment with an expiry that must be in the future', async () => {
    const { fetchMock, user } = await openSam({
      'PUT /api/admin/users/u-sam/assignments': {
        body: { replaced: false, contextKey: 'course:otdr-trace-analysis' },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Assign' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign access in a context' });
    // Only the roles of the context type are offered.
    expect(within(dialog).queryByLabelText('Department manager')).not.toBeInTheDocument();
    await pick(user, 'Course', /OTDR Testing/);
    await user.click(within(dialog).getByLabelText('Course assistant'));
    const expires = within(dialog).getByLabelText('Expires');
    fireEvent.change(expires, {
      target: { value: toLocalInput(new Date(Date.now() - 3_600_000).toISOString()) },
    });
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await within(dialog).findByText('The expiry must be in the future')).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/admin/users/u-sam/assignments')).toHaveLength(0);

    const nextMonth = new Date(Date.now() + 30 * 86_400_000);
    nextMonth.setSeconds(0, 0);
    fireEvent.change(expires, { target: { value: toLocalInput(nextMonth.toISOString()) } });
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await screen.findByText('Assignment created')).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/admin/users/u-sam/assignments')[0]?.body).toEqual({
      context: { type: 'course', courseId: 'otdr-trace-analysis' },
      roles: ['course-assistant'],
      directPermissions: [],
      expiresAt: nextMonth.toISOString(),
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('asks for a role or a permission, and shows the server error in the form', async () => {
    const { user } = await openSam({
      'PUT /api/admin/users/u-sam/assignments': {
        status: 400,
        body: { code: 'VALIDATION_ERROR', message: 'No such department: field-operations' },
      },
    });
    await user.click(await screen.findByRole('button', { name: 'Assign' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByText('A department'));
    await pick(user, 'Department', 'Field Operations');
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(
      await within(dialog).findByText('Give at least one role or permission'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByLabelText('Department manager'));
    await user.click(within(dialog).getByRole('button', { name: 'Assign' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'No such department: field-operations',
    );
  });

  it('edits an assignment in its context and removes one', async () => {
    const { fetchMock, user } = await openSam({
      'PUT /api/admin/users/u-sam/assignments': {
        body: { replaced: true, contextKey: 'course:fiber-splicing-101' },
      },
      'DELETE /api/admin/users/u-sam/assignments/course%3Afiber-splicing-101': { status: 204 },
    });
    await user.click(
      await screen.findByRole('button', {
        name: 'Edit assignment in FO-101 · Fiber Splicing Fundamentals',
      }),
    );
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText('Course student')).toBeChecked();
    await user.click(within(dialog).getByLabelText('Course assistant'));
    await user.click(within(dialog).getByRole('button', { name: 'Save assignment' }));
    expect(await screen.findByText('Assignment replaced')).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/admin/users/u-sam/assignments')[0]?.body).toMatchObject({
      context: { type: 'course', courseId: 'fiber-splicing-101' },
      roles: ['course-student', 'course-assistant'],
      expiresAt: null,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(
      screen.getByRole('button', {
        name: 'Remove assignment in FO-101 · Fiber Splicing Fundamentals',
      }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Remove this assignment?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Assignment removed')).toBeInTheDocument();
    expect(
      fetchMock.callsTo('DELETE /api/admin/users/u-sam/assignments/course%3Afiber-splicing-101'),
    ).toHaveLength(1);
  });
});

describe('admin: user detail, effective permissions and activity', () => {
  const course = { type: 'course' as const, courseId: 'fiber-splicing-101' };
  const grants: Record<string, Grant[]> = {
    'course.view': [{ source: 'role', roleId: 'student' }],
    'wiki.edit': [{ source: 'direct' }],
    'assignment.submit': [
      { source: 'role', roleId: 'student' },
      { source: 'context-role', context: course, roleId: 'course-student', expiresAt: null },
    ],
  };

  it('shows permissions grouped by source, in the scope chosen', async () => {
    const { fetchMock, user } = await openSam({
      'GET /api/admin/users/u-sam/effective-permissions': (request) => ({
        body: {
          userId: 'u-sam',
          role: 'student',
          scope: new URLSearchParams(request.search).get('scope'),
          permissions: Object.entries(grants).map(([permission, g]) => ({ permission, grants: g })),
        },
      }),
    });
    await user.click(screen.getByRole('tab', { name: 'Effective permissions' }));
    await screen.findByText(/3 permissions in the system context/);
    const role = screen.getByRole('heading', {
      name: describeGrant({ source: 'role', roleId: 'student' }),
    });
    const roleGroup = role.closest('.mantine-Paper-root') as HTMLElement;
    expect(within(roleGroup).getByText('course.view')).toBeInTheDocument();
    expect(within(roleGroup).getByText('assignment.submit')).toBeInTheDocument();
    expect(within(roleGroup).getByText('Role')).toBeInTheDocument();
    const direct = screen
      .getByRole('heading', { name: 'direct grant' })
      .closest('.mantine-Paper-root') as HTMLElement;
    expect(within(direct).getByText('wiki.edit')).toBeInTheDocument();
    const inCourse = screen
      .getByRole('heading', { name: 'context role course-student in course fiber-splicing-101' })
      .closest('.mantine-Paper-root') as HTMLElement;
    expect(within(inCourse).getByText('assignment.submit')).toBeInTheDocument();
    expect(within(inCourse).queryByText('course.view')).not.toBeInTheDocument();

    await pick(user, 'Scope', /course:fiber-splicing-101/);
    await screen.findByText(/3 permissions in course:fiber-splicing-101/);
    const scopes = fetchMock
      .callsTo('GET /api/admin/users/u-sam/effective-permissions')
      .map((c) => new URLSearchParams(c.search).get('scope'));
    expect(scopes).toEqual(['system', 'course:fiber-splicing-101']);
  });

  it("shows the user's recent checks and access changes", async () => {
    const { fetchMock, user } = await openSam({
      'GET /api/admin/access/checks': {
        body: {
          items: [
            {
              id: 'c1',
              userId: 'u-sam',
              username: 'sam',
              action: 'checked',
              permission: 'system.admin',
              context: 'system',
              timestamp: '2025-03-01T10:00:00.000Z',
              result: false,
              reason: 'Missing required permission: system.admin',
            },
          ],
          total: 1,
          page: 1,
          pageSize: 50,
        },
      },
      'GET /api/admin/access/audit': {
        body: {
          items: [
            {
              id: 'a1',
              occurredAt: '2025-03-01T09:00:00.000Z',
              action: 'role.set',
              actorId: 'user-admin',
              actorUsername: 'admin',
              targetUserId: 'u-sam',
              targetUsername: 'sam',
              roleId: 'instructor',
              permission: null,
              context: null,
              details: { from: 'student', to: 'instructor' },
            },
          ],
          total: 1,
          page: 1,
          pageSize: 50,
        },
      },
    });
    await user.click(screen.getByRole('tab', { name: 'Activity' }));
    const checks = await screen.findByRole('table', { name: 'Recent permission checks' });
    expect(within(checks).getByText('Denied')).toBeInTheDocument();
    expect(
      within(checks).getByText('Missing required permission: system.admin'),
    ).toBeInTheDocument();
    const audit = await screen.findByRole('table', { name: 'Access changes' });
    expect(within(audit).getByText('Role changed')).toBeInTheDocument();
    expect(within(audit).getByText('student → instructor')).toBeInTheDocument();
    expect(fetchMock.callsTo('GET /api/admin/access/checks')[0]?.search).toBe(
      '?userId=u-sam&page=1&pageSize=50',
    );
    expect(fetchMock.callsTo('GET /api/admin/access/audit')[0]?.search).toBe(
      '?userId=u-sam&page=1',
    );
  });
});

describe('admin: your own access', () => {
  it('cannot be changed here, not even by an admin, and the page says why', async () => {
    const me = buildAdminUser({ ...admin, directPermissions: ['wiki.manage'] });
    signedInAs(admin, routes(me));
    renderApp('/admin/users/user-admin');
    await screen.findByRole('heading', { level: 2, name: 'Ada Admin' });
    expect(
      await screen.findByText('You cannot change this role: Cannot change your own role.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Role' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Change role' })).toBeDisabled();
    expect(
      screen.getByText('You cannot change these permissions: Cannot change your own permissions.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Add a permission' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revoke wiki.manage' })).not.toBeInTheDocument();
    expect(
      screen.getByText(
        'You cannot change these assignments: Cannot change your own context assignments.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Assign' })).not.toBeInTheDocument();
  });
});
