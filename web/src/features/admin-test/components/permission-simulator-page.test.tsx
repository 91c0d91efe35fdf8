import { describeGrant, type PublicUser, type SimulateResponse } from '@learning-hub/core';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MockRoutes } from '../../../test/fetch-mock';
import { buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';

const admin = buildUser({ role: 'admin' });
const sam: PublicUser & {
  createdAt: string;
  directPermissions: string[];
  assignmentCount: number;
} = {
  ...buildUser({ id: 'u-sam', username: 'sam', firstname: 'Sam', lastname: 'Rivera' }),
  createdAt: '2025-01-01T00:00:00.000Z',
  directPermissions: [],
  assignmentCount: 1,
};

const routes: MockRoutes = {
  'GET /api/admin/users': (request) => ({
    body: {
      items: new URLSearchParams(request.search).get('search') === 'sam' ? [sam] : [],
      total: 1,
      page: 1,
      pageSize: 20,
    },
  }),
  'GET /api/courses': {
    body: {
      items: [
        {
          id: 'otdr-trace-analysis',
          code: 'FO-210',
          title: 'OTDR Testing and Trace Analysis',
          description: '',
          departmentId: null,
          departmentName: null,
        },
      ],
      total: 1,
      page: 1,
      pageSize: 50,
    },
  },
  'GET /api/departments': {
    body: {
      ...listOf([
        {
          id: 'field-operations',
          name: 'Field Operations',
          description: '',
          memberCount: 2,
          revision: 1,
        },
      ]),
    },
  },
};

function answer(response: SimulateResponse): MockRoutes {
  return { 'POST /api/admin/access/simulate': { body: response } };
}

async function open(more: MockRoutes) {
  const fetchMock = signedInAs(admin, { ...routes, ...more });
  const view = renderApp('/admin-test');
  await findHeading('Permission Simulator');
  const { user } = view;
  const who = screen.getByRole('combobox', { name: /User/ });
  await user.click(who);
  await user.type(who, 'sam');
  await user.click(await screen.findByRole('option', { name: 'Sam Rivera (sam)' }));
  return { fetchMock, ...view };
}

const grant = {
  source: 'context-role',
  context: { type: 'course', courseId: 'otdr-trace-analysis' },
  roleId: 'course-assistant',
  expiresAt: '2030-01-01T00:00:00.000Z',
} as const;

describe('permission simulator', () => {
  it('checks a permission in a course and shows where it comes from', async () => {
    const { fetchMock, user } = await open(
      answer({
        allowed: true,
        reason: null,
        checked: {
          permissions: ['assignment.grade'],
          mode: 'all',
          roles: [],
          scope: 'course:otdr-trace-analysis',
          route: null,
        },
        grants: [{ permission: 'assignment.grade', grants: [grant] }],
      }),
    );
    await user.type(screen.getByRole('combobox', { name: /Permission/ }), 'assignment.grade');
    await user.click(screen.getByText('A course'));
    const course = screen.getByRole('combobox', { name: /Course/ });
    await user.click(course);
    await user.click(await screen.findByRole('option', { name: /OTDR Testing/ }));
    await user.click(screen.getByRole('button', { name: 'Run' }));

    const result = await screen.findByRole('region', { name: 'Result' });
    expect(within(result).getByTestId('verdict')).toHaveTextContent('Allowed');
    expect(within(result).getByText(describeGrant(grant))).toBeInTheDocument();
    expect(within(result).getByText('Context role')).toBeInTheDocument();
    expect(within(result).getByText('course:otdr-trace-analysis')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/admin/access/simulate')[0]?.body).toEqual({
      userId: 'u-sam',
      permission: 'assignment.grade',
      scope: 'course:otdr-trace-analysis',
    });
  });

  it('checks a page of a department and shows the exact denial reason', async () => {
    const { fetchMock, user } = await open(
      answer({
        allowed: false,
        reason: 'Missing required permission: department.view',
        checked: {
          permissions: ['department.view'],
          mode: 'all',
          roles: [],
          scope: 'department:field-operations',
          route: '/departments/:deptName',
        },
        grants: [{ permission: 'department.view', grants: [] }],
      }),
    );
    await user.click(screen.getByText('Page'));
    const page = screen.getByRole('combobox', { name: /Page/ });
    await user.click(page);
    await user.click(await screen.findByRole('option', { name: /\/departments\/:deptName/ }));
    await user.click(screen.getByRole('combobox', { name: /Department/ }));
    await user.click(await screen.findByRole('option', { name: 'Field Operations' }));
    await user.click(screen.getByRole('button', { name: 'Run' }));

    const result = await screen.findByRole('region', { name: 'Result' });
    expect(within(result).getByTestId('verdict')).toHaveTextContent('Denied');
    expect(
      within(result).getByText('Missing required permission: department.view'),
    ).toBeInTheDocument();
    const checked = within(result).getByRole('table', { name: 'What was checked' });
    expect(checked).toHaveTextContent('department:field-operations');
    expect(checked).toHaveTextContent('/departments/:deptName');
    expect(checked).toHaveTextContent('Every one of them (all)');
    expect(within(result).getByText('Not held in this scope.')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/admin/access/simulate')[0]?.body).toEqual({
      userId: 'u-sam',
      route: '/departments/field-operations',
    });
  });

  it('sends an id that is not in the catalogue as typed and shows it is invalid', async () => {
    const { fetchMock, user } = await open(
      answer({
        allowed: false,
        reason: 'Invalid permission: course.fly',
        checked: {
          permissions: ['course.fly'],
          mode: 'all',
          roles: [],
          scope: 'system',
          route: null,
        },
        grants: [],
      }),
    );
    await user.type(screen.getByRole('combobox', { name: /Permission/ }), 'course.fly');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText('Invalid permission: course.fly')).toBeInTheDocument();
    expect(screen.getByTestId('verdict')).toHaveTextContent('Denied');
    expect(fetchMock.callsTo('POST /api/admin/access/simulate')[0]?.body).toEqual({
      userId: 'u-sam',
      permission: 'course.fly',
      scope: 'system',
    });
  });

  it('asks for a user first, and shows a server error', async () => {
    const fetchMock = signedInAs(admin, {
      ...routes,
      'POST /api/admin/access/simulate': {
        status: 404,
        body: { code: 'NOT_FOUND', message: 'No page of the app at /nowhere' },
      },
    });
    const { user } = renderApp('/admin-test');
    await findHeading('Permission Simulator');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByText('Choose a user')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/admin/access/simulate')).toHaveLength(0);

    const who = screen.getByRole('combobox', { name: /User/ });
    await user.type(who, 'sam');
    await user.click(await screen.findByRole('option', { name: 'Sam Rivera (sam)' }));
    await user.click(screen.getByText('Page'));
    await user.click(screen.getByRole('combobox', { name: /Page/ }));
    await user.click(await screen.findByRole('option', { name: 'Another path…' }));
    await user.type(screen.getByRole('textbox', { name: /Path/ }), '/nowhere');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('No page of the app at /nowhere');
    expect(fetchMock.callsTo('POST /api/admin/access/simulate')[0]?.body).toEqual({
      userId: 'u-sam',
      route: '/nowhere',
    });
  });
});
