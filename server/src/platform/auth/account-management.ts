/**
 * Managing accounts: create a local account with a one-time password, edit names, email and
 * department, deactivate (ending every session) and reactivate. The one way to do these things,
 * used by the admin API and by the operator's command line alike; each change is written to the
 * durable access audit trail in the same transaction. Who may do what is decided by the callers
 * (the routes check permissions through core/access; the command line is the operator).
 */
import { randomInt } from 'node:crypto';
import {
  AppError,
  isSystemRoleId,
  LdapSettingsSchema,
  SsoSettingsSchema,
  SYSTEM_ROLE_IDS,
  type AccountField,
  type AccountSource,
  type AuthMethod,
} from '@learning-hub/core';
import { listCustomRoles, recordAccessAudit } from '../access/access-repository';
import type { Db } from '../db';
import { isUniqueViolation } from '../db/errors';
import { hashPassword } from './passwords';
import { findProvider } from './provider-repository';
import { revokeUserSessions } from './session-repository';
import {
  createUser,
  findUserById,
  lockActiveAdmins,
  setActiveIf,
  updateAccountFields,
  updateProfile,
  type UserRecord,
} from './user-repository';
import { findDepartment } from './departments';
import { auditedActor, type Actor } from '../actor';

/** Letters and digits that cannot be mistaken for one another when read off a screen. */
const ONE_TIME_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';
const ONE_TIME_LENGTH = 20;

/** A random one-time password: 20 characters of a 56-letter alphabet (about 116 bits). */
export function generateOneTimePassword(): string {
  let out = '';
  for (let i = 0; i < ONE_TIME_LENGTH; i++) {
    out += ONE_TIME_ALPHABET[randomInt(ONE_TIME_ALPHABET.length)];
  }
  return out;
}

/** A system role or one of the custom roles stored in the database, else a 400 naming the known ones. */
export async function requireKnownRole(db: Db, role: string): Promise<void> {
  if (isSystemRoleId(role)) return;
  const custom = await listCustomRoles(db);
  if (custom.some((r) => r.id === role)) return;
  const known = [...SYSTEM_ROLE_IDS, ...custom.map((r) => r.id)].join(', ');
  throw new AppError('VALIDATION_ERROR', `Unknown role "${role}"; use one of ${known}.`);
}

async function requireDepartment(db: Db, departmentId: string | null): Promise<void> {
  if (departmentId === null) return;
  // By id only: findDepartment also matches a name, which is no department id.
  if ((await findDepartment(db, departmentId))?.id !== departmentId) {
    throw new AppError('VALIDATION_ERROR', `No such department: ${departmentId}`);
  }
}

export const usernameTaken = (username: string) =>
  `A user named "${username}" already exists. Choose another username.`;

export interface NewLocalAccount {
  username: string;
  firstname: string;
  lastname: string;
  email: string | null;
  departmentId: string | null;
  role: string;
  /** A password the operator chose (already checked against the policy); none: a one-time one. */
  password?: { value: string; mustChange: boolean };
}

export interface CreatedAccount {
  user: UserRecord;
  /** The generated password, to show once; null when one was given. */
  oneTimePassword: string | null;
}

/**
 * Creates a local account. Without a given password a one-time one is generated and the user must
 * change it at first sign-in. The username's uniqueness is the database's unique key, so two
 * creations racing for one name end in one account and a 409, never a 500.
 */
export async function createLocalAccount(
  db: Db,
  input: NewLocalAccount,
  actor: Actor,
  at: string,
): Promise<CreatedAccount> {
  await requireKnownRole(db, input.role);
  await requireDepartment(db, input.departmentId);
  const oneTimePassword = input.password ? null : generateOneTimePassword();
  const passwordHash = await hashPassword(input.password?.value ?? (oneTimePassword as string));
  try {
    const user = await db.transaction().execute(async (trx) => {
      const created = await createUser(
        trx,
        {
          username: input.username,
          firstname: input.firstname,
          lastname: input.lastname,
          email: input.email,
          role: input.role,
          departmentId: input.departmentId,
          passwordHash,
          authMethod: 'local',
          isDefaultPassword: oneTimePassword !== null,
          mustChangePassword: oneTimePassword !== null || input.password?.mustChange === true,
        },
        at,
      );
      await recordAccessAudit(trx, at, {
        ...auditedActor(actor),
        action: 'user.create',
        targetUserId: created.id,
        targetUsername: created.username,
        roleId: created.role,
        details: {
          firstname: created.firstname,
          lastname: created.lastname,
          email: created.email,
          department: created.departmentName,
          role: created.role,
          authMethod: 'local',
          oneTimePassword: oneTimePassword !== null,
        },
      });
      return created;
    });
    return { user, oneTimePassword };
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('CONFLICT', usernameTaken(input.username));
    throw error;
  }
}

/**
 * The fields a sign-in provider writes at every sign-in of its accounts (see identity-mapping):
 * changing them here would be undone at the next sign-in, so they are read-only. `settings` are
 * the provider's stored settings; unreadable or missing ones count as the method's defaults.
 */
export function providerOwnedFields(authMethod: AuthMethod, settings: unknown): AccountField[] {
  switch (authMethod) {
    case 'ldap': {
      const parsed = LdapSettingsSchema.shape.attributes.safeParse(
        (settings as { attributes?: unknown } | null)?.attributes,
      );
      const attributes = parsed.success
        ? parsed.data
        : LdapSettingsSchema.shape.attributes.parse(undefined);
      const owned: AccountField[] = [];
      if (attributes.firstname) owned.push('firstname');
      if (attributes.lastname) owned.push('lastname');
      if (attributes.email) owned.push('email');
      if (attributes.department) owned.push('department');
      return owned;
    }
    case 'sso': {
      const claim = SsoSettingsSchema.shape.departmentClaim.safeParse(
        (settings as { departmentClaim?: unknown } | null)?.departmentClaim,
      );
      return [
        'firstname',
        'lastname',
        'email',
        ...(claim.success && claim.data ? (['department'] as const) : []),
      ];
    }
    case 'moodle':
      // Moodle's site info gives names, never an email address or a department.
      return ['firstname', 'lastname'];
    default:
      return [];
  }
}

/** The provider an account signs in with and the fields it owns. */
export async function accountSource(db: Db, user: UserRecord): Promise<AccountSource> {
  const stored = user.authSource ? await findProvider(db, user.authSource) : null;
  return {
    provider: stored
      ? { id: stored.id, label: stored.label }
      : user.authSource
        ? { id: user.authSource, label: user.authSource }
        : null,
    providerOwned: providerOwnedFields(user.authMethod, stored?.settings ?? null),
  };
}

export interface AccountChanges {
  firstname?: string;
  lastname?: string;
  email?: string | null;
  departmentId?: string | null;
}

const FIELD_OF_CHANGE: Record<keyof AccountChanges, AccountField> = {
  firstname: 'firstname',
  lastname: 'lastname',
  email: 'email',
  departmentId: 'department',
};

/**
 * Changes names, email and department. Fields the account's provider owns are refused (only
 * those that would really change: sending a field's current value is no change).
 */
export async function updateAccount(
  db: Db,
  user: UserRecord,
  changes: AccountChanges,
  actor: Actor,
  at: string,
): Promise<UserRecord> {
  const current: Required<AccountChanges> = {
    firstname: user.firstname,
    lastname: user.lastname,
    email: user.email,
    departmentId: user.departmentId,
  };
  const changed = (Object.keys(changes) as (keyof AccountChanges)[]).filter(
    (key) => changes[key] !== undefined && changes[key] !== current[key],
  );
  if (changed.length === 0) return user;

  await refuseProviderOwned(
    db,
    user,
    changed.map((key) => FIELD_OF_CHANGE[key]),
  );
  if (changes.departmentId !== undefined) await requireDepartment(db, changes.departmentId);

  const set: AccountChanges = {};
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  for (const key of changed) {
    (set as Record<string, unknown>)[key] = changes[key];
    before[key] = current[key];
    after[key] = changes[key];
  }
  await db.transaction().execute(async (trx) => {
    await updateAccountFields(trx, user.id, set, at);
    await recordAccessAudit(trx, at, {
      ...auditedActor(actor),
      action: 'user.update',
      targetUserId: user.id,
      targetUsername: user.username,
      details: { before, after },
    });
  });
  const updated = await findUserById(db, user.id);
  if (!updated) throw new AppError('NOT_FOUND', 'User not found');
  return updated;
}

/**
 * Refuses (409, naming the fields and the provider) a change to fields the account's sign-in
 * provider owns: the next sign-in would undo it.
 */
async function refuseProviderOwned(
  db: Db,
  user: UserRecord,
  fields: readonly AccountField[],
): Promise<void> {
  const { provider, providerOwned } = await accountSource(db, user);
  const refused = fields.filter((f) => providerOwned.includes(f));
  if (refused.length === 0) return;
  const names = refused.map((f) => ACCOUNT_FIELD_NAMES[f]).join(', ');
  throw new AppError(
    'CONFLICT',
    `${names} of this account ${refused.length === 1 ? 'comes' : 'come'} from ${
      provider?.label ?? 'its sign-in provider'
    } and can only be changed there.`,
    { fields: refused },
  );
}

/**
 * A user's change to their own profile (names, email): the same provider rule as an admin's
 * change, so what a directory, Moodle or SSO account's provider sets is not edited here only to
 * be undone at the next sign-in.
 */
export async function updateOwnProfile(
  db: Db,
  user: UserRecord,
  changes: { firstname?: string; lastname?: string; email?: string | null },
  at: string,
): Promise<UserRecord> {
  const current = { firstname: user.firstname, lastname: user.lastname, email: user.email };
  const changed = (Object.keys(changes) as (keyof typeof changes)[]).filter(
    (key) => changes[key] !== undefined && changes[key] !== current[key],
  );
  await refuseProviderOwned(db, user, changed);
  if (changed.length > 0) {
    await updateProfile(db, user.id, Object.fromEntries(changed.map((k) => [k, changes[k]])), at);
  }
  const updated = await findUserById(db, user.id);
  if (!updated) throw new AppError('UNAUTHENTICATED', 'User not authenticated');
  return updated;
}

const ACCOUNT_FIELD_NAMES: Record<AccountField, string> = {
  firstname: 'The first name',
  lastname: 'The last name',
  email: 'The email address',
  department: 'The department',
};

export const DEACTIVATION_REFUSALS = {
  self: 'You cannot deactivate your own account.',
  lastAdmin: 'At least one active admin must remain.',
  developer: 'The built-in developer account of dev mode cannot be deactivated.',
} as const;

export interface ActiveChange {
  user: UserRecord;
  /** False when the account already was in that state. */
  changed: boolean;
  /** Sessions ended by a deactivation. */
  endedSessions: number;
}

/**
 * Deactivates an account (ending all its sessions at once) or reactivates it. Nobody deactivates
 * themselves, and the last active admin cannot be deactivated: the admins are locked first, so
 * two deactivations racing for the last two admins cannot both pass.
 */
export async function setAccountActive(
  db: Db,
  user: UserRecord,
  active: boolean,
  actor: Actor,
  at: string,
): Promise<ActiveChange> {
  if (!active) {
    if (actor.id !== null && actor.id === user.id) {
      throw new AppError('CONFLICT', DEACTIVATION_REFUSALS.self);
    }
    if (user.authMethod === 'disabled')
      throw new AppError('CONFLICT', DEACTIVATION_REFUSALS.developer);
  }
  const outcome = await db.transaction().execute(async (trx) => {
    if (!active) {
      const admins = await lockActiveAdmins(trx);
      if (admins.includes(user.id) && admins.length <= 1) {
        throw new AppError('CONFLICT', DEACTIVATION_REFUSALS.lastAdmin);
      }
    }
    if (!(await setActiveIf(trx, user.id, active, at))) return { changed: false, endedSessions: 0 };
    const endedSessions = active ? 0 : await revokeUserSessions(trx, user.id, at, 'deactivated');
    await recordAccessAudit(trx, at, {
      ...auditedActor(actor),
      action: active ? 'user.reactivate' : 'user.deactivate',
      targetUserId: user.id,
      targetUsername: user.username,
      details: active ? {} : { endedSessions },
    });
    return { changed: true, endedSessions };
  });
  const updated = await findUserById(db, user.id);
  if (!updated) throw new AppError('NOT_FOUND', 'User not found');
  return { user: updated, ...outcome };
}
