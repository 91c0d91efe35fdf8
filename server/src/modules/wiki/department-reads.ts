/**
 * What the wiki gives the pages that compose other areas' parts (the department page; the
 * dashboard the same way), through public.ts: a department's wiki space for one viewer.
 */
import type { AccessService } from '../../platform/access/access-service';
import type { UserRecord } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import { spaceVisible, wikiViewerOf } from './wiki-access';
import { latestPagesOfDepartment } from './wiki-repository';

/** A department's wiki space as a page beside the department shows it. */
export interface DepartmentWikiSummary {
  spaceKey: `department:${string}`;
  pageCount: number;
  pages: { id: string; title: string; updatedAt: string }[];
}

/**
 * The department's wiki space for `user`: how many published pages it has and the latest `limit`
 * of them; none when the wiki's rule (wiki-access.ts) does not let them read the space.
 */
export async function pagesOfDepartment(
  db: Db,
  access: AccessService,
  user: UserRecord,
  departmentId: string,
  now: number,
  limit: number,
): Promise<DepartmentWikiSummary> {
  const spaceKey = `department:${departmentId}` as const;
  const space = { type: 'department', key: spaceKey, departmentId } as const;
  if (!(await spaceVisible(db, access, wikiViewerOf(access, user, now), space, now))) {
    return { spaceKey, pageCount: 0, pages: [] };
  }
  return latestPagesOfDepartment(db, departmentId, limit);
}
