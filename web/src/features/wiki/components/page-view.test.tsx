import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { buildPage, buildSpace, buildTree } from '../testing';

const student = buildUser({ role: 'student' });
const instructor = buildUser({ role: 'instructor' });
const admin = buildUser({ role: 'admin' });

const COMPANY = buildSpace();
const TREE = buildTree(COMPANY, [
  { id: 'page-root', title: 'Procedures' },
  { id: 'page-1', title: 'Splicing a 144-fibre cable', parentId: 'page-root' },
  { id: 'page-2', title: 'Reading an OTDR trace' },
]);
const ALL = { edit: true, delete: true, move: true, purge: true };

describe('wiki page', () => {
  it('shows the page with its contents, links, backlinks and tree; following; one view counted', async () => {
    const fetch = signedInAs(student, {
      'GET /api/wiki/pages/page-1': { body: buildPage() },
      'GET /api/wiki/tree': { body: TREE },
      'POST /api/wiki/pages/page-1/view': { status: 204 },
      'PUT /api/wiki/pages/page-1/follow': { body: { following: true, followerCount: 3 } },
      'DELETE /api/wiki/pages/page-1/follow': { status: 204 },
    });
    const { user } = renderApp('/wiki/pages/page-1');
    await findHeading('Splicing a 144-fibre cable');

    const crumbs = screen.getByRole('link', { name: 'Procedures' });
    expect(crumbs).toHaveAttribute('href', '/wiki/pages/page-root');
    expect(screen.getByRole('link', { name: 'Fibre Co' })).toHaveAttribute(
      'href',
      '/wiki?space=company',
    );
    expect(
      screen.getByText(/^Updated .* by Ada Admin · revision 3 · 41 views$/),
    ).toBeInTheDocument();

    const contents = screen.getByRole('navigation', { name: 'Contents' });
    expect(within(contents).getByRole('link', { name: 'Tools' })).toHaveAttribute('href', '#tools');
    expect(within(contents).getByRole('link', { name: 'Cleaver' })).toHaveAttribute(
      'href',
      '#cleaver',
    );
    const body = screen.getByRole('article', { name: 'Splicing a 144-fibre cable' });
    expect(within(body).getByRole('heading', { level: 2, name: 'Tools' })).toHaveAttribute(
      'id',
      'tools',
    );
    expect(within(body).getByRole('link', { name: 'Splice trays' })).toHaveClass(
      'wiki-link-missing',
    );

    const under = screen.getByRole('region', { name: 'Pages under this one' });
    expect(within(under).getByRole('link', { name: 'Splice closures' })).toHaveAttribute(
      'href',
      '/wiki/pages/page-5',
    );
    const linked = screen.getByRole('region', { name: 'Linked from' });
    expect(within(linked).getByRole('link', { name: 'Manhole entry checklist' })).toBeVisible();

    // The space's tree opens on the way to this page and marks it.
    const tree = await screen.findByRole('navigation', { name: 'Pages of Fibre Co' });
    expect(within(tree).getByRole('link', { name: 'Splicing a 144-fibre cable' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    // A reader follows; what they may not do is not offered.
    expect(screen.getByRole('link', { name: 'History' })).toHaveAttribute(
      'href',
      '/wiki/pages/page-1/history',
    );
    for (const name of ['Edit', 'Move', 'Move to trash']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
      expect(screen.queryByRole('link', { name })).toBeNull();
    }
    expect(screen.getByText('2 followers')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Follow' }));
    expect(await screen.findByRole('button', { name: 'Unfollow' })).toBeVisible();
    expect(screen.getByText('3 followers')).toBeVisible();
    expect(fetch.callsTo('PUT /api/wiki/pages/page-1/follow')).toHaveLength(1);
    // Unfollowing answers 204: the page counts one follower fewer by itself.
    await user.click(screen.getByRole('button', { name: 'Unfollow' }));
    expect(await screen.findByRole('button', { name: 'Follow' })).toBeVisible();
    expect(screen.getByText('2 followers')).toBeVisible();
    expect(fetch.callsTo('DELETE /api/wiki/pages/page-1/follow')).toHaveLength(1);
    expect(fetch.callsTo('POST /api/wiki/pages/page-1/view')).toHaveLength(1);
  });

  it('opens links to other pages inside the app, and counts a view of each page opened', async () => {
    const fetch = signedInAs(student, {
      'GET /api/wiki/pages/page-1': { body: buildPage() },
      'GET /api/wiki/pages/page-2': {
        body: buildPage({ id: 'page-2', title: 'Reading an OTDR trace', html: '<p>Traces.</p>' }),
      },
      'GET /api/wiki/tree': { body: TREE },
      'POST /api/wiki/pages/page-1/view': { status: 204 },
      'POST /api/wiki/pages/page-2/view': { status: 204 },
    });
    const { user, router } = renderApp('/wiki/pages/page-1');
    const body = await screen.findByRole('article', { name: 'Splicing a 144-fibre cable' });
    await user.click(within(body).getByRole('link', { name: 'Reading an OTDR trace' }));
    await findHeading('Reading an OTDR trace');
    expect(router.state.location.pathname).toBe('/wiki/pages/page-2');
    expect(fetch.callsTo('POST /api/wiki/pages/page-2/view')).toHaveLength(1);
    expect(fetch.callsTo('POST /api/wiki/pages/page-1/view')).toHaveLength(1);
  });

  it('gives an editor Edit, and a manager Move and Move to trash', async () => {
    const fetch = signedInAs(admin, {
      'GET /api/wiki/pages/page-1': { body: buildPage({ can: ALL }) },
      'GET /api/wiki/tree': { body: TREE },
      'GET /api/wiki/spaces': {
        body: { ...listOf([{ ...COMPANY, can: { create: true, manage: true } }]) },
      },
      'POST /api/wiki/pages/page-1/view': { status: 204 },
      'POST /api/wiki/pages/page-1/move': { body: buildPage({ parentId: null, can: ALL }) },
      'DELETE /api/wiki/pages/page-1': { status: 204 },
      'GET /api/wiki/pages': { body: { items: [], total: 0, page: 1, pageSize: 10 } },
    });
    const { user, router } = renderApp('/wiki/pages/page-1');
    await findHeading('Splicing a 144-fibre cable');
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute(
      'href',
      '/wiki/pages/page-1/edit',
    );

    await user.click(screen.getByRole('button', { name: 'Move' }));
    const move = await screen.findByRole('dialog', { name: 'Move “Splicing a 144-fibre cable”' });
    await user.click(within(move).getByRole('combobox', { name: 'Parent page' }));
    await user.click(await screen.findByRole('option', { name: 'None (top level)' }));
    await user.click(within(move).getByRole('combobox', { name: 'Place' }));
    await user.click(await screen.findByRole('option', { name: 'After “Reading an OTDR trace”' }));
    await user.click(within(move).getByRole('button', { name: 'Move' }));
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/wiki/pages/page-1/move')[0]?.body).toEqual({
        space: 'company',
        parentId: null,
        position: 2,
      }),
    );
    expect(await screen.findByText('“Splicing a 144-fibre cable” was moved.')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Move to trash' }));
    const confirm = await screen.findByRole('dialog', { name: 'Move to trash' });
    await user.click(within(confirm).getByRole('button', { name: 'Move to trash' }));
    await waitFor(() => expect(router.state.location.search).toBe('?space=company'));
    expect(fetch.callsTo('DELETE /api/wiki/pages/page-1')).toHaveLength(1);
  });

  it('offers Restore and Delete for good on a page in the trash', async () => {
    const trashed = buildPage({ deletedAt: '2025-03-05T08:00:00.000Z', can: ALL });
    const fetch = signedInAs(admin, {
      'GET /api/wiki/pages/page-1': { body: trashed },
      'POST /api/wiki/pages/page-1/view': { status: 204 },
      'POST /api/wiki/pages/page-1/restore': { body: { ...trashed, deletedAt: null } },
    });
    const { user } = renderApp('/wiki/pages/page-1');
    expect(await screen.findByText('In the trash')).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Edit' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Delete for good' })).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Restore' }));
    expect(await screen.findByText('“Splicing a 144-fibre cable” was restored.')).toBeVisible();
    expect(fetch.callsTo('POST /api/wiki/pages/page-1/restore')).toHaveLength(1);
  });

  it('says so when the page does not exist or is hidden', async () => {
    signedInAs(student, {
      'GET /api/wiki/pages/page-x': {
        status: 404,
        body: { code: 'NOT_FOUND', message: 'This wiki page does not exist.' },
      },
      'POST /api/wiki/pages/page-x/view': { status: 404 },
    });
    renderApp('/wiki/pages/page-x');
    expect(await screen.findByRole('alert')).toHaveTextContent('This wiki page does not exist.');
  });
});

describe('wiki title links', () => {
  it('opens the page a title names in place of the link', async () => {
    const fetch = signedInAs(student, {
      'GET /api/wiki/resolve': { body: { id: 'page-2', title: 'Reading an OTDR trace' } },
      'GET /api/wiki/pages/page-2': {
        body: buildPage({ id: 'page-2', title: 'Reading an OTDR trace' }),
      },
      'GET /api/wiki/tree': { body: TREE },
      'POST /api/wiki/pages/page-2/view': { status: 204 },
    });
    const { router } = renderApp('/wiki/go?space=company&title=reading%20an%20otdr%20trace');
    await findHeading('Reading an OTDR trace');
    expect(router.state.location.pathname).toBe('/wiki/pages/page-2');
    expect(router.state.historyAction).toBe('REPLACE');
    expect(
      new URLSearchParams(fetch.callsTo('GET /api/wiki/resolve')[0]!.search).get('title'),
    ).toBe('reading an otdr trace');
  });

  it('offers to create a page that does not exist yet to those who may', async () => {
    signedInAs(instructor, {
      'GET /api/wiki/resolve': {
        status: 404,
        body: { code: 'NOT_FOUND', message: 'No page has this title.' },
      },
      'GET /api/wiki/spaces': {
        body: { ...listOf([{ ...COMPANY, can: { create: true, manage: false } }]) },
      },
    });
    renderApp('/wiki/go?space=company&title=Splice%20trays');
    await findHeading('Splice trays');
    expect(screen.getByText('“Splice trays” does not exist yet.')).toBeVisible();
    expect(await screen.findByRole('link', { name: 'Create this page' })).toHaveAttribute(
      'href',
      '/wiki/create?space=company&title=Splice+trays',
    );
  });

  it('offers a reader no creation', async () => {
    signedInAs(student, {
      'GET /api/wiki/resolve': {
        status: 404,
        body: { code: 'NOT_FOUND', message: 'No page has this title.' },
      },
      'GET /api/wiki/spaces': { body: { ...listOf([COMPANY]) } },
    });
    renderApp('/wiki/go?space=company&title=Splice%20trays');
    expect(await screen.findByText('“Splice trays” does not exist yet.')).toBeVisible();
    expect(screen.queryByRole('link', { name: 'Create this page' })).toBeNull();
  });
});
