import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { buildDiff, buildPage, buildRevision, buildSpace, buildTree } from '../testing';

const student = buildUser({ role: 'student' });
const instructor = buildUser({ role: 'instructor' });

const REVISIONS = {
  items: [
    buildRevision(),
    buildRevision({
      id: 'rev-2',
      number: 2,
      summary: '',
      restoredFrom: 1,
      author: { id: 'user-instructor', name: 'Ines Instructor' },
      size: 800,
    }),
    buildRevision({ id: 'rev-1', number: 1, summary: 'First version', title: 'Splicing' }),
  ],
  total: 3,
  page: 1,
  pageSize: 25,
};

describe('wiki history and diffs', () => {
  it('lists the revisions and compares the two chosen, side by side and inline', async () => {
    const fetch = signedInAs(student, {
      'GET /api/wiki/pages/page-1': { body: buildPage() },
      'GET /api/wiki/pages/page-1/revisions': { body: REVISIONS },
      'GET /api/wiki/pages/page-1/diff': { body: buildDiff() },
    });
    const { user, router } = renderApp('/wiki/pages/page-1/history');
    await findHeading('History of “Splicing a 144-fibre cable”');
    const table = await screen.findByRole('table', { name: 'Revisions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(3);
    expect(within(rows[0]!).getByText('Current')).toBeVisible();
    expect(within(rows[0]!).getByText('Added the OTDR check')).toBeVisible();
    expect(within(rows[0]!).getByText('1,200 characters')).toBeVisible();
    expect(within(rows[1]!).getByText('(restored from revision 1)')).toBeVisible();
    expect(within(rows[1]!).getByText('Ines Instructor')).toBeVisible();
    expect(within(rows[2]!).getByRole('link', { name: 'Revision 1' })).toHaveAttribute(
      'href',
      '/wiki/pages/page-1/revisions/1',
    );
    // The newest against the one before, until the reader chooses.
    expect(screen.getByRole('radio', { name: 'Compare from revision 2' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'Compare to revision 3' })).toBeChecked();

    await user.click(screen.getByRole('radio', { name: 'Compare from revision 1' }));
    await user.click(screen.getByRole('button', { name: 'Compare selected revisions' }));
    await findHeading('Changes to “Splicing a 144-fibre cable”');
    expect(router.state.location.search).toBe('?from=1&to=3');
    expect(fetch.callsTo('GET /api/wiki/pages/page-1/diff')[0]?.search).toBe('?from=1&to=3');

    expect(await screen.findByText('5 words added, 4 words deleted.')).toBeVisible();
    expect(screen.getByText('Splicing', { selector: 'del' })).toHaveTextContent(
      'deleted: Splicing',
    );

    // Side by side: the left column has the deletions, the right the insertions.
    const side = screen.getByRole('table', { name: 'Changes side by side' });
    const changed = within(side).getByText('cheap', { exact: false, selector: 'del' });
    expect(changed).toHaveTextContent('deleted: cheap');
    const changedRow = changed.closest('tr')!;
    const [left, right] = within(changedRow).getAllByRole('cell');
    expect(left).toHaveTextContent('A deleted: cheap splicer.');
    expect(right).toHaveTextContent('A added: fusion splicer.');
    expect(right!.querySelector('ins')).toHaveTextContent('fusion');
    // Five unchanged paragraphs between two changes: one kept on each side, three folded.
    expect(within(side).queryByText('Three.')).toBeNull();
    await user.click(within(side).getByRole('button', { name: 'Show 3 unchanged blocks' }));
    expect(within(side).getAllByText('Three.')).toHaveLength(2);

    await user.click(screen.getByRole('radio', { name: 'Inline' }));
    await waitFor(() => expect(router.state.location.search).toBe('?from=1&to=3&mode=inline'));
    const inline = screen.getByRole('region', { name: 'Changes inline' });
    expect(inline).toHaveTextContent('A deleted: cheapadded: fusion splicer.');
    expect(within(inline).getByText('Check with an OTDR.', { exact: false })).toBeVisible();
    expect(within(inline).getByRole('button', { name: 'Show 3 unchanged blocks' })).toBeVisible();
  });

  it('shows an old revision read-only, and an editor restores it', async () => {
    const current = buildPage({ can: { edit: true, delete: false, move: false, purge: false } });
    const fetch = signedInAs(instructor, {
      'GET /api/wiki/pages/page-1': { body: current },
      'GET /api/wiki/pages/page-1/revisions/1': {
        body: { ...REVISIONS.items[2], html: '<p>The first text.</p>' },
      },
      'POST /api/wiki/pages/page-1/revisions/1/restore': {
        body: buildPage({ revision: 4, html: '<p>The first text.</p>' }),
      },
      'GET /api/wiki/tree': { body: buildTree(buildSpace(), []) },
      'POST /api/wiki/pages/page-1/view': { status: 204 },
    });
    const { user, router } = renderApp('/wiki/pages/page-1/revisions/1');
    await findHeading('Splicing');
    expect(screen.getByText('You are reading revision 1 of 3.')).toBeVisible();
    expect(screen.getByText('The first text.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Compare with the current version' })).toHaveAttribute(
      'href',
      '/wiki/pages/page-1/diff?from=1&to=3',
    );
    await user.click(screen.getByRole('button', { name: 'Restore this revision' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/wiki/pages/page-1'));
    expect(await screen.findByText('Revision 1 was restored as revision 4.')).toBeVisible();
    expect(fetch.callsTo('POST /api/wiki/pages/page-1/revisions/1/restore')).toHaveLength(1);
  });

  it('offers a reader no restore', async () => {
    signedInAs(student, {
      'GET /api/wiki/pages/page-1': { body: buildPage() },
      'GET /api/wiki/pages/page-1/revisions/1': {
        body: { ...REVISIONS.items[2], html: '<p>The first text.</p>' },
      },
    });
    renderApp('/wiki/pages/page-1/revisions/1');
    expect(await screen.findByText('You are reading revision 1 of 3.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Restore this revision' })).toBeNull();
  });
});
