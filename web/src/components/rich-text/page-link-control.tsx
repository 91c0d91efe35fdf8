/**
 * The editor's "Link to page" control (the wiki, docs/wiki.md): a dialog that searches pages by
 * title and links the selection (or inserts the page's title as a link) to the one chosen; a
 * title no page has yet is offered as a link to a new page (`newPageHref`), which the wiki
 * resolves when it is followed.
 */
import { Alert, Button, Group, Loader, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { RichTextEditor as MantineRte } from '@mantine/tiptap';
import { IconFileSymlink, IconPlus } from '@tabler/icons-react';
import type { Editor } from '@tiptap/react';
import { useEffect, useState } from 'react';
import { FormModal, FormStack } from '../form-modal';
import type { PageLinkOption, PageLinkSource } from './rich-text-editor';

/** Links the selection to `href`, or inserts `text` linked to it where the cursor is. */
export function linkSelection(editor: Editor, href: string, text: string): void {
  const { empty } = editor.state.selection;
  if (!empty || editor.isActive('link')) {
    editor.chain().focus().extendMarkRange('link').setLink({ href }).run();
    return;
  }
  editor
    .chain()
    .focus()
    .insertContent([
      { type: 'text', text, marks: [{ type: 'link', attrs: { href } }] },
      { type: 'text', text: ' ' },
    ])
    .run();
}

/** The answer to one search: the pages found, or why none could be. */
type Answer = { text: string; options: PageLinkOption[] } | { text: string; failed: string };

function PageLinkDialog({
  opened,
  initial,
  source,
  onClose,
  onPick,
}: {
  opened: boolean;
  initial: string;
  source: PageLinkSource;
  onClose(): void;
  onPick(href: string, title: string): void;
}) {
  const [text, setText] = useState(initial);
  const [query] = useDebouncedValue(text.trim(), 250);
  const [answer, setAnswer] = useState<Answer | null>(null);

  useEffect(() => {
    if (!opened || !query) return;
    const controller = new AbortController();
    source.search(query, controller.signal).then(
      (options) => setAnswer({ text: query, options }),
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setAnswer({
          text: query,
          failed: error instanceof Error ? error.message : 'The search failed',
        });
      },
    );
    return () => controller.abort();
  }, [opened, query, source]);

  // Only the answer to what the field says now counts.
  const current = query !== '' && answer?.text === query ? answer : null;
  const loading = query !== '' && current === null;
  const options = current && 'options' in current ? current.options : [];
  const failed = current && 'failed' in current ? current.failed : null;
  const title = text.trim();
  const exact = options.some((o) => o.title.toLowerCase() === title.toLowerCase());
  const newHref =
    current && !failed && current.text === title && !exact
      ? (source.newPageHref?.(title) ?? null)
      : null;

  return (
    <FormModal opened={opened} onClose={onClose} title="Link to page">
      <FormStack
        gap="sm"
        onSubmit={() => {
          const first = options[0];
          if (first) onPick(first.href, first.title);
          else if (newHref) onPick(newHref, title);
        }}
      >
        <TextInput
          label="Page title"
          description="Type part of a page's title, then choose the page."
          value={text}
          data-autofocus
          onChange={(event) => setText(event.currentTarget.value)}
          rightSection={loading ? <Loader size="xs" aria-label="Searching" /> : null}
        />
        {failed && (
          <Alert color="red" role="alert">
            {failed}
          </Alert>
        )}
        {current && !failed && options.length === 0 && !newHref && (
          <Text size="sm" c="dimmed">
            No page has a title like this.
          </Text>
        )}
        {options.length > 0 && (
          <Stack component="ul" gap={4} aria-label="Matching pages" p={0} m={0}>
            {options.map((option) => (
              <li key={option.href} style={{ listStyle: 'none' }}>
                <Button
                  variant="subtle"
                  fullWidth
                  justify="flex-start"
                  h="auto"
                  py={6}
                  styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
                  onClick={() => onPick(option.href, option.title)}
                >
                  <span>
                    {option.title}
                    {option.detail && (
                      <Text component="span" size="xs" c="dimmed">
                        {` · ${option.detail}`}
                      </Text>
                    )}
                  </span>
                </Button>
              </li>
            ))}
          </Stack>
        )}
        {newHref && (
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} aria-hidden />}
              styles={{ label: { whiteSpace: 'normal' } }}
              h="auto"
              py={6}
              onClick={() => onPick(newHref, title)}
            >
              {`Link to new page “${title}”`}
            </Button>
          </Group>
        )}
      </FormStack>
    </FormModal>
  );
}

/** The toolbar control and its dialog. */
export function PageLinkControl({
  editor,
  source,
}: {
  editor: Editor | null;
  source: PageLinkSource;
}) {
  const [opened, setOpened] = useState(false);
  const [initial, setInitial] = useState('');
  return (
    <>
      <MantineRte.Control
        aria-label="Link to page"
        title="Link to page"
        disabled={!editor}
        onClick={() => {
          if (!editor) return;
          const { from, to } = editor.state.selection;
          setInitial(editor.state.doc.textBetween(from, to, ' ').trim().slice(0, 150));
          setOpened(true);
        }}
      >
        <IconFileSymlink size={16} stroke={1.5} aria-hidden="true" />
      </MantineRte.Control>
      {opened && (
        <PageLinkDialog
          opened
          initial={initial}
          source={source}
          onClose={() => {
            setOpened(false);
            editor?.commands.focus();
          }}
          onPick={(href, title) => {
            setOpened(false);
            if (editor) linkSelection(editor, href, title);
          }}
        />
      )}
    </>
  );
}
