/**
 * The toolbar's "Callout" menu (wiki-extensions.ts): wraps the selected blocks in an info, tip,
 * warning or danger box, changes the kind of the box the cursor is in, or removes it.
 */
import { Menu } from '@mantine/core';
import { RichTextEditor as MantineRte } from '@mantine/tiptap';
import { IconCheck, IconInfoSquareRounded } from '@tabler/icons-react';
import { useEditorState, type Editor } from '@tiptap/react';
import { CALLOUT_KINDS, CALLOUT_LABELS, isCalloutKind } from './wiki-extensions';

export function CalloutControl({ editor }: { editor: Editor | null }) {
  const current = useEditorState({
    editor,
    selector: ({ editor: e }) => {
      if (!e || e.isDestroyed || !e.isActive('callout')) return null;
      const kind: unknown = e.getAttributes('callout').kind;
      return isCalloutKind(kind) ? kind : null;
    },
  });
  return (
    <Menu position="bottom-start" withinPortal={false} shadow="md">
      <Menu.Target>
        <MantineRte.Control
          aria-label={current ? `Callout: ${CALLOUT_LABELS[current]}` : 'Callout'}
          title="Callout"
          active={current !== null}
          disabled={!editor}
        >
          <IconInfoSquareRounded size={16} stroke={1.5} aria-hidden="true" />
        </MantineRte.Control>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{current ? 'Change the callout to' : 'Put in a callout'}</Menu.Label>
        {CALLOUT_KINDS.map((kind) => (
          <Menu.Item
            key={kind}
            leftSection={
              current === kind ? <IconCheck size={14} aria-hidden="true" /> : <span aria-hidden />
            }
            onClick={() => {
              if (!editor) return;
              const chain = editor.chain().focus();
              if (current) chain.setCalloutKind(kind).run();
              else chain.setCallout(kind).run();
            }}
          >
            {CALLOUT_LABELS[kind]}
          </Menu.Item>
        ))}
        {current && (
          <>
            <Menu.Divider />
            <Menu.Item onClick={() => editor?.chain().focus().unsetCallout().run()}>
              Remove callout
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
