/**
 * GET /api/announcements/{id}/recipients.csv to the user's disk. Apart from announcements-api.ts,
 * which the start page loads: the download helper comes with the storage contracts.
 */
import { downloadToDisk } from '../../../lib/upload';
import { queryString } from '../../../lib/query-string';

/** Downloads the people an announcement reached (all, or those who have not acknowledged it). */
export function downloadRecipientsCsv(id: string, pendingOnly: boolean): Promise<void> {
  return downloadToDisk(
    `/api/announcements/${encodeURIComponent(id)}/recipients.csv${queryString({
      acknowledged: pendingOnly ? 'false' : undefined,
    })}`,
    pendingOnly ? `announcement-${id}-not-acknowledged.csv` : `announcement-${id}.csv`,
  );
}
