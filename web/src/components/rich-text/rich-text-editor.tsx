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
