/** The trash's actions: restore an item, delete it for good (library.manage), empty the trash. */
import type { LibraryItemSummary } from '@learning-hub/core';
import {
  EmptyTrashButton,
  TrashRowActions as SharedTrashRowActions,
} from '../../../components/trash-actions';
import { useEmptyTrash, usePurgeLibraryItem, useRestoreLibraryItem } from '../api/library-api';

/** What deleting an item for good takes with it. */
export const LIBRARY_PURGE_KEPT = 'all its versions';

/** "Empty trash" with its confirmation. */
export function TrashActions({ empty }: { empty: boolean }) {
  return (
    <EmptyTrashButton
      empty={empty}
      mutation={useEmptyTrash()}
      detail="Every item in the trash and all its versions will be deleted for good. This cannot be undone."
    />
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
  return (
    <SharedTrashRowActions
      thing={item}
      canPurge={canPurge}
      restore={useRestoreLibraryItem()}
      purge={usePurgeLibraryItem()}
      kept={LIBRARY_PURGE_KEPT}
    />
  );
}
