import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MockRequest } from '../../../test/fetch-mock';
import { buildUser } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { announcementPage, buildAnnouncement, MANAGED } from '../testing';

const admin = buildUser({ role: 'admin' });

const live = buildAnnouncement({
  ...MANAGED,
  id: 'live-1',
  title: 'Cable cut: Elm Street closed',
  priority: 'urgent',
  requiresAck: true,
});
const scheduled = buildAnnouncement({
  ...MANAGED,
  id: 'later-1',
  title: 'Planned maintenance on Saturday',
  state: 'scheduled',
  publishedAt: null,
  publishAt: '2026-12-05T06:00:00.000Z',
  counts: null,
  audience: {
    everyone: false,
    roles: ['instructor'],
    departments: [{ id: 'field-operations', name: 'Field Operations' }],
    courses: [],
    people: [],
  },
});

const lastQuery = (fetch: { callsTo(key: string): MockRequest[] }) =>
  new URLSearchParams(fetch.callsTo('GET /api/announcements').at(-1)?.search ?? '');

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the announcement manager', () => {
  it('lists every announcement with its state, audience, time and progress, filtered by state', async () => {
    const fetch = signedInAs(admin, {
      'GET /api/announcements': ({ search }) => {
        const query = new URLSearchParams(search);
        if (query.get('view') !== 'manage') return { body: announcementPage([]) };
        const state = query.get('state');
        return {
          body: announcementPage([live, scheduled].filter((a) => !state || a.state === state)),
        };
      },
    });
    const { user } = renderApp('/announcement-manager');
    await findHeading('Announcement Manager');
    const table = await screen.findByRole('table', { name: 'Announcements' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(
      within(rows[0]!).getByRole('link', { name: 'Cable cut: Elm Street closed' }),
    ).toHaveAttribute('href', '/announcement-manager/live-1');
    expect(within(rows[0]!).getByText('Live')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Urgent')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Everyone')).toBeInTheDocument();
    expect(
      within(rows[0]!).getByText('5/8 delivered · 3 read · 2 acknowledged'),
    ).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Scheduled')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Instructors · Field Operations')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/^Goes out /)).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'State' }), 'scheduled');
    await waitFor(() => expect(lastQuery(fetch).get('state')).toBe('scheduled'));
    expect(lastQuery(fetch).get('view')).toBe('manage');
    await waitFor(() =>
      expect(
        within(screen.getByRole('table', { name: 'Announcements' })).getAllByRole('row'),
      ).toHaveLength(2),
    );
  });

  it('shows a card per announcement on a phone', async () => {
    vi.stubGlobal(
      'matchMedia',
      (query: string) =>
        ({
          matches: query.includes('max-width: 48em'),
          media: query,
          onchange: null,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          addListener: () => undefined,
          removeListener: () => undefined,
          dispatchEvent: () => false,
        }) as MediaQueryList,
    );
    signedInAs(admin, {
      'GET /api/announcements': ({ search }) =>
        new URLSearchParams(search).get('view') === 'manage'
          ? { body: announcementPage([live]) }
          : { body: announcementPage([]) },
    });
    renderApp('/announcement-manager');
    await findHeading('Announcement Manager');
    const list = await screen.findByRole('list', { name: 'Announcements' });
    expect(
      within(list).getByRole('link', { name: 'Cable cut: Elm Street closed' }),
    ).toBeInTheDocument();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('opens one: its counts, who has not acknowledged, a reminder and the server’s refusal', async () => {
    const fetch = signedInAs(admin, {
      'GET /api/announcements/live-1': { body: live },
      'GET /api/announcements/live-1/recipients': {
        body: {
          items: [
            {
              user: { id: 'u-1', name: 'Sam Rivera', username: 'sam' },
              department: 'Field Operations',
              deliveredAt: '2026-11-29T09:01:00.000Z',
              readAt: null,
              acknowledgedAt: null,
              remindedAt: null,
            },
          ],
          total: 1,
          page: 1,
          pageSize: 20,
        },
      },
      'POST /api/announcements/live-1/reminders': {
        status: 429,
        body: {
          code: 'RATE_LIMITED',
          message: 'A reminder went out less than an hour ago. The next one can go at 10:00 UTC.',
          details: { retryAfter: 600 },
        },
      },
    });
    const { user } = renderApp('/announcement-manager/live-1');
    await findHeading('Cable cut: Elm Street closed');
    const counts = screen.getByLabelText('Counts');
    expect(counts).toHaveTextContent('Reached8');
    expect(counts).toHaveTextContent('Delivered5 (63%)');
    expect(counts).toHaveTextContent('Acknowledged2 (25%)');
    expect(
      await screen.findByRole('heading', { name: 'Not acknowledged yet' }),
    ).toBeInTheDocument();
    expect(fetch.callsTo('GET /api/announcements/live-1/recipients')[0]?.search).toContain(
      'acknowledged=false',
    );
    expect(await screen.findByText('Sam Rivera')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remind' }));
    const dialog = await screen.findByRole('dialog', { name: 'Send a reminder?' });
    expect(dialog).toHaveTextContent('The 6 people who have not acknowledged');
    await user.click(within(dialog).getByRole('button', { name: 'Send reminder' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'A reminder went out less than an hour ago. The next one can go at 10:00 UTC.',
    );
  });
});
