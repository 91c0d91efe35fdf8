/**
 * All SQL about users. Rows become `UserRecord`s here (with the name of the user's department,
 * all the identity needs of it); nothing else reads the `users` table. The departments that
 * sign-in creates and finds by name are auth/departments.ts.
 */
import { randomUUID } from 'node:crypto';
import type { AuthMethod, PublicUser } from '@learning-hub/core';
import { sql } from 'kysely';
import type { Db } from '../db';
import { likePattern } from '../db/sql';

export interface UserRecord {
  id: string;
  username: string;
  email: string | null;
  firstname: string;
  lastname: string;
  role: string;
  departmentId: string | null;
  departmentName: string | null;
  avatar: string | null;
  passwordHash: string | null;
  authMethod: AuthMethod;
  lastLogin: string | null;
  isActive: boolean;
  isDefaultPassword: boolean;
  mustChangePassword: boolean;
  isSuperAdmin: boolean;
  createdAt: string;
  updatedAt: string;
  /** Changes with anything that changes this user's permissions (see the access service). */
  accessVersion: number;
  /** The provider a non-local account signs in with, and its id for the user there. */
  authSource: string | null;
  externalId: string | null;
  ldapGroups: string[] | null;
  ldapAttributes: Record<string, string | string[]> | null;
  moodleId: number | null;
  ssoProvider: string | null;
}

function parseJson<T>(text: string | null, valid: (v: unknown) => v is T): T | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return valid(value) ? value : null;
  } catch {
    return null;
  }
}
const isStringList = (v: unknown): v is string[] =>
  Array.isArray(v) && v.every((x) => typeof x === 'string');
const isAttributeMap = (v: unknown): v is Record<string, string | string[]> =>
  !!v &&
  typeof v === 'object' &&
  !Array.isArray(v) &&
  Object.values(v).every((x) => typeof x === 'string' || isStringList(x));

/** The case-insensitive key accounts are looked up by. */
export function usernameKey(username: string): string {
  return username.normalize('NFKC').toLowerCase();
}

/** The user columns (with the department's name) every user read selects. */
export const USER_COLUMNS = [
  'users.id',
  'users.username',
  'users.email',
  'users.firstname',
  'users.lastname',
  'users.role',
  'users.department_id',
  'departments.name as department_name',
  'users.avatar',
  'users.password_hash',
  'users.auth_method',
  'users.last_login',
  'users.is_active',
  'users.is_default_password',
  'users.must_change_password',
  'users.is_super_admin',
  'users.created_at',
  'users.updated_at',
  'users.access_version',
  'users.auth_source',
  'users.external_id',
  'users.ldap_groups',
  'users.ldap_attributes',
  'users.moodle_id',
  'users.sso_provider',
] as const;

function userQuery(db: Db) {
  return db
    .selectFrom('users')
    .leftJoin('departments', 'departments.id', 'users.department_id')
    .select(USER_COLUMNS);
}

type UserRow = NonNullable<Awaited<ReturnType<ReturnType<typeof userQuery>['executeTakeFirst']>>>;

/** Maps a joined user row to a record; exported for the session repository's join. */
export function toUserRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    firstname: row.firstname,
    lastname: row.lastname,
    role: row.role,
    departmentId: row.department_id,
    departmentName: row.department_name,
    avatar: row.avatar,
    passwordHash: row.password_hash,
    authMethod: row.auth_method as AuthMethod,
    lastLogin: row.last_login,
    isActive: Boolean(row.is_active),
    isDefaultPassword: Boolean(row.is_default_password),
    mustChangePassword: Boolean(row.must_change_password),
    isSuperAdmin: Boolean(row.is_super_admin),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    accessVersion: Number(row.access_version),
    authSource: row.auth_source,
    externalId: row.external_id,
    ldapGroups: parseJson(row.ldap_groups, isStringList),
    ldapAttributes: parseJson(row.ldap_attributes, isAttributeMap),
    moodleId: row.moodle_id === null ? null : Number(row.moodle_id),
    ssoProvider: row.sso_provider,
  };
}

/** The user as the API shows it: never the password hash. */
export function toPublicUser(user: UserRecord): PublicUser {
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    firstname: user.firstname,
    lastname: user.lastname,
    role: user.role,
    department: user.departmentName,
    departmentId: user.departmentId,
    avatar: user.avatar,
    lastLogin: user.lastLogin,
    isActive: user.isActive,
    isDefaultPassword: user.isDefaultPassword,
    mustChangePassword: user.mustChangePassword,
    isSuperAdmin: user.isSuperAdmin,
    authMethod: user.authMethod,
    ...(user.authMethod === 'ldap'
      ? { ldapGroups: user.ldapGroups ?? [], ldapAttributes: user.ldapAttributes ?? {} }
      : {}),
    ...(user.moodleId !== null ? { moodleId: user.moodleId } : {}),
    ...(user.ssoProvider ? { ssoProvider: user.ssoProvider } : {}),
  };
}

export async function findUserByUsername(db: Db, username: string): Promise<UserRecord | null> {
  const row = await userQuery(db)
    .where('users.username_key', '=', usernameKey(username))
    .executeTakeFirst();
  return row ? toUserRecord(row) : null;
}

export async function findUserById(db: Db, id: string): Promise<UserRecord | null> {
  const row = await userQuery(db).where('users.id', '=', id).executeTakeFirst();
  return row ? toUserRecord(row) : null;
}

/** Every user, by username (the operator's list; the admin UI pages through users instead). */
export async function listUsers(db: Db): Promise<UserRecord[]> {
  const rows = await userQuery(db).orderBy('users.username_key').execute();
  return rows.map(toUserRecord);
}

export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewUser {
  username: string;
  email?: string | null;
  firstname: string;
  lastname: string;
  role: string;
  departmentId?: string | null;
  passwordHash: string | null;
  authMethod?: AuthMethod;
  isDefaultPassword?: boolean;
  mustChangePassword?: boolean;
  isSuperAdmin?: boolean;
  /** Accounts of a sign-in provider. */
  provider?: ProviderFields;
}

/** What an account keeps from its sign-in provider. */
export interface ProviderFields {
  authSource: string;
  externalId: string;
  ldapGroups?: string[] | null;
  ldapAttributes?: Record<string, string | string[]> | null;
  moodleId?: number | null;
  ssoProvider?: string | null;
}

function providerColumns(p: ProviderFields) {
  return {
    auth_source: p.authSource,
    external_id: p.externalId,
    ldap_groups: p.ldapGroups ? JSON.stringify(p.ldapGroups) : null,
    ldap_attributes: p.ldapAttributes ? JSON.stringify(p.ldapAttributes) : null,
    moodle_id: p.moodleId ?? null,
    sso_provider: p.ssoProvider ?? null,
  };
}

export async function createUser(db: Db, input: NewUser, now: string): Promise<UserRecord> {
  const id = randomUUID();
  await db
    .insertInto('users')
    .values({
      id,
      username: input.username,
      username_key: usernameKey(input.username),
      email: input.email ?? null,
      firstname: input.firstname,
      lastname: input.lastname,
      role: input.role,
      department_id: input.departmentId ?? null,
      avatar: null,
      password_hash: input.passwordHash,
      auth_method: input.authMethod ?? 'local',
      last_login: null,
      is_active: 1,
      is_default_password: input.isDefaultPassword ? 1 : 0,
      must_change_password: input.mustChangePassword ? 1 : 0,
      is_super_admin: input.isSuperAdmin ? 1 : 0,
      created_at: now,
      updated_at: now,
      ...(input.provider ? providerColumns(input.provider) : {}),
    })
    .execute();
  const created = await findUserById(db, id);
  if (!created) throw new Error('created user vanished');
  return created;
}

export async function updateProfile(
  db: Db,
  userId: string,
  changes: { firstname?: string; lastname?: string; email?: string | null },
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ ...changes, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Stores a new password hash; `mustChange` flags it as one the user has to replace. */
export async function setPasswordHash(
  db: Db,
  userId: string,
  passwordHash: string,
  flags: { isDefaultPassword: boolean; mustChangePassword: boolean },
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      password_hash: passwordHash,
      is_default_password: flags.isDefaultPassword ? 1 : 0,
      must_change_password: flags.mustChangePassword ? 1 : 0,
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
}

/** Changes the system or custom role (and with it the user's permissions). */
export async function setRole(db: Db, userId: string, role: string, now: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ role, updated_at: now, access_version: sql`access_version + 1` })
    .where('id', '=', userId)
    .execute();
}

export async function setActive(
  db: Db,
  userId: string,
  isActive: boolean,
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({ is_active: isActive ? 1 : 0, updated_at: now })
    .where('id', '=', userId)
    .execute();
}

/**
 * Switches an account on or off, only when it is not already so (false: nothing changed). A
 * deactivation ends no sessions by itself: the account-management domain does that alongside.
 */
export async function setActiveIf(
  db: Db,
  userId: string,
  isActive: boolean,
  now: string,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ is_active: isActive ? 1 : 0, updated_at: now })
    .where('id', '=', userId)
    .where('is_active', '=', isActive ? 0 : 1)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Locks the rows of the active admins for the rest of the transaction and returns their ids.
 * Changes that could leave no active admin take this lock first, so they run one after the
 * other: on PostgreSQL the row locks make a concurrent one wait and then see this one's outcome;
 * SQLite runs write transactions one at a time anyway. (The no-op update is the portable lock:
 * SQLite has no SELECT … FOR UPDATE.)
 */
export async function lockActiveAdmins(db: Db): Promise<string[]> {
  const rows = await db
    .updateTable('users')
    .set({ updated_at: sql`updated_at` })
    .where('role', 'in', ['admin', 'super_admin'])
    .where('is_active', '=', 1)
    .returning('id')
    .execute();
  return rows.map((r) => r.id);
}

/** Changes names, email and department; a new department changes the user's permissions too. */
export async function updateAccountFields(
  db: Db,
  userId: string,
  changes: {
    firstname?: string;
    lastname?: string;
    email?: string | null;
    departmentId?: string | null;
  },
  now: string,
): Promise<void> {
  const { departmentId, ...names } = changes;
  await db
    .updateTable('users')
    .set({
      ...names,
      ...(departmentId !== undefined
        ? { department_id: departmentId, access_version: sql`access_version + 1` }
        : {}),
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
}

export async function setLastLogin(db: Db, userId: string, at: string): Promise<void> {
  await db.updateTable('users').set({ last_login: at }).where('id', '=', userId).execute();
}

export interface UserPageFilter {
  search?: string;
  role?: string;
  departmentId?: string;
  offset: number;
  limit: number;
}

/** A page of users matching the filter, by last name, first name, username; and the total. */
export async function listUsersPage(
  db: Db,
  filter: UserPageFilter,
): Promise<{ users: UserRecord[]; total: number }> {
  let query = db
    .selectFrom('users')
    .leftJoin('departments', 'departments.id', 'users.department_id');
  if (filter.search) {
    const pattern = likePattern(filter.search);
    query = query.where((eb) =>
      eb.or(
        ['users.username', 'users.firstname', 'users.lastname', 'users.email'].map((column) =>
          eb(sql`lower(${sql.ref(column)})`, 'like', sql`${pattern} escape '\\'`),
        ),
      ),
    );
  }
  if (filter.role) query = query.where('users.role', '=', filter.role);
  if (filter.departmentId) query = query.where('users.department_id', '=', filter.departmentId);
  const total = await query
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await query
    .select(USER_COLUMNS)
    .orderBy('users.lastname')
    .orderBy('users.firstname')
    .orderBy('users.username_key')
    .limit(filter.limit)
    .offset(filter.offset)
    .execute();
  return { users: rows.map(toUserRecord), total: Number(total.n) };
}

/** Active admins, for the rule that at least one must remain. */
export async function countActiveAdmins(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('role', 'in', ['admin', 'super_admin'])
    .where('is_active', '=', 1)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Usernames by user id, for the ids that exist. */
export async function findUsernames(db: Db, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'username'])
    .where('id', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.id, r.username]));
}

/** The account a provider knows by its own id for the user. */
export async function findUserByExternalId(
  db: Db,
  method: string,
  authSource: string,
  externalId: string,
): Promise<UserRecord | null> {
  const row = await userQuery(db)
    .where('users.auth_method', '=', method)
    .where('users.auth_source', '=', authSource)
    .where('users.external_id', '=', externalId)
    .executeTakeFirst();
  return row ? toUserRecord(row) : null;
}

/** Refreshes what a provider says about an account at sign-in (names, email, department, groups). */
export async function updateFromProvider(
  db: Db,
  userId: string,
  changes: {
    firstname: string;
    lastname: string;
    email?: string | null;
    departmentId?: string | null;
    provider: ProviderFields;
  },
  now: string,
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      firstname: changes.firstname,
      lastname: changes.lastname,
      ...(changes.email !== undefined ? { email: changes.email } : {}),
      ...(changes.departmentId !== undefined
        ? { department_id: changes.departmentId, access_version: sql`access_version + 1` }
        : {}),
      ...providerColumns(changes.provider),
      updated_at: now,
    })
    .where('id', '=', userId)
    .execute();
}

/** The users with these ids (those that exist), in no particular order. */
export async function findUsersByIds(db: Db, ids: readonly string[]): Promise<UserRecord[]> {
  const users: UserRecord[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await userQuery(db)
      .where('users.id', 'in', ids.slice(i, i + 500))
      .execute();
    users.push(...rows.map(toUserRecord));
  }
  return users;
}

/** The active people whose department is this one. */
export async function listActiveUserIdsOfDepartment(
  db: Db,
  departmentId: string,
): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .where('department_id', '=', departmentId)
    .where('is_active', '=', 1)
    .select('id')
    .execute();
  return rows.map((r) => r.id);
}
