import { screen, waitFor, within } from '@testing-library/react';
import { STALE_REVISION_MESSAGE } from '@learning-hub/core';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import { buildUser, listOf } from '../../../test/fixtures';
import { findHeading, renderApp, signedInAs } from '../../../test/render-app';
import { buildLibraryFile, buildLibraryItem, buildVersion, CATEGORIES } from '../testing';
import { pdfViewerLoader } from './file-preview';
import type { PdfViewerProps } from './pdf-viewer';

const student = buildUser({ role: 'student' });
const instructor = buildUser({ role: 'instructor' });
const admin = buildUser({ role: 'admin' });

const ALL = { edit: true, delete: true, restore: true, purge: true };

/** pdf.js does not run in jsdom: the viewer's chunk is replaced by a stand-in. */
function stubPdfViewer() {
  return vi.spyOn(pdfViewerLoader, 'load').mockResolvedValue({
    default: ({ url, httpHeaders }: PdfViewerProps) => (
      <p>{`PDF viewer: ${url}${httpHeaders?.Authorization ? ' with the token' : ''}`}</p>
    ),
  });
}

/**
 * Replaces URL.createObjectURL and revokeObjectURL for one test and puts jsdom's own back
 * afterwards (deleting them would leave Node's, which refuses jsdom's Blobs, to the next test
 * file of the worker: the rich-text editor's upload previews).
 */
function stubObjectUrls(createObjectURL: (blob: Blob) => string) {
  const original = {
    createObjectURL: Object.getOwnPropertyDescriptor(URL, 'createObjectURL'),
    revokeObjectURL: Object.getOwnPropertyDescriptor(URL, 'revokeObjectURL'),
  };
  Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
  onTestFinished(() => {
    for (const [name, descriptor] of Object.entries(original)) {
      if (descriptor) Object.defineProperty(URL, name, descriptor);
      else Reflect.deleteProperty(URL, name);
    }
  });
}

const versions = {
  ...listOf([
    buildVersion({
      id: 'v2',
      version: 2,
      current: true,
      file: buildLibraryFile({ fileId: 'file-2', name: 'splice-loss-v2.pdf', size: 3000 }),
      createdBy: { id: 'user-admin', name: 'Ada Admin' },
    }),
    buildVersion({ id: 'v1', version: 1, current: false }),
  ]),
};

describe('library item page', () => {
  it('shows the item, its PDF preview, description and versions, and counts a view once', async () => {
    const viewer = stubPdfViewer();
    const fetch = signedInAs(student, {
      'GET /api/library/items/item-1': { body: buildLibraryItem({ version: 2 }) },
      'GET /api/library/items/item-1/versions': { body: versions },
      'POST /api/library/items/item-1/view': { status: 204 },
    });
    renderApp('/library/item-1');
    await findHeading('Splice loss budget');
    expect(
      await screen.findByText('PDF viewer: /api/files/file-1 with the token'),
    ).toBeInTheDocument();
    expect(viewer).toHaveBeenCalledTimes(1);
    expect(screen.getByText('How much loss a splice may add.')).toBeInTheDocument();
    expect(screen.getByText('Procedures')).toBeInTheDocument();
    expect(screen.getByText('Everyone')).toBeInTheDocument();
    const details = screen.getByRole('region', { name: 'Details' });
    expect(within(details).getByText(/by Ines Instructor/)).toBeInTheDocument();
    expect(within(details).getByText('splice-loss.pdf (2.3 MB)')).toBeInTheDocument();
    const table = await screen.findByRole('table', { name: 'Versions' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('Current')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('splice-loss-v2.pdf')).toBeInTheDocument();
    expect(
      within(rows[1]!).getByRole('button', { name: 'Download version 1' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download' })).toBeInTheDocument();
    // No abilities: nothing to change.
    for (const name of ['Edit', 'Replace file', 'Move to trash', 'Restore', 'Delete for good']) {
      expect(screen.queryByRole('button', { name })).not.toBeInTheDocument();
    }
    await waitFor(() =>
      expect(fetch.callsTo('POST /api/library/items/item-1/view')).toHaveLength(1),
    );
  });

  it('downloads through the counting route and refreshes the counts', async () => {
    const createObjectURL = vi.fn(() => 'blob:download');
    stubObjectUrls(createObjectURL);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    stubPdfViewer();
    const fetch = signedInAs(student, {
      'GET /api/library/items/item-1': { body: buildLibraryItem({ version: 2 }) },
      'GET /api/library/items/item-1/versions': { body: versions },
      'POST /api/library/items/item-1/view': { status: 204 },
      'GET /api/library/items/item-1/download': { body: 'pdf bytes' },
    });
    const { user } = renderApp('/library/item-1');
    await user.click(await screen.findByRole('button', { name: 'Download' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const call = fetch.callsTo('GET /api/library/items/item-1/download')[0];
    expect(call?.headers.authorization).toBe(`Bearer token-${student.id}`);
    await waitFor(() => expect(fetch.callsTo('GET /api/library/items/item-1')).toHaveLength(2));

    await user.click(screen.getByRole('button', { name: 'Download version 1' }));
    await waitFor(() =>
      expect(fetch.callsTo('GET /api/library/items/item-1/download')[1]?.search).toBe('?version=1'),
    );
  });

  it('says when the text is being extracted or could not be', async () => {
    stubPdfViewer();
    signedInAs(student, {
      'GET /api/library/items/item-1': {
        body: buildLibraryItem({ textState: 'failed', textError: 'the PDF is encrypted' }),
      },
      'GET /api/library/items/item-2': {
        body: buildLibraryItem({ id: 'item-2', textState: 'pending' }),
      },
      'GET /api/library/items/item-1/versions': { body: versions },
      'GET /api/library/items/item-2/versions': { body: versions },
      'POST /api/library/items/item-1/view': { status: 204 },
      'POST /api/library/items/item-2/view': { status: 204 },
    });
    const { router } = renderApp('/library/item-1');
    expect(await screen.findByText(/Text not extracted: the PDF is encrypted/)).toBeInTheDocument();
    await router.navigate('/library/item-2');
    expect(await screen.findByText(/Extracting text…/)).toBeInTheDocument();
  });

  it('plays a video and shows an image from their signed URLs, and opens a link outside', async () => {
    signedInAs(student, {
      'GET /api/library/items/video': {
        body: buildLibraryItem({
          id: 'video',
          kind: 'video',
          title: 'Cleaving a fibre',
          file: buildLibraryFile({
            mime: 'video/mp4',
            name: 'cleave.mp4',
            url: '/api/files/file-1?exp=1&sid=s&sig=x',
          }),
        }),
      },
      'GET /api/library/items/image': {
        body: buildLibraryItem({
          id: 'image',
          kind: 'image',
          title: 'Splice tray',
          file: buildLibraryFile({
            mime: 'image/png',
            name: 'tray.png',
            url: '/api/files/file-1?exp=1&sid=s&sig=y',
          }),
        }),
      },
      'GET /api/library/items/link': {
        body: buildLibraryItem({
          id: 'link',
          kind: 'link',
          title: 'ITU-T G.652',
          file: null,
          url: 'https://www.itu.int/rec/T-REC-G.652',
        }),
      },
      'GET /api/library/items/video/versions': { body: versions },
      'GET /api/library/items/image/versions': { body: versions },
      'POST /api/library/items/video/view': { status: 204 },
      'POST /api/library/items/image/view': { status: 204 },
      'POST /api/library/items/link/view': { status: 204 },
    });
    const { router } = renderApp('/library/video');
    await findHeading('Cleaving a fibre');
    const video = document.querySelector('video');
    expect(video).toHaveAttribute('src', '/api/files/file-1?exp=1&sid=s&sig=x');
    expect(video).toHaveAttribute('controls');

    await router.navigate('/library/image');
    expect(await screen.findByRole('img', { name: 'Splice tray' })).toHaveAttribute(
      'src',
      '/api/files/file-1?exp=1&sid=s&sig=y',
    );

    await router.navigate('/library/link');
    const open = await screen.findByRole('link', { name: 'Open link' });
    expect(open).toHaveAttribute('href', 'https://www.itu.int/rec/T-REC-G.652');
    expect(open).toHaveAttribute('target', '_blank');
    expect(open.getAttribute('rel')).toContain('noopener');
    expect(screen.queryByRole('button', { name: 'Download' })).not.toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Versions' })).not.toBeInTheDocument();
  });

  it('without a signed URL, fetches an image with the token and offers a video as a download', async () => {
    const createObjectURL = vi.fn(() => 'blob:tray');
    stubObjectUrls(createObjectURL);
    const fetch = signedInAs(student, {
      'GET /api/library/items/image': {
        body: buildLibraryItem({
          id: 'image',
          kind: 'image',
          title: 'Splice tray',
          file: buildLibraryFile({ fileId: 'file-7', mime: 'image/png', name: 'tray.png' }),
        }),
      },
      'GET /api/library/items/video': {
        body: buildLibraryItem({
          id: 'video',
          kind: 'video',
          title: 'Cleaving a fibre',
          file: buildLibraryFile({ mime: 'video/mp4', name: 'cleave.mp4' }),
        }),
      },
      'GET /api/files/file-7': { body: 'png bytes' },
      'GET /api/library/items/image/versions': { body: versions },
      'GET /api/library/items/video/versions': { body: versions },
      'POST /api/library/items/image/view': { status: 204 },
      'POST /api/library/items/video/view': { status: 204 },
    });
    const { router } = renderApp('/library/image');
    expect(await screen.findByRole('img', { name: 'Splice tray' })).toHaveAttribute(
      'src',
      'blob:tray',
    );
    expect(fetch.callsTo('GET /api/files/file-7')[0]?.headers.authorization).toBe(
      `Bearer token-${student.id}`,
    );
    await router.navigate('/library/video');
    expect(
      await screen.findByText('This file cannot be played here. Download it to play it.'),
    ).toBeInTheDocument();
    expect(document.querySelector('video')).toBeNull();
  });

  it('edits an item: title, tags, category and description', async () => {
    stubPdfViewer();
    const item = buildLibraryItem({ can: { ...ALL, purge: false } });
    const fetch = signedInAs(instructor, {
      'GET /api/library/items/item-1': { body: item },
      'GET /api/library/items/item-1/versions': { body: versions },
      'POST /api/library/items/item-1/view': { status: 204 },
      'GET /api/library/categories': { body: CATEGORIES },
      'PATCH /api/library/items/item-1': (request) => ({
        body: { ...item, ...(request.body as object) },
      }),
    });
    const { user } = renderApp('/library/item-1');
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit item' });
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Enter the title')).toBeInTheDocument();
    await user.type(title, 'Splice loss budget (2025)');
    await user.click(within(dialog).getByRole('combobox', { name: 'Category' }));
    await user.click(await screen.findByRole('option', { name: 'Safety' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('PATCH /api/library/items/item-1')).toHaveLength(1));
    expect(fetch.callsTo('PATCH /api/library/items/item-1')[0]?.body).toEqual({
      title: 'Splice loss budget (2025)',
      descriptionHtml: '<p>How much loss a splice may add.</p>',
      tags: ['fibre', 'splicing'],
      categoryId: 'cat-2',
      scope: { type: 'everyone' },
      revision: 2,
    });
    expect(await findHeading('Splice loss budget (2025)')).toBeInTheDocument();
  });

  it('says in the form when someone else changed the item, keeps what was typed, and reloads', async () => {
    stubPdfViewer();
    const item = buildLibraryItem({ can: { ...ALL, purge: false } });
    const theirs = { ...item, title: 'Splice loss budget (their edit)', revision: 3 };
    const fetch = signedInAs(instructor, {
      'GET /api/library/items/item-1': { body: item },
      'GET /api/library/items/item-1/versions': { body: versions },
      'POST /api/library/items/item-1/view': { status: 204 },
      'GET /api/library/categories': { body: CATEGORIES },
      'PATCH /api/library/items/item-1': {
        status: 409,
        body: { code: 'CONFLICT', message: STALE_REVISION_MESSAGE },
      },
    });
    const { user } = renderApp('/library/item-1');
    await user.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit item' });
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.type(title, 'My title');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Someone else changed this');
    expect(alert).toHaveTextContent(STALE_REVISION_MESSAGE);
    expect(alert).toHaveTextContent('Your changes are still here, unsaved.');
    // Sent at the revision read; nothing typed is lost, and the dialog stays open.
    expect(fetch.callsTo('PATCH /api/library/items/item-1')[0]?.body).toMatchObject({
      title: 'My title',
      revision: 2,
    });
    expect(within(dialog).getByRole('textbox', { name: 'Title' })).toHaveValue('My title');

    // Reload fills the form with their version, at their revision; the next save sends it.
    fetch.set({
      'GET /api/library/items/item-1': { body: theirs },
      'PATCH /api/library/items/item-1': (request) => ({
        body: { ...theirs, ...(request.body as object), revision: 4 },
      }),
    });
    await user.click(within(alert).getByRole('button', { name: 'Reload' }));
    await waitFor(() =>
      expect(within(dialog).getByRole('textbox', { name: 'Title' })).toHaveValue(
        'Splice loss budget (their edit)',
      ),
    );
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), ' and mine');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(fetch.callsTo('PATCH /api/library/items/item-1')).toHaveLength(2));
    expect(fetch.callsTo('PATCH /api/library/items/item-1')[1]?.body).toMatchObject({
      title: 'Splice loss budget (their edit) and mine',
      revision: 3,
    });
    expect(await findHeading('Splice loss budget (their edit) and mine')).toBeInTheDocument();
  });

  it('moves an item to the trash after confirming, then offers restore and delete for good', async () => {
    stubPdfViewer();
    const item = buildLibraryItem({ can: ALL });
    const trashed = {
      ...item,
      deletedAt: '2025-03-05T08:00:00.000Z',
      deletedBy: { id: 'user-admin', name: 'Ada Admin' },
    };
    // The server's item as it is: DELETE answers 204 and the page reads it again.
    let current = item;
    const fetch = signedInAs(admin, {
      'GET /api/library/items/item-1': () => ({ body: current }),
      'GET /api/library/items/item-1/versions': { body: versions },
      'POST /api/library/items/item-1/view': { status: 204 },
      'DELETE /api/library/items/item-1': () => {
        current = trashed;
        return { status: 204 };
      },
      'POST /api/library/items/item-1/restore': () => {
        current = item;
        return { body: item };
      },
      'DELETE /api/library/trash/item-1': { status: 204 },
      'GET /api/library/items': {
        body: { items: [], total: 0, page: 1, pageSize: 20, canUpload: true, canManage: true },
      },
      'GET /api/library/categories': { body: CATEGORIES },
    });
    const { user, router } = renderApp('/library/item-1');
    await user.click(await screen.findByRole('button', { name: 'Move to trash' }));
    const confirm = await screen.findByRole('dialog', { name: 'Move to trash' });
    await user.click(within(confirm).getByRole('button', { name: 'Move to trash' }));
    expect(await screen.findByText(/Moved to the trash .* by Ada Admin/)).toBeInTheDocument();
    expect(fetch.callsTo('DELETE /api/library/items/item-1')).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Edit' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Restore' }));
    await waitFor(() => expect(screen.queryByText(/Moved to the trash/)).not.toBeInTheDocument());
    expect(fetch.callsTo('POST /api/library/items/item-1/restore')).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Move to trash' }));
    await user.click(
      within(await screen.findByRole('dialog', { name: 'Move to trash' })).getByRole('button', {
        name: 'Move to trash',
      }),
    );
    await user.click(await screen.findByRole('button', { name: 'Delete for good' }));
    const purge = await screen.findByRole('dialog', { name: 'Delete for good' });
    await user.click(within(purge).getByRole('button', { name: 'Delete for good' }));
    await waitFor(() => expect(fetch.callsTo('DELETE /api/library/trash/item-1')).toHaveLength(1));
    await waitFor(() => expect(router.state.location.search).toBe('?trash=true'));
  });

  it('replaces the file with a new version, showing the progress', async () => {
    stubPdfViewer();
    const { libraryUploader } = await import('../api/uploader');
    let finish: (id: string) => void = () => undefined;
    let report: ((fraction: number) => void) | undefined;
    vi.spyOn(libraryUploader, 'upload').mockImplementation(
      (_file, options = {}) =>
        new Promise<string>((resolve) => {
          finish = resolve;
          report = options.onProgress;
        }),
    );
    const item = buildLibraryItem({ can: { ...ALL, purge: false } });
    const fetch = signedInAs(instructor, {
      'GET /api/library/items/item-1': { body: item },
      'GET /api/library/items/item-1/versions': { body: versions },
      'POST /api/library/items/item-1/view': { status: 204 },
      'PATCH /api/library/items/item-1': { body: { ...item, version: 2 } },
    });
    const { user } = renderApp('/library/item-1');
    await user.click(await screen.findByRole('button', { name: 'Replace file' }));
    const dialog = await screen.findByRole('dialog', { name: 'Replace file' });
    const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(input, new File(['%PDF'], 'splice-loss-v2.pdf', { type: 'application/pdf' }));
    await user.click(within(dialog).getByRole('button', { name: 'Upload new version' }));
    await waitFor(() => expect(report).toBeDefined());
    report?.(0.4);
    expect(
      await within(dialog).findByRole('progressbar', { name: 'Uploading splice-loss-v2.pdf' }),
    ).toHaveAttribute('aria-valuenow', '40');
    finish('file-new');
    await waitFor(() => expect(fetch.callsTo('PATCH /api/library/items/item-1')).toHaveLength(1));
    expect(fetch.callsTo('PATCH /api/library/items/item-1')[0]?.body).toEqual({
      fileId: 'file-new',
      revision: 2,
    });
    expect(
      await screen.findByText('Version 2 of “Splice loss budget” is now the current one.'),
    ).toBeInTheDocument();
  });

  it('sends a reader without access back with the reason', async () => {
    signedInAs(student, {
      'GET /api/library/items/item-9': {
        status: 403,
        body: { code: 'FORBIDDEN', message: 'Only the members of Safety can see this item.' },
      },
      'POST /api/library/items/item-9/view': { status: 204 },
      'GET /api/library/items': {
        body: { items: [], total: 0, page: 1, pageSize: 20, canUpload: false, canManage: false },
      },
      'GET /api/library/categories': { body: CATEGORIES },
    });
    renderApp('/library/item-9');
    expect(
      await screen.findByText(
        'You do not have access to this library item: Only the members of Safety can see this item.',
      ),
    ).toBeInTheDocument();
  });
});
