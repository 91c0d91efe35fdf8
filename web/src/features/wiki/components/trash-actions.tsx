/** The wiki trash's actions: restore a page, delete it for good (wiki.manage), empty the trash. */
import type { WikiPageSummary } from '@learning-hub/core';
import { EmptyTrashButton, TrashRowActions } from '../../../components/trash-actions';
import { useEmptyWikiTrash, usePurgeWikiPage, useRestoreWikiPage } from '../api/wiki-api';

/** What deleting a page for good takes with it. */
export const WIKI_PURGE_KEPT = 'all its revisions';

/** "Empty trash" with its confirmation. */
export function WikiTrashActions({ empty }: { empty: boolean }) {
  return (
    <EmptyTrashButton
      empty={empty}
      mutation={useEmptyWikiTrash()}
      detail="Every page in the trash, with all its revisions and files, will be deleted for good. This cannot be undone."
    />
  );
}

/** Restore and (for managers of its space) delete for good, for one row of the trash. */
export function WikiTrashRowActions({
  page,
  canPurge,
}: {
  page: Pick<WikiPageSummary, 'id' | 'title'>;
  canPurge: boolean;
}) {
  return (
    <TrashRowActions
      thing={page}
      canPurge={canPurge}
      restore={useRestoreWikiPage()}
      purge={usePurgeWikiPage()}
      kept={WIKI_PURGE_KEPT}
    />
  );
}
