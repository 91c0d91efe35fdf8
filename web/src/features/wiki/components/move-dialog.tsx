/**
 * Moving a page (wiki.manage: `can.move`): to another space, under another parent (or to the top
 * level), and to a place among its new siblings. The pages under it move with it. The server
 * refuses a move under the page itself or one of its own pages.
 */
import type { WikiPage } from '@learning-hub/core';
import { Select } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMemo, useState } from 'react';
import { useMoveWikiPage, useWikiSpaces, useWikiTree } from '../api/wiki-api';
import { buildTreeNodes, parentOptions } from './space-tree';
import { FormActions, FormModal, FormStack } from '../../../components/form-modal';

/** The Select's value for "no parent". */
const TOP = '(top)';

export function MoveDialog({
  page,
  opened,
  onClose,
}: {
  page: WikiPage;
  opened: boolean;
  onClose(): void;
}) {
  return (
    <FormModal opened={opened} onClose={onClose} title={`Move “${page.title}”`}>
      <MoveForm page={page} onClose={onClose} />
    </FormModal>
  );
}

function MoveForm({ page, onClose }: { page: WikiPage; onClose(): void }) {
  const spaces = useWikiSpaces();
  const move = useMoveWikiPage(page.id);
  const [space, setSpace] = useState(page.spaceKey);
  const [parent, setParent] = useState(page.parentId ?? TOP);
  const [place, setPlace] = useState<string | null>(null);
  const tree = useWikiTree(space);

  const spaceOptions = (spaces.data ?? [])
    .filter((s) => s.can.manage || s.key === page.spaceKey)
    .map((s) => ({ value: s.key, label: s.name }));
  const nodes = useMemo(() => buildTreeNodes(tree.data?.pages ?? []), [tree.data]);
  const siblings = (tree.data?.pages ?? [])
    .filter((p) => (p.parentId ?? TOP) === parent && p.id !== page.id)
    .sort((a, b) => a.position - b.position);
  const placeOptions = [
    { value: '0', label: 'First' },
    ...siblings.map((s, i) => ({ value: String(i + 1), label: `After “${s.title}”` })),
  ];
  // Where it is now when it stays under the same parent, else last.
  const samePlace =
    space === page.spaceKey && parent === (page.parentId ?? TOP)
      ? Math.min(page.position, siblings.length)
      : siblings.length;
  const chosenPlace = place ?? String(samePlace);

  function submit() {
    move.mutate(
      { space, parentId: parent === TOP ? null : parent, position: Number(chosenPlace) },
      {
        onSuccess: () => {
          onClose();
          notifications.show({ color: 'green', message: `“${page.title}” was moved.` });
        },
      },
    );
  }

  return (
    <FormStack onSubmit={submit}>
      <Select
        label="Space"
        data={spaceOptions}
        value={space}
        allowDeselect={false}
        onChange={(value) => {
          if (!value) return;
          setSpace(value);
          setParent(TOP);
          setPlace(null);
        }}
      />
      <Select
        label="Parent page"
        description="The page it goes under; the pages under it move with it."
        searchable
        data={[{ value: TOP, label: 'None (top level)' }, ...parentOptions(nodes, page.id)]}
        value={parent}
        allowDeselect={false}
        disabled={tree.isPending}
        onChange={(value) => {
          setParent(value ?? TOP);
          setPlace(null);
        }}
      />
      <Select
        label="Place"
        data={placeOptions}
        value={chosenPlace}
        allowDeselect={false}
        disabled={tree.isPending}
        onChange={(value) => setPlace(value)}
      />
      <FormActions submitLabel="Move" mutation={move} onCancel={onClose} />
    </FormStack>
  );
}
