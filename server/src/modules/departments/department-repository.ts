/**
 * All SQL of the department pages (docs/departments.md): the department rows with their URL
 * names and archiving, who belongs to a department — the people whose account names it plus the
 * people with an assignment in force there, one set for the counts, the member list and the
 * progress figures — its managers and the add-member picker. The page's courses, progress
 * figures, library and wiki come from those areas' public.ts. Creating a department and finding
 * one by name live in the platform (auth/departments.ts), which every sign-in method creates
 * departments through.
 */
import {
  CONTEXT_ROLE_IDS,
  contextKey,
  DEPARTMENT_MEMBER_ROLES,
  isContextRoleId,
  type ContextRoleId,
  type DepartmentMember,
} from '@learning-hub/core';
import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { DepartmentNameTakenError, isFormerSlugOfAnother } from '../../platform/auth/departments';
import { displayName } from '../../platform/auth/display-name';
import { likePattern } from '../../platform/db/sql';
import type { Db } from '../../platform/db';
import { isUniqueViolation } from '../../platform/db/errors';

/** A department as its pages use it. */
export interface DepartmentRow {
  id: string;
  name: string;
  /** Sanitised rich-text HTML. */
  description: string;
  /** Its URL name (`/departments/{slug}`). */
  slug: string;
  createdAt: string;
  archivedAt: string | null;
  /** One more with every PATCH of its name, description or archiving. */
  revision: number;
}

/** The context key of a department's assignments. */
export const departmentKey = (departmentId: string) =>
  contextKey({ type: 'department', departmentId });

const COLUMNS = [
  'id',
  'name',
  'description',
  'slug',
  'created_at',
  'archived_at',
  'revision',
] as const;

function toRow(r: {
  id: string;
  name: string;
  description: string;
  slug: string | null;
  created_at: string;
  archived_at: string | null;
  revision: number;
}): DepartmentRow {
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    slug: r.slug ?? r.id,
    createdAt: r.created_at,
    archivedAt: r.archived_at,
    revision: Number(r.revision),
  };
}

export async function findDepartmentRow(db: Db, id: string): Promise<DepartmentRow | null> {
  const row = await db
    .selectFrom('departments')
    .select(COLUMNS)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? toRow(row) : null;
}

/**
 * Locks a department's row for the rest of the transaction and reads it as it is now (null: no
 * such department), so a member change and archiving the department run one after the other.
 * (A no-op update is the portable lock, as in access-repository's lockAccessTarget.)
 */
export async function lockDepartment(db: Db, id: string): Promise<DepartmentRow | null> {
  const row = await db
    .updateTable('departments')
    .set({ name: sql`name` })
    .where('id', '=', id)
    .returning(COLUMNS)
    .executeTakeFirst();
  return row ? toRow(row) : null;
}

/** Every department by name; archived ones only when asked for. */
export async function listDepartmentRows(
  db: Db,
  options: { archived: boolean },
): Promise<DepartmentRow[]> {
  let query = db.selectFrom('departments').select(COLUMNS);
  if (!options.archived) query = query.where('archived_at', 'is', null);
  const rows = await query.orderBy('name').orderBy('id').execute();
  return rows.map(toRow);
}

// ---------------------------------------------------------------- changes

/**
 * Renames a department inside the caller's transaction: its current URL name becomes a former
 * one and `slug` the current one (a former one of its own is current again). Throws
 * DepartmentNameTakenError when another department has or had `slug` — the primary key of
 * `department_slugs` and the unique index on `departments.slug` decide, and the former names of
 * others are read after the new one is written (see createDepartment).
 */
export async function renameDepartment(
  trx: Db,
  department: DepartmentRow,
  name: string,
  slug: string,
  at: string,
): Promise<void> {
  if (slug === department.slug) {
    await trx.updateTable('departments').set({ name }).where('id', '=', department.id).execute();
    return;
  }
  try {
    await trx
      .deleteFrom('department_slugs')
      .where('slug', '=', slug)
      .where('department_id', '=', department.id)
      .execute();
    await trx
      .insertInto('department_slugs')
      .values({ slug: department.slug, department_id: department.id, created_at: at })
      .execute();
    await trx
      .updateTable('departments')
      .set({ name, slug })
      .where('id', '=', department.id)
      .execute();
  } catch (error) {
    if (isUniqueViolation(error)) throw new DepartmentNameTakenError(name);
    throw error;
  }
  if (await isFormerSlugOfAnother(trx, slug, department.id)) {
    throw new DepartmentNameTakenError(name);
  }
}

/** Changes the description (sanitised HTML) and whether it is archived (since `archivedAt`). */
export async function updateDepartmentRow(
  db: Db,
  id: string,
  changes: { description?: string; archivedAt?: string | null },
): Promise<void> {
  if (changes.description === undefined && changes.archivedAt === undefined) return;
  await db
    .updateTable('departments')
    .set({
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.archivedAt !== undefined ? { archived_at: changes.archivedAt } : {}),
    })
    .where('id', '=', id)
    .execute();
}

// ---------------------------------------------------------------- who belongs

/**
 * An assignment (`a`) that makes its holder belong to the department it is in: active, not past
 * its expiry at `nowIso`, with at least one role (a bare direct permission makes nobody a member).
 */
const inForce = (nowIso: string) =>
  sql<SqlBool>`(a.is_active = 1 and (a.expires_at is null or a.expires_at > ${nowIso}) and a.roles <> '[]')`;

/**
 * A department's members come in two disjoint kinds, and every query of them reads the two
 * separately (no de-duplication to pay for): the active users whose account names the department
 * (`byAccount`, from the index on users' department, activity and name order: migration 0019),
 * and the active users of another department or none with an assignment in force there
 * (`byAssignment`, from the index on assignments by context and user).
 */
function byAccount(db: Db, departmentId: string) {
  return db
    .selectFrom('users as u')
    .where('u.department_id', '=', departmentId)
    .where('u.is_active', '=', 1);
}

function byAssignment(db: Db, departmentId: string, nowIso: string) {
  return db
    .selectFrom('context_assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .where('a.context_key', '=', departmentKey(departmentId))
    .where(inForce(nowIso))
    .where('u.is_active', '=', 1)
    .where((eb) =>
      eb.or([eb('u.department_id', 'is', null), eb('u.department_id', '<>', departmentId)]),
    );
}

/**
 * The ids (`user_id`) of a department's members, both kinds, as a subquery: what the courses
 * area's progress figures of a department count over (public.ts).
 */
export function memberIds(db: Db, departmentId: string, nowIso: string) {
  return byAccount(db, departmentId)
    .select('u.id as user_id')
    .unionAll(byAssignment(db, departmentId, nowIso).select('a.user_id'));
}

/** Members per department (all of them, or the ones named). */
export async function countMembers(
  db: Db,
  nowIso: string,
  departmentIds?: readonly string[],
): Promise<Map<string, number>> {
  if (departmentIds?.length === 0) return new Map();
  let accounts = db
    .selectFrom('users as u')
    .select(['u.department_id', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('u.is_active', '=', 1)
    .groupBy('u.department_id');
  let assignments = db
    .selectFrom('context_assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.context_key', (eb) => eb.fn.countAll<number | string>().as('n')])
    .where('a.context_type', '=', 'department')
    .where(inForce(nowIso))
    .where('u.is_active', '=', 1)
    .where((eb) =>
      eb.or([
        eb('u.department_id', 'is', null),
        eb(sql`${sql.lit('department:')} || u.department_id`, '<>', eb.ref('a.context_key')),
      ]),
    )
    .groupBy('a.context_key');
  if (departmentIds) {
    accounts = accounts.where('u.department_id', 'in', [...departmentIds]);
    assignments = assignments.where('a.context_key', 'in', departmentIds.map(departmentKey));
  } else {
    accounts = accounts.where('u.department_id', 'is not', null);
  }
  const [byAccounts, byAssignments] = await Promise.all([
    accounts.execute(),
    assignments.execute(),
  ]);
  const out = new Map<string, number>();
  for (const r of byAccounts) out.set(r.department_id as string, Number(r.n));
  for (const r of byAssignments) {
    const id = r.context_key.slice('department:'.length);
    out.set(id, (out.get(id) ?? 0) + Number(r.n));
  }
  return out;
}

/** Managers in force per department (all of them, or the ones named), by last name. */
export async function listManagers(
  db: Db,
  nowIso: string,
  departmentIds?: readonly string[],
): Promise<Map<string, { id: string; name: string }[]>> {
  let query = db
    .selectFrom('context_assignments as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.context_key', 'u.id', 'u.username', 'u.firstname', 'u.lastname'])
    .where('a.context_type', '=', 'department')
    .where(inForce(nowIso))
    .where('a.roles', 'like', MANAGER)
    .where('u.is_active', '=', 1);
  if (departmentIds) {
    if (departmentIds.length === 0) return new Map();
    query = query.where('a.context_key', 'in', departmentIds.map(departmentKey));
  }
  const rows = await query.orderBy('u.lastname').orderBy('u.firstname').orderBy('u.id').execute();
  const out = new Map<string, { id: string; name: string }[]>();
  for (const r of rows) {
    const id = r.context_key.slice('department:'.length);
    out.set(id, [...(out.get(id) ?? []), { id: r.id, name: displayName(r) }]);
  }
  return out;
}

const ROLE_ORDER: readonly string[] = [...DEPARTMENT_MEMBER_ROLES, ...CONTEXT_ROLE_IDS];

function parseRoles(json: string | null): ContextRoleId[] {
  if (!json) return [];
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter(isContextRoleId) : [];
  } catch {
    return [];
  }
}

/**
 * A member as the page shows them: the roles of their assignment in force there, plus
 * department-member when the department is on their account (docs/spec-readings.md).
 */
export function toMember(
  departmentId: string,
  r: {
    id: string;
    username: string;
    firstname: string;
    lastname: string;
    department_id: string | null;
    roles: string | null;
    expires_at: string | null;
  },
): DepartmentMember {
  const byAccount = r.department_id === departmentId;
  const roles = new Set<string>(parseRoles(r.roles));
  if (byAccount) roles.add('department-member');
  return {
    id: r.id,
    username: r.username,
    firstname: r.firstname,
    lastname: r.lastname,
    roles: [...roles].sort((a, b) => ROLE_ORDER.indexOf(a) - ROLE_ORDER.indexOf(b)),
    source: byAccount ? 'account' : 'assignment',
    expiresAt: r.roles === null ? null : r.expires_at,
  };
}

const MANAGER = '%"department-manager"%';
const MEMBER = '%"department-member"%';

/** `u.firstname`, `u.lastname`, `u.username` or the whole name contain the search, any case. */
function personMatches(search: string) {
  const pattern = likePattern(search);
  return sql<SqlBool>`(lower(u.username) like ${pattern} escape '\\'
    or lower(u.firstname) like ${pattern} escape '\\'
    or lower(u.lastname) like ${pattern} escape '\\'
    or lower(u.firstname || ' ' || u.lastname) like ${pattern} escape '\\')`;
}

export interface MemberPageFilter {
  departmentId: string;
  nowIso: string;
  search?: string | undefined;
  /** Only those holding this role there. */
  role?: (typeof DEPARTMENT_MEMBER_ROLES)[number] | undefined;
  offset: number;
  limit: number;
}

/**
 * One page of a department's members by last name, first name and username, and how many match:
 * the two kinds of member (byAccount, each with their assignment there if any, and
 * byAssignment), each read in that order, merged and cut to the page by the database — the
 * members by account stream from the index in name order, so a page reads little more than
 * itself. Searched in SQL; counted per kind.
 */
export async function listMembersPage(
  db: Db,
  filter: MemberPageFilter,
): Promise<{ members: DepartmentMember[]; total: number }> {
  const { departmentId, nowIso } = filter;
  const { search, role } = filter;
  const matching = <Q extends { where(e: RawBuilder<SqlBool>): Q }>(q: Q): Q =>
    search ? q.where(personMatches(search)) : q;
  const accounts = matching(
    byAccount(db, departmentId).leftJoin('context_assignments as a', (join) =>
      join
        .onRef('a.user_id', '=', 'u.id')
        .on('a.context_key', '=', departmentKey(departmentId))
        .on(inForce(nowIso)),
    ),
  ).$if(role === 'department-manager', (q) => q.where('a.roles', 'like', MANAGER));
  const assignments = matching(byAssignment(db, departmentId, nowIso))
    .$if(role === 'department-manager', (q) => q.where('a.roles', 'like', MANAGER))
    .$if(role === 'department-member', (q) => q.where('a.roles', 'like', MEMBER));
  const columns = [
    'u.id',
    'u.username',
    'u.firstname',
    'u.lastname',
    'u.username_key',
    'u.department_id',
    'a.roles',
    'a.expires_at',
  ] as const;
  const [rows, accountCount, assignmentCount] = await Promise.all([
    accounts
      .select(columns)
      .unionAll(assignments.select(columns))
      .orderBy('lastname')
      .orderBy('firstname')
      .orderBy('username_key')
      .limit(filter.limit)
      .offset(filter.offset)
      .execute(),
    // Counted without the assignment unless a manager is asked for: index only.
    role === 'department-manager'
      ? accounts.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow()
      : matching(byAccount(db, departmentId))
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .executeTakeFirstOrThrow(),
    assignments.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return {
    members: rows.map((r) => toMember(departmentId, r)),
    total: Number(accountCount.n) + Number(assignmentCount.n),
  };
}

/** One person and how they belong to a department now (null: no such user). */
export async function findMembership(
  db: Db,
  departmentId: string,
  userId: string,
  nowIso: string,
): Promise<{ member: DepartmentMember | null; isActive: boolean } | null> {
  const row = await db
    .selectFrom('users as u')
    .leftJoin('context_assignments as a', (join) =>
      join
        .onRef('a.user_id', '=', 'u.id')
        .on('a.context_key', '=', departmentKey(departmentId))
        .on(inForce(nowIso)),
    )
    .select([
      'u.id',
      'u.username',
      'u.firstname',
      'u.lastname',
      'u.department_id',
      'u.is_active',
      'a.roles',
      'a.expires_at',
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
  if (!row) return null;
  const isActive = Boolean(row.is_active);
  const belongs = row.department_id === departmentId || row.roles !== null;
  return { member: isActive && belongs ? toMember(departmentId, row) : null, isActive };
}

/**
 * Active people whose username, first, last or whole name contains `search` (at most `limit`, by
 * last name), each with their department's name and whether they belong to this department.
 */
export async function listCandidates(
  db: Db,
  departmentId: string,
  search: string,
  nowIso: string,
  window: { offset: number; limit: number },
) {
  const key = departmentKey(departmentId);
  const counted = db
    .selectFrom('users as u')
    .select((eb) => eb.fn.countAll().as('count'))
    .where('u.is_active', '=', 1)
    .where(personMatches(search))
    .executeTakeFirstOrThrow();
  const rows = await db
    .selectFrom('users as u')
    .leftJoin('departments as d', 'd.id', 'u.department_id')
    .select([
      'u.id',
      'u.username',
      'u.firstname',
      'u.lastname',
      'd.name as department_name',
      (eb) =>
        sql<number>`case when ${eb.or([
          eb('u.department_id', '=', departmentId),
          eb.exists(
            eb
              .selectFrom('context_assignments as a')
              .select('a.user_id')
              .whereRef('a.user_id', '=', 'u.id')
              .where('a.context_key', '=', key)
              .where(inForce(nowIso)),
          ),
        ])} then 1 else 0 end`.as('member'),
    ])
    .where('u.is_active', '=', 1)
    .where(personMatches(search))
    .orderBy('u.lastname')
    .orderBy('u.firstname')
    .orderBy('u.username_key')
    .limit(window.limit)
    .offset(window.offset)
    .execute();
  const total = Number((await counted).count);
  const people = rows.map((r) => ({
    id: r.id,
    username: r.username,
    name: displayName(r),
    departmentName: r.department_name ?? null,
    member: Number(r.member) === 1,
  }));
  return { people, total };
}
