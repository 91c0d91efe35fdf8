/**
 * The scope rule that content areas share (the library's items, the wiki's pages, their search
 * documents): a row with neither a department nor a course belongs to everyone who may use the
 * area; a department's row to the people who see that department (department-visibility.ts); a course's row to the people
 * who may open that course's content (the classroom's rule). Each area decides which permissions
 * "see a department" (docs/library.md, docs/wiki.md); this file holds the rest once.
 */
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Db } from '../db';
import { courseLearnable, visibleCourseIds, type CourseVisibility } from './course-visibility';
import { departmentSeenSql, seesDepartment, type DepartmentsSeen } from './department-visibility';

/** What the scope rule needs of a viewer. */
export interface ContentScopeViewer extends DepartmentsSeen {
  /** May use the area at all (its view permission anywhere). */
  view: boolean;
  /** Which courses' content they may open. */
  courses: CourseVisibility;
}

const FALSE = sql<SqlBool>`1 = 0`;

/** The rule as SQL over a row's two scope columns (`department_id`, `course_id`). */
export function contentScopeSql(
  db: Db,
  v: ContentScopeViewer,
  columns: { department: string; course: string },
): RawBuilder<SqlBool> {
  if (!v.view) return FALSE;
  const department = sql.ref(columns.department);
  const course = sql.ref(columns.course);
  const inDepartment = departmentSeenSql(v, columns.department);
  const inCourse = sql<SqlBool>`${course} in ${visibleCourseIds(db, v.courses, 'learn')}`;
  return sql<SqlBool>`((${department} is null and ${course} is null) or ${inDepartment} or ${inCourse})`;
}

/**
 * contentScopeSql in memory, for one row: its department and course, with the course's state
 * (null: no such course).
 */
export function contentInScope(
  v: ContentScopeViewer,
  row: { departmentId: string | null; courseId: string | null; courseState: string | null },
): boolean {
  if (!v.view) return false;
  if (row.departmentId === null && row.courseId === null) return true;
  return (
    seesDepartment(v, row.departmentId) ||
    (row.courseId !== null && courseLearnable(v.courses, row.courseId, row.courseState))
  );
}
