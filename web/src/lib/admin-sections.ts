/**
 * The sections of the admin area (/admin), their labels and where they are: the admin layout's
 * sub-navigation, and the shortcuts on an admin's start page, which use the same words.
 */
export interface AdminSection {
  label: string;
  to: string;
  /** What the section is for, in a few words (the start page's shortcuts). */
  description: string;
  /** Whether the section is the one shown for a path. */
  matches(pathname: string): boolean;
}

export const ADMIN_SECTIONS: readonly AdminSection[] = [
  {
    label: 'Users & Roles',
    to: '/admin',
    description: 'Find people, change their role, permissions and course roles',
    matches: (p) => p === '/admin' || p === '/admin/' || p.startsWith('/admin/users'),
  },
  {
    label: 'Roles',
    to: '/admin/roles',
    description: 'System roles and custom roles, and what each one may do',
    matches: (p) => p.startsWith('/admin/roles'),
  },
  {
    label: 'Access changes',
    to: '/admin/audit',
    description: 'Who changed whose access, and when',
    matches: (p) => p.startsWith('/admin/audit'),
  },
  {
    label: 'Permission checks',
    to: '/admin/checks',
    description: 'The latest permission checks and their answers',
    matches: (p) => p.startsWith('/admin/checks'),
  },
  {
    label: 'Authentication',
    to: '/admin/authentication',
    description: 'Sign-in methods and their providers',
    matches: (p) => p.startsWith('/admin/authentication'),
  },
  {
    label: 'System',
    to: '/admin/system',
    description: 'The server’s runtime, database and uptime',
    matches: (p) => p.startsWith('/admin/system'),
  },
];
