import type { StoredFile } from '@learning-hub/core';
import { MantineProvider } from '@mantine/core';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useRef, useState } from 'react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { mockUploads } from '../../test/upload-mock';
import { RichTextEditor } from './rich-text-editor';
import { COMPACT_TOOLBAR_QUERY } from './rich-text-editor-impl';
import { RichTextView } from './rich-text-view';

// ProseMirror measures the selection; jsdom has no layout.
beforeAll(() => {
  const rect = { x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0 };
  const list = Object.assign([rect], { item: () => rect });
  Range.prototype.getBoundingClientRect = () => ({ ...rect, toJSON: () => rect });
  Range.prototype.getClientRects = () => list as unknown as DOMRectList;
  document.elementFromPoint = () => null;
});

function storedFile(overrides: Partial<StoredFile> = {}): StoredFile {
  return {
    id: 'file-1',
    name: 'splice.png',
    mime: 'image/png',
    size: 2048,
    sha256: 'a'.repeat(64),
    uploadedBy: 'user-instructor',
    createdAt: '2025-03-01T09:00:00.000Z',
    owner: null,
    attachedAt: null,
    hasThumbnail: true,
    ...overrides,
  };
}

function Harness({
  initial = '',
  onChange,
  onUploaded,
  disabled,
}: {
  initial?: string;
  onChange?(html: string): void;
  onUploaded?(file: StoredFile): void;
  disabled?: boolean;
}) {
  const [value, setValue] = useState(initial);
  return (
    <MantineProvider env="test">
      <RichTextEditor
        label="Lesson body"
        value={value}
        disabled={disabled}
        error={value.length > 200 ? 'Too long' : null}
        onUploaded={onUploaded}
        onChange={(html) => {
          setValue(html);
          onChange?.(html);
        }}
      />
      <output data-testid="html">{value}</output>
    </MantineProvider>
  );
}

/**
 * Types one key at a time, letting ProseMirror read each DOM change (its observer flushes on a
 * later task) before the next one; typed in one go, jsdom's selection and the editor's disagree.
 */
async function typeInEditor(user: ReturnType<typeof userEvent.setup>, text: string) {
  for (const key of text) {
    await user.keyboard(key);
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
}

const html = () => screen.getByTestId('html').textContent ?? '';

/**
 * A parent that renders the editor's value one change late (as a parent busy with fast typing
 * does): each render gives back the value before the newest one. A button sets a new document.
 */
function LaggingHarness({ onChange }: { onChange(html: string): void }) {
  const [value, setValue] = useState('');
  const seen = useRef<string[]>([]);
  return (
    <MantineProvider env="test">
      <RichTextEditor
        label="Lesson body"
        value={value}
        onChange={(next) => {
          seen.current.push(next);
          setValue(seen.current.at(-2) ?? next);
          onChange(next);
        }}
      />
      <button type="button" onClick={() => setValue('<p>Replaced</p>')}>
        Replace
      </button>
    </MantineProvider>
  );
}

describe('RichTextEditor', () => {
  it('is a labelled multi-line text box, and typing reports HTML', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<Harness onChange={onChange} />);
    const box = await screen.findByRole('textbox', { name: 'Lesson body' });
    expect(box).toHaveAttribute('aria-multiline', 'true');
    expect(box).toHaveAttribute('contenteditable', 'true');

    await user.click(box);
    await typeInEditor(user, 'Splice loss');
    await waitFor(() => expect(html()).toBe('<p>Splice loss</p>'));
    expect(onChange).toHaveBeenLastCalledWith('<p>Splice loss</p>');
  });

  it('keeps every typed character when the parent gives back an older value of its own', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<LaggingHarness onChange={onChange} />);
    const box = await screen.findByRole('textbox', { name: 'Lesson body' });
    await user.click(box);
    await typeInEditor(user, 'Fusion splice');
    expect(box).toHaveTextContent('Fusion splice');
    expect(onChange).toHaveBeenLastCalledWith('<p>Fusion splice</p>');

    // A value that is not the editor's own still replaces the document.
    await user.click(screen.getByRole('button', { name: 'Replace' }));
    await waitFor(() => expect(box).toHaveTextContent(/^Replaced$/));
  });

  it('shows a value given from outside, and empty is the empty string', async () => {
    const user = userEvent.setup();
    render(<Harness initial="<h2>Fusion</h2><p>Clean the fibre.</p>" />);
    const box = await screen.findByRole('textbox', { name: 'Lesson body' });
    expect(box.querySelector('h2')).toHaveTextContent('Fusion');
    await user.click(box);
    await user.keyboard('{Control>}a{/Control}{Backspace}');
    await waitFor(() => expect(html()).toBe(''));
  });

  it('formats with the toolbar: a heading of level 2 and bold text', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    const box = await screen.findByRole('textbox', { name: 'Lesson body' });
    await user.click(box);
    await user.click(screen.getByRole('button', { name: 'Heading 2' }));
    await typeInEditor(user, 'Safety');
    // (A paragraph always follows the last block, so there is a place to continue writing.)
    await waitFor(() => expect(html()).toMatch(/^<h2>Safety<\/h2>/));

    await user.keyboard('{Enter}');
    await user.click(screen.getByRole('button', { name: 'Bold' }));
    await typeInEditor(user, 'Never look');
    await waitFor(() =>
      expect(html()).toMatch(/^<h2>Safety<\/h2><p><strong>Never look<\/strong><\/p>/),
    );
    // Levels 1, 5 and 6 are not offered (the sanitiser keeps h2–h4).
    expect(screen.queryByRole('button', { name: 'Heading 1' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Heading 4' })).toBeInTheDocument();
  });

  it('keeps to one row on a phone: the rest of the controls are under "More formatting"', async () => {
    const phone = vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) =>
        ({
          matches: query === COMPACT_TOOLBAR_QUERY,
          media: query,
          onchange: null,
          addListener: () => undefined,
          removeListener: () => undefined,
          addEventListener: () => undefined,
          removeEventListener: () => undefined,
          dispatchEvent: () => false,
        }) as MediaQueryList,
    );
    try {
      const user = userEvent.setup();
      render(<Harness />);
      const box = await screen.findByRole('textbox', { name: 'Lesson body' });
      // The everyday controls stay; headings, tables and the rest wait behind one button.
      expect(screen.getByRole('button', { name: 'Bold' })).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Bullet list' })).toBeInTheDocument();
      expect(
        screen.getByRole('button', { name: 'Insert image, video or file' }),
      ).toBeInTheDocument();
      expect(screen.queryByRole('button', { name: 'Heading 2' })).not.toBeInTheDocument();
      const more = screen.getByRole('button', { name: 'More formatting' });
      expect(more).toHaveAttribute('aria-expanded', 'false');

      await user.click(box);
      await user.click(more);
      expect(more).toHaveAttribute('aria-expanded', 'true');
      await user.click(await screen.findByRole('button', { name: 'Heading 2' }));
      // The control hands the focus back to the text (the first key is not lost on the way).
      await waitFor(() => expect(box).toHaveFocus());
      await typeInEditor(user, 'Safety');
      await waitFor(() => expect(html()).toMatch(/^<h2>Safety<\/h2>/));
    } finally {
      phone.mockRestore();
    }
  });

  it('uploads a picked image with progress and inserts <img src="/api/files/<id>">', async () => {
    const user = userEvent.setup();
    const { uploads } = mockUploads();
    const onUploaded = vi.fn();
    render(<Harness onUploaded={onUploaded} />);
    const box = await screen.findByRole('textbox', { name: 'Lesson body' });
    await user.click(box);
    expect(screen.getByRole('button', { name: 'Insert image, video or file' })).toBeEnabled();

    const picked = new File(['png'], 'splice.png', { type: 'image/png' });
    await user.upload(screen.getByTestId('rich-text-file-input'), picked);
    await waitFor(() => expect(uploads).toHaveLength(1));
    expect(uploads[0]).toMatchObject({ method: 'POST', url: '/api/files', file: picked });
    uploads[0]!.progress(0.4);
    expect(await screen.findByText('Uploading splice.png… 40%')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Uploading splice.png' })).toBeInTheDocument();

    uploads[0]!.respond({ status: 201, body: storedFile() });
    await waitFor(() => expect(html()).toContain('<img src="/api/files/file-1" alt="splice.png">'));
    expect(screen.queryByText(/Uploading/)).not.toBeInTheDocument();
    expect(onUploaded).toHaveBeenCalledWith(expect.objectContaining({ id: 'file-1' }));
  });

  it('inserts a video as <video controls> and any other file as a link', async () => {
    const user = userEvent.setup();
    mockUploads((file) => ({
      status: 201,
      body:
        file.type === 'video/mp4'
          ? storedFile({ id: 'vid-1', name: 'demo.mp4', mime: 'video/mp4' })
          : storedFile({ id: 'pdf-1', name: 'datasheet.pdf', mime: 'application/pdf' }),
    }));
    render(<Harness />);
    const box = await screen.findByRole('textbox', { name: 'Lesson body' });
    await user.click(box);
    const input = screen.getByTestId('rich-text-file-input');
    await user.upload(input, new File(['v'], 'demo.mp4', { type: 'video/mp4' }));
    await waitFor(() =>
      expect(html()).toContain('<video controls="true" preload="metadata" src="/api/files/vid-1"'),
    );
    await user.upload(input, new File(['p'], 'datasheet.pdf', { type: 'application/pdf' }));
    await waitFor(() =>
      expect(html()).toMatch(/<a [^>]*href="\/api\/files\/pdf-1"[^>]*>datasheet\.pdf<\/a>/),
    );
  });

  it("shows the server's message when an upload is refused", async () => {
    const user = userEvent.setup();
    mockUploads(() => ({
      status: 413,
      body: { code: 'FILE_TOO_LARGE', message: 'The file is larger than 50 MB.' },
    }));
    render(<Harness />);
    await user.click(await screen.findByRole('textbox', { name: 'Lesson body' }));
    await user.upload(
      screen.getByTestId('rich-text-file-input'),
      new File(['x'], 'huge.mov', { type: 'video/quicktime' }),
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'huge.mov: The file is larger than 50 MB.',
    );
    expect(html()).toBe('');
  });

  it('is read-only when disabled', async () => {
    render(<Harness disabled initial="<p>Fixed</p>" />);
    const box = await screen.findByRole('textbox', { name: 'Lesson body' });
    await waitFor(() => expect(box).toHaveAttribute('contenteditable', 'false'));
    expect(box).toHaveAttribute('aria-readonly', 'true');
    expect(screen.getByRole('button', { name: 'Bold' })).toBeDisabled();
  });
});

describe('RichTextView', () => {
  it('renders the served HTML', () => {
    render(
      <MantineProvider env="test">
        <RichTextView html="<h2>Fusion</h2><table><tbody><tr><td>1 dB</td></tr></tbody></table>" />
      </MantineProvider>,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Fusion' })).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: '1 dB' })).toBeInTheDocument();
  });
});
