/**
 * The department rule (docs/architecture.md, "Areas and the platform"): which departments a
 * viewer sees for an area, decided once per request from their permissions, as SQL over a
 * department column for lists and search, and in memory for one department. Each area says which
 * permissions "see a department" for it — the department pages and the wiki `department.view` or
 * `department.manage`, the library `department.view`, the catalogue `course.view` — and this file
 * holds the rest once: held system-wide (or an admin) means every department; otherwise the
 * departments of their assignments in force (their own department's derived one included) whose
 * context grants one of them.
 */
import { isAdmin, isAssignmentInForce, type PermissionId } from '@learning-hub/core';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { AccessService } from '../access/access-service';
import type { UserRecord } from '../auth/user-repository';

/** The departments a viewer sees: every one, or a list. */
export interface DepartmentsSeen {
  allDepartments: boolean;
  departmentIds: readonly string[];
}

/** The departments where `user` holds any of `permissions` at `now`. */
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

/** The rule in memory: whether the viewer sees `departmentId` (null: no department, not seen). */
export function seesDepartment(seen: DepartmentsSeen, departmentId: string | null): boolean {
  if (departmentId === null) return false;
  return seen.allDepartments || seen.departmentIds.includes(departmentId);
}

/** The rule as SQL over a department column: a row of a department the viewer sees. */
export function departmentSeenSql(seen: DepartmentsSeen, column: string): RawBuilder<SqlBool> {
  const department = sql.ref(column);
  if (seen.allDepartments) return sql<SqlBool>`${department} is not null`;
  if (seen.departmentIds.length === 0) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${department} in (${sql.join([...seen.departmentIds])})`;
}
