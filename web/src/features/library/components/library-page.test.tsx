import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { MockRequest } from '../../../test/fetch-mock';
import { buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { buildLibraryFile, buildLibraryItem, buildLibraryList, CATEGORIES } from '../testing';

const student = buildUser({ role: 'student' });
const instructor = buildUser({ role: 'instructor' });
const admin = buildUser({ role: 'admin' });

const video = buildLibraryItem({
  id: 'item-2',
  kind: 'video',
  title: 'Cleaving a fibre',
  tags: ['video'],
  category: null,
  scope: { type: 'department', departmentId: 'network-engineering' },
  scopeLabel: 'Network Engineering',
  file: buildLibraryFile({
    fileId: 'file-2',
    name: 'cleave.mp4',
    mime: 'video/mp4',
    size: 52_428_800,
  }),
});

const lastQuery = (fetch: { callsTo(key: string): MockRequest[] }) =>
  new URLSearchParams(fetch.callsTo('GET /api/library/items').at(-1)?.search ?? '');

describe('library list', () => {
  it('lists items with their kind, tags, category, scope and size; a student gets no tools', async () => {
    signedInAs(student, {
      'GET /api/library/items': { body: buildLibraryList([buildLibraryItem(), video]) },
      'GET /api/library/categories': { body: CATEGORIES },
    });
    renderApp('/library');
    await findHeading('Library');
    const table = await screen.findByRole('table', { name: 'Library items' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByRole('link', { name: 'Splice loss budget' })).toHaveAttribute(
      'href',
      '/library/item-1',
    );
    expect(within(rows[0]!).getByRole('img', { name: 'Document' })).toBeInTheDocument();
    expect(within(rows[0]!).getByText('fibre')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Procedures')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('Everyone')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('2.3 MB')).toBeInTheDocument();
    expect(within(rows[1]!).getByRole('img', { name: 'Video' })).toBeInTheDocument();
    expect(within(rows[1]!).getByText('Department: Network Engineering')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('50 MB')).toBeInTheDocument();
    expect(screen.getByText('2 items')).toBeInTheDocument();

    for (const name of ['Upload files', 'Add link', 'Trash', 'Categories']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
  });

  it('offers uploading and the trash to an uploader, and categories to a manager', async () => {
    signedInAs(instructor, {
      'GET /api/library/items': { body: buildLibraryList([video], { canUpload: true }) },
      'GET /api/library/categories': { body: CATEGORIES },
    });
    renderApp('/library');
    expect(await screen.findByRole('button', { name: 'Upload files' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Add link' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Trash' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Categories' })).not.toBeInTheDocument();
  });

  it('keeps the search, filters and sort in the URL and asks the server with them', async () => {
    const fetch = signedInAs(student, {
      'GET /api/library/items': { body: buildLibraryList([buildLibraryItem()]) },
      'GET /api/library/categories': { body: CATEGORIES },
      'GET /api/departments': {
        body: {
          ...listOf([
            {
              id: 'network-engineering',
              name: 'Network Engineering',
              description: '',
              memberCount: 3,
              revision: 1,
            },
          ]),
        },
      },
      'GET /api/courses': { body: { items: [], total: 0, page: 1, pageSize: 100 } },
    });
    const { user, router } = renderApp('/library');
    await screen.findByRole('table', { name: 'Library items' });
    expect(lastQuery(fetch).get('sort')).toBe('updated');
    expect(lastQuery(fetch).get('order')).toBe('desc');

    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'splice');
    await waitFor(() => expect(lastQuery(fetch).get('search')).toBe('splice'));
    expect(router.state.location.search).toContain('search=splice');

    await user.click(screen.getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Video' }));
    await waitFor(() => expect(lastQuery(fetch).get('kind')).toBe('video'));

    await user.click(screen.getByRole('combobox', { name: 'Category' }));
    await user.click(await screen.findByRole('option', { name: 'Safety' }));
    await waitFor(() => expect(lastQuery(fetch).get('categoryId')).toBe('cat-2'));

    await user.type(screen.getByRole('textbox', { name: 'Tag' }), 'otdr');
    await waitFor(() => expect(lastQuery(fetch).get('tag')).toBe('otdr'));

    await user.click(screen.getByRole('combobox', { name: 'Shared with' }));
    await user.click(await screen.findByRole('option', { name: 'Departments' }));
    await waitFor(() => expect(lastQuery(fetch).get('scope')).toBe('department'));
    await user.click(screen.getByRole('combobox', { name: 'Department' }));
    await user.click(await screen.findByRole('option', { name: 'Network Engineering' }));
    await waitFor(() => expect(lastQuery(fetch).get('departmentId')).toBe('network-engineering'));

    await user.click(screen.getByRole('combobox', { name: 'Shared with' }));
    await user.click(await screen.findByRole('option', { name: 'Courses' }));
    await waitFor(() => expect(lastQuery(fetch).get('scope')).toBe('course'));
    expect(lastQuery(fetch).has('departmentId')).toBe(false);

    await user.click(screen.getByRole('checkbox', { name: 'Added by me' }));
    await waitFor(() => expect(lastQuery(fetch).get('mine')).toBe('true'));

    await user.click(screen.getByRole('combobox', { name: 'Sort by' }));
    await user.click(await screen.findByRole('option', { name: 'Title (A–Z)' }));
    await waitFor(() => expect(lastQuery(fetch).get('sort')).toBe('title'));
    expect(lastQuery(fetch).get('order')).toBe('asc');
    expect(router.state.location.search).toContain('kind=video');
    expect(router.state.location.search).toContain('mine=true');
  });

  it('says what to do when the library is empty, and when nothing matches', async () => {
    const fetch = signedInAs(instructor, {
      'GET /api/library/items': (request) => ({
        body: buildLibraryList([], {
          canUpload: !new URLSearchParams(request.search).has('kind'),
        }),
      }),
      'GET /api/library/categories': { body: CATEGORIES },
    });
    const { user } = renderApp('/library?kind=audio');
    expect(await screen.findByText('No items match these filters.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear the filters' }));
    await waitFor(() => expect(lastQuery(fetch).has('kind')).toBe(false));
    expect(
      await screen.findByText(/The library is empty\. Upload documents, videos, audio or images/),
    ).toBeInTheDocument();
  });

  it('tells a reader without items where items will come from', async () => {
    signedInAs(student, {
      'GET /api/library/items': { body: buildLibraryList([]) },
      'GET /api/library/categories': { body: CATEGORIES },
    });
    renderApp('/library');
    expect(
      await screen.findByText(/There is nothing in the library for you yet/),
    ).toBeInTheDocument();
  });

  it('shows the server’s message when the list cannot be loaded', async () => {
    signedInAs(student, {
      'GET /api/library/items': {
        status: 500,
        body: { code: 'INTERNAL_ERROR', message: 'The library is not reachable right now.' },
      },
      'GET /api/library/categories': { body: CATEGORIES },
    });
    renderApp('/library');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The library is not reachable right now.',
    );
  });
});

describe('library trash', () => {
  const trashed = buildLibraryItem({
    deletedAt: '2025-03-05T08:00:00.000Z',
    deletedBy: { id: 'user-instructor', name: 'Ines Instructor' },
  });

  it('restores an item; an uploader may not delete for good or empty the trash', async () => {
    const fetch = signedInAs(instructor, {
      'GET /api/library/items': { body: buildLibraryList([trashed], { canUpload: true }) },
      'GET /api/library/categories': { body: CATEGORIES },
      'POST /api/library/items/item-1/restore': { body: { ...trashed, deletedAt: null } },
    });
    const { user } = renderApp('/library?trash=true');
    await findHeading('Library trash');
    const table = await screen.findByRole('table', { name: 'Items in the trash' });
    expect(lastQuery(fetch).get('trash')).toBe('true');
    expect(screen.queryByRole('button', { name: 'Empty trash' })).not.toBeInTheDocument();
    expect(
      within(table).queryByRole('button', { name: 'Delete Splice loss budget for good' }),
    ).not.toBeInTheDocument();
    const before = fetch.callsTo('GET /api/library/items').length;
    await user.click(within(table).getByRole('button', { name: 'Restore Splice loss budget' }));
    expect(await screen.findByText('“Splice loss budget” was restored.')).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/library/items/item-1/restore')).toHaveLength(1);
    await waitFor(() =>
      expect(fetch.callsTo('GET /api/library/items').length).toBeGreaterThan(before),
    );
  });

  it('lets a manager delete one item for good and empty the trash, after confirming', async () => {
    const fetch = signedInAs(admin, {
      'GET /api/library/items': {
        body: buildLibraryList([trashed], { canUpload: true, canManage: true }),
      },
      'GET /api/library/categories': { body: CATEGORIES },
      'DELETE /api/library/trash/item-1': { status: 204 },
      'DELETE /api/library/trash': { status: 204 },
    });
    const { user } = renderApp('/library?trash=true');
    const table = await screen.findByRole('table', { name: 'Items in the trash' });
    await user.click(
      within(table).getByRole('button', { name: 'Delete Splice loss budget for good' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'Delete for good' });
    expect(confirm).toHaveTextContent('This cannot be undone.');
    await user.click(within(confirm).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(fetch.callsTo('DELETE /api/library/trash/item-1')).toHaveLength(1));

    await user.click(screen.getByRole('button', { name: 'Empty trash' }));
    const emptying = await screen.findByRole('dialog', { name: 'Empty trash' });
    await user.click(within(emptying).getByRole('button', { name: 'Delete everything for good' }));
    expect(await screen.findByText('The trash was emptied.')).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/library/trash')).toHaveLength(1);
  });
});

describe('library categories', () => {
  it('adds, renames and deletes categories and shows the server’s refusal', async () => {
    const fetch = signedInAs(admin, {
      'GET /api/library/items': {
        body: buildLibraryList([], { canUpload: true, canManage: true }),
      },
      'GET /api/library/categories': { body: CATEGORIES },
      'POST /api/library/categories': (request) =>
        (request.body as { name: string }).name === 'Safety'
          ? {
              status: 409,
              body: { code: 'CONFLICT', message: 'A category with this name already exists.' },
            }
          : { status: 201, body: { id: 'cat-3', name: 'Videos', itemCount: 0 } },
      'PATCH /api/library/categories/cat-1': {
        body: { id: 'cat-1', name: 'How-to', itemCount: 4 },
      },
      'DELETE /api/library/categories/cat-2': { status: 204 },
    });
    const { user } = renderApp('/library');
    await user.click(await screen.findByRole('button', { name: 'Categories' }));
    const dialog = await screen.findByRole('dialog', { name: 'Categories' });
    const list = await within(dialog).findByRole('list', { name: 'Categories' });
    expect(within(list).getByText('Procedures')).toBeInTheDocument();

    const input = within(dialog).getByRole('textbox', { name: 'New category' });
    await user.type(input, 'Safety');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    expect(
      await within(dialog).findByText('A category with this name already exists.'),
    ).toBeInTheDocument();

    await user.clear(input);
    await user.type(input, 'Videos');
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    await waitFor(() => expect(input).toHaveValue(''));
    expect(fetch.callsTo('POST /api/library/categories').at(-1)?.body).toEqual({ name: 'Videos' });

    await user.click(within(dialog).getByRole('button', { name: 'Rename Procedures' }));
    const rename = within(dialog).getByRole('textbox', { name: 'New name of Procedures' });
    await user.clear(rename);
    await user.type(rename, 'How-to');
    await user.click(within(dialog).getByRole('button', { name: 'Save name' }));
    await waitFor(() =>
      expect(fetch.callsTo('PATCH /api/library/categories/cat-1')[0]?.body).toEqual({
        name: 'How-to',
      }),
    );

    await user.click(within(dialog).getByRole('button', { name: 'Delete Safety' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete category' });
    expect(confirm).toHaveTextContent('Its 1 item stays in the library without a category.');
    await user.click(within(confirm).getByRole('button', { name: 'Delete category' }));
    await waitFor(() =>
      expect(fetch.callsTo('DELETE /api/library/categories/cat-2')).toHaveLength(1),
    );
  });
});

describe('library link dialog', () => {
  it('checks the address, then adds the link and opens its page', async () => {
    const created = buildLibraryItem({
      id: 'item-7',
      kind: 'link',
      title: 'ITU-T G.652',
      file: null,
      url: 'https://www.itu.int/rec/T-REC-G.652',
    });
    const fetch = signedInAs(instructor, {
      'GET /api/library/items': { body: buildLibraryList([], { canUpload: true }) },
      'GET /api/library/categories': { body: CATEGORIES },
      'POST /api/library/items': { status: 201, body: created },
      'GET /api/library/items/item-7': { body: created },
      'POST /api/library/items/item-7/view': { status: 204 },
    });
    const { user, router } = renderApp('/library');
    await user.click(await screen.findByRole('button', { name: 'Add link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add link' });
    await user.click(within(dialog).getByRole('button', { name: 'Add link' }));
    expect(within(dialog).getByText('Enter the title')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter the web address')).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'ITU-T G.652');
    const address = within(dialog).getByRole('textbox', { name: 'Web address' });
    await user.type(address, 'ftp://itu.int/g652');
    await user.click(within(dialog).getByRole('button', { name: 'Add link' }));
    expect(
      within(dialog).getByText('Enter a web address starting with http:// or https://'),
    ).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/library/items')).toHaveLength(0);

    await user.clear(address);
    await user.type(address, 'https://www.itu.int/rec/T-REC-G.652');
    await user.click(within(dialog).getByRole('button', { name: 'Add link' }));
    await findHeading('ITU-T G.652');
    expect(router.state.location.pathname).toBe('/library/item-7');
    expect(fetch.callsTo('POST /api/library/items')[0]?.body).toMatchObject({
      title: 'ITU-T G.652',
      url: 'https://www.itu.int/rec/T-REC-G.652',
      scope: { type: 'everyone' },
      tags: [],
      categoryId: null,
    });
  });

  it('refuses a user name in the address itself, and shows the server’s refusal of a host', async () => {
    const message =
      '“127.0.0.1” is not a public address: links may not go to this server, its network or other internal addresses. An admin can allow internal hosts under Admin → System.';
    const fetch = signedInAs(instructor, {
      'GET /api/library/items': { body: buildLibraryList([], { canUpload: true }) },
      'GET /api/library/categories': { body: CATEGORIES },
      'POST /api/library/items': { status: 400, body: { code: 'VALIDATION_ERROR', message } },
    });
    const { user } = renderApp('/library');
    await user.click(await screen.findByRole('button', { name: 'Add link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add link' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Admin');
    const address = within(dialog).getByRole('textbox', { name: 'Web address' });
    await user.type(address, 'https://127.0.0.1@evil.example/');
    await user.click(within(dialog).getByRole('button', { name: 'Add link' }));
    expect(
      within(dialog).getByText(
        'A web address cannot carry a user name or password (user:password@…).',
      ),
    ).toBeInTheDocument();
    expect(fetch.callsTo('POST /api/library/items')).toHaveLength(0);

    await user.clear(address);
    await user.type(address, 'http://2130706433/');
    await user.click(within(dialog).getByRole('button', { name: 'Add link' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(message);
  });
});
