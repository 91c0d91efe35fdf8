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

describe('the urgent announcements banner', () => {
  it('stays at the foot of every page until the reader confirms, named and announced', async () => {
    let acknowledged = false;
    const fetch = signedInAs(student, {
      'GET /api/announcements': ({ search }) => {
        const query = new URLSearchParams(search);
        const waiting = query.get('unacknowledged') === 'true';
        if (waiting && acknowledged) return { body: announcementPage([]) };
        const copy = acknowledged
          ? { ...urgent, receipt: { readAt: null, acknowledgedAt: '2026-11-29T10:00:00.000Z' } }
          : urgent;
        return { body: announcementPage([copy]) };
      },
      'POST /api/announcements/urgent-1/acknowledgement': () => {
        acknowledged = true;
        return {
          status: 201,
          body: { announcementId: 'urgent-1', acknowledgedAt: '2026-11-29T10:00:00.000Z' },
        };
      },
      'GET /api/announcements/urgent-1': { body: urgent },
      'GET /api/me/learning': { status: 404, body: { code: 'NOT_FOUND', message: 'x' } },
    });
    const { user } = renderApp('/profile-settings');
    const banner = await screen.findByRole('region', { name: 'Urgent announcement' });
    expect(within(banner).getByRole('alert')).toHaveTextContent('Cable cut: Elm Street closed');
    expect(
      fetch.callsTo('GET /api/announcements').some((r) => r.search.includes('priority=urgent')),
    ).toBe(true);

    // Read it: the whole text in a dialog, with its own "I have read this".
    await user.click(within(banner).getByRole('button', { name: 'Read it' }));
    const dialog = await screen.findByRole('dialog', { name: 'Announcement' });
    expect(await within(dialog).findByText('A contractor cut the feeder.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    // From the keyboard: the banner's buttons are in the tab order.
    const confirm = within(banner).getByRole('button', { name: 'I have read this' });
    confirm.focus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/announcements/urgent-1/acknowledgement')).toHaveLength(1),
    );
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Urgent announcement' })).not.toBeInTheDocument(),
    );
  });

  it('shows nothing when no urgent announcement waits, and says how many do', async () => {
    signedInAs(student, {
      'GET /api/announcements': ({ search }) =>
        new URLSearchParams(search).get('priority') === 'urgent'
          ? {
              body: announcementPage([urgent, { ...urgent, id: 'urgent-2', title: 'Second' }], 2),
            }
          : { body: announcementPage([]) },
    });
    renderApp('/profile-settings');
    const banner = await screen.findByRole('region', { name: 'Urgent announcement (1 of 2)' });
    expect(banner).toHaveTextContent('Cable cut: Elm Street closed');
  });

  it('is not there for a reader with nothing urgent', async () => {
    const fetch = signedInAs(student);
    renderApp('/profile-settings');
    await findHeading('Profile Settings');
    // The banner asked, and has nothing to show.
    await waitFor(() => expect(fetch.callsTo('GET /api/announcements').length).toBeGreaterThan(0));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(screen.queryByRole('region', { name: /Urgent announcement/ })).not.toBeInTheDocument();
  });
});
