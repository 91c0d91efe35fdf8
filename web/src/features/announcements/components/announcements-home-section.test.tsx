import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { announcementPage, buildAnnouncement } from '../testing';

const student = buildUser({ role: 'student', firstname: 'Sam' });

const urgent = buildAnnouncement({
  id: 'urgent-1',
  title: 'Cable cut: Elm Street closed',
  priority: 'urgent',
  requiresAck: true,
  receipt: { readAt: null, acknowledgedAt: null },
});
const pinned = buildAnnouncement({
  id: 'pinned-1',
  title: 'Safety rule updated',
  priority: 'important',
  pinned: true,
  bodyHtml: '<p>No aerial splicing within 3 m of a live power line.</p>',
  receipt: { readAt: null, acknowledgedAt: null },
});

describe('the start page’s announcements', () => {
  it('lists the latest as headlines, first of the page, and opens one from its link', async () => {
    const fetch = signedInAs(student, {
      'GET /api/announcements': { body: announcementPage([urgent, pinned], 7) },
      'GET /api/announcements/pinned-1': { body: pinned },
      'GET /api/me/learning': { status: 404, body: { code: 'NOT_FOUND', message: 'x' } },
    });
    const { user } = renderApp('/');
    await findHeading('Welcome, Sam');
    const section = await screen.findByRole('region', { name: 'Announcements' });
    // First of the page's sections.
    expect(screen.getAllByRole('heading', { level: 2 })[0]).toHaveTextContent('Announcements');
    const items = within(section).getAllByRole('listitem');
    const titleOf = (item: HTMLElement) => within(item).getAllByRole('button')[0]?.textContent;
    expect(items.map(titleOf)).toEqual(['Cable cut: Elm Street closed', 'Safety rule updated']);
    expect(within(items[0]!).getByText('Urgent')).toBeInTheDocument();
    expect(within(items[0]!).getByRole('button', { name: 'I have read this' })).toBeInTheDocument();
    expect(within(items[1]!).getByText('Pinned')).toBeInTheDocument();
    expect(
      within(section).getByRole('button', { name: 'Show all 7 announcements' }),
    ).toBeInTheDocument();
    expect(
      fetch.callsTo('GET /api/announcements').some((r) => r.search.includes('pageSize=5')),
    ).toBe(true);

    await user.click(within(items[1]!).getByRole('button', { name: 'Safety rule updated' }));
    const dialog = await screen.findByRole('dialog', { name: 'Announcement' });
    expect(
      await within(dialog).findByText('No aerial splicing within 3 m of a live power line.'),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('opens the announcement a notification links to', async () => {
    signedInAs(student, {
      'GET /api/announcements/pinned-1': { body: pinned },
      'GET /api/me/learning': { status: 404, body: { code: 'NOT_FOUND', message: 'x' } },
    });
    renderApp('/?announcement=pinned-1');
    const dialog = await screen.findByRole('dialog', { name: 'Announcement' });
    expect(
      await within(dialog).findByRole('heading', { name: 'Safety rule updated' }),
    ).toBeInTheDocument();
    // Nothing else is out to the reader: no section.
    expect(screen.queryByRole('region', { name: 'Announcements' })).not.toBeInTheDocument();
  });
});
