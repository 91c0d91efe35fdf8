/**
 * One announcement in a dialog, for the person it was published to: what a notification's link
 * (`/?announcement=<id>`) and the banner's Read open. Opening it marks it read.
 */
import { FormModal } from '../../../components/form-modal';
import { QueryState } from '../../../components/query-state';
import { useAnnouncement } from '../api/announcements-api';
import { AnnouncementArticle } from './announcement-article';

export function AnnouncementDialog({ id, onClose }: { id: string | null; onClose(): void }) {
  return (
    <FormModal opened={id !== null} onClose={onClose} title="Announcement" size="lg">
      {id && <DialogBody id={id} />}
    </FormModal>
  );
}

function DialogBody({ id }: { id: string }) {
  const announcement = useAnnouncement(id);
  return (
    <QueryState query={announcement} label="Loading the announcement">
      {(data) => <AnnouncementArticle announcement={data} level={3} />}
    </QueryState>
  );
}
