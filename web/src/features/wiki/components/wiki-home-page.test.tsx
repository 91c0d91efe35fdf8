import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MockRequest } from '../../../test/fetch-mock';
import { buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { buildList, buildPage, buildSpace, buildTree, NETWORK_SPACE } from '../testing';

const student = buildUser({ role: 'student' });
const instructor = buildUser({ role: 'instructor' });
const admin = buildUser({ role: 'admin' });

const COMPANY = buildSpace();
const splicing = buildPage();
const draft = buildPage({ id: 'page-7', title: 'Aerial cable hangers', status: 'draft' });
const TREE = buildTree(COMPANY, [
  { id: 'page-root', title: 'Procedures' },
  { id: 'page-1', title: 'Splicing a 144-fibre cable', parentId: 'page-root' },
  { id: 'page-2', title: 'Reading an OTDR trace' },
]);

const query = (request: MockRequest) => new URLSearchParams(request.search);

/** GET /api/wiki/pages answering each of the home's lists by its filter. */
function listRoute(lists: { drafts?: (typeof draft)[]; following?: (typeof draft)[] } = {}) {
  return (request: MockRequest) => {
    const q = query(request);
    if (q.get('status') === 'draft') return { body: buildList(lists.drafts ?? []) };
    if (q.get('following') === 'true') return { body: buildList(lists.following ?? []) };
    if (q.get('trash') === 'true') return { body: buildList([]) };
    return { body: buildList([splicing]) };
  };
}

describe('wiki home', () => {
  it('shows the spaces, the chosen space as a tree, recent changes and followed pages; a reader gets no tools', async () => {
    const fetch = signedInAs(student, {
      'GET /api/wiki/spaces': { body: { ...listOf([COMPANY, NETWORK_SPACE]) } },
      'GET /api/wiki/tree': (request) =>
        query(request).get('space') === 'company'
          ? { body: TREE }
          : { body: buildTree(NETWORK_SPACE, [{ id: 'page-8', title: 'Core routers' }]) },
      'GET /api/wiki/pages': listRoute({ following: [splicing] }),
    });
    const { user, router } = renderApp('/wiki');
    await findHeading('Wiki');
    const spaces = await screen.findByRole('navigation', { name: 'Spaces' });
    expect(within(spaces).getByRole('link', { name: /Fibre Co/ })).toHaveAttribute(
      'aria-current',
      'true',
    );

    const tree = await screen.findByRole('navigation', { name: 'Pages of Fibre Co' });
    expect(within(tree).getByRole('link', { name: 'Reading an OTDR trace' })).toHaveAttribute(
      'href',
      '/wiki/pages/page-2',
    );
    // Branches start closed; the button opens one.
    expect(within(tree).queryByRole('link', { name: 'Splicing a 144-fibre cable' })).toBeNull();
    const toggle = within(tree).getByRole('button', { name: 'Expand Procedures' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(within(tree).getByRole('link', { name: 'Splicing a 144-fibre cable' })).toBeVisible();
    expect(within(tree).getByRole('button', { name: 'Collapse Procedures' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );

    const recent = await screen.findByRole('list', { name: 'Recent changes' });
    expect(within(recent).getByRole('link', { name: 'Splicing a 144-fibre cable' })).toBeVisible();
    expect(within(recent).getByText(/Fibre Co · updated .* by Ada Admin/)).toBeVisible();
    const recentQuery = query(
      fetch.callsTo('GET /api/wiki/pages').find((c) => query(c).get('space') === 'company')!,
    );
    expect(recentQuery.get('sort')).toBe('updated');
    expect(await screen.findByRole('list', { name: 'Following' })).toBeVisible();
    // A reader without drafts sees no drafts section.
    expect(screen.queryByRole('heading', { name: 'My drafts' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'New page' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Trash' })).not.toBeInTheDocument();

    await user.click(within(spaces).getByRole('link', { name: /Network Engineering/ }));
    expect(
      await screen.findByRole('navigation', { name: 'Pages of Network Engineering' }),
    ).toBeVisible();
    expect(router.state.location.search).toBe('?space=department:network-engineering');
  });

  it('searches every space from the search box, keeping the words in the URL', async () => {
    const fetch = signedInAs(student, {
      'GET /api/wiki/spaces': { body: { ...listOf([COMPANY]) } },
      'GET /api/wiki/tree': { body: TREE },
      'GET /api/wiki/pages': (request) =>
        query(request).get('search') === 'otdr'
          ? { body: buildList([buildPage({ id: 'page-2', title: 'Reading an OTDR trace' })]) }
          : listRoute()(request),
    });
    const { user, router } = renderApp('/wiki');
    await screen.findByRole('navigation', { name: 'Pages of Fibre Co' });
    await user.type(screen.getByRole('textbox', { name: 'Search the wiki' }), 'otdr');
    const results = await screen.findByRole('list', { name: 'Search results' });
    expect(within(results).getByRole('link', { name: 'Reading an OTDR trace' })).toBeVisible();
    expect(screen.getByText('1 page found')).toBeVisible();
    expect(router.state.location.search).toContain('search=otdr');
    const asked = fetch.callsTo('GET /api/wiki/pages').find((c) => query(c).has('search'))!;
    expect(query(asked).has('space')).toBe(false);
    // The space's tree gives way to the results.
    expect(screen.queryByRole('navigation', { name: 'Pages of Fibre Co' })).toBeNull();
  });

  it('offers a new page in a space where an instructor may create, and lists their drafts', async () => {
    signedInAs(instructor, {
      'GET /api/wiki/spaces': {
        body: { ...listOf([COMPANY, { ...NETWORK_SPACE, can: { create: true, manage: false } }]) },
      },
      'GET /api/wiki/tree': { body: TREE },
      'GET /api/wiki/pages': listRoute({ drafts: [draft] }),
    });
    renderApp('/wiki');
    const create = await screen.findByRole('link', { name: 'New page' });
    // Fibre Co (shown) does not let them create: the new page goes to the space that does.
    expect(create).toHaveAttribute('href', '/wiki/create?space=department:network-engineering');
    const drafts = await screen.findByRole('list', { name: 'My drafts' });
    expect(within(drafts).getByText('Draft')).toBeVisible();
    expect(within(drafts).getByRole('link', { name: 'Aerial cable hangers' })).toBeVisible();
    // Instructors may not move pages to the trash (wiki.delete).
    expect(screen.queryByRole('button', { name: 'Trash' })).not.toBeInTheDocument();
  });
});

describe('wiki access', () => {
  it('sends someone the server refuses the wiki to the start page, saying why', async () => {
    signedInAs(student, {
      'GET /api/wiki/spaces': {
        status: 403,
        body: { code: 'FORBIDDEN', message: 'Missing required permission: wiki.view' },
      },
    });
    const { router } = renderApp('/wiki');
    expect(
      await screen.findByText(
        'You do not have access to the wiki: Missing required permission: wiki.view',
      ),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('wiki trash', () => {
  const trashed = buildPage({ deletedAt: '2025-03-05T08:00:00.000Z' });

  it('restores a page, deletes one for good and empties the trash, for a manager', async () => {
    const fetch = signedInAs(admin, {
      'GET /api/wiki/spaces': {
        body: { ...listOf([{ ...COMPANY, can: { create: true, manage: true } }]) },
      },
      'GET /api/wiki/pages': (request) =>
        query(request).get('trash') === 'true'
          ? { body: buildList([trashed]) }
          : listRoute()(request),
      'GET /api/wiki/tree': { body: TREE },
      'POST /api/wiki/pages/page-1/restore': { body: { ...trashed, deletedAt: null } },
      'DELETE /api/wiki/trash/page-1': { status: 204 },
      'DELETE /api/wiki/trash': { status: 204 },
    });
    const { user } = renderApp('/wiki');
    await user.click(await screen.findByRole('button', { name: 'Trash' }));
    await findHeading('Wiki trash');
    const table = await screen.findByRole('table', { name: 'Pages in the trash' });

    await user.click(
      within(table).getByRole('button', { name: 'Restore Splicing a 144-fibre cable' }),
    );
    expect(await screen.findByText('“Splicing a 144-fibre cable” was restored.')).toBeVisible();
    expect(fetch.callsTo('POST /api/wiki/pages/page-1/restore')).toHaveLength(1);

    await user.click(
      within(table).getByRole('button', { name: 'Delete Splicing a 144-fibre cable for good' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Delete for good' });
    expect(confirm).toHaveTextContent('This cannot be undone.');
    await user.click(within(confirm).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(fetch.callsTo('DELETE /api/wiki/trash/page-1')).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Empty trash' }));
    const emptying = await screen.findByRole('dialog', { name: 'Empty trash' });
    await user.click(within(emptying).getByRole('button', { name: 'Delete everything for good' }));
    expect(await screen.findByText('The trash was emptied.')).toBeVisible();
    expect(fetch.callsTo('DELETE /api/wiki/trash')).toHaveLength(1);
  });

  it('offers only Restore where the reader manages no space', async () => {
    signedInAs(instructor, {
      'GET /api/wiki/spaces': { body: { ...listOf([COMPANY]) } },
      'GET /api/wiki/pages': { body: buildList([trashed]) },
    });
    renderApp('/wiki?trash=true');
    const table = await screen.findByRole('table', { name: 'Pages in the trash' });
    expect(
      within(table).getByRole('button', { name: 'Restore Splicing a 144-fibre cable' }),
    ).toBeVisible();
    expect(within(table).queryByRole('button', { name: /for good/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Empty trash' })).toBeNull();
  });
});
