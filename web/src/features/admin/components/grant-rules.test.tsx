/**
 * The access sections offer only what the server would accept (core's grant rules), here for a
 * non-admin who holds user.manage_roles: never the admin role, never a permission they do not
 * hold, nothing at all on an admin.
 */
import type { AdminUser, MeResponse, PublicUser } from '@learning-hub/core';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '../../../app/providers';
import { createQueryClient } from '../../../app/query-client';
import { mockFetch } from '../../../test/fetch-mock';
import {
  buildAccess,
  buildMe,
  buildSession,
  buildUser,
  storeSession,
  listOf,
} from '../../../test/fixtures';
import {
  buildAdminUser,
  buildAssignment,
  buildCustomRole,
  buildRoles,
  COURSES,
  DEPARTMENTS,
} from '../testing';
import { AssignmentsSection } from './assignments-section';
import { DirectPermissionsSection } from './direct-permissions-section';
import { RoleSection } from './role-section';

const ROLE_MANAGER = buildCustomRole({
  id: 'role-manager',
  name: 'role-manager',
  displayName: 'Role manager',
  description: 'Gives roles.',
  inherits: 'student',
  permissions: ['user.view', 'user.manage_roles'],
});
const manager: PublicUser = buildUser({
  id: 'user-mia',
  username: 'mia',
  firstname: 'Mia',
  lastname: 'Manager',
  role: 'role-manager',
});
const sam = buildAdminUser({ id: 'u-sam', username: 'sam', firstname: 'Sam', lastname: 'Rivera' });

/** /me for the manager: their custom role, and course-instructor in one course. */
function managerMe(): MeResponse {
  const me = buildMe(manager);
  const access = buildAccess(manager);
  return {
    ...me,
    access: {
      ...access,
      customRoles: [ROLE_MANAGER],
      contextAssignments: [
        ...access.contextAssignments,
        {
          userId: manager.id,
          context: { type: 'course', courseId: 'fiber-splicing-101' },
          roles: ['course-instructor'],
          directPermissions: [],
          assignedBy: 'user-admin',
          assignedAt: '2025-01-01T00:00:00.000Z',
          expiresAt: null,
          isActive: true,
        },
      ],
    },
  };
}

function renderAsManager(ui: ReactNode, target: AdminUser = sam) {
  storeSession(buildSession(manager));
  const fetchMock = mockFetch({
    'GET /api/auth/me': { body: managerMe() },
    'GET /api/admin/roles': { body: buildRoles([ROLE_MANAGER]) },
    [`GET /api/admin/users/${target.id}/assignments`]: {
      body: {
        ...listOf([
          buildAssignment({ userId: target.id, roles: ['course-assistant'] }),
          buildAssignment({
            userId: target.id,
            context: { type: 'course', courseId: 'otdr-trace-analysis' },
            contextKey: 'course:otdr-trace-analysis',
            contextLabel: 'FO-210 · OTDR Testing and Trace Analysis',
            roles: ['course-assistant'],
          }),
        ]),
      },
    },
    'GET /api/departments': { body: DEPARTMENTS },
    'GET /api/courses': { body: COURSES },
  });
  const router = createMemoryRouter([{ path: '/', element: ui }], { initialEntries: ['/'] });
  const queryClient = createQueryClient();
  queryClient.setDefaultOptions({ queries: { retry: false }, mutations: { retry: false } });
  const user = userEvent.setup();
  render(
    <AppProviders queryClient={queryClient} env="test">
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { user, fetchMock };
}

const optionNames = () => screen.getAllByRole('option').map((o) => o.textContent ?? '');

describe('the grant rules in the access sections, for a non-admin manager', () => {
  it('the role select offers only roles the manager holds, never admin', async () => {
    const { user } = renderAsManager(<RoleSection user={sam} />);
    const select = await screen.findByRole('combobox', { name: 'Role' });
    await waitFor(() => expect(select).toBeEnabled());
    await user.click(select);
    const names = optionNames();
    expect(names).toEqual(expect.arrayContaining(['Student', 'Role manager']));
    expect(names).not.toContain('Administrator');
    expect(names).not.toContain('Instructor');
  });

  it('on an admin the role is locked, with the reason', async () => {
    const boss = buildAdminUser({ id: 'u-boss', role: 'admin', username: 'boss' });
    renderAsManager(<RoleSection user={boss} />, boss);
    expect(
      await screen.findByText('You cannot change this role: Only an admin can change an admin.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Role' })).toBeDisabled();
  });

  it('the permission select offers only what the manager holds, never system.*', async () => {
    const { user } = renderAsManager(<DirectPermissionsSection user={sam} />);
    const input = await screen.findByRole('combobox', { name: 'Add a permission' });
    await user.click(input);
    // Exactly the manager's own permissions (their role, built on student), in catalogue order.
    const ids = optionNames().map((n) => /^[a-z]+\.[a-z_]+/.exec(n)?.[0]);
    expect(ids).toEqual([
      'user.view',
      'user.manage_roles',
      'user.view_profile',
      'user.edit_profile',
      'course.view',
      'course.enroll',
      'course.unenroll',
      'assignment.view',
      'assignment.submit',
      'grade.view_own',
      'library.view',
      'wiki.view',
      'nav.student',
    ]);
  });

  it('the assignment form offers context roles by course, and an assignment the manager could not give cannot be removed', async () => {
    const { user } = renderAsManager(<AssignmentsSection user={sam} />);
    // Course assistant in FO-101, where the manager teaches: theirs to change. In FO-210: not.
    expect(
      await screen.findByRole('button', { name: /Remove assignment in FO-101/ }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Remove assignment in FO-210/ })).toBeNull();
    expect(
      screen.getByText(
        'Cannot take away permissions you do not hold: course.view_participants, assignment.view_submissions, assignment.grade, grade.view_all (in course otdr-trace-analysis)',
      ),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Assign' }));
    const dialog = await screen.findByRole('dialog');
    // Before a course is picked: only what the manager holds everywhere (course student).
    expect(within(dialog).getByRole('checkbox', { name: /Course student/ })).toBeInTheDocument();
    expect(within(dialog).queryByRole('checkbox', { name: /Course instructor/ })).toBeNull();
    const course = within(dialog).getByRole('combobox', { name: 'Course' });
    await user.click(course);
    await user.click(await screen.findByRole('option', { name: /FO-101/ }));
    expect(
      await within(dialog).findByRole('checkbox', { name: /Course instructor/ }),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: /Course assistant/ })).toBeInTheDocument();
  });
});
