/**
 * What of the courses area search may show (docs/search.md): a course to whoever may see it
 * (the catalogue's rule, every state), a lesson to whoever may open the course's content
 * (courseAccess().canLearn) — as SQL over the index's `course_id`, from the same visibility the
 * catalogue's list is filtered by. The rows are indexed by course-repository (indexCourse) and
 * structure-repository (indexLesson) as they are written.
 */
import { sql, type SqlBool } from 'kysely';
import type { AccessService } from '../../platform/access/access-service';
import type { UserRecord } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';
import type { SearchScope } from '../../platform/search/search-index';
import { courseVisibilityOf, visibleCourseIds } from '../../platform/visibility/course-visibility';

export function courseSearchScopes(
  db: Db,
  access: AccessService,
  user: UserRecord,
  now: number,
): SearchScope[] {
  const visibility = courseVisibilityOf(access, user, now);
  return [
    {
      type: 'course',
      where: sql<SqlBool>`d.course_id in ${visibleCourseIds(db, visibility, 'see')}`,
    },
    {
      type: 'lesson',
      where: sql<SqlBool>`d.course_id in ${visibleCourseIds(db, visibility, 'learn')}`,
    },
  ];
}
