/**
 * Navigation access mapped to permissions per section (spec §6): each nav section is guarded by
 * one `nav.*` permission, which the system roles inherit student → instructor → admin.
 */
import type { PermissionId } from './catalogue';

export type NavSection = 'everyone' | 'student' | 'instructor' | 'admin';

/** The permission that opens each navigation section; `everyone` needs none. */
export const NAV_SECTION_PERMISSION: Readonly<Record<NavSection, PermissionId | null>> = {
  everyone: null,
  student: 'nav.student',
  instructor: 'nav.instructor',
  admin: 'nav.admin',
};
