/** The wiki trash's actions: restore a page, delete it for good (wiki.manage), empty the trash. */
import type { WikiPageSummary } from '@learning-hub/core';
import { Button, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconRestore, IconTrashX } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { useEmptyWikiTrash, usePurgeWikiPage, useRestoreWikiPage } from '../api/wiki-api';

/** "Empty trash" with its confirmation. */
export function WikiTrashActions({ empty }: { empty: boolean }) {
  const emptyTrash = useEmptyWikiTrash();
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
        Every page in the trash, with all its revisions and files, will be deleted for good. This
        cannot be undone.
      </ConfirmModal>
    </>
  );
}

/** Restores a page from the trash, telling the reader how it went. */
export function useRestoreFromTrash() {
  const restore = useRestoreWikiPage();
  const run = (page: Pick<WikiPageSummary, 'id' | 'title'>, onDone?: () => void) =>
    restore.mutate(page.id, {
      onSuccess: () => {
        notifications.show({ color: 'green', message: `“${page.title}” was restored.` });
        onDone?.();
      },
      onError: (error) => notifications.show({ color: 'red', message: error.message }),
    });
  return { run, busy: restore.isPending };
}

/** Restore and (for managers of its space) delete for good, for one row of the trash. */
export function WikiTrashRowActions({
  page,
  canPurge,
}: {
  page: Pick<WikiPageSummary, 'id' | 'title'>;
  canPurge: boolean;
}) {
  const restore = useRestoreFromTrash();
  const purge = usePurgeWikiPage();
  const [confirming, setConfirming] = useState(false);
  return (
    <Group gap="xs" wrap="nowrap">
      <Button
        size="compact-sm"
        variant="light"
        leftSection={<IconRestore size={14} aria-hidden />}
        aria-label={`Restore ${page.title}`}
        loading={restore.busy}
        onClick={() => restore.run(page)}
      >
        Restore
      </Button>
      {canPurge && (
        <>
          <Button
            size="compact-sm"
            variant="default"
            color="red"
            aria-label={`Delete ${page.title} for good`}
            onClick={() => {
              purge.reset();
              setConfirming(true);
            }}
          >
            Delete for good
          </Button>
          <PurgeConfirm
            opened={confirming}
            title={page.title}
            busy={purge.isPending}
            error={purge.isError ? purge.error.message : null}
            onClose={() => setConfirming(false)}
            onConfirm={() => purge.mutate(page.id, { onSuccess: () => setConfirming(false) })}
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
      {`“${title}” and all its revisions will be deleted for good. This cannot be undone.`}
    </ConfirmModal>
  );
}
