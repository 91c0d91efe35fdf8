/**
 * The storage service every area uses: uploads (into the FileStore, with a row in `files`),
 * ownership (an area registers an owner type and says who may read and attach), the read check
 * every download makes, and the clean-up of orphaned uploads.
 *
 * An area, in its routes plugin:
 *
 *   app.files.registerFileOwner('lesson', {
 *     canRead: (user, lessonId, ctx) => ctx.can(user, ['course.view'], { type: 'course', courseId }),
 *     canAttach: (user, lessonId, ctx) => ctx.can(user, ['course.edit'], { … }),
 *   });
 *   // after the client uploaded with POST /api/files and sent the file's id:
 *   await app.files.attach(user, fileId, { type: 'lesson', id: lessonId });
 *
 * and GET /api/files/:fileId then serves the file to whoever `canRead` the lesson.
 */
import {
  AppError,
  sanitiseFileName,
  type AccessContext,
  type PermissionId,
} from '@learning-hub/core';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { AccessService } from '../access/access-service';
import type { UserRecord } from '../auth/user-repository';
import type { Db } from '../db';
import { sortableId } from '../lib/ids';
import {
  attachFile,
  deleteFileRow,
  deleteUnattachedFile,
  findFile,
  insertFile,
  listFilesOf,
  listOrphans,
  type FileRecord,
} from './file-repository';
import type { FileStore } from './file-store';
import { canThumbnail, makeThumbnail } from './thumbnails';

/** What an owner type's checks may use. */
export interface FileOwnerContext {
  db: Db;
  now: () => number;
  /**
   * Whether `user` holds all `permissions` in `scope` (system when absent), by core's rules. Use
   * it within a request: the access plugin has loaded the user's permissions by then.
   */
  can(
    user: UserRecord,
    permissions: readonly PermissionId[],
    scope?: AccessContext | 'any',
  ): boolean;
}

/** How an area's things own files: who may read their files, and who may attach files to them. */
export interface FileOwner {
  canRead(user: UserRecord, ownerId: string, ctx: FileOwnerContext): boolean | Promise<boolean>;
  canAttach(user: UserRecord, ownerId: string, ctx: FileOwnerContext): boolean | Promise<boolean>;
}

/** Owner type names: lower case words with dashes (`lesson`, `library-item`). */
const OWNER_TYPE = /^[a-z][a-z0-9-]{0,39}$/;

/** Unattached uploads older than this are removed. */
export const ORPHAN_AGE_MS = 24 * 3_600_000;
/** How many orphans one clean-up pass claims per query. */
const ORPHAN_BATCH = 100;

export class FileService {
  private readonly owners = new Map<string, FileOwner>();
  private readonly ctx: FileOwnerContext;

  constructor(
    readonly store: FileStore,
    private readonly db: Db,
    private readonly now: () => number,
    access: AccessService,
    private readonly log?: FastifyBaseLogger,
  ) {
    this.ctx = {
      db,
      now,
      can: (user, permissions, scope) =>
        access.decide(user.id, { permissions, mode: 'all', roles: [] }, scope).allowed,
    };
  }

  /** Declares an owner type; each type once. */
  registerFileOwner(type: string, owner: FileOwner): void {
    if (!OWNER_TYPE.test(type)) throw new Error(`Invalid file owner type "${type}"`);
    if (this.owners.has(type)) throw new Error(`File owner type "${type}" is already registered`);
    this.owners.set(type, owner);
  }

  /**
   * Streams an upload into the store and records it, unattached, as `user`'s. Images get a
   * thumbnail; a thumbnail that fails is logged and left out, the upload still succeeds.
   */
  async upload(
    user: UserRecord,
    stream: Readable,
    options: { name: string; maxBytes: number; contentType?: string },
  ): Promise<FileRecord> {
    const stored = await this.store.put(stream, {
      maxBytes: options.maxBytes,
      ...(options.contentType ? { contentType: options.contentType } : {}),
    });
    let thumbnailKey: string | null = null;
    if (canThumbnail(stored.mime)) {
      try {
        thumbnailKey = await makeThumbnail(this.store, stored.key);
      } catch (error) {
        this.log?.warn({ err: error, key: stored.key }, 'no thumbnail for an uploaded image');
      }
    }
    try {
      return await insertFile(this.db, {
        id: sortableId(),
        storageKey: stored.key,
        name: sanitiseFileName(options.name),
        mime: stored.mime,
        size: stored.size,
        sha256: stored.sha256,
        uploadedBy: user.id,
        createdAt: new Date(this.now()).toISOString(),
        thumbnailKey,
      });
    } catch (error) {
      await this.removeObjects({ storageKey: stored.key, thumbnailKey });
      throw error;
    }
  }

  async find(id: string): Promise<FileRecord | null> {
    return findFile(this.db, id);
  }

  /**
   * The file if `user` may read it: the uploader while it is unattached, afterwards whoever the
   * owner type's `canRead` allows. A file the user may not know of is "not found"; an attached
   * file they may not read is forbidden.
   */
  async findReadable(user: UserRecord, id: string): Promise<FileRecord> {
    const file = await findFile(this.db, id);
    if (!file) throw notFound();
    if (file.ownerType === null || file.ownerId === null) {
      if (file.uploadedBy !== user.id) throw notFound();
      return file;
    }
    const owner = this.owners.get(file.ownerType);
    if (!owner) {
      this.log?.error(
        { ownerType: file.ownerType },
        'a stored file has an unregistered owner type',
      );
      throw notFound();
    }
    if (!(await owner.canRead(user, file.ownerId, this.ctx))) {
      throw new AppError('FORBIDDEN', 'You may not open this file.');
    }
    return file;
  }

  /**
   * Attaches `user`'s unattached upload to a thing of a registered owner type, if `canAttach`
   * allows. Atomic: of two attaches of the same file, exactly one succeeds; the other is a 409.
   */
  async attach(
    user: UserRecord,
    fileId: string,
    owner: { type: string; id: string },
  ): Promise<FileRecord> {
    const type = this.owners.get(owner.type);
    if (!type) throw new Error(`File owner type "${owner.type}" is not registered`);
    if (!(await type.canAttach(user, owner.id, this.ctx))) {
      throw new AppError('FORBIDDEN', 'You may not attach files here.');
    }
    const attached = await attachFile(
      this.db,
      { id: fileId, uploadedBy: user.id, ownerType: owner.type, ownerId: owner.id },
      new Date(this.now()).toISOString(),
    );
    const file = await findFile(this.db, fileId);
    if (!attached) {
      if (!file || file.uploadedBy !== user.id) throw notFound();
      throw new AppError('CONFLICT', 'This file is already attached to something else.');
    }
    if (!file) throw notFound();
    return file;
  }

  /**
   * Copies a stored file (its bytes and thumbnail into new objects, a new row) and attaches the
   * copy to `owner`, as `uploadedBy`'s. For an area duplicating a thing with its files (copying a
   * course): the caller has checked that the user may read the original and owns the new thing.
   * Two rows never share an object, so deleting one never breaks the other.
   */
  async copyTo(
    fileId: string,
    owner: { type: string; id: string },
    uploadedBy: string,
  ): Promise<FileRecord> {
    const file = await findFile(this.db, fileId);
    if (!file) throw notFound();
    const duplicate = async (key: string, mime?: string) => {
      const read = await this.store.get(key);
      if (!read) throw notFound();
      return this.store.put(read.stream, {
        maxBytes: read.size,
        ...(mime ? { contentType: mime } : {}),
      });
    };
    const stored = await duplicate(file.storageKey, file.mime);
    let thumbnailKey: string | null = null;
    try {
      if (file.thumbnailKey) thumbnailKey = (await duplicate(file.thumbnailKey)).key;
      const at = new Date(this.now()).toISOString();
      const copy = await insertFile(this.db, {
        id: sortableId(),
        storageKey: stored.key,
        name: file.name,
        mime: file.mime,
        size: file.size,
        sha256: file.sha256,
        uploadedBy,
        createdAt: at,
        thumbnailKey,
      });
      await attachFile(
        this.db,
        { id: copy.id, uploadedBy, ownerType: owner.type, ownerId: owner.id },
        at,
      );
      return { ...copy, ownerType: owner.type, ownerId: owner.id, attachedAt: at };
    } catch (error) {
      await this.removeObjects({ storageKey: stored.key, thumbnailKey });
      throw error;
    }
  }

  /** Deletes `user`'s own unattached upload (row, then objects). */
  async deleteUnattached(user: UserRecord, fileId: string): Promise<void> {
    const file = await findFile(this.db, fileId);
    if (!file || file.uploadedBy !== user.id) throw notFound();
    if (file.ownerType !== null) {
      throw new AppError(
        'CONFLICT',
        'This file is attached; remove it from where it is used instead.',
      );
    }
    if (!(await deleteUnattachedFile(this.db, fileId, user.id))) throw notFound();
    await this.removeObjects(file);
  }

  /** The files attached to one thing, oldest first. */
  async listOwned(owner: { type: string; id: string }): Promise<FileRecord[]> {
    return listFilesOf(this.db, owner.type, owner.id);
  }

  /** Deletes a file whatever it belongs to, for an area removing the thing that owns it. */
  async deleteOwned(fileId: string): Promise<void> {
    const file = await findFile(this.db, fileId);
    if (!file) return;
    if (await deleteFileRow(this.db, fileId)) await this.removeObjects(file);
  }

  /**
   * Removes unattached uploads older than ORPHAN_AGE_MS. Safe with several instances at once:
   * each row is claimed by a conditional delete (still unattached), and only the instance whose
   * delete removed the row removes its objects. Returns how many files it removed.
   */
  async cleanupOrphans(): Promise<number> {
    const before = new Date(this.now() - ORPHAN_AGE_MS).toISOString();
    // Half-written uploads of a crashed process (by the file's own time: the clock of the disk).
    await this.store.removeIncomplete?.(Date.now() - ORPHAN_AGE_MS);
    let removed = 0;
    const seen = new Set<string>();
    for (;;) {
      const batch = (await listOrphans(this.db, before, ORPHAN_BATCH)).filter(
        (f) => !seen.has(f.id),
      );
      if (batch.length === 0) return removed;
      for (const file of batch) {
        seen.add(file.id);
        if (!(await deleteUnattachedFile(this.db, file.id))) continue;
        await this.removeObjects(file);
        removed += 1;
      }
    }
  }

  private async removeObjects(file: Pick<FileRecord, 'storageKey' | 'thumbnailKey'>) {
    for (const key of [file.storageKey, file.thumbnailKey]) {
      if (!key) continue;
      try {
        await this.store.delete(key);
      } catch (error) {
        // The row is gone; an object left behind costs space, not correctness.
        this.log?.error({ err: error, key }, 'could not remove a stored object');
      }
    }
  }
}

function notFound(): AppError {
  return new AppError('NOT_FOUND', 'File not found');
}
