/**
 * What of the library search may show (docs/search.md, docs/library.md): an item to whoever may
 * see it in the library (library-access.ts), as SQL over the index's scope columns
 * (`department_id`, `course_id`; an item of everyone has neither). Items in the trash are not
 * in the index. The rows are indexed by library-repository (indexItem) as they are written.
 */
import type { AccessService } from '../../platform/access/access-service';
import type { UserRecord } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import type { SearchScope } from '../../platform/search/search-index';
import { libraryViewerOf, scopeVisibleSql } from './library-access';
import { LIBRARY_ITEM } from './library-repository';

export function librarySearchScopes(
  db: Db,
  access: AccessService,
  user: UserRecord,
  now: number,
): SearchScope[] {
  const viewer = libraryViewerOf(access, user, now);
  return [
    {
      type: LIBRARY_ITEM,
      where: scopeVisibleSql(db, viewer, { department: 'd.department_id', course: 'd.course_id' }),
    },
  ];
}
