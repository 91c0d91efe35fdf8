import { CONTEXT_ROLES, isContextRoleId } from '@learning-hub/core';

/** The display name of a role in a list of roles, or its id when it is not there. */
export function roleName(
  roles: readonly { id: string; displayName: string }[] | undefined,
  id: string,
) {
  return roles?.find((r) => r.id === id)?.displayName ?? id;
}

/** The display name of a context role. */
export function contextRoleName(id: string): string {
  return isContextRoleId(id) ? CONTEXT_ROLES[id].displayName : id;
}

/** Grouped options (system roles, then custom roles) for a role select. */
export function roleOptions(
  roles: readonly { id: string; displayName: string; isSystemRole: boolean }[] | undefined,
) {
  const all = roles ?? [];
  return [
    {
      group: 'System roles',
      items: all.filter((r) => r.isSystemRole).map((r) => ({ value: r.id, label: r.displayName })),
    },
    {
      group: 'Custom roles',
      items: all.filter((r) => !r.isSystemRole).map((r) => ({ value: r.id, label: r.displayName })),
    },
  ].filter((g) => g.items.length > 0);
}
