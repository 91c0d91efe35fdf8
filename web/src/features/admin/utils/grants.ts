/** Permissions grouped by where they come from, worded by core's describeGrant. */
import { describeGrant, type Grant } from '@learning-hub/core';

const SOURCE_ORDER: readonly Grant['source'][] = [
  'admin',
  'role',
  'inherited-role',
  'direct',
  'context-role',
  'context-direct',
  'parent-context',
];

export interface GrantGroup {
  /** describeGrant's sentence: unique per source. */
  key: string;
  grant: Grant;
  permissions: string[];
}

/** One group per grant (role, inherited role, direct, context role in X, …), in source order. */
export function groupBySource(
  entries: readonly { permission: string; grants: readonly Grant[] }[],
): GrantGroup[] {
  const groups = new Map<string, GrantGroup>();
  for (const { permission, grants } of entries) {
    for (const grant of grants) {
      const key = describeGrant(grant);
      const group = groups.get(key) ?? { key, grant, permissions: [] };
      if (!group.permissions.includes(permission)) group.permissions.push(permission);
      groups.set(key, group);
    }
  }
  return [...groups.values()].sort(
    (a, b) =>
      SOURCE_ORDER.indexOf(a.grant.source) - SOURCE_ORDER.indexOf(b.grant.source) ||
      a.key.localeCompare(b.key),
  );
}
