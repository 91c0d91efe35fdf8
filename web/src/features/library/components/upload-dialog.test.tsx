import { AppError } from '@learning-hub/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { MockRequest } from '../../../test/fetch-mock';
import { buildUser, listOf } from '../../../test/fixtures';
import { renderApp, signedInAs } from '../../../test/render-app';
import { libraryUploader, type UploadProgressOptions } from '../api/uploader';
import { buildLibraryItem, buildLibraryList, CATEGORIES } from '../testing';

const instructor = buildUser({ role: 'instructor' });

function routes(created: MockRequest[] = []) {
  return {
    'GET /api/library/items': { body: buildLibraryList([], { canUpload: true }) },
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
    'POST /api/library/items': (request: MockRequest) => {
      created.push(request);
      const body = request.body as { title: string };
      return {
        status: 201,
        body: buildLibraryItem({ id: `item-${created.length}`, title: body.title }),
      };
    },
  };
}

async function openDialog() {
  const view = renderApp('/library');
  await view.user.click(await screen.findByRole('button', { name: 'Upload files' }));
  const dialog = await screen.findByRole('dialog', { name: 'Upload files' });
  const input = dialog.querySelector('input[type="file"]') as HTMLInputElement;
  const drop = (...files: File[]) => fireEvent.change(input, { target: { files } });
  return { ...view, dialog, drop };
}

describe('library upload dialog', () => {
  it('uploads several files, each with its own row and title, and adds each as an item', async () => {
    const created: MockRequest[] = [];
    const fetch = signedInAs(instructor, routes(created));
    const pending = new Map<
      string,
      { resolve(id: string): void; options: UploadProgressOptions }
    >();
    vi.spyOn(libraryUploader, 'upload').mockImplementation(
      (file: File, options: UploadProgressOptions = {}) =>
        new Promise<string>((resolve) => {
          pending.set(file.name, { resolve, options });
        }),
    );
    const { user, dialog, drop } = await openDialog();
    drop(
      new File(['%PDF-1.7'], 'Splice loss budget.pdf', { type: 'application/pdf' }),
      new File(['RIFF'], 'cleave.final.mp4', { type: 'video/mp4' }),
    );
    const rows = await within(dialog).findAllByRole('listitem');
    expect(rows).toHaveLength(2);
    expect(
      within(dialog).getByRole('textbox', { name: 'Title of Splice loss budget.pdf' }),
    ).toHaveValue('Splice loss budget');
    const second = within(dialog).getByRole('textbox', { name: 'Title of cleave.final.mp4' });
    expect(second).toHaveValue('cleave.final');
    await user.clear(second);
    await user.type(second, 'Cleaving a fibre');

    // Shared fields of the batch.
    await user.click(within(dialog).getByRole('combobox', { name: 'Category' }));
    await user.click(await screen.findByRole('option', { name: 'Procedures' }));
    await user.type(within(dialog).getByRole('combobox', { name: /^Tags/ }), 'fibre{enter}');

    await user.click(within(dialog).getByRole('button', { name: 'Upload 2 files' }));
    await waitFor(() => expect(pending.size).toBe(2));
    pending.get('Splice loss budget.pdf')!.options.onProgress?.(0.5);
    expect(
      await within(dialog).findByRole('progressbar', { name: 'Uploading Splice loss budget.pdf' }),
    ).toHaveAttribute('aria-valuenow', '50');

    pending.get('Splice loss budget.pdf')!.resolve('file-a');
    pending.get('cleave.final.mp4')!.resolve('file-b');
    await waitFor(() => expect(created).toHaveLength(2));
    expect(created.map((c) => c.body)).toEqual(
      expect.arrayContaining([
        {
          title: 'Splice loss budget',
          fileId: 'file-a',
          scope: { type: 'everyone' },
          tags: ['fibre'],
          categoryId: 'cat-1',
        },
        {
          title: 'Cleaving a fibre',
          fileId: 'file-b',
          scope: { type: 'everyone' },
          tags: ['fibre'],
          categoryId: 'cat-1',
        },
      ]),
    );
    expect(
      await within(dialog).findByText('2 files were added to the library.'),
    ).toBeInTheDocument();
    expect(within(dialog).getAllByText('Added')).toHaveLength(2);
    // The list behind the dialog asks again.
    await waitFor(() => expect(fetch.callsTo('GET /api/library/items').length).toBeGreaterThan(1));
  });

  it("shows the server's refusal under the file, and retries it", async () => {
    const created: MockRequest[] = [];
    signedInAs(instructor, routes(created));
    let tries = 0;
    vi.spyOn(libraryUploader, 'upload').mockImplementation(async (file: File) => {
      if (file.name === 'empty.txt' && (tries += 1) === 1) {
        throw new AppError('VALIDATION_ERROR', 'The file is empty.');
      }
      return `file-${file.name}`;
    });
    const { user, dialog, drop } = await openDialog();
    drop(new File([''], 'empty.txt', { type: 'text/plain' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Upload' }));
    const row = await within(dialog).findByRole('listitem', { name: 'empty.txt' });
    expect(await within(row).findByRole('alert')).toHaveTextContent('The file is empty.');
    expect(within(row).getByText('Failed')).toBeInTheDocument();
    expect(created).toHaveLength(0);

    await user.click(within(row).getByRole('button', { name: 'Retry empty.txt' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(await within(row).findByText('Added')).toBeInTheDocument();
  });

  it('shows why an item could not be created after its upload (a type, a quota)', async () => {
    signedInAs(instructor, {
      ...routes(),
      'POST /api/library/items': {
        status: 413,
        body: { code: 'PAYLOAD_TOO_LARGE', message: 'Your library quota of 2 GB is used up.' },
      },
    });
    vi.spyOn(libraryUploader, 'upload').mockResolvedValue('file-z');
    const { user, dialog, drop } = await openDialog();
    drop(new File(['x'], 'big.mp4', { type: 'video/mp4' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Upload' }));
    const row = await within(dialog).findByRole('listitem', { name: 'big.mp4' });
    expect(await within(row).findByRole('alert')).toHaveTextContent(
      'Your library quota of 2 GB is used up.',
    );
  });

  it('sends three files at a time; the others wait their turn and can be cancelled', async () => {
    const created: MockRequest[] = [];
    signedInAs(instructor, routes(created));
    const pending = new Map<string, (id: string) => void>();
    const upload = vi.spyOn(libraryUploader, 'upload').mockImplementation(
      (file: File) =>
        new Promise<string>((resolve) => {
          pending.set(file.name, resolve);
        }),
    );
    const { user, dialog, drop } = await openDialog();
    drop(...['a', 'b', 'c', 'd', 'e'].map((n) => new File(['x'], `${n}.pdf`)));
    await user.click(await within(dialog).findByRole('button', { name: 'Upload 5 files' }));
    await waitFor(() => expect(upload).toHaveBeenCalledTimes(3));
    const e = within(dialog).getByRole('listitem', { name: 'e.pdf' });
    expect(within(e).getByText('Waiting')).toBeInTheDocument();
    await user.click(within(e).getByRole('button', { name: 'Cancel e.pdf' }));
    expect(await within(e).findByText('Cancelled')).toBeInTheDocument();

    pending.get('a.pdf')!('file-a');
    await waitFor(() => expect(upload).toHaveBeenCalledTimes(4));
    pending.get('b.pdf')!('file-b');
    pending.get('c.pdf')!('file-c');
    pending.get('d.pdf')!('file-d');
    await waitFor(() => expect(created).toHaveLength(4));
    expect(upload).toHaveBeenCalledTimes(4);
  });

  it('cancels an upload', async () => {
    signedInAs(instructor, routes());
    vi.spyOn(libraryUploader, 'upload').mockImplementation(
      (_file: File, options: UploadProgressOptions = {}) =>
        new Promise<string>((_resolve, reject) => {
          options.signal?.addEventListener('abort', () =>
            reject(new DOMException('The upload was cancelled.', 'AbortError')),
          );
        }),
    );
    const { user, dialog, drop } = await openDialog();
    drop(new File(['x'], 'slow.pdf', { type: 'application/pdf' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Upload' }));
    const row = await within(dialog).findByRole('listitem', { name: 'slow.pdf' });
    await user.click(await within(row).findByRole('button', { name: 'Cancel slow.pdf' }));
    expect(await within(row).findByText('Cancelled')).toBeInTheDocument();
    expect(within(row).getByRole('button', { name: 'Retry slow.pdf' })).toBeInTheDocument();
  });

  it('asks before closing while files upload; stopping aborts them', async () => {
    signedInAs(instructor, routes());
    const signals: AbortSignal[] = [];
    vi.spyOn(libraryUploader, 'upload').mockImplementation(
      (_file: File, options: UploadProgressOptions = {}) =>
        new Promise<string>((_resolve, reject) => {
          if (options.signal) signals.push(options.signal);
          options.signal?.addEventListener('abort', () =>
            reject(new DOMException('The upload was cancelled.', 'AbortError')),
          );
        }),
    );
    const { user, dialog, drop } = await openDialog();
    drop(new File(['x'], 'field-video.mp4', { type: 'video/mp4' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(signals).toHaveLength(1));

    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    const ask = await within(dialog).findByRole('alert');
    expect(ask).toHaveTextContent('Stop the uploads?');
    await user.click(within(ask).getByRole('button', { name: 'Keep uploading' }));
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(signals[0]?.aborted).toBe(false);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(
      within(await within(dialog).findByRole('alert')).getByRole('button', {
        name: 'Stop and close',
      }),
    );
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Upload files' })).not.toBeInTheDocument(),
    );
    expect(signals[0]?.aborted).toBe(true);
  });

  it('asks for the department of a department-scoped batch before uploading', async () => {
    const created: MockRequest[] = [];
    signedInAs(instructor, routes(created));
    const upload = vi.spyOn(libraryUploader, 'upload').mockResolvedValue('file-d');
    const { user, dialog, drop } = await openDialog();
    drop(new File(['x'], 'rota.pdf', { type: 'application/pdf' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Who can see it' }));
    await user.click(await screen.findByRole('option', { name: 'A department' }));
    await user.click(await within(dialog).findByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByText('Choose the department')).toBeInTheDocument();
    expect(upload).not.toHaveBeenCalled();

    await user.click(within(dialog).getByRole('combobox', { name: 'Department' }));
    await user.click(await screen.findByRole('option', { name: 'Network Engineering' }));
    await user.click(within(dialog).getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect(created[0]?.body).toMatchObject({
      scope: { type: 'department', departmentId: 'network-engineering' },
    });
  });
});
