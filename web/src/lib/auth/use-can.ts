/**
 * Permission checks for the UI, built only on core's functions over the snapshot from
 * GET /api/auth/me. The server enforces the same rules; this only decides what to show.
 */
import {
  canSeeNavItem,
  checkPermission,
  checkRequirement,
  checkRoute,
  RoleRegistry,
  type AccessRequirement,
  type AccessSnapshot,
  type AccessSubject,
  type CheckOptions,
  type Decision,
  type NavItem,
  type RouteDef,
} from '@learning-hub/core';
import { useMemo } from 'react';
import { useAuth } from './auth-context';

/** The subject core's checks take, from the snapshot the server sends. */
export function toAccessSubject(access: AccessSnapshot): AccessSubject {
  return {
    id: access.userId,
    role: access.role,
    isSuperAdmin: access.isSuperAdmin,
    directPermissions: access.directPermissions,
    contextAssignments: access.contextAssignments,
  };
}

const NOT_SIGNED_IN: Decision = { allowed: false, reason: 'Not signed in' };

export interface Can {
  subject: AccessSubject | null;
  /** One permission, in the system context unless a scope is given. */
  permission(permission: string, options?: CheckOptions): boolean;
  requirement(requirement: AccessRequirement, options?: CheckOptions): Decision;
  /** Whether a route of core's ROUTES may be opened with these URL parameters. */
  route(route: RouteDef, params?: Readonly<Record<string, string | undefined>>): Decision;
  navItem(item: NavItem): boolean;
}

/** Pure version of useCan, for a given snapshot (null: signed out or not loaded). */
export function createCan(access: AccessSnapshot | null): Can {
  const subject = access ? toAccessSubject(access) : null;
  // The user's custom roles (if any) resolve exactly as on the server.
  const roles = new RoleRegistry(access?.customRoles ?? []);
  return {
    subject,
    permission: (permission, options) =>
      subject ? checkPermission(subject, permission, { roles, ...options }).allowed : false,
    requirement: (requirement, options) =>
      subject ? checkRequirement(subject, requirement, { roles, ...options }) : NOT_SIGNED_IN,
    route: (route, params = {}) => {
      if (route.access === 'public') return { allowed: true };
      // With the user's custom roles known, as the server checks it.
      return subject ? checkRoute(subject, route, params, { roles }) : NOT_SIGNED_IN;
    },
    navItem: (item) => canSeeNavItem(subject, item, { roles }),
  };
}

/** What the signed-in user may see, from core's checks. */
export function useCan(): Can {
  const { access } = useAuth();
  return useMemo(() => createCan(access), [access]);
}
