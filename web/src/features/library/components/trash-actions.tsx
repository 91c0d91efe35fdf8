/** The trash's actions: restore an item, delete it for good (library.manage), empty the trash. */
import type { LibraryItemSummary } from '@learning-hub/core';
import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRestore, IconTrashX } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { useEmptyTrash, usePurgeLibraryItem, useRestoreLibraryItem } from '../api/library-api';

/** "Empty trash" with its confirmation. */
export function TrashActions({ empty }: { empty: boolean }) {
  const emptyTrash = useEmptyTrash();
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button
        color="red"
        variant="default"
        leftSection={<IconTrashX size={16} aria-hidden />}
        disabled={empty}
        onClick={() => {
          emptyTrash.reset();
          setConfirming(true);
        }}
      >
        Empty trash
      </Button>
      <ConfirmModal
        opened={confirming}
        title="Empty trash"
        confirmLabel="Delete everything for good"
        danger
        busy={emptyTrash.isPending}
        error={emptyTrash.isError ? emptyTrash.error.message : null}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          emptyTrash.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              notifications.show({ color: 'green', message: 'The trash was emptied.' });
            },
          })
        }
      >
        Every item in the trash and all its versions will be deleted for good. This cannot be
        undone.
      </ConfirmModal>
    </>
  );
}

/** Restore and (for managers) delete for good, for one row of the trash. */
export function TrashRowActions({
  item,
  canPurge,
}: {
  item: Pick<LibraryItemSummary, 'id' | 'title'>;
  canPurge: boolean;
}) {
  const restore = useRestoreLibraryItem();
  const purge = usePurgeLibraryItem();
  const [confirming, setConfirming] = useState(false);
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="compact-sm"
        variant="light"
        leftSection={<IconRestore size={14} aria-hidden />}
        aria-label={`Restore ${item.title}`}
        loading={restore.isPending}
        onClick={() =>
          restore.mutate(item.id, {
            onSuccess: () =>
              notifications.show({ color: 'green', message: `“${item.title}” was restored.` }),
            onError: (error) => notifications.show({ color: 'red', message: error.message }),
          })
        }
      >
        Restore
      </Button>
      {canPurge && (
        <>
          <Button
            size="compact-sm"
            variant="default"
            color="red"
            aria-label={`Delete ${item.title} for good`}
            onClick={() => {
              purge.reset();
              setConfirming(true);
            }}
          >
            Delete for good
          </Button>
          <PurgeConfirm
            opened={confirming}
            title={item.title}
            busy={purge.isPending}
            error={purge.isError ? purge.error.message : null}
            onClose={() => setConfirming(false)}
            onConfirm={() => purge.mutate(item.id, { onSuccess: () => setConfirming(false) })}
          />
        </>
      )}
    </Group>
  );
}

export function PurgeConfirm({
  opened,
  title,
  busy,
  error,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  busy: boolean;
  error: string | null;
  onClose(): void;
  onConfirm(): void;
}) {
  return (
    <ConfirmModal
      opened={opened}
      title="Delete for good"
      confirmLabel="Delete for good"
      danger
      busy={busy}
      error={error}
      onClose={onClose}
      onConfirm={onConfirm}
    >
      {`“${title}” and all its versions will be deleted for good. This cannot be undone.`}
    </ConfirmModal>
  );
}
