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
 *
 * Uploads are held to per-person limits from the configuration (docs/classroom.md, "Upload
 * limits"): a rate (`countUpload`), the bytes not yet attached to anything, and all the bytes a
 * person stores. An upload reserves the bytes it may take before it streams and trades the
 * reservation for its row once stored, atomically, so uploads running side by side cannot
 * together pass a limit that only one of them fits in.
 */
import {
  AppError,
  sanitiseFileName,
  type AccessContext,
  type PermissionId,
  type UploadLimits,
} from '@learning-hub/core';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { AccessService } from '../access/access-service';
import { countUpload } from '../auth/throttle';
import type { UserRecord } from '../auth/user-repository';
import type { Db } from '../db';
import { sortableId } from '../ids';
import { referencedFileIds } from '../rich-text/sanitize';
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
import {
  asStorageError,
  fileTooLarge,
  formatBytes,
  type FileStore,
  type StoredObject,
} from './file-store';
import { canThumbnail, makeThumbnail } from './thumbnails';
import { peekHead, refuseUpload } from './upload-checks';
import {
  deleteStaleReservations,
  recordReservedUpload,
  releaseReservation,
  reserveUploadBytes,
  type QuotaUsage,
} from './upload-quota-repository';

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

const HOUR_MS = 3_600_000;
/** Half-written objects of a crashed process older than this are removed (by the disk's clock). */
const INCOMPLETE_WRITE_AGE_MS = 24 * HOUR_MS;
/** How many orphans one clean-up pass claims per query. */
const ORPHAN_BATCH = 100;
/**
 * A reservation older than this no longer counts and is swept away: its upload's process died
 * (an upload that is still streaming after it only loses its hold on the bytes).
 */
export const RESERVATION_TTL_MS = 6 * HOUR_MS;
/**
 * The most a multipart body carries besides its file, given the parser's limits in
 * features/files/routes.ts (11 parts, each with at most 16 KB of headers, 10 small fields): a
 * body whose Content-Length, less this, is over the room left is refused before it is read.
 */
export const MULTIPART_OVERHEAD_BYTES = 256 * 1024;

/**
 * PDFs up to this size get a thumbnail of page 1 from a background job of the area that keeps
 * them (the library's `library.thumbnail`): a PDF is read whole to be drawn, larger ones get none.
 */
export const PDF_THUMBNAIL_MAX_BYTES = 64 * 1024 * 1024;

/** Which of a person's byte limits an upload did not fit in. */
type QuotaLimit = 'unattached' | 'stored';

export class FileService {
  private readonly owners = new Map<string, FileOwner>();
  /** More work for the hourly clean-up (staged resumable uploads past their hours). */
  private readonly cleanups: Array<() => Promise<unknown>> = [];
  private readonly ctx: FileOwnerContext;

  constructor(
    readonly store: FileStore,
    private readonly db: Db,
    private readonly now: () => number,
    access: AccessService,
    /** Per-person limits on uploads (config.files.limits). */
    readonly limits: UploadLimits,
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
   * Counts one upload by `user` against the upload rate, before anything is read. Returns 0, or
   * once the rate is used up the whole seconds to wait (answer with `rateRefusal`).
   */
  async countUpload(user: UserRecord): Promise<number> {
    const counted = await countUpload(this.db, user.id, this.limits.rate, this.now());
    return counted.granted ? 0 : Math.max(1, counted.wait);
  }

  /** The 429 of an upload past the rate, `wait` seconds before the next may start. */
  rateRefusal(wait: number): AppError {
    const { rate } = this.limits;
    return new AppError(
      'RATE_LIMITED',
      `Too many uploads: at most ${plural(rate.uploads, 'file')} in ` +
        `${windowText(rate.windowSeconds)}. Try again in ${plural(wait, 'second')}.`,
      { retryAfter: wait },
    );
  }

  /**
   * Streams an upload into the store and records it, unattached, as `user`'s. Images get a
   * thumbnail; a thumbnail that fails is logged and left out, the upload still succeeds. (A PDF's
   * is drawn later, by a job: drawing it here would hold the request and the event loop.)
   *
   * The bytes it may take are reserved first against `user`'s limits: `declaredBytes` (the
   * request's Content-Length, when known) or else `maxBytes`, and no more than the room left. A
   * body that cannot fit is refused before it is read (413 UPLOAD_QUOTA_EXCEEDED), and one that
   * outgrows a reservation the room cut short is refused as it streams, with the same answer.
   *
   * Every upload is refused from its first bytes when it is empty (400 FILE_EMPTY) or its name's
   * extension claims a type its content is not (415 FILE_TYPE_MISMATCH, upload-checks.ts); then
   * nothing is stored and the reservation is given back.
   */
  async upload(
    user: UserRecord,
    stream: Readable,
    options: { name: string; maxBytes: number; contentType?: string; declaredBytes?: number },
  ): Promise<FileRecord> {
    const reservation = await this.reserve(user.id, options.maxBytes, options.declaredBytes);
    let stored: StoredObject;
    try {
      // Refused from its first bytes, before anything is stored: empty, or not what its name says.
      const peeked = await peekHead(stream);
      const refusal = await refuseUpload(sanitiseFileName(options.name), peeked.head);
      if (refusal) throw refusal;
      stored = await this.store.put(peeked.stream, {
        maxBytes: reservation.bytes,
        ...(options.contentType ? { contentType: options.contentType } : {}),
      });
    } catch (error) {
      await releaseReservation(this.db, reservation.id);
      const cutShort = reservation.bytes < options.maxBytes;
      if (cutShort && error instanceof AppError && error.code === 'FILE_TOO_LARGE') {
        throw this.quotaRefusal(reservation.limit, reservation.usage);
      }
      // A full disk: the store kept nothing (put removes its partial object); say so plainly.
      throw asStorageError(error);
    }
    let thumbnailKey: string | null = null;
    if (canThumbnail(stored.mime)) {
      try {
        thumbnailKey = await makeThumbnail(this.store, stored.key);
      } catch (error) {
        this.log?.warn({ err: error, key: stored.key }, 'no thumbnail for an uploaded image');
      }
    }
    try {
      return await recordReservedUpload(this.db, reservation.id, {
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
      await releaseReservation(this.db, reservation.id).catch(() => undefined);
      await this.removeObjects({ storageKey: stored.key, thumbnailKey });
      throw asStorageError(error);
    }
  }

  /**
   * Refuses now (413 UPLOAD_QUOTA_EXCEEDED) a file of `bytes` that does not fit in `user`'s room,
   * without reserving anything: for an upload sent over a long time (a resumable upload checks at
   * its creation; its bytes are reserved when it is stored).
   */
  async checkRoom(user: UserRecord, bytes: number): Promise<void> {
    const now = this.now();
    const { usage } = await reserveUploadBytes(
      this.db,
      user.id,
      new Date(now).toISOString(),
      new Date(now - RESERVATION_TTL_MS).toISOString(),
      () => null,
    );
    const { limit, room } = this.tightest(usage);
    if (room < bytes) throw this.quotaRefusal(limit, usage);
  }

  /** The limit with the least room left: the one a file too big for the room did not fit in. */
  private tightest(u: QuotaUsage): { limit: QuotaLimit; room: number } {
    const { maxUnattachedBytes, maxStoredBytes } = this.limits;
    const unattachedRoom = maxUnattachedBytes - u.unattachedBytes - u.reservedBytes;
    const storedRoom = maxStoredBytes - u.storedBytes - u.reservedBytes;
    return storedRoom < unattachedRoom
      ? { limit: 'stored', room: storedRoom }
      : { limit: 'unattached', room: unattachedRoom };
  }

  /** Adds work to the hourly clean-up (`cleanupOrphans`); a failure is logged, not thrown. */
  addCleanup(task: () => Promise<unknown>): void {
    this.cleanups.push(task);
  }

  /**
   * Reserves what an upload may take (see `upload`), deciding alone among `userId`'s uploads, or
   * refuses it when the room left is smaller than the file must be.
   */
  private async reserve(userId: string, maxBytes: number, declaredBytes: number | undefined) {
    const now = this.now();
    const wanted = declaredBytes === undefined ? maxBytes : Math.min(maxBytes, declaredBytes);
    // The file is at least this big: its body, less what else a multipart body may carry.
    const needed = declaredBytes === undefined ? 0 : declaredBytes - MULTIPART_OVERHEAD_BYTES;
    // Over the size of one file whatever room is left: that is the limit to name.
    if (needed > maxBytes) throw fileTooLarge(maxBytes);
    const tightest = (u: QuotaUsage) => this.tightest(u);
    const { usage, reservation } = await reserveUploadBytes(
      this.db,
      userId,
      new Date(now).toISOString(),
      new Date(now - RESERVATION_TTL_MS).toISOString(),
      (u) => {
        const { room } = tightest(u);
        return room <= 0 || room < needed ? null : Math.min(wanted, room);
      },
    );
    const { limit } = tightest(usage);
    if (!reservation) throw this.quotaRefusal(limit, usage);
    return { ...reservation, limit, usage };
  }

  /** The 413 of an upload that does not fit in `limit`, in words a person can act on. */
  private quotaRefusal(limit: QuotaLimit, usage: QuotaUsage): AppError {
    if (limit === 'stored') {
      const used = usage.storedBytes + usage.reservedBytes;
      const max = this.limits.maxStoredBytes;
      return new AppError(
        'UPLOAD_QUOTA_EXCEEDED',
        `Your files take ${formatBytes(used)} of the ${formatBytes(max)} each person may ` +
          'store, so this file does not fit. Remove files you no longer need before uploading more.',
        { limit, limitBytes: max, usedBytes: used },
      );
    }
    const used = usage.unattachedBytes + usage.reservedBytes;
    const max = this.limits.maxUnattachedBytes;
    return new AppError(
      'UPLOAD_QUOTA_EXCEEDED',
      `You have ${formatBytes(used)} of uploads not yet attached to anything, and the limit is ` +
        `${formatBytes(max)}, so this file does not fit. Attach them (save what they belong to) ` +
        'or remove them before uploading more; uploads left unattached are removed after ' +
        `${plural(this.limits.unattachedHours, 'hour')}.`,
      { limit, limitBytes: max, usedBytes: used },
    );
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
   * The one way a rich-text field takes the files its document shows (docs/adding-an-area.md,
   * "Files"): every save of such a field (a lesson, a wiki page, a library item's description, a
   * hand-in's answer, an assignment's instructions, a course summary) calls this with the saved,
   * sanitised HTML, after its own write. Attaches to `owner` each file the HTML refers to that is
   * `user`'s own unattached upload (the picture they just added with the editor's image button),
   * so that whoever may read the thing may read its pictures, and the sweep of unattached uploads
   * leaves them alone.
   *
   * Nothing else changes hands: a reference to someone else's upload, or to a file that belongs
   * to something else, is left as it is. It never grants read access (each download checks the
   * file's own owner), so no one captures another person's upload by naming its id, and a reader
   * who may not read the other thing sees a broken image, nothing more.
   */
  async attachReferenced(
    user: UserRecord,
    html: string,
    owner: { type: string; id: string },
  ): Promise<void> {
    for (const id of referencedFileIds(html)) {
      const file = await findFile(this.db, id);
      if (!file || file.ownerType !== null || file.uploadedBy !== user.id) continue;
      try {
        await this.attach(user, id, owner);
      } catch (error) {
        // Lost a race for it (attached elsewhere meanwhile): it stays where it went.
        if (!(error instanceof AppError)) throw error;
      }
    }
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
    const stored = await duplicate(file.storageKey, file.mime).catch((error: unknown) => {
      throw asStorageError(error);
    });
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
      throw asStorageError(error);
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
   * Removes unattached uploads older than the configured hours (`limits.unattachedHours`),
   * reservations of uploads whose process died, and runs the tasks of `addCleanup` (resumable
   * uploads never finished). Safe with several instances at once: each row is
   * claimed by a conditional delete (still unattached), and only the instance whose delete
   * removed the row removes its objects. An attach racing with it is one conditional update on
   * the same row: either the file is attached and stays, or it is gone and the attach finds no
   * file (404); never both. Returns how many files it removed.
   */
  async cleanupOrphans(): Promise<number> {
    const now = this.now();
    const before = new Date(now - this.limits.unattachedHours * HOUR_MS).toISOString();
    await deleteStaleReservations(this.db, new Date(now - RESERVATION_TTL_MS).toISOString());
    // Half-written uploads of a crashed process (by the file's own time: the clock of the disk).
    await this.store.removeIncomplete?.(Date.now() - INCOMPLETE_WRITE_AGE_MS);
    for (const task of this.cleanups) {
      try {
        await task();
      } catch (error) {
        this.log?.error({ err: error }, 'a clean-up task failed');
      }
    }
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

/** "1 file", "60 files". */
function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

/** A rate's window in words: "10 minutes", "1 hour", "90 seconds". */
function windowText(seconds: number): string {
  if (seconds === 3600) return '1 hour';
  if (seconds % 60 === 0) return plural(seconds / 60, 'minute');
  return plural(seconds, 'second');
}
