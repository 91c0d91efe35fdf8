/**
 * The departments as the platform's identity needs them (docs/architecture.md, "Areas and the
 * platform"): every sign-in method, the operator's command line and the admin's user form file
 * people under a department by its name and create it when there is none, so creating a
 * department, its URL name (slug) and finding one by id, name or a current or former URL name live
 * here; the department pages (server/src/modules/departments) use the same functions and keep the
 * rest — renaming, describing, archiving, members — in their own repository. A deliberate
 * exception to "SQL on the area's own tables": the `departments` and `department_slugs` rows the
 * identity writes.
 */
import { randomUUID } from 'node:crypto';
import type { Db } from '../db';
import { isUniqueViolation } from '../db/errors';

export interface DepartmentRecord {
  id: string;
  name: string;
  /** Sanitised rich-text HTML ('' for none). */
  description: string;
}

export async function findDepartment(db: Db, idOrName: string): Promise<DepartmentRecord | null> {
  const row = await db
    .selectFrom('departments')
    .select(['id', 'name', 'description'])
    .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
    .executeTakeFirst();
  return row ?? null;
}

/** The department's URL slug: lower-case words joined by hyphens. */
export function departmentSlug(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Words a department id must not be: `/api/departments/lookup/{name}` would hide the routes of
 * a department whose id is `lookup`. Such a department gets a random id (its slug stays).
 */
const RESERVED_DEPARTMENT_IDS: ReadonlySet<string> = new Set(['lookup']);

/** A department has or had the URL name a new name would get (docs/departments.md). */
export class DepartmentNameTakenError extends Error {
  constructor(readonly departmentName: string) {
    super(`A department called “${departmentName}” already exists.`);
    this.name = 'DepartmentNameTakenError';
  }
}

/** Runs `work` in the caller's transaction, or in one of its own. */
function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * The department whose current or former URL name is `slug` (its current slug with it; a row
 * from before migration 0018 has its id as its slug).
 */
export async function findDepartmentBySlug(
  db: Db,
  slug: string,
): Promise<{ id: string; slug: string } | null> {
  const current = await db
    .selectFrom('departments')
    .select(['id', 'slug'])
    .where('slug', '=', slug)
    .executeTakeFirst();
  if (current) return { id: current.id, slug: current.slug ?? current.id };
  const former = await db
    .selectFrom('department_slugs as s')
    .innerJoin('departments as d', 'd.id', 's.department_id')
    .select(['d.id', 'd.slug'])
    .where('s.slug', '=', slug)
    .executeTakeFirst();
  return former ? { id: former.id, slug: former.slug ?? former.id } : null;
}

/**
 * Whether `slug` is a former URL name of a department other than `departmentId`. Asked after
 * writing `slug` as a current one in the same transaction (see createDepartment).
 */
export async function isFormerSlugOfAnother(
  db: Db,
  slug: string,
  departmentId: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('department_slugs')
    .select('department_id')
    .where('slug', '=', slug)
    .where('department_id', '<>', departmentId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Creates a department: its id and URL name are the slug of its name (a random id when the name
 * has no letters or digits, which is then its URL name too). Throws DepartmentNameTakenError when
 * a department has that URL name now (the unique index on `departments.slug`, or the primary key
 * on `id`) or had it before a rename (`department_slugs`). The slug is written before the former
 * ones are read, in one transaction: a rename that frees the slug at the same moment either
 * commits first (then its former slug is seen) or makes this insert wait on the unique index.
 */
export async function createDepartment(
  db: Db,
  input: { name: string; description?: string },
  now: string,
): Promise<DepartmentRecord> {
  const slug = departmentSlug(input.name);
  const id = slug && !RESERVED_DEPARTMENT_IDS.has(slug) ? slug : randomUUID();
  const record = { id, name: input.name, description: input.description ?? '' };
  await inTransaction(db, async (trx) => {
    try {
      await trx
        .insertInto('departments')
        .values({ ...record, slug: slug || id, created_at: now, archived_at: null })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new DepartmentNameTakenError(input.name);
      throw error;
    }
    if (await isFormerSlugOfAnother(trx, slug || id, id)) {
      throw new DepartmentNameTakenError(input.name);
    }
  });
  return record;
}

/**
 * The department a name from a directory, a sign-in provider or the command line means: the one
 * with that id or name, else the one that has or had the name's URL name (so a department renamed
 * here still receives the people a directory files under its old name).
 */
export async function findDepartmentForName(
  db: Db,
  name: string,
): Promise<DepartmentRecord | null> {
  const direct = await findDepartment(db, name);
  if (direct) return direct;
  const slug = departmentSlug(name);
  const bySlug = slug ? await findDepartmentBySlug(db, slug) : null;
  return bySlug ? findDepartment(db, bySlug.id) : null;
}

/** The department a name means (findDepartmentForName), created when there is none. */
export async function findOrCreateDepartment(
  db: Db,
  name: string,
  now: string,
): Promise<DepartmentRecord> {
  const found = await findDepartmentForName(db, name);
  if (found) return found;
  try {
    return await createDepartment(db, { name }, now);
  } catch (error) {
    // Another sign-in created it at the same moment.
    const raced = error instanceof DepartmentNameTakenError && !db.isTransaction;
    const again = raced ? await findDepartmentForName(db, name) : null;
    if (again) return again;
    throw error;
  }
}
