/** The permission catalogue as grouped options for Mantine selects. */
import { getPermission, PERMISSION_CATALOGUE, PERMISSIONS } from '@learning-hub/core';

export interface PermissionOption {
  value: string;
  label: string;
  disabled?: boolean;
}

export interface PermissionGroup {
  group: string;
  items: PermissionOption[];
}

/**
 * Every permission of the catalogue grouped by resource, labelled by id; `disabled` ids are
 * shown but cannot be picked, `exclude` ids are left out.
 */
export function permissionOptions(
  options: { exclude?: Iterable<string>; disabled?: Iterable<string>; note?: string } = {},
): PermissionGroup[] {
  const exclude = new Set(options.exclude ?? []);
  const disabled = new Set(options.disabled ?? []);
  return Object.keys(PERMISSION_CATALOGUE)
    .map((resource) => ({
      group: resource,
      items: PERMISSIONS.filter((p) => p.resource === resource && !exclude.has(p.id)).map((p) =>
        disabled.has(p.id)
          ? { value: p.id, label: `${p.id} (${options.note ?? 'already held'})`, disabled: true }
          : { value: p.id, label: p.id },
      ),
    }))
    .filter((g) => g.items.length > 0);
}

/** The catalogue's description of a permission ('' for an unknown id). */
export function permissionDescription(id: string): string {
  return getPermission(id)?.description ?? '';
}
