import type { JobList, JobSummary } from '@learning-hub/core';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { PHONE_QUERY } from '../../../lib/use-phone';
import type { MockRequest } from '../../../test/fetch-mock';
import { buildUser } from '../../../test/fixtures';
import { renderApp, signedInAs } from '../../../test/render-app';

const admin = buildUser({ role: 'admin' });

function job(n: number, overrides: Partial<JobSummary> = {}): JobSummary {
  return {
    id: `job-${n}`,
    name: 'pdf.extract-text',
    state: 'completed',
    attempts: 1,
    maxAttempts: 3,
    createdAt: '2026-11-22T09:00:00.000Z',
    startAfter: '2026-11-22T09:00:00.000Z',
    startedAt: '2026-11-22T09:00:01.000Z',
    completedAt: '2026-11-22T09:00:02.000Z',
    lastError: null,
    subject: null,
    ...overrides,
  };
}

const FAILED = job(1, {
  state: 'failed',
  attempts: 3,
  lastError: 'The PDF is encrypted',
  completedAt: '2026-11-22T09:10:00.000Z',
  subject: {
    type: 'library-item',
    title: 'Splice closure preparation procedure',
    fileName: 'splice-closure-procedure.pdf',
    path: '/library/item-7',
  },
});

/** 23 jobs, one failed; filtered by state, 20 to a page. */
function jobsRoute(request: MockRequest): { body: JobList } {
  const query = new URLSearchParams(request.search);
  const page = Number(query.get('page') ?? 1);
  const pageSize = Number(query.get('pageSize') ?? 20);
  const all = [FAILED, ...Array.from({ length: 22 }, (_, i) => job(i + 2))].filter(
    (j) => !query.get('state') || j.state === query.get('state'),
  );
  return {
    body: {
      items: all.slice((page - 1) * pageSize, page * pageSize),
      total: all.length,
      page,
      pageSize,
    },
  };
}

describe('admin: background jobs', () => {
  it('lists the queue a page at a time, filters by state, and retries a failed job', async () => {
    const user = userEvent.setup();
    const fetchMock = signedInAs(admin, {
      'GET /api/admin/jobs': jobsRoute,
      'POST /api/admin/jobs/job-1/retry': { status: 204 },
    });
    renderApp('/admin/system');
    const table = await screen.findByRole('table', { name: 'Background jobs' });
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    expect(screen.getByText('Showing 1–20 of 23 jobs')).toBeInTheDocument();
    const failedRow = within(table).getByText('job-1').closest('tr') as HTMLElement;
    expect(failedRow).toHaveTextContent('Failed');
    expect(failedRow).toHaveTextContent('3 of 3');
    expect(failedRow).toHaveTextContent('The PDF is encrypted');
    // What it worked on: the item (linked) and its file.
    expect(failedRow).toHaveTextContent(
      'Library item: Splice closure preparation procedure (splice-closure-procedure.pdf)',
    );
    expect(
      within(failedRow).getByRole('link', { name: 'Splice closure preparation procedure' }),
    ).toHaveAttribute('href', '/library/item-7');
    // Only a failed job can be retried.
    expect(within(table).getAllByRole('button', { name: /^Retry/ })).toHaveLength(1);

    const pages = screen.getByRole('navigation', { name: 'Background job pages' });
    await user.click(within(pages).getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('Showing 21–23 of 23 jobs')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'State' }));
    await user.click(await screen.findByRole('option', { name: 'Failed' }));
    expect(await screen.findByText('Showing 1–1 of 1 jobs')).toBeInTheDocument();
    const last = new URLSearchParams(fetchMock.callsTo('GET /api/admin/jobs').at(-1)?.search);
    expect(last.get('state')).toBe('failed');
    expect(last.get('page')).toBe('1');

    const before = fetchMock.callsTo('GET /api/admin/jobs').length;
    await user.click(screen.getByRole('button', { name: 'Retry pdf.extract-text job-1' }));
    expect(await screen.findByText('Job queued again')).toBeInTheDocument();
    expect(fetchMock.callsTo('POST /api/admin/jobs/job-1/retry')).toHaveLength(1);
    // The list is read again.
    await waitFor(() =>
      expect(fetchMock.callsTo('GET /api/admin/jobs').length).toBeGreaterThan(before),
    );
  });

  it('shows one card per job on a phone, with the same retry', async () => {
    const matchMedia = window.matchMedia;
    vi.stubGlobal('matchMedia', (query: string) => ({
      ...matchMedia(query),
      matches: query === PHONE_QUERY,
    }));
    signedInAs(admin, {
      'GET /api/admin/jobs': { body: { items: [FAILED], total: 1, page: 1, pageSize: 20 } },
    });
    renderApp('/admin/system');
    const list = await screen.findByRole('list', { name: 'Background jobs' });
    expect(screen.queryByRole('table', { name: 'Background jobs' })).not.toBeInTheDocument();
    const [card] = within(list).getAllByRole('listitem');
    expect(card).toHaveTextContent('job-1');
    expect(card).toHaveTextContent(
      'Library item: Splice closure preparation procedure (splice-closure-procedure.pdf)',
    );
    expect(card).toHaveTextContent('Attempts3 of 3');
    expect(card).toHaveTextContent('Last errorThe PDF is encrypted');
    expect(
      within(card!).getByRole('button', { name: 'Retry pdf.extract-text job-1' }),
    ).toBeInTheDocument();
  });

  it("says why a retry was refused, in the server's words", async () => {
    const user = userEvent.setup();
    signedInAs(admin, {
      'GET /api/admin/jobs': { body: { items: [FAILED], total: 1, page: 1, pageSize: 20 } },
      'POST /api/admin/jobs/job-1/retry': {
        status: 409,
        body: { code: 'CONFLICT', message: 'Only a failed job can be retried.' },
      },
    });
    renderApp('/admin/system');
    await user.click(await screen.findByRole('button', { name: 'Retry pdf.extract-text job-1' }));
    expect(await screen.findByText('Could not retry the job')).toBeInTheDocument();
    expect(screen.getByText('Only a failed job can be retried.')).toBeInTheDocument();
  });

  it('names a subject without a link when the app cannot open it', async () => {
    signedInAs(admin, {
      'GET /api/admin/jobs': {
        body: {
          items: [
            job(1, {
              subject: { type: 'file', title: 'scan.pdf', fileName: null, path: null },
            }),
          ],
          total: 1,
          page: 1,
          pageSize: 20,
        },
      },
    });
    renderApp('/admin/system');
    const row = (await screen.findByText('File: scan.pdf')).closest('tr') as HTMLElement;
    expect(within(row).queryByRole('link')).toBeNull();
  });

  it('says when there are no jobs', async () => {
    signedInAs(admin, {
      'GET /api/admin/jobs': { body: { items: [], total: 0, page: 1, pageSize: 20 } },
    });
    renderApp('/admin/system');
    expect(await screen.findByText('No background jobs yet.')).toBeInTheDocument();
  });
});
