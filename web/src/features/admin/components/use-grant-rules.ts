/**
 * The grant rules of core/access for one user's access sections: what the signed-in user may
 * give this user or take away, worded as the server's refusals. The server applies the same
 * functions; this only decides what to offer.
 */
import {
  ALL_PERMISSION_IDS,
  assignmentRemoveDenial,
  assignmentReplaceDenial,
  CONTEXT_ROLE_IDS,
  grantableContextPermissions,
  grantableContextRoles,
  grantablePermissions,
  grantableRoles,
  grantTargetDenial,
  permissionRevokeDenial,
  roleChangeDenial,
  type AccessContext,
  type AssignmentGrant,
  type GrantTarget,
} from '@learning-hub/core';
import { useMemo } from 'react';
import { useCan } from '../../../lib/auth/use-can';
import { useRoles } from '../api/roles-api';
import { registryOf } from './role-form-modal';

export interface GrantRules {
  /** False until the signed-in user's permissions and the roles are known: nothing is offered. */
  ready: boolean;
  /** Why this user's role cannot be changed at all (null: it can). */
  roleChange: string | null;
  /** The roles that may be given (the current one aside). */
  roles: ReadonlySet<string>;
  /** Why no direct permission of this user can be granted or revoked (null: some can). */
  permissions: string | null;
  /** The catalogue permissions that may be granted directly. */
  grantable: ReadonlySet<string>;
  revokeDenial(permission: string): string | null;
  /** Why no assignment of this user can be made, changed or removed (null: some can). */
  assignments: string | null;
  contextRoles(context: AccessContext): ReadonlySet<string>;
  contextPermissions(context: AccessContext): ReadonlySet<string>;
  removeDenial(previous: AssignmentGrant): string | null;
  replaceDenial(previous: AssignmentGrant | null, next: AssignmentGrant): string | null;
}

const LOADING = 'Loading your permissions';
const NONE: ReadonlySet<string> = new Set();

/** The grant rules for `target` as the signed-in user. */
export function useGrantRules(target: GrantTarget): GrantRules {
  const { subject } = useCan();
  const roles = useRoles();
  const { id, role, isSuperAdmin } = target;
  return useMemo((): GrantRules => {
    if (!subject || !roles.data) {
      return {
        ready: false,
        roleChange: LOADING,
        roles: NONE,
        permissions: LOADING,
        grantable: NONE,
        revokeDenial: () => LOADING,
        assignments: LOADING,
        contextRoles: () => NONE,
        contextPermissions: () => NONE,
        removeDenial: () => LOADING,
        replaceDenial: () => LOADING,
      };
    }
    const registry = registryOf(roles.data);
    const who: GrantTarget = { id, role, isSuperAdmin };
    return {
      ready: true,
      roleChange: roleChangeDenial(subject, who, registry),
      roles: new Set(grantableRoles(subject, who, registry)),
      permissions: grantTargetDenial(subject, who, 'permissions'),
      grantable: new Set(grantablePermissions(subject, who, ALL_PERMISSION_IDS, registry)),
      revokeDenial: (permission) => permissionRevokeDenial(subject, who, permission, registry),
      assignments: grantTargetDenial(subject, who, 'assignments'),
      contextRoles: (context) =>
        new Set(grantableContextRoles(subject, who, context, CONTEXT_ROLE_IDS, registry)),
      contextPermissions: (context) =>
        new Set(grantableContextPermissions(subject, who, context, ALL_PERMISSION_IDS, registry)),
      removeDenial: (previous) => assignmentRemoveDenial(subject, who, previous, registry),
      replaceDenial: (previous, next) =>
        assignmentReplaceDenial(subject, who, previous, next, registry),
    };
  }, [subject, roles.data, id, role, isSuperAdmin]);
}
