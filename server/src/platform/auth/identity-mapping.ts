/**
 * Maps a provider's identity to a Learning Hub account: the system role and the context roles
 * its groups map to, then the account itself — created at the first sign-in, refreshed at every
 * one. Role and mapped assignments follow the directory: a group membership that is gone takes
 * its role or assignment with it at the next sign-in. Assignments an admin made by hand are never
 * touched by the mapping (for a context with a manual assignment, the manual one stands).
 */
import {
  contextKey,
  DEPARTMENT_NAME_MAX,
  hasLoneSurrogate,
  identityTextProblem,
  sanitiseIdentityText,
  type AccessContext,
  type ContextRoleId,
  type ContextRule,
  type RoleRegistry,
} from '@learning-hub/core';
import {
  deleteAssignment,
  listAssignments,
  recordAccessAudit,
  upsertAssignment,
} from '../access/access-repository';
import { describeContextTarget } from '../access/context-labels';
import type { Db } from '../db';
import { ProviderFailure, type Identity } from './providers/types';
import {
  createUser,
  findUserByExternalId,
  findUserById,
  findUserByUsername,
  setRole,
  updateFromProvider,
  type ProviderFields,
  type UserRecord,
} from './user-repository';
import { findDepartmentForName, findOrCreateDepartment } from './departments';

export interface MappingRules {
  roleMapping: readonly { group: string; role: string }[];
  contextMapping: readonly ContextRule[];
  defaultRole: string;
  requireMappedGroup: boolean;
}

export interface MappedAccess {
  role: string;
  assignments: { context: AccessContext; roles: ContextRoleId[] }[];
  /** Whether any rule matched the user's groups. */
  matched: boolean;
}

/** Mapped assignments as the dry run shows them: context key, the context's name, roles. */
export async function describeMappedAssignments(
  db: Db,
  assignments: MappedAccess['assignments'],
): Promise<{ context: string; label: string | null; roles: string[] }[]> {
  return Promise.all(
    assignments.map(async (a) => ({
      context: contextKey(a.context),
      label: await describeContextTarget(db, a.context),
      roles: a.roles,
    })),
  );
}

/** The role and context roles an identity's groups give under the rules. */
export function mapAccess(
  identity: Identity,
  rules: MappingRules,
  roles: RoleRegistry,
): MappedAccess {
  const groups = new Set(identity.groups.map((g) => g.toLowerCase()));
  const has = (group: string) => groups.has(group.toLowerCase());
  let role: string | null = null;
  let matched = false;
  for (const rule of rules.roleMapping) {
    if (!has(rule.group)) continue;
    matched = true;
    const candidate = roles.get(rule.role);
    if (!candidate) continue;
    if (role === null || candidate.priority > (roles.get(role)?.priority ?? -1)) role = rule.role;
  }
  const byContext = new Map<string, { context: AccessContext; roles: Set<ContextRoleId> }>();
  for (const rule of rules.contextMapping) {
    if (!has(rule.group)) continue;
    matched = true;
    const context: AccessContext =
      rule.context.type === 'course'
        ? { type: 'course', courseId: rule.context.courseId }
        : { type: 'department', departmentId: rule.context.departmentId };
    const key = contextKey(context);
    const entry = byContext.get(key) ?? { context, roles: new Set<ContextRoleId>() };
    for (const r of rule.roles) entry.roles.add(r);
    byContext.set(key, entry);
  }
  const fallback = roles.get(rules.defaultRole) ? rules.defaultRole : 'student';
  return {
    role: role ?? fallback,
    assignments: [...byContext.values()].map((e) => ({
      context: e.context,
      roles: [...e.roles].sort(),
    })),
    matched,
  };
}

/** Why a directory's, Moodle's or an identity provider's account cannot be signed in with here. */
export const UNACCEPTABLE_USERNAME =
  'The username your sign-in service gave for this account contains characters Learning Hub cannot accept (control or text-direction characters). Contact an administrator.';

/** Longest first or last name and email address kept from a provider. */
const NAME_MAX = 100;
const EMAIL_MAX = 254;

/**
 * An identity as it may be stored and shown. The provider owns these values, so names, email and
 * department are cleaned rather than refused (control and bidirectional characters and broken
 * surrogates dropped, NFC, cut to length: the person can still sign in, and "\u202egnp.exe"
 * shows as "gnp.exe", not "exe.png"). The username and the provider's id are identifiers: changing
 * them could make one account another's, so one holding such characters is refused with a clear
 * message instead, never a server error.
 */
export function cleanIdentity(identity: Identity): Identity {
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  const unstorable = (v: string) => /[\u0000-\u001f\u007f-\u009f]/.test(v) || hasLoneSurrogate(v);
  if (identityTextProblem(identity.username, 'Username') || unstorable(identity.externalId)) {
    throw new ProviderFailure('forbidden', UNACCEPTABLE_USERNAME);
  }
  const email = identity.email === null ? null : sanitiseIdentityText(identity.email, EMAIL_MAX);
  const department =
    identity.department === null
      ? null
      : sanitiseIdentityText(identity.department, DEPARTMENT_NAME_MAX);
  return {
    ...identity,
    username: identity.username.normalize('NFC'),
    firstname: sanitiseIdentityText(identity.firstname, NAME_MAX),
    lastname: sanitiseIdentityText(identity.lastname, NAME_MAX),
    email: email || null,
    department: department || null,
  };
}

export interface AppliedIdentity {
  user: UserRecord;
  created: boolean;
}

const sameRoles = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && [...a].sort().every((r, i) => r === [...b].sort()[i]);

/**
 * Creates or refreshes the account, its role and its mapped assignments. With `dryRun`, nothing
 * is written and the account as it would be is returned.
 */
export async function applyIdentity(
  db: Db,
  identity: Identity,
  access: MappedAccess,
  at: string,
  options: { dryRun?: boolean } = {},
): Promise<AppliedIdentity> {
  identity = cleanIdentity(identity);
  const source = `${identity.method}:${identity.providerId}`;
  const existing =
    (await findUserByExternalId(db, identity.method, identity.providerId, identity.externalId)) ??
    (await findUserByUsername(db, identity.username));
  if (
    existing &&
    (existing.authMethod !== identity.method ||
      (existing.authSource ?? identity.providerId) !== identity.providerId)
  ) {
    // Never let one sign-in method take over an account of another.
    throw ProviderFailure.refused('conflict');
  }
  if (existing && !existing.isActive) {
    throw ProviderFailure.refused('deactivated');
  }

  let departmentId: string | null | undefined = undefined;
  if (identity.department) {
    departmentId = options.dryRun
      ? ((await findDepartmentForName(db, identity.department))?.id ?? null)
      : (await findOrCreateDepartment(db, identity.department, at)).id;
  }
  const provider: ProviderFields = {
    authSource: identity.providerId,
    externalId: identity.externalId,
    ldapGroups: identity.method === 'ldap' ? identity.groups : null,
    ldapAttributes: identity.method === 'ldap' ? (identity.ldapAttributes ?? {}) : null,
    moodleId: identity.moodleId ?? null,
    ssoProvider: identity.method === 'sso' ? identity.providerId : null,
  };

  if (options.dryRun) {
    const preview: UserRecord = {
      ...(existing ?? {
        id: '(new)',
        passwordHash: null,
        lastLogin: null,
        isActive: true,
        isDefaultPassword: false,
        mustChangePassword: false,
        isSuperAdmin: false,
        createdAt: at,
        updatedAt: at,
        accessVersion: 0,
        avatar: null,
      }),
      username: existing?.username ?? identity.username,
      email: identity.email ?? existing?.email ?? null,
      firstname: identity.firstname,
      lastname: identity.lastname,
      role: access.role,
      departmentId: departmentId === undefined ? (existing?.departmentId ?? null) : departmentId,
      departmentName: identity.department ?? existing?.departmentName ?? null,
      authMethod: identity.method,
      ...provider,
      ldapGroups: provider.ldapGroups ?? null,
      ldapAttributes: provider.ldapAttributes ?? null,
      moodleId: provider.moodleId ?? null,
      ssoProvider: provider.ssoProvider ?? null,
    };
    return { user: preview, created: !existing };
  }

  return db.transaction().execute(async (trx) => {
    let user: UserRecord;
    let created = false;
    if (!existing) {
      user = await createUser(
        trx,
        {
          username: identity.username,
          email: identity.email,
          firstname: identity.firstname,
          lastname: identity.lastname,
          role: access.role,
          departmentId: departmentId ?? null,
          passwordHash: null,
          authMethod: identity.method,
          provider,
        },
        at,
      );
      created = true;
    } else {
      await updateFromProvider(
        trx,
        existing.id,
        {
          firstname: identity.firstname || existing.firstname,
          lastname: identity.lastname || existing.lastname,
          ...(identity.email !== null ? { email: identity.email } : {}),
          ...(departmentId !== undefined && departmentId !== existing.departmentId
            ? { departmentId }
            : {}),
          provider,
        },
        at,
      );
      if (existing.role !== access.role) {
        await setRole(trx, existing.id, access.role, at);
        await recordAccessAudit(trx, at, {
          action: 'role.set',
          actorId: null,
          actorUsername: source,
          targetUserId: existing.id,
          targetUsername: existing.username,
          roleId: access.role,
          details: { from: existing.role, to: access.role, via: 'group mapping at sign-in' },
        });
      }
      user = existing;
    }

    // Mapped assignments: add and refresh what the groups give, remove what they no longer do.
    const current = await listAssignments(trx, user.id);
    const wanted = new Map(access.assignments.map((a) => [contextKey(a.context), a]));
    for (const assignment of current) {
      if (assignment.assignedBy !== source) continue;
      if (wanted.has(contextKey(assignment.context))) continue;
      await deleteAssignment(trx, user.id, assignment.context);
      await recordAccessAudit(trx, at, {
        action: 'assignment.remove',
        actorId: null,
        actorUsername: source,
        targetUserId: user.id,
        targetUsername: user.username,
        context: contextKey(assignment.context),
        details: { roles: assignment.roles, via: 'group membership gone' },
      });
    }
    for (const [key, desired] of wanted) {
      const present = current.find((a) => contextKey(a.context) === key);
      if (present && present.assignedBy !== source) continue;
      if (
        present &&
        sameRoles(present.roles, desired.roles) &&
        present.directPermissions.length === 0
      )
        continue;
      await upsertAssignment(trx, {
        userId: user.id,
        context: desired.context,
        roles: desired.roles,
        directPermissions: [],
        assignedBy: source,
        assignedAt: at,
        expiresAt: null,
        isActive: true,
      });
      await recordAccessAudit(trx, at, {
        action: present ? 'assignment.replace' : 'assignment.create',
        actorId: null,
        actorUsername: source,
        targetUserId: user.id,
        targetUsername: user.username,
        context: key,
        details: { roles: desired.roles, via: 'group mapping at sign-in' },
      });
    }
    const fresh = await findUserById(trx, user.id);
    if (!fresh) throw new Error('mapped user vanished');
    return { user: fresh, created };
  });
}
