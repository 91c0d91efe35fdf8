/** Categories (library.manage): add, rename and delete; the server's refusals show as they are. */
import type { LibraryCategory } from '@learning-hub/core';
import { ActionIcon, Button, Group, Stack, Text, TextInput } from '@mantine/core';
import { IconCheck, IconPencil, IconTrash, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { FormModal } from '../../../components/form-modal';
import {
  useCreateCategory,
  useDeleteCategory,
  useLibraryCategories,
  useRenameCategory,
} from '../api/library-api';
import { countText } from '../../../lib/format';
import { ErrorAlert } from '../../../components/query-state';

export function CategoriesDialog({ opened, onClose }: { opened: boolean; onClose(): void }) {
  const categories = useLibraryCategories(opened);
  const create = useCreateCategory();
  const remove = useDeleteCategory();
  const [name, setName] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<LibraryCategory | null>(null);

  function add() {
    if (name.trim() === '') {
      setNameError('Enter the name');
      return;
    }
    create.mutate(name.trim(), {
      onSuccess: () => setName(''),
    });
  }

  return (
    <>
      <FormModal opened={opened && !deleting} onClose={onClose} title="Categories">
        <Stack gap="md">
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              add();
            }}
          >
            <Group align="flex-start" gap="xs" wrap="nowrap">
              <TextInput
                label="New category"
                value={name}
                style={{ flex: 1 }}
                onChange={(event) => {
                  setName(event.currentTarget.value);
                  setNameError(null);
                  create.reset();
                }}
                error={nameError ?? (create.isError ? create.error.message : undefined)}
              />
              <Button type="submit" mt={25} loading={create.isPending}>
                Add
              </Button>
            </Group>
          </form>
          {categories.isError && <ErrorAlert error={categories.error} />}
          {categories.data?.length === 0 && (
            <Text size="sm" c="dimmed">
              There are no categories yet. Add one above; items can then be filed under it.
            </Text>
          )}
          {categories.data && categories.data.length > 0 && (
            <Stack
              component="ul"
              gap="xs"
              p={0}
              m={0}
              style={{ listStyle: 'none' }}
              aria-label="Categories"
            >
              {categories.data.map((category) => (
                <CategoryRow
                  key={category.id}
                  category={category}
                  onDelete={() => {
                    remove.reset();
                    setDeleting(category);
                  }}
                />
              ))}
            </Stack>
          )}
        </Stack>
      </FormModal>
      <ConfirmModal
        opened={!!deleting}
        title="Delete category"
        confirmLabel="Delete category"
        danger
        busy={remove.isPending}
        error={remove.isError ? remove.error.message : null}
        onClose={() => setDeleting(null)}
        onConfirm={() =>
          deleting && remove.mutate(deleting.id, { onSuccess: () => setDeleting(null) })
        }
      >
        {deleting
          ? `Delete the category “${deleting.name}”? Its ${countText(deleting.itemCount, 'item stays', 'items stay')} in the library without a category.`
          : ''}
      </ConfirmModal>
    </>
  );
}

function CategoryRow({ category, onDelete }: { category: LibraryCategory; onDelete(): void }) {
  const rename = useRenameCategory();
  const [editing, setEditing] = useState(false);
  const [name, setName] = useState(category.name);
  const [error, setError] = useState<string | null>(null);

  function save() {
    if (name.trim() === '') {
      setError('Enter the name');
      return;
    }
    rename.mutate(
      { id: category.id, name: name.trim() },
      {
        onSuccess: () => setEditing(false),
        onError: (e) => setError(e.message),
      },
    );
  }

  if (editing) {
    return (
      <li>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <Group gap="xs" align="flex-start" wrap="nowrap">
            <TextInput
              label={`New name of ${category.name}`}
              value={name}
              style={{ flex: 1 }}
              onChange={(event) => {
                setName(event.currentTarget.value);
                setError(null);
              }}
              error={error}
              data-autofocus
            />
            <ActionIcon
              type="submit"
              mt={25}
              size="lg"
              aria-label="Save name"
              loading={rename.isPending}
            >
              <IconCheck size={18} aria-hidden />
            </ActionIcon>
            <ActionIcon
              mt={25}
              size="lg"
              variant="default"
              aria-label="Cancel renaming"
              onClick={() => {
                setEditing(false);
                setName(category.name);
                setError(null);
              }}
            >
              <IconX size={18} aria-hidden />
            </ActionIcon>
          </Group>
        </form>
      </li>
    );
  }
  return (
    <Group component="li" justify="space-between" gap="xs" wrap="nowrap">
      <Text size="sm" style={{ minWidth: 0 }} truncate>
        {category.name}{' '}
        <Text span size="xs" c="dimmed">
          ({countText(category.itemCount, 'item', 'items')})
        </Text>
      </Text>
      <Group gap={4} wrap="nowrap">
        <ActionIcon
          variant="subtle"
          aria-label={`Rename ${category.name}`}
          onClick={() => setEditing(true)}
        >
          <IconPencil size={18} aria-hidden />
        </ActionIcon>
        <ActionIcon
          variant="subtle"
          color="red.8"
          aria-label={`Delete ${category.name}`}
          onClick={onDelete}
        >
          <IconTrash size={18} aria-hidden />
        </ActionIcon>
      </Group>
    </Group>
  );
}
