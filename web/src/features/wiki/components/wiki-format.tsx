/** Small shared pieces of the wiki's pages: the draft badge, the "updated" line, counts. */
import {
  findRoute,
  WikiPageUpdateSchema,
  type WikiPageStatus,
  type WikiPageSummary,
} from '@learning-hub/core';
import { Badge } from '@mantine/core';
import { useCan } from '../../../lib/auth/use-can';
import { countText, formatDateTime } from '../../../lib/format';
import { fieldErrors, firstError } from '../../../lib/form-errors';

/** A "Draft" badge for drafts (published pages need none). */
export function StatusBadge({ status }: { status: WikiPageStatus }) {
  if (status !== 'draft') return null;
  return (
    <Badge color="yellow" variant="light" size="sm">
      Draft
    </Badge>
  );
}

/** "Updated <time> by <name> · revision N · V views". */
export function updatedLine(
  page: Pick<WikiPageSummary, 'updatedAt' | 'updatedBy' | 'revision' | 'viewCount'>,
): string {
  return [
    `Updated ${formatDateTime(page.updatedAt)} by ${page.updatedBy.name}`,
    `revision ${page.revision}`,
    countText(page.viewCount, 'view', 'views'),
  ].join(' · ');
}

/**
 * Whether the user may open the Page creator at all (its route's requirement: wiki.create and the
 * role instructor or admin); creating in a space also needs that space's `can.create`.
 */
export function useMayOpenCreator(): boolean {
  const can = useCan();
  const route = findRoute('/wiki/create');
  return route ? can.route(route).allowed : false;
}

/** The title's own rule (one line, no [ ] | # / \), as the server checks it. */
export function titleError(title: string): string | null {
  const parsed = WikiPageUpdateSchema.shape.title.safeParse(title);
  return parsed.success ? null : (firstError(fieldErrors(parsed.error)) ?? 'Check the title');
}
