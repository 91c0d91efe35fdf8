/**
 * The lifecycle every kind of content shares (docs/architecture.md, "The content lifecycle"): the
 * trash (moving there, restoring, purging one thing with its files, emptying it), the counters
 * (views, downloads) and following. It is written once; each content type (a library item, a
 * wiki page) gives an adapter from its own area: its table, its words, its search document and
 * the rows that go with it. The platform names no area: the area builds its lifecycle with its
 * adapter and its routes call it.
 */
import { AppError } from '@learning-hub/core';
import type { Kysely } from 'kysely';
import type { Db } from '../db';
import { isUniqueViolation } from '../db/errors';
import { searchIndex } from '../search/search-index';
import type { FileService } from '../storage/file-service';

/** What the lifecycle needs of one thing: its id and whether (since when) it is in the trash. */
export interface LifecycleTarget {
  id: string;
  deletedAt: string | null;
}

/** The counters a content table may keep (integer columns, counted one at a time). */
export type ContentCounter = 'view_count' | 'download_count';

/** One content type, as its area describes it to the lifecycle. */
export interface ContentAdapter<T extends LifecycleTarget = LifecycleTarget> {
  /** Its table: `id`, `deleted_at`, `deleted_by` and the counters it declares. */
  table: string;
  /** Its file owner type (`app.files`): purging deletes the files it owns. */
  fileOwner: string;
  /** Its search type: purging takes its document out of the index. */
  searchType: string;
  /** The counters of its table. */
  counters: readonly ContentCounter[];
  /** Who owns the thing (their own visits are not views). */
  ownerOf(target: T): string;
  /** Restoring also sets `updated_at` and `updated_by` (the restore is a change of the thing). */
  touchOnRestore: boolean;
  /** Its followers' table and the column naming the thing there (user_id, created_at beside); null: not followed. */
  follows: { table: string; column: string } | null;
  /** The answers, word for word. */
  messages: {
    notFound: string;
    trashed: string;
    notTrashed: string;
    mayNotDelete: string;
    /** A restore the unique keys refuse (a title taken meanwhile); absent: none can be. */
    restoreTaken?: (target: T) => string;
  };
  /** Writes (or takes out) its search document from its rows as they are now, in `db`'s transaction. */
  index(db: Db, id: string): Promise<void>;
  /** Deletes the rows that go with it (besides followers) before its own row is purged. */
  deleteDependents(db: Db, id: string): Promise<void>;
}

/** The columns the lifecycle reads and writes, on any content table (their names are the same). */
interface ContentRow {
  id: string;
  deleted_at: string | null;
  deleted_by: string | null;
  updated_at: string;
  updated_by: string;
  view_count: number;
  download_count: number;
}
type ContentDb = Kysely<Record<string, ContentRow>>;
const content = (db: Db) => db as unknown as ContentDb;
/** A followers' table: the thing's column (named by the adapter), `user_id`, `created_at`. */
const followers = (db: Db) => db as unknown as Kysely<Record<string, Record<string, string>>>;

/** Whether someone may do this (the area's policy), asked after the state is checked. */
export type Permission = () => boolean | Promise<boolean>;
const always: Permission = () => true;

export interface FollowState {
  following: boolean;
  followerCount: number;
}

/** The lifecycle of one content type over its adapter. */
export class ContentLifecycle<T extends LifecycleTarget> {
  constructor(
    readonly adapter: ContentAdapter<T>,
    private readonly deps: { db: Db; files: FileService },
  ) {}

  private get messages() {
    return this.adapter.messages;
  }

  /** To the trash and out of the search index: 409 when it is there already, 403 unless `may`. */
  async trash(target: T, by: string, now: number, may: Permission = always): Promise<void> {
    const { table, messages } = this.adapter;
    if (target.deletedAt !== null) throw new AppError('CONFLICT', messages.trashed);
    if (!(await may())) throw new AppError('FORBIDDEN', messages.mayNotDelete);
    const at = new Date(now).toISOString();
    await this.deps.db.transaction().execute(async (trx) => {
      const result = await content(trx)
        .updateTable(table)
        .set({ deleted_at: at, deleted_by: by })
        .where('id', '=', target.id)
        .where('deleted_at', 'is', null)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 0) throw new AppError('CONFLICT', messages.trashed);
      await this.adapter.index(trx, target.id);
    });
  }

  /**
   * Out of the trash and back in the search index (as its area indexes it): 409 when it is not
   * there or the unique keys refuse it back, 403 unless `may`.
   */
  async restore(target: T, by: string, now: number, may: Permission = always): Promise<void> {
    const { table, messages, touchOnRestore } = this.adapter;
    if (target.deletedAt === null) throw new AppError('CONFLICT', messages.notTrashed);
    if (!(await may())) throw new AppError('FORBIDDEN', messages.mayNotDelete);
    const at = new Date(now).toISOString();
    try {
      await this.deps.db.transaction().execute(async (trx) => {
        const result = await content(trx)
          .updateTable(table)
          .set({
            deleted_at: null,
            deleted_by: null,
            ...(touchOnRestore ? { updated_at: at, updated_by: by } : {}),
          })
          .where('id', '=', target.id)
          .where('deleted_at', 'is not', null)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) {
          throw new AppError('CONFLICT', messages.notTrashed);
        }
        await this.adapter.index(trx, target.id);
      });
    } catch (error) {
      if (messages.restoreTaken && isUniqueViolation(error)) {
        throw new AppError('CONFLICT', messages.restoreTaken(target));
      }
      throw error;
    }
  }

  /** Deletes a thing in the trash for good with its files: 409 when it is not in the trash. */
  async purge(target: T): Promise<void> {
    if (target.deletedAt === null) throw new AppError('CONFLICT', this.messages.notTrashed);
    if (!(await this.purgeId(target.id))) throw new AppError('NOT_FOUND', this.messages.notFound);
  }

  /** Purges everything in the trash; returns how many things went. */
  async emptyTrash(): Promise<number> {
    const rows = await content(this.deps.db)
      .selectFrom(this.adapter.table)
      .select('id')
      .where('deleted_at', 'is not', null)
      .orderBy('id')
      .execute();
    let count = 0;
    for (const { id } of rows) if (await this.purgeId(id)) count += 1;
    return count;
  }

  /**
   * Deletes a trashed thing, the rows that go with it and its search document in one
   * transaction, then every file it owns; false when it was not in the trash.
   */
  private async purgeId(id: string): Promise<boolean> {
    const { table, follows, searchType, fileOwner } = this.adapter;
    const { db, files } = this.deps;
    const removed = await db.transaction().execute(async (trx) => {
      const trashed = await content(trx)
        .selectFrom(table)
        .select('id')
        .where('id', '=', id)
        .where('deleted_at', 'is not', null)
        .executeTakeFirst();
      if (!trashed) return false;
      if (follows) {
        await followers(trx).deleteFrom(follows.table).where(follows.column, '=', id).execute();
      }
      await this.adapter.deleteDependents(trx, id);
      const result = await content(trx)
        .deleteFrom(table)
        .where('id', '=', id)
        .where('deleted_at', 'is not', null)
        .executeTakeFirst();
      if (Number(result.numDeletedRows) === 0) return false;
      await searchIndex(trx).remove(trx, searchType, id);
      return true;
    });
    if (!removed) return false;
    for (const file of await files.listOwned({ type: fileOwner, id })) {
      await files.deleteOwned(file.id);
    }
    return true;
  }

  /** Counts one view or download (atomic): 404 when the thing is gone or in the trash. */
  async count(id: string, counter: ContentCounter): Promise<void> {
    if (!this.adapter.counters.includes(counter)) {
      throw new Error(`${this.adapter.table} keeps no ${counter}`);
    }
    const result = await content(this.deps.db)
      .updateTable(this.adapter.table)
      .set((eb) => ({ [counter]: eb(counter, '+', 1) }))
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) {
      throw new AppError('NOT_FOUND', this.messages.notFound);
    }
  }

  /**
   * Counts one view of the thing by `userId`, unless it is theirs (`ownerOf`): the owner's own
   * visits are not views (they count what others read). 404 when it is gone or in the trash.
   */
  async view(target: T, userId: string): Promise<void> {
    if (this.adapter.ownerOf(target) !== userId) return this.count(target.id, 'view_count');
    if (target.deletedAt !== null) throw new AppError('NOT_FOUND', this.messages.notFound);
  }

  /**
   * Follows (or stops following) a thing out of the trash (404 in it); answers who follows it
   * now, and whether this call started the following (`created`: a PUT that creates answers
   * 201). Following twice, or stopping what one does not follow, changes nothing.
   */
  async setFollowing(
    target: T,
    userId: string,
    following: boolean,
    now: number,
  ): Promise<FollowState & { created: boolean }> {
    const follows = this.followsOf();
    if (target.deletedAt !== null) throw new AppError('NOT_FOUND', this.messages.notFound);
    const db = this.deps.db;
    const at = new Date(now).toISOString();
    const { table, column } = follows;
    let created = false;
    if (following) {
      const [inserted] = await followers(db)
        .insertInto(table)
        .values({ [column]: target.id, user_id: userId, created_at: at })
        .onConflict((oc) => oc.columns([column, 'user_id']).doNothing())
        .execute();
      created = Number(inserted?.numInsertedOrUpdatedRows ?? 0) > 0;
    } else {
      await followers(db)
        .deleteFrom(table)
        .where(column, '=', target.id)
        .where('user_id', '=', userId)
        .execute();
    }
    return { ...(await this.followState(target.id, userId)), created };
  }

  /** Whether `userId` follows the thing, and how many do. */
  async followState(id: string, userId: string): Promise<FollowState> {
    const { table, column } = this.followsOf();
    const rows = await followers(this.deps.db)
      .selectFrom(table)
      .select('user_id')
      .where(column, '=', id)
      .execute();
    return { following: rows.some((r) => r.user_id === userId), followerCount: rows.length };
  }

  private followsOf() {
    const follows = this.adapter.follows;
    if (!follows) throw new Error(`${this.adapter.table} is not followed`);
    return follows;
  }
}
