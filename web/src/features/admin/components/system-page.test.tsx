import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/fixtures';
import { renderApp, signedInAs } from '../../../test/render-app';
import { formatUptime } from './system-page';

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

  it('formats uptimes', () => {
    expect(formatUptime(12)).toBe('12 s');
    expect(formatUptime(5 * 60 + 3)).toBe('5 min');
    expect(formatUptime(2 * 3600 + 60)).toBe('2 h 1 min');
  });
});
