import type { AccessAuditEntry } from '@learning-hub/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MockRequest } from '../../../test/fetch-mock';
import { buildUser } from '../../../test/fixtures';
import { renderApp, signedInAs } from '../../../test/render-app';
import { dayBoundary } from '../utils/dates';
import { buildAdminUser } from '../testing';

const admin = buildUser({ role: 'admin' });
const sam = buildAdminUser({ id: 'u-sam', username: 'sam', firstname: 'Sam', lastname: 'Rivera' });
const query = (r: MockRequest) => Object.fromEntries(new URLSearchParams(r.search));

function entry(overrides: Partial<AccessAuditEntry>): AccessAuditEntry {
  return {
    id: 'a1',
    occurredAt: '2025-03-01T09:00:00.000Z',
    action: 'permission.grant',
    actorId: 'user-admin',
    actorUsername: 'admin',
    targetUserId: 'u-sam',
    targetUsername: 'sam',
    roleId: null,
    permission: 'library.upload',
    context: null,
    details: {},
    ...overrides,
  };
}

describe('admin: access changes', () => {
  it('shows the trail and filters it by action, user and dates', async () => {
    const fetchMock = signedInAs(admin, {
      'GET /api/admin/access/audit': (request) => ({
        body: {
          items: [
            entry({}),
            entry({
              id: 'a2',
              action: 'assignment.replace',
              permission: null,
              context: 'course:otdr-trace-analysis',
              details: {
                roles: ['course-assistant'],
                directPermissions: [],
                expiresAt: null,
                previous: { roles: ['course-student'], directPermissions: [], expiresAt: null },
              },
            }),
          ],
          total: 250,
          page: Number(query(request).page),
          pageSize: 100,
        },
      }),
      'GET /api/admin/users': { body: { items: [sam], total: 1, page: 1, pageSize: 20 } },
    });
    const { user } = renderApp('/admin/audit');
    const table = await screen.findByRole('table', { name: 'Access changes' });
    expect(within(table).getByText('Permission granted')).toBeInTheDocument();
    expect(within(table).getAllByRole('link', { name: 'sam' })[0]).toHaveAttribute(
      'href',
      '/admin/users/u-sam',
    );
    expect(
      within(table).getByText('Now: roles course-assistant; permissions none; expires never'),
    ).toBeInTheDocument();
    expect(
      within(table).getByText('Before: roles course-student; permissions none; expires never'),
    ).toBeInTheDocument();
    expect(screen.getByText('Showing 1–2 of 250 changes')).toBeInTheDocument();
    expect(query(fetchMock.callsTo('GET /api/admin/access/audit')[0]!)).toEqual({ page: '1' });

    await user.click(screen.getByRole('combobox', { name: 'Action' }));
    await user.click(screen.getByRole('option', { name: 'Assignment replaced' }));
    await user.click(screen.getByRole('combobox', { name: 'About user' }));
    await user.click(await screen.findByRole('option', { name: 'Sam Rivera (sam)' }));
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-03-01' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-03-31' } });
    await waitFor(() =>
      expect(query(fetchMock.callsTo('GET /api/admin/access/audit').at(-1)!)).toEqual({
        action: 'assignment.replace',
        userId: 'u-sam',
        from: dayBoundary('2025-03-01', 'start'),
        to: dayBoundary('2025-03-31', 'end'),
        page: '1',
      }),
    );
    const pager = screen.getByRole('navigation', { name: 'Access changes pages' });
    await user.click(within(pager).getByRole('button', { name: 'Page 3' }));
    await waitFor(() =>
      expect(query(fetchMock.callsTo('GET /api/admin/access/audit').at(-1)!)).toMatchObject({
        page: '3',
      }),
    );
  });
});

describe('admin: permission checks', () => {
  it('shows the ring with results and reasons, for everyone or one user', async () => {
    const fetchMock = signedInAs(admin, {
      'GET /api/admin/access/checks': {
        body: {
          items: [
            {
              id: 'c1',
              userId: 'u-sam',
              username: 'sam',
              action: 'checked',
              permission: 'user.view',
              context: 'system',
              timestamp: '2025-03-01T10:00:00.000Z',
              result: false,
              reason: 'Missing required permission: user.view',
            },
          ],
          total: 1,
          page: 1,
          pageSize: 100,
        },
      },
      'GET /api/admin/users': { body: { items: [sam], total: 1, page: 1, pageSize: 20 } },
    });
    const { user } = renderApp('/admin/checks');
    const table = await screen.findByRole('table', { name: 'Permission checks' });
    expect(within(table).getByText('Denied')).toBeInTheDocument();
    expect(within(table).getByText('Missing required permission: user.view')).toBeInTheDocument();
    expect(await within(table).findByRole('link', { name: 'sam' })).toBeInTheDocument();
    expect(query(fetchMock.callsTo('GET /api/admin/access/checks')[0]!)).toEqual({
      page: '1',
      pageSize: '100',
    });
    await user.click(screen.getByRole('combobox', { name: 'User' }));
    await user.click(await screen.findByRole('option', { name: 'Sam Rivera (sam)' }));
    await waitFor(() =>
      expect(query(fetchMock.callsTo('GET /api/admin/access/checks').at(-1)!)).toEqual({
        userId: 'u-sam',
        page: '1',
        pageSize: '50',
      }),
    );
  });
});
