/**
 * Two people editing at once (docs/architecture.md): a change names the revision it was based on
 * and applies only while the row is still at it, in one conditional UPDATE that bumps the
 * revision. Of two changes based on the same revision exactly one applies; the other is refused
 * with `409 CONFLICT` (STALE_REVISION_MESSAGE) and changes nothing.
 */
import { AppError, STALE_REVISION_MESSAGE } from '@learning-hub/core';
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type SqlBool,
  type Updateable,
} from 'kysely';
import type { Db } from './index';
import type { Database } from './schema';

/** The tables whose rows carry an `id` and a `revision`. */
export type RevisedTable = {
  [T in keyof Database]: Database[T] extends { id: string; revision: unknown } ? T : never;
}[keyof Database];

/** One change of one row, based on the revision the client read. */
export interface RevisionChange<T extends RevisedTable> {
  table: T;
  id: string;
  /** The revision the change is based on. */
  revision: number;
  /** The columns to change; `revision` is bumped besides (nothing else: a bare bump and lock). */
  set?: Updateable<Database[T]>;
  /** Another condition the row must meet (not in the trash, still in its state). */
  where?: (eb: ExpressionBuilder<Database, T>) => Expression<SqlBool>;
}

/** What to answer when the row was not changed and its revision is not the reason. */
export interface RevisionRefusals {
  /** The 404's message when the row is gone. */
  notFound: string;
  /** The refusal when the row is at the revision but `where` failed (default: the stale 409). */
  otherwise?: () => AppError;
}

/** The rows of revised tables as this file touches them (the callers' types are checked above). */
type RevisedRows = Kysely<Record<string, { id: string; revision: number }>>;

/**
 * Applies `change` in one statement, `update … set …, revision = revision + 1 where id = ? and
 * revision = ? [and where]`, and answers the new revision. When no row changed, it says why, read
 * after the fact (the write did not happen, so nothing races): 404 when the row is gone, 409
 * STALE_REVISION_MESSAGE when it is at another revision, else `refusals.otherwise`. Inside a
 * transaction the row stays locked until it ends (PostgreSQL; SQLite has one writer), so the
 * caller may write what goes with the change (tags, a new version, a new URL name) after it.
 */
export async function updateAtRevision<T extends RevisedTable>(
  db: Db,
  change: RevisionChange<T>,
  refusals: RevisionRefusals,
): Promise<number> {
  const rows = db as unknown as RevisedRows;
  const table: string = change.table;
  let query = rows
    .updateTable(table)
    .set({ ...(change.set ?? {}), revision: sql<number>`revision + 1` } as never)
    .where('id', '=', change.id)
    .where('revision', '=', change.revision);
  if (change.where) query = query.where(change.where as never);
  const updated = await query.returning('revision').executeTakeFirst();
  if (updated) return Number(updated.revision);
  const current = await rows
    .selectFrom(table)
    .select('revision')
    .where('id', '=', change.id)
    .executeTakeFirst();
  if (!current) throw new AppError('NOT_FOUND', refusals.notFound);
  if (Number(current.revision) !== change.revision || !refusals.otherwise) {
    throw new AppError('CONFLICT', STALE_REVISION_MESSAGE);
  }
  throw refusals.otherwise();
}
