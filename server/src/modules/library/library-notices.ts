/**
 * Who hears of a new library item (docs/notifications.md, "What the areas raise"): for an item of
 * a department, its people who may open the department's library; for an item of a course, its
 * participants in force who may use the library. Items for everyone are not announced (that is
 * what announcements are for). Judged with the permission model now, without audit entries.
 */
import { isAssignmentInForce, type LibraryScope } from '@learning-hub/core';
import type { FastifyInstance } from 'fastify';
import { listContextMembers } from '../../platform/access/access-repository';
import { whoHolds } from '../../platform/access/holders';
import { listActiveUserIdsOfDepartment } from '../../platform/auth/user-repository';
import type { Db } from '../../platform/db';

export async function libraryAudience(
  app: FastifyInstance,
  db: Db,
  scope: LibraryScope,
  now: number,
): Promise<string[]> {
  if (scope.type === 'department') {
    const context = { type: 'department', departmentId: scope.departmentId } as const;
    const members = await listContextMembers(db, context);
    const candidates = [
      ...(await listActiveUserIdsOfDepartment(db, scope.departmentId)),
      ...members.filter((m) => isAssignmentInForce(m.assignment, now)).map((m) => m.id),
    ];
    const seeDepartment = new Set(
      await whoHolds(db, app.access, candidates, 'department.view', context),
    );
    return whoHolds(db, app.access, [...seeDepartment], 'library.view', 'any');
  }
  if (scope.type === 'course') {
    const members = await listContextMembers(db, { type: 'course', courseId: scope.courseId });
    const participants = members
      .filter((m) => isAssignmentInForce(m.assignment, now))
      .map((m) => m.id);
    return whoHolds(db, app.access, participants, 'library.view', 'any');
  }
  return [];
}
