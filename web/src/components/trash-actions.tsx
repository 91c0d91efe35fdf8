/**
 * The content lifecycle's actions (docs/architecture.md, "The content lifecycle"), shared by the
 * library and the wiki: on a thing's own page Move to trash, Restore and Delete for good with their
 * confirmations; in a trash "Empty trash" and per row Restore and (for whoever may) "Delete for
 * good". Each area passes its mutations and the words that say what goes with a deleted thing.
 */
import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRestore, IconTrash, IconTrashX } from '@tabler/icons-react';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmModal } from './confirm-modal';

/** A mutation as these actions use it: its variables, whatever it answers. */
type Mutation<V> = UseMutationResult<unknown, Error, V>;

/** "Empty trash" with its confirmation; `detail` says what is deleted for good. */
export function EmptyTrashButton({
  empty,
  mutation,
  detail,
}: {
  empty: boolean;
  mutation: Mutation<void>;
  detail: string;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <>
      <Button
        color="red"
        variant="default"
        leftSection={<IconTrashX size={16} aria-hidden />}
        disabled={empty}
        onClick={() => {
          mutation.reset();
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
        busy={mutation.isPending}
        error={mutation.isError ? mutation.error.message : null}
        onClose={() => setConfirming(false)}
        onConfirm={() =>
          mutation.mutate(undefined, {
            onSuccess: () => {
              setConfirming(false);
              notifications.show({ color: 'green', message: 'The trash was emptied.' });
            },
          })
        }
      >
        {detail}
      </ConfirmModal>
    </>
  );
}

/** Restores `id` with `mutation`, telling the reader how it went. */
export function restoreWithNotice(
  mutation: Mutation<string>,
  thing: { id: string; title: string },
  onDone?: () => void,
): void {
  mutation.mutate(thing.id, {
    onSuccess: () => {
      notifications.show({ color: 'green', message: `“${thing.title}” was restored.` });
      onDone?.();
    },
    onError: (error) => notifications.show({ color: 'red', message: error.message }),
  });
}

/** Restore and (with `canPurge`) delete for good, for one row of a trash. */
export function TrashRowActions({
  thing,
  canPurge,
  restore,
  purge,
  kept,
}: {
  thing: { id: string; title: string };
  canPurge: boolean;
  restore: Mutation<string>;
  purge: Mutation<string>;
  /** What is deleted with it, e.g. "all its versions". */
  kept: string;
}) {
  const [confirming, setConfirming] = useState(false);
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="compact-sm"
        variant="light"
        leftSection={<IconRestore size={14} aria-hidden />}
        aria-label={`Restore ${thing.title}`}
        loading={restore.isPending}
        onClick={() => restoreWithNotice(restore, thing)}
      >
        Restore
      </Button>
      {canPurge && (
        <>
          <Button
            size="compact-sm"
            variant="default"
            color="red"
            aria-label={`Delete ${thing.title} for good`}
            onClick={() => {
              purge.reset();
              setConfirming(true);
            }}
          >
            Delete for good
          </Button>
          <PurgeConfirm
            opened={confirming}
            title={thing.title}
            kept={kept}
            busy={purge.isPending}
            error={purge.isError ? purge.error.message : null}
            onClose={() => setConfirming(false)}
            onConfirm={() => purge.mutate(thing.id, { onSuccess: () => setConfirming(false) })}
          />
        </>
      )}
    </Group>
  );
}

/** The confirmation of deleting one thing for good. */
export function PurgeConfirm({
  opened,
  title,
  kept,
  busy,
  error,
  onClose,
  onConfirm,
}: {
  opened: boolean;
  title: string;
  /** What is deleted with it, e.g. "all its versions". */
  kept: string;
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
      {`“${title}” and ${kept} will be deleted for good. This cannot be undone.`}
    </ConfirmModal>
  );
}

/**
 * A thing's own page: "Move to trash" (out of the trash) or "Restore" (in it), and "Delete for
 * good" in the trash, each shown as `can` allows, with their confirmations and notices. The
 * buttons go into the page's row of actions; `onTrashed` and `onPurged` say where the page goes
 * next.
 */
export function LifecycleActions({
  thing,
  inTrash,
  can,
  trash,
  restore,
  purge,
  trashQuestion,
  kept,
  onTrashed,
  onPurged,
}: {
  thing: { id: string; title: string };
  inTrash: boolean;
  can: { trash: boolean; restore: boolean; purge: boolean };
  trash: Mutation<string>;
  restore: Mutation<string>;
  purge: Mutation<string>;
  /** The confirmation's question, which says who stops seeing the thing. */
  trashQuestion: string;
  /** What is deleted with it, e.g. "all its versions". */
  kept: string;
  onTrashed?: () => void;
  onPurged?: () => void;
}) {
  const [confirming, setConfirming] = useState<'trash' | 'purge' | null>(null);
  const close = () => setConfirming(null);
  return (
    <>
      {can.trash && !inTrash && (
        <Button
          variant="default"
          color="red"
          leftSection={<IconTrash size={16} aria-hidden />}
          onClick={() => {
            trash.reset();
            setConfirming('trash');
          }}
        >
          Move to trash
        </Button>
      )}
      {can.restore && inTrash && (
        <Button
          leftSection={<IconRestore size={16} aria-hidden />}
          loading={restore.isPending}
          onClick={() => restoreWithNotice(restore, thing)}
        >
          Restore
        </Button>
      )}
      {can.purge && inTrash && (
        <Button
          variant="default"
          color="red"
          leftSection={<IconTrashX size={16} aria-hidden />}
          onClick={() => {
            purge.reset();
            setConfirming('purge');
          }}
        >
          Delete for good
        </Button>
      )}
      <ConfirmModal
        opened={confirming === 'trash'}
        title="Move to trash"
        confirmLabel="Move to trash"
        danger
        busy={trash.isPending}
        error={trash.isError ? trash.error.message : null}
        onClose={close}
        onConfirm={() =>
          trash.mutate(thing.id, {
            onSuccess: () => {
              close();
              notifications.show({
                color: 'green',
                message: `“${thing.title}” was moved to the trash. It can be restored from there.`,
              });
              onTrashed?.();
            },
          })
        }
      >
        {trashQuestion}
      </ConfirmModal>
      <PurgeConfirm
        opened={confirming === 'purge'}
        kept={kept}
        title={thing.title}
        busy={purge.isPending}
        error={purge.isError ? purge.error.message : null}
        onClose={close}
        onConfirm={() =>
          purge.mutate(thing.id, {
            onSuccess: () => {
              close();
              notifications.show({
                color: 'green',
                message: `“${thing.title}” was deleted for good.`,
              });
              onPurged?.();
            },
          })
        }
      />
    </>
  );
}
