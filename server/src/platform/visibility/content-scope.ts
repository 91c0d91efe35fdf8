/**
 * The scope rule that content areas share (the library's items, the wiki's pages, their search
 * documents): a row with neither a department nor a course belongs to everyone who may use the
 * area; a department's row to the people who see that department; a course's row to the people
 * who may open that course's content (the classroom's rule). Each area decides which permissions
 * "see a department" (docs/library.md, docs/wiki.md); this file holds the rest once.
 */
import { isAdmin, isAssignmentInForce, type PermissionId } from '@learning-hub/core';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AccessService } from '../access/access-service';
import type { UserRecord } from '../auth/user-repository';
import type { Db } from '../db';
import { visibleCourseIds, type CourseVisibility } from './course-visibility';

/** The departments a user sees: every one (held system-wide, or an admin), or a list. */
export interface DepartmentsSeen {
  allDepartments: boolean;
  departmentIds: string[];
}

/**
 * The departments where `user` holds any of `permissions`: system-wide (or an admin) means all
 * of them; otherwise the departments of their assignments in force (their own included) that
 * grant one.
 */
export function departmentsSeen(
  access: AccessService,
  user: UserRecord,
  now: number,
  permissions: readonly PermissionId[],
): DepartmentsSeen {
  const engine = access.engine;
  const holds = (scope?: Parameters<typeof engine.check>[2]) =>
    permissions.some((p) => engine.check(user.id, p, scope));
  const allDepartments = isAdmin(user) || holds();
  const departmentIds: string[] = [];
  if (!allDepartments) {
    for (const a of engine.subjectOf(user.id)?.contextAssignments ?? []) {
      if (a.context.type !== 'department' || !isAssignmentInForce(a, now)) continue;
      if (holds(a.context)) departmentIds.push(a.context.departmentId);
    }
  }
  return { allDepartments, departmentIds: [...new Set(departmentIds)] };
}

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
  const inDepartment = v.allDepartments
    ? sql<SqlBool>`${department} is not null`
    : v.departmentIds.length > 0
      ? sql<SqlBool>`${department} in (${sql.join(v.departmentIds)})`
      : FALSE;
  const inCourse = sql<SqlBool>`${course} in ${visibleCourseIds(db, v.courses, 'learn')}`;
  return sql<SqlBool>`((${department} is null and ${course} is null) or ${inDepartment} or ${inCourse})`;
}
