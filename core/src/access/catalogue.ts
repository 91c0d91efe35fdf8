/**
 * The permission catalogue of spec §6, exactly. A permission id is `resource.action`.
 */

/** Actions per resource, in the order of spec §6. */
export const PERMISSION_CATALOGUE = {
  system: ['admin', 'view', 'settings'],
  user: ['view', 'create', 'edit', 'delete', 'manage_roles', 'view_profile', 'edit_profile'],
  course: [
    'view',
    'create',
    'edit',
    'delete',
    'enroll',
    'unenroll',
    'view_participants',
    'manage_participants',
  ],
  assignment: ['view', 'create', 'edit', 'delete', 'submit', 'grade', 'view_submissions'],
  grade: ['view_own', 'view_all', 'edit', 'export'],
  library: ['view', 'upload', 'edit', 'delete', 'manage'],
  wiki: ['view', 'create', 'edit', 'delete', 'manage'],
  analytics: ['view', 'export', 'manage'],
  department: ['view', 'manage'],
  nav: ['admin', 'instructor', 'student'],
} as const;

type Catalogue = typeof PERMISSION_CATALOGUE;
/** A resource of the catalogue (`course`, `wiki`, …). */
export type PermissionResource = keyof Catalogue;
/** Every valid permission id, for example `course.view`. */
export type PermissionId = {
  [R in PermissionResource]: `${R}.${Catalogue[R][number]}`;
}[PermissionResource];

/** The Permission entity of spec §3. */
export interface Permission {
  id: PermissionId;
  name: string;
  resource: PermissionResource;
  action: string;
  description: string;
}

const RESOURCE_LABELS: Record<PermissionResource, string> = {
  system: 'system',
  user: 'users',
  course: 'courses',
  assignment: 'assignments',
  grade: 'grades',
  library: 'the library',
  wiki: 'the wiki',
  analytics: 'analytics',
  department: 'departments',
  nav: 'navigation',
};

function describe(resource: PermissionResource, action: string): string {
  const what = RESOURCE_LABELS[resource];
  if (resource === 'nav') return `See the ${action} section of the navigation`;
  if (resource === 'system') {
    if (action === 'admin') return 'Administer the whole system';
    if (action === 'view') return 'View system information';
    return 'Change system settings';
  }
  const verb = action.replace(/_/g, ' ');
  return `${verb.charAt(0).toUpperCase()}${verb.slice(1)} (${what})`;
}

function titleCase(text: string): string {
  return text
    .split(/[_\s]+/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join(' ');
}

/** Every permission of the catalogue, in catalogue order. */
export const PERMISSIONS: readonly Permission[] = (
  Object.keys(PERMISSION_CATALOGUE) as PermissionResource[]
).flatMap((resource) =>
  PERMISSION_CATALOGUE[resource].map((action): Permission => ({
    id: `${resource}.${action}` as PermissionId,
    name: `${titleCase(resource)} ${titleCase(action)}`,
    resource,
    action,
    description: describe(resource, action),
  })),
);

/** Every permission id, in catalogue order. */
export const ALL_PERMISSION_IDS: readonly PermissionId[] = PERMISSIONS.map((p) => p.id);

const PERMISSION_ID_SET: ReadonlySet<string> = new Set(ALL_PERMISSION_IDS);

/** True when `id` names a permission of the catalogue. Unknown ids are invalid (spec §5). */
export function isPermissionId(id: unknown): id is PermissionId {
  return typeof id === 'string' && PERMISSION_ID_SET.has(id);
}

/** The catalogue entry for `id`, or undefined for an unknown id. */
export function getPermission(id: string): Permission | undefined {
  return PERMISSIONS.find((p) => p.id === id);
}
