import type { StorageUsage, UserStorage } from '@learning-hub/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { MockRequest } from '../../../test/fetch-mock';
import { buildUser } from '../../../test/fixtures';
import { renderApp, signedInAs } from '../../../test/render-app';
import { limitsText, windowText } from './storage-section';
import { formatUptime } from './system-page';

const MB = 1024 ** 2;
const GB = 1024 ** 3;
const LIMITS: StorageUsage['limits'] = {
  maxFileBytes: 100 * MB,
  maxUnattachedBytes: 500 * MB,
  maxStoredBytes: 5 * GB,
  rate: { uploads: 60, windowSeconds: 600 },
  unattachedHours: 24,
};

function person(username: string, storedBytes: number, unattachedBytes: number): UserStorage {
  return {
    userId: `u-${username}`,
    username,
    firstname: username === 'pnoor' ? 'Priya' : '',
    lastname: username === 'pnoor' ? 'Noor' : '',
    isActive: username !== 'gone',
    files: 3,
    storedBytes,
    unattachedBytes,
  };
}

/** The storage route's answer: 7 people, ordered as asked, 5 to a page (the server's choice). */
function storageRoute(request: MockRequest): { body: StorageUsage } {
  const query = new URLSearchParams(request.search);
  const page = Number(query.get('page') ?? 1);
  const pageSize = 5;
  const everyone = [
    person('pnoor', Math.round(4.7 * GB), 10 * MB),
    person('gone', 2 * GB, 450 * MB),
    ...Array.from({ length: 5 }, (_, i) => person(`p${String(i).padStart(2, '0')}`, i * MB, 0)),
  ];
  const key = query.get('sort') === 'unattached' ? 'unattachedBytes' : 'storedBytes';
  const sign = query.get('order') === 'asc' ? 1 : -1;
  everyone.sort((a, b) => sign * (a[key] - b[key]));
  return {
    body: {
      items: everyone.slice((page - 1) * pageSize, page * pageSize),
      total: everyone.length,
      page,
      pageSize,
      totals: { files: 90, storedBytes: 7 * GB, unattachedBytes: 460 * MB },
      limits: LIMITS,
    },
  };
}

const admin = buildUser({ role: 'admin' });

describe('admin: system', () => {
  it('shows the Node.js version, platform, database and uptime', async () => {
    signedInAs(admin, {
      'GET /api/admin/system': {
        body: {
          node: 'v24.21.0',
          supportedNodeLines: [22, 24, 26],
          platform: 'linux',
          arch: 'x64',
          database: 'postgres',
          uptimeSeconds: 3 * 86_400 + 4 * 3600 + 5 * 60 + 6,
          startedAt: '2026-11-20T08:00:00.000Z',
          apiReferenceUrl: '/api/docs?exp=1&sid=s&sig=x',
        },
      },
    });
    renderApp('/admin/system');
    const table = await screen.findByRole('table', { name: 'System information' });
    const row = (header: string) =>
      within(table).getByRole('rowheader', { name: header }).closest('tr') as HTMLElement;
    expect(row('Node.js')).toHaveTextContent('v24.21.0');
    expect(row('Node.js')).toHaveTextContent('supported lines: 22, 24, 26');
    expect(row('Platform')).toHaveTextContent('linux (x64)');
    expect(row('Database')).toHaveTextContent('PostgreSQL');
    expect(row('Uptime')).toHaveTextContent('3 d 4 h 5 min');
    expect(within(row('API')).getByRole('link', { name: 'API reference' })).toHaveAttribute(
      'href',
      '/api/docs?exp=1&sid=s&sig=x',
    );
    const nav = screen.getByRole('navigation', { name: 'Admin settings' });
    expect(within(nav).getByRole('link', { name: 'System' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('says why when the server refuses', async () => {
    signedInAs(admin, {
      'GET /api/admin/system': {
        status: 403,
        body: { code: 'FORBIDDEN', message: 'Missing required permission: system.view' },
      },
    });
    renderApp('/admin/system');
    expect(await screen.findByText('Missing required permission: system.view')).toBeInTheDocument();
  });

  it('edits the allowed internal link hosts: checked before sending, shown as stored', async () => {
    const user = userEvent.setup();
    const fetchMock = signedInAs(admin, {
      'GET /api/admin/settings': {
        body: { allowedInternalLinkHosts: ['wiki.corp.example'], updatedAt: null, updatedBy: null },
      },
      'PUT /api/admin/settings': {
        body: {
          allowedInternalLinkHosts: ['wiki.corp.example', '127.0.0.1'],
          updatedAt: '2026-11-20T08:00:00.000Z',
          updatedBy: 'admin',
        },
      },
    });
    renderApp('/admin/system');
    const field = await screen.findByRole('textbox', { name: 'Allowed internal link hosts' });
    expect(field).toHaveValue('wiki.corp.example');
    expect(screen.getByText('Never changed')).toBeInTheDocument();

    await user.type(field, '\nhttp://intranet/');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(
        '“http://intranet/” is not a host name or IP address (no scheme, port, path or user name).',
      ),
    ).toBeInTheDocument();
    expect(fetchMock.callsTo('PUT /api/admin/settings')).toHaveLength(0);

    await user.clear(field);
    await user.type(field, 'wiki.corp.example\n\n127.1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field).toHaveValue('wiki.corp.example\n127.0.0.1'));
    expect(fetchMock.callsTo('PUT /api/admin/settings')[0]?.body).toEqual({
      allowedInternalLinkHosts: ['wiki.corp.example', '127.1'],
    });
    expect(screen.getByText(/^Last changed .* by admin$/)).toBeInTheDocument();
  });

  it('formats uptimes', () => {
    expect(formatUptime(12)).toBe('12 s');
    expect(formatUptime(5 * 60 + 3)).toBe('5 min');
    expect(formatUptime(2 * 3600 + 60)).toBe('2 h 1 min');
  });

  it('shows the storage each person uses, most stored first, with the totals and the limits', async () => {
    signedInAs(admin, { 'GET /api/admin/storage': storageRoute });
    renderApp('/admin/system');
    const table = await screen.findByRole('table', { name: 'Storage' });
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(6);
    expect(
      within(rows[0] as HTMLElement).getByRole('columnheader', { name: 'Stored' }),
    ).toHaveAttribute('aria-sort', 'descending');
    const first = rows[1] as HTMLElement;
    expect(within(first).getByRole('link', { name: 'Priya Noor' })).toHaveAttribute(
      'href',
      '/admin/users/u-pnoor',
    );
    expect(first).toHaveTextContent('pnoor');
    expect(first).toHaveTextContent('4.7 GB');
    expect(first).toHaveTextContent('94% of the limit');
    const second = rows[2] as HTMLElement;
    expect(second).toHaveTextContent('Inactive');
    expect(second).toHaveTextContent('450 MB');
    expect(second).toHaveTextContent('90% of the limit');
    expect(
      screen.getByText(
        'Each person may upload files of up to 100 MB, 60 uploads in 10 minutes; have 500 MB of ' +
          'uploads not yet attached to anything (removed after 24 hours); and store 5 GB in all.',
      ),
    ).toBeInTheDocument();
    expect(
      screen.getByText('In all: 7 GB in 90 files, of which 460 MB not yet attached.'),
    ).toBeInTheDocument();
    expect(screen.getByText('Showing 1–5 of 7 people')).toBeInTheDocument();
    // On a phone the table scrolls sideways, and says so.
    expect(screen.getByText('Scroll the table sideways to see every column.')).toBeInTheDocument();
  });

  it('orders by a column, either way, and pages on the server', async () => {
    const user = userEvent.setup();
    const fetchMock = signedInAs(admin, { 'GET /api/admin/storage': storageRoute });
    renderApp('/admin/system');
    const table = await screen.findByRole('table', { name: 'Storage' });
    const lastQuery = () =>
      new URLSearchParams(fetchMock.callsTo('GET /api/admin/storage').at(-1)?.search);

    await user.click(within(table).getByRole('button', { name: 'Not attached' }));
    await waitFor(() => expect(lastQuery().get('sort')).toBe('unattached'));
    expect(lastQuery().get('order')).toBe('desc');
    await waitFor(() => expect(within(table).getAllByRole('row')[1]).toHaveTextContent('gone'));
    expect(within(table).getByRole('columnheader', { name: 'Not attached' })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
    expect(within(table).getByRole('columnheader', { name: 'Stored' })).toHaveAttribute(
      'aria-sort',
      'none',
    );

    await user.click(within(table).getByRole('button', { name: 'Not attached' }));
    await waitFor(() => expect(lastQuery().get('order')).toBe('asc'));
    expect(within(table).getByRole('columnheader', { name: 'Not attached' })).toHaveAttribute(
      'aria-sort',
      'ascending',
    );

    const pages = screen.getByRole('navigation', { name: 'Storage pages' });
    await user.click(within(pages).getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(lastQuery().get('page')).toBe('2'));
    expect(lastQuery().get('sort')).toBe('unattached');
    expect(await screen.findByText('Showing 6–7 of 7 people')).toBeInTheDocument();
  });

  it('words the limits', () => {
    expect(windowText(600)).toBe('10 minutes');
    expect(windowText(60)).toBe('1 minute');
    expect(windowText(3600)).toBe('1 hour');
    expect(windowText(90)).toBe('90 seconds');
    expect(
      limitsText({ ...LIMITS, rate: { uploads: 1, windowSeconds: 1 }, unattachedHours: 1 }),
    ).toContain(
      '1 upload in 1 second; have 500 MB of uploads not yet attached to anything (removed after 1 hour)',
    );
  });
});
