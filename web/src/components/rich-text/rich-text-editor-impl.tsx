/**
 * The one rich-text editor of the app (MantineRte Tiptap), loaded through rich-text-editor.tsx
 * as a chunk of its own (docs/front-end.md). It produces the HTML the server's allow-list keeps
 * (docs/adding-an-area.md "Rich text"): headings h2–h4, marks, lists, quotes, code blocks, links,
 * tables, and images, video and file links from the app's own storage (`/api/files/<id>`,
 * uploaded here through `uploadFile`); with the wiki's props also checklists, callouts and links
 * to pages (wiki-extensions.ts, page-link-control.tsx). The server sanitises whatever it is sent;
 * this component only keeps to what survives.
 */
import type { StoredFile } from '@learning-hub/core';
import {
  ActionIcon,
  Alert,
  Box,
  CloseButton,
  Group,
  Popover,
  Progress,
  Stack,
  Text,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { Link, RichTextEditor as MantineRte } from '@mantine/tiptap';
import { IconDots, IconPaperclip } from '@tabler/icons-react';
import { TableKit } from '@tiptap/extension-table';
import { useEditor, type Editor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useId, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { uploadFile } from '../../lib/upload';
import { CalloutControl } from './callout-control';
import { EditorImage, rememberPreview, Video } from './media-extensions';
import { PageLinkControl } from './page-link-control';
import { Callout, CHECKLIST_EXTENSIONS } from './wiki-extensions';
import '@mantine/tiptap/styles.css';
import './rich-text.css';
import type { RichTextEditorProps } from './rich-text-editor';

/** The download route of a stored file, as the stored HTML names it. */
export function fileUrl(fileId: string): string {
  return `/api/files/${encodeURIComponent(fileId)}`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Inserts an uploaded file where the cursor is: an image, a video, or a link named after it. */
export function insertUploadedFile(editor: Editor, file: StoredFile): void {
  const src = fileUrl(file.id);
  const chain = editor.chain().focus();
  if (file.mime.startsWith('image/')) chain.setImage({ src, alt: file.name }).run();
  else if (file.mime.startsWith('video/')) chain.setVideo({ src, title: file.name }).run();
  else chain.insertContent(`<a href="${escapeHtml(src)}">${escapeHtml(file.name)}</a> `).run();
}

/** Below this width the toolbar keeps to one row (a phone, or a narrow column). */
export const COMPACT_TOOLBAR_QUERY = '(max-width: 36em)';

function MarkControls({ compact }: { compact: boolean }) {
  return (
    <MantineRte.ControlsGroup>
      <MantineRte.Bold />
      <MantineRte.Italic />
      {!compact && (
        <>
          <MantineRte.Underline />
          <MantineRte.Strikethrough />
          <MantineRte.Code />
        </>
      )}
    </MantineRte.ControlsGroup>
  );
}

/** Controls a phone finds behind "More formatting". */
function SecondaryControls({ compact, blocks }: { compact: boolean; blocks: ReactNode }) {
  return (
    <>
      {compact && (
        <MantineRte.ControlsGroup>
          <MantineRte.Underline />
          <MantineRte.Strikethrough />
          <MantineRte.Code />
        </MantineRte.ControlsGroup>
      )}
      <MantineRte.ControlsGroup>
        <MantineRte.H2 />
        <MantineRte.H3 />
        <MantineRte.H4 />
      </MantineRte.ControlsGroup>
      <MantineRte.ControlsGroup>
        {!compact && (
          <>
            <MantineRte.BulletList />
            <MantineRte.OrderedList />
          </>
        )}
        <MantineRte.Blockquote />
        <MantineRte.CodeBlock />
        {blocks}
      </MantineRte.ControlsGroup>
      <MantineRte.ControlsGroup>
        {!compact && <MantineRte.Link />}
        <MantineRte.Unlink />
      </MantineRte.ControlsGroup>
      <MantineRte.ControlsGroup>
        <MantineRte.TableInsert maxColumns={6} maxRows={6} />
        <MantineRte.TableRowAfter />
        <MantineRte.TableColumnAfter />
        <MantineRte.TableDelete />
      </MantineRte.ControlsGroup>
    </>
  );
}

/**
 * The toolbar's controls. On a wide screen every group is shown (wrapping as needed); on a phone
 * one row: bold, italic, lists, link, upload, undo, and "More formatting" opening the rest, so the
 * toolbar never pushes the form's buttons off the screen.
 */
function EditorControls({
  compact,
  upload,
  blocks,
  pageLink,
  disabled,
}: {
  compact: boolean;
  upload: ReactNode;
  /** The block controls a feature adds (checklists, callouts). */
  blocks: ReactNode;
  /** The "Link to page" control, when the editor has one. */
  pageLink: ReactNode;
  disabled: boolean;
}) {
  const [more, setMore] = useState(false);
  const undo = (
    <MantineRte.ControlsGroup>
      <MantineRte.Undo />
      <MantineRte.Redo />
    </MantineRte.ControlsGroup>
  );
  if (!compact) {
    return (
      <>
        <MarkControls compact={false} />
        <SecondaryControls compact={false} blocks={blocks} />
        {pageLink && <MantineRte.ControlsGroup>{pageLink}</MantineRte.ControlsGroup>}
        <MantineRte.ControlsGroup>{upload}</MantineRte.ControlsGroup>
        {undo}
      </>
    );
  }
  return (
    <>
      <MarkControls compact />
      <MantineRte.ControlsGroup>
        <MantineRte.BulletList />
        <MantineRte.OrderedList />
        <MantineRte.Link />
        {pageLink}
      </MantineRte.ControlsGroup>
      <MantineRte.ControlsGroup>{upload}</MantineRte.ControlsGroup>
      <Popover opened={more} onChange={setMore} position="bottom-end" withinPortal={false}>
        <Popover.Target>
          <ActionIcon
            variant="default"
            size={26}
            aria-label="More formatting"
            aria-expanded={more}
            disabled={disabled}
            onClick={() => setMore((open) => !open)}
          >
            <IconDots size={16} stroke={1.5} aria-hidden="true" />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown p="xs" maw="calc(100vw - 2rem)">
          <Group gap="xs">
            <SecondaryControls compact blocks={blocks} />
            {undo}
          </Group>
        </Popover.Dropdown>
      </Popover>
    </>
  );
}

/** The HTML of the editor, '' when it holds nothing (an empty paragraph is not content). */
function htmlOf(editor: Editor): string {
  return editor.isEmpty ? '' : editor.getHTML();
}

interface UploadState {
  name: string;
  fraction: number;
}

function UploadControl({
  editor,
  disabled,
  onUploaded,
  onState,
  onError,
}: {
  editor: Editor | null;
  disabled: boolean;
  onUploaded?(file: StoredFile): void;
  onState(state: UploadState | null): void;
  onError(message: string | null): void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const busy = useRef(false);

  const upload = async (file: File) => {
    if (!editor || busy.current) return;
    busy.current = true;
    onError(null);
    onState({ name: file.name, fraction: 0 });
    try {
      const stored = await uploadFile(file, {
        onProgress: (fraction) => onState({ name: file.name, fraction }),
      });
      rememberPreview(fileUrl(stored.id), file);
      insertUploadedFile(editor, stored);
      onUploaded?.(stored);
    } catch (error) {
      onError(
        error instanceof Error && error.message
          ? `${file.name}: ${error.message}`
          : `${file.name} could not be uploaded.`,
      );
    } finally {
      busy.current = false;
      onState(null);
    }
  };

  return (
    <>
      <MantineRte.Control
        aria-label="Insert image, video or file"
        title="Insert image, video or file"
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        <IconPaperclip size={16} stroke={1.5} aria-hidden="true" />
      </MantineRte.Control>
      <input
        ref={input}
        type="file"
        hidden
        tabIndex={-1}
        aria-hidden="true"
        data-testid="rich-text-file-input"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (file) void upload(file);
        }}
      />
    </>
  );
}

/** A labelled rich-text field: toolbar, editable area, upload progress and errors. */
export default function RichTextEditor({
  value,
  onChange,
  label,
  description,
  error,
  disabled = false,
  required = false,
  onUploaded,
  minHeight = '12rem',
  checklists = false,
  callouts = false,
  pageLinks,
}: RichTextEditorProps) {
  const id = useId();
  const labelId = `${id}-label`;
  const descriptionId = `${id}-description`;
  const errorId = `${id}-error`;
  const [upload, setUpload] = useState<UploadState | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const onChangeRef = useRef(onChange);
  useEffect(() => {
    onChangeRef.current = onChange;
  }, [onChange]);
  // What the editor itself reported since the parent last caught up: a `value` among these is an
  // echo of typing (possibly already overtaken by more keystrokes), never a new document.
  const emitted = useRef<string[]>([]);

  const describedBy =
    [description ? descriptionId : null, error ? errorId : null].filter(Boolean).join(' ') ||
    undefined;

  const editor = useEditor({
    extensions: [
      StarterKit.configure({ heading: { levels: [2, 3, 4] }, link: false }),
      Link.configure({ openOnClick: false }),
      EditorImage,
      Video,
      TableKit.configure({ table: { resizable: false } }),
      // The wiki's extras: read once, when the editor is made (a page does not switch them).
      ...(checklists ? CHECKLIST_EXTENSIONS : []),
      ...(callouts ? [Callout] : []),
    ],
    content: value,
    editable: !disabled,
    shouldRerenderOnTransaction: false,
    onUpdate: ({ editor: changed }) => {
      const html = htmlOf(changed);
      emitted.current.push(html);
      if (emitted.current.length > 200) emitted.current.shift();
      onChangeRef.current(html);
    },
  });

  // The editable area's name and state, kept in step with the props.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    editor.setOptions({
      editorProps: {
        attributes: {
          role: 'textbox',
          'aria-multiline': 'true',
          'aria-labelledby': labelId,
          ...(describedBy ? { 'aria-describedby': describedBy } : {}),
          ...(error ? { 'aria-invalid': 'true' } : {}),
          ...(required ? { 'aria-required': 'true' } : {}),
          ...(disabled ? { 'aria-readonly': 'true', 'aria-disabled': 'true' } : {}),
        },
      },
    });
    editor.setEditable(!disabled, false);
  }, [editor, labelId, describedBy, error, required, disabled]);

  // A value set from outside (a loaded lesson, a reset form) replaces the document. The parent
  // may render an older value of the editor's own while more is typed (fast typing): setting that
  // back would drop the newer characters, so the editor's own values are never set back.
  useEffect(() => {
    if (!editor || editor.isDestroyed) return;
    if (value === htmlOf(editor)) {
      emitted.current = [];
      return;
    }
    if (emitted.current.includes(value)) return;
    emitted.current = [];
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  const controlsDisabled = disabled || !editor;
  // On a phone the toolbar is one row: the everyday controls, and the rest behind "More formatting".
  const compact = useMediaQuery(COMPACT_TOOLBAR_QUERY) ?? false;

  return (
    <Stack gap={4}>
      <Text component="span" id={labelId} size="sm" fw={500}>
        {label}
        {required && (
          <Text component="span" c="red" aria-hidden="true">
            {' *'}
          </Text>
        )}
      </Text>
      {description && (
        <Text id={descriptionId} size="xs" c="dimmed">
          {description}
        </Text>
      )}
      <MantineRte
        editor={editor}
        style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}
      >
        <MantineRte.Toolbar sticky stickyOffset="var(--app-shell-header-offset, 0rem)">
          <fieldset
            disabled={controlsDisabled}
            style={{ display: 'contents', border: 0, margin: 0, padding: 0 }}
          >
            <EditorControls
              compact={compact}
              upload={
                <UploadControl
                  editor={editor}
                  disabled={controlsDisabled || upload !== null}
                  onUploaded={onUploaded}
                  onState={setUpload}
                  onError={setUploadError}
                />
              }
              blocks={
                checklists || callouts ? (
                  <>
                    {checklists && <MantineRte.TaskList aria-label="Checklist" title="Checklist" />}
                    {callouts && <CalloutControl editor={editor} />}
                  </>
                ) : null
              }
              pageLink={pageLinks ? <PageLinkControl editor={editor} source={pageLinks} /> : null}
              disabled={controlsDisabled}
            />
          </fieldset>
        </MantineRte.Toolbar>
        <Box style={{ '--rte-min-height': minHeight } as CSSProperties}>
          <MantineRte.Content className="rich-text-editor-content" />
        </Box>
      </MantineRte>
      {upload && (
        <Stack gap={2} aria-live="polite">
          <Text size="xs">{`Uploading ${upload.name}… ${Math.round(upload.fraction * 100)}%`}</Text>
          <Progress
            value={upload.fraction * 100}
            size="sm"
            aria-label={`Uploading ${upload.name}`}
          />
        </Stack>
      )}
      {uploadError && (
        <Alert color="red" role="alert" p="xs">
          <Group justify="space-between" wrap="nowrap" gap="xs">
            <Text size="sm">{uploadError}</Text>
            <CloseButton
              size="sm"
              aria-label="Dismiss upload error"
              onClick={() => setUploadError(null)}
            />
          </Group>
        </Alert>
      )}
      {error && (
        <Text id={errorId} size="xs" c="red">
          {error}
        </Text>
      )}
    </Stack>
  );
}
