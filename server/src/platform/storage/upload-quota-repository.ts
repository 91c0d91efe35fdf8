/**
 * All SQL about per-person upload limits: what a person stores (their rows in `files`), the bytes
 * their uploads in flight have reserved (`upload_reservations`), and the storage of everyone for
 * the admin page. Usage is always computed from the rows themselves, never kept in a counter that
 * could drift from them.
 */
import type { StorageSort, UserStorage } from '@learning-hub/core';
import type { Db } from '../db';
import { sortableId } from '../ids';
import { insertFile, type FileRecord } from './file-repository';

/** What one person's files and uploads in flight take, in bytes. */
export interface QuotaUsage {
  /** All their files. */
  storedBytes: number;
  /** Their files not attached to anything (part of storedBytes). */
  unattachedBytes: number;
  /** Reserved by their uploads still streaming (part of neither). */
  reservedBytes: number;
}

/**
 * Decides one reservation for `userId` alone: first writes the person's row in
 * `upload_quota_locks` (an upsert, which holds its row lock on PostgreSQL until commit, and the
 * write lock on SQLite), then reads their usage in one statement, so no other reservation of
 * theirs is decided in between and none is missed. `decide` gets the usage (reservations made
 * before `staleBefore` no longer count) and returns the bytes to reserve, or null to reserve
 * nothing.
 */
export async function reserveUploadBytes(
  db: Db,
  userId: string,
  at: string,
  staleBefore: string,
  decide: (usage: QuotaUsage) => number | null,
): Promise<{ usage: QuotaUsage; reservation: { id: string; bytes: number } | null }> {
  return db.transaction().execute(async (trx) => {
    await trx
      .insertInto('upload_quota_locks')
      .values({ user_id: userId, locked_at: at })
      .onConflict((oc) => oc.column('user_id').doUpdateSet({ locked_at: at }))
      .execute();
    const row = await trx
      .selectNoFrom((eb) => [
        eb
          .selectFrom('files')
          .select((f) => f.fn.coalesce(f.fn.sum<number | string>('size'), f.lit(0)).as('b'))
          .where('uploaded_by', '=', userId)
          .as('stored'),
        eb
          .selectFrom('files')
          .select((f) => f.fn.coalesce(f.fn.sum<number | string>('size'), f.lit(0)).as('b'))
          .where('uploaded_by', '=', userId)
          .where('owner_type', 'is', null)
          .as('unattached'),
        eb
          .selectFrom('upload_reservations')
          .select((r) => r.fn.coalesce(r.fn.sum<number | string>('bytes'), r.lit(0)).as('b'))
          .where('user_id', '=', userId)
          .where('created_at', '>=', staleBefore)
          .as('reserved'),
      ])
      .executeTakeFirstOrThrow();
    const usage: QuotaUsage = {
      storedBytes: Number(row.stored),
      unattachedBytes: Number(row.unattached),
      reservedBytes: Number(row.reserved),
    };
    const bytes = decide(usage);
    if (bytes === null) return { usage, reservation: null };
    const id = sortableId();
    await trx
      .insertInto('upload_reservations')
      .values({ id, user_id: userId, bytes, created_at: at })
      .execute();
    return { usage, reservation: { id, bytes } };
  });
}

/**
 * Records a stored upload and ends its reservation in one transaction, so its bytes are counted
 * exactly once at every moment: as reserved, then as a file.
 */
export async function recordReservedUpload(
  db: Db,
  reservationId: string,
  file: Omit<FileRecord, 'ownerType' | 'ownerId' | 'attachedAt'>,
): Promise<FileRecord> {
  return db.transaction().execute(async (trx) => {
    const record = await insertFile(trx, file);
    await trx.deleteFrom('upload_reservations').where('id', '=', reservationId).execute();
    return record;
  });
}

/** Ends a reservation whose upload failed. */
export async function releaseReservation(db: Db, reservationId: string): Promise<void> {
  await db.deleteFrom('upload_reservations').where('id', '=', reservationId).execute();
}

/** Removes reservations made before `before` (their process died mid-upload); returns how many. */
export async function deleteStaleReservations(db: Db, before: string): Promise<number> {
  const result = await db
    .deleteFrom('upload_reservations')
    .where('created_at', '<', before)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * The people who store files, with what they store, ordered by `sort` (then username), a page
 * at a time; and the totals over everyone.
 */
export async function listStorageUsage(
  db: Db,
  options: { sort: StorageSort; order: 'asc' | 'desc'; offset: number; limit: number },
): Promise<{
  users: UserStorage[];
  total: number;
  totals: { files: number; storedBytes: number; unattachedBytes: number };
}> {
  const rows = await db
    .selectFrom('files')
    .innerJoin('users', 'users.id', 'files.uploaded_by')
    .select((eb) => [
      'users.id',
      'users.username',
      'users.firstname',
      'users.lastname',
      'users.is_active',
      eb.fn.countAll<number | string>().as('files'),
      eb.fn.sum<number | string>('files.size').as('stored'),
      eb.fn
        .sum<number | string>(
          eb.case().when('files.owner_type', 'is', null).then(eb.ref('files.size')).else(0).end(),
        )
        .as('unattached'),
    ])
    .groupBy(['users.id', 'users.username', 'users.firstname', 'users.lastname', 'users.is_active'])
    .orderBy(options.sort, options.order)
    .orderBy('users.username')
    .orderBy('users.id')
    .offset(options.offset)
    .limit(options.limit)
    .execute();
  const totals = await db
    .selectFrom('files')
    .select((eb) => [
      eb.fn.count<number | string>('uploaded_by').distinct().as('people'),
      eb.fn.countAll<number | string>().as('files'),
      eb.fn.coalesce(eb.fn.sum<number | string>('size'), eb.lit(0)).as('stored'),
      eb.fn
        .coalesce(
          eb.fn.sum<number | string>(
            eb.case().when('owner_type', 'is', null).then(eb.ref('size')).else(0).end(),
          ),
          eb.lit(0),
        )
        .as('unattached'),
    ])
    .executeTakeFirstOrThrow();
  return {
    users: rows.map((r) => ({
      userId: r.id,
      username: r.username,
      firstname: r.firstname,
      lastname: r.lastname,
      isActive: r.is_active === 1,
      files: Number(r.files),
      storedBytes: Number(r.stored),
      unattachedBytes: Number(r.unattached),
    })),
    total: Number(totals.people),
    totals: {
      files: Number(totals.files),
      storedBytes: Number(totals.stored),
      unattachedBytes: Number(totals.unattached),
    },
  };
}
