/**
 * Whom to tell: of some people, the active ones who hold a permission in a context now, judged by
 * the same engine as their own requests (without an audit entry: they are not acting). The areas
 * resolve a notification's recipients with it (docs/notifications.md, "Who is told").
 */
import type { AccessContext, PermissionId } from '@learning-hub/core';
import { findUsersByIds } from '../auth/user-repository';
import type { Db } from '../db';
import { getRolesVersion } from './access-repository';
import type { AccessService } from './access-service';

export async function whoHolds(
  db: Db,
  access: AccessService,
  userIds: readonly string[],
  permission: PermissionId,
  context: AccessContext | 'any' | null,
): Promise<string[]> {
  if (userIds.length === 0) return [];
  const users = (await findUsersByIds(db, [...new Set(userIds)])).filter((u) => u.isActive);
  const rolesVersion = await getRolesVersion(db);
  const holders: string[] = [];
  for (const user of users) {
    await access.ensureUser(user, rolesVersion);
    if (access.engine.wouldAllow(user.id, permission, context ?? undefined)) holders.push(user.id);
  }
  return holders;
}
