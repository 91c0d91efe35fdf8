/**
 * The one rich-text editor of the app (docs/adding-an-area.md "Rich text"). Tiptap, ProseMirror
 * and their toolbar weigh more than any page, so the editor is a chunk of its own, loaded when a
 * page first shows one (rich-text-editor-impl.tsx; docs/front-end.md): until it is there, the
 * field's label and an outline of its box hold the place, and the rest of the page is usable.
 * A page that always shows an editor calls `preloadRichTextEditor()` when it starts, so the
 * chunk loads alongside the page's data.
 */
import type { StoredFile } from '@learning-hub/core';
import { Box, Loader, Stack, Text } from '@mantine/core';
import { lazy, Suspense, type ComponentType } from 'react';

/** A page a page link may point at (the wiki's picker: docs/wiki.md). */
export interface PageLinkOption {
  /** The link's target (`/wiki/pages/<id>`). */
  href: string;
  title: string;
  /** Shown beside the title to tell pages of the same name apart (the space). */
  detail?: string;
}

/** Where the "Link to page" control finds pages, and how it links to one not written yet. */
export interface PageLinkSource {
  /** Pages whose title matches the text, best first. */
  search(text: string, signal: AbortSignal): Promise<PageLinkOption[]>;
  /** The link to a page with this title that does not exist yet, or null when there cannot be one. */
  newPageHref?(title: string): string | null;
}

export interface RichTextEditorProps {
  /** The document as HTML ('' for empty). */
  value: string;
  onChange(html: string): void;
  /** The accessible name of the editable area, shown as its label. */
  label: string;
  description?: string;
  error?: string | null;
  disabled?: boolean;
  /** Marks the field as required (an asterisk, aria-required). */
  required?: boolean;
  /** Called after a file was uploaded and inserted (e.g. to list a lesson's attachments). */
  onUploaded?(file: StoredFile): void;
  /** Minimum height of the editable area, CSS (default 12rem). */
  minHeight?: string;
  /** Checklists: lists of items with a box to tick (the wiki). */
  checklists?: boolean;
  /** Callouts: an info, tip, warning or danger box around blocks (the wiki). */
  callouts?: boolean;
  /** A "Link to page" control that searches pages by title (the wiki). */
  pageLinks?: PageLinkSource;
}

let loading: Promise<{ default: ComponentType<RichTextEditorProps> }> | undefined;

/** Starts loading the editor's code (once); resolves when it is there. */
export function preloadRichTextEditor() {
  loading ??= import('./rich-text-editor-impl');
  return loading;
}

const Editor = lazy(preloadRichTextEditor);

/** About one row of the toolbar: the outline below is close to the editor's size. */
const TOOLBAR_HEIGHT = '2.9rem';

function EditorPlaceholder({ label, required, description, minHeight }: RichTextEditorProps) {
  return (
    <Stack gap={4}>
      <Text component="span" size="sm" fw={500}>
        {label}
        {required && (
          <Text component="span" c="red" aria-hidden="true">
            {' *'}
          </Text>
        )}
      </Text>
      {description && (
        <Text size="xs" c="dimmed">
          {description}
        </Text>
      )}
      <Box
        role="status"
        aria-label={`Loading the editor for ${label}`}
        style={{
          minHeight: `calc(${minHeight ?? '12rem'} + ${TOOLBAR_HEIGHT})`,
          border: '1px solid var(--mantine-color-default-border)',
          borderRadius: 'var(--mantine-radius-default)',
          display: 'grid',
          placeItems: 'center',
        }}
      >
        <Loader size="sm" aria-hidden="true" />
      </Box>
    </Stack>
  );
}

/** A labelled rich-text field: toolbar, editable area, upload progress and errors. */
export function RichTextEditor(props: RichTextEditorProps) {
  return (
    <Suspense fallback={<EditorPlaceholder {...props} />}>
      <Editor {...props} />
    </Suspense>
  );
}
