/**
 * What of the wiki search may show (docs/search.md, docs/wiki.md): a page to whoever may read its
 * space (wiki-access.ts), as SQL over the index's scope columns (`department_id`, `course_id`;
 * a company page has neither). Only published pages out of the trash are in the index (indexPage
 * in wiki-repository, in the transaction of every write), so drafts and the trash never show.
 */
import type { AccessService } from '../../platform/access/access-service';
import type { UserRecord } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import type { SearchScope } from '../../platform/search/search-index';
import { spaceVisibleSql, wikiViewerOf } from './wiki-access';
import { WIKI_PAGE } from './wiki-repository';

export function wikiSearchScopes(
  db: Db,
  access: AccessService,
  user: UserRecord,
  now: number,
): SearchScope[] {
  const viewer = wikiViewerOf(access, user, now);
  return [
    {
      type: WIKI_PAGE,
      where: spaceVisibleSql(db, viewer, { department: 'd.department_id', course: 'd.course_id' }),
    },
  ];
}
