/**
 * Who may open and change a department (docs/departments.md): the one place that decides what a
 * viewer may do with a department and produces its `can` flags. Opening one is the platform's
 * department rule (platform/visibility/department-visibility.ts) with department.view or
 * department.manage; changing its description needs department.manage there (and the department
 * not archived); renaming, archiving and restoring are the admins'.
 */
import type { AccessRequirement, DepartmentDetail } from '@learning-hub/core';
import type { AccessService } from '../../platform/access/access-service';
import type { UserRecord } from '../../platform/auth/user-repository';
import {
  departmentsSeen,
  seesDepartment,
  type DepartmentsSeen,
} from '../../platform/visibility/department-visibility';

/**
 * Administering departments (creating, renaming, archiving): what the admin routes require — the
 * admin role with system.admin (every admin holds it).
 */
export const DEPARTMENT_ADMIN = {
  permissions: ['system.admin'],
  roles: ['admin'],
} as const satisfies AccessRequirement;

/** What the viewer holds that the department pages' rules ask, decided once per request. */
export interface DepartmentViewer extends DepartmentsSeen {
  userId: string;
}

export function departmentViewerOf(
  access: AccessService,
  user: UserRecord,
  now: number,
): DepartmentViewer {
  return {
    userId: user.id,
    ...departmentsSeen(access, user, now, ['department.view', 'department.manage']),
  };
}

/** Whether the viewer may open the department (the list's filter, the lookup, its files). */
export function mayOpen(v: DepartmentViewer, departmentId: string): boolean {
  return seesDepartment(v, departmentId);
}

/** Whether the user may rename, archive or restore departments (an audited decision). */
export function mayAdminister(access: AccessService, userId: string): boolean {
  return access.decide(userId, DEPARTMENT_ADMIN, undefined).allowed;
}

/** Holds department.manage in the department (attaching files to its description). */
export function managesIn(access: AccessService, userId: string, departmentId: string): boolean {
  return access.engine.check(userId, 'department.manage', { type: 'department', departmentId });
}

/** Whether the user may change the department's description and members now. */
export function mayManage(
  access: AccessService,
  userId: string,
  department: { id: string; archivedAt: string | null },
): boolean {
  return department.archivedAt === null && managesIn(access, userId, department.id);
}

/** What the viewer may do with one department they may open. */
export function departmentAbilities(
  access: AccessService,
  userId: string,
  department: { id: string; archivedAt: string | null },
): DepartmentDetail['can'] {
  return {
    manage: mayManage(access, userId, department),
    administer: mayAdminister(access, userId),
  };
}
