/**
 * Where resumable uploads are staged (UPLOAD_STAGING_DIR): `@tus/file-store` with one change, a
 * full disk. Its own `write` turns every failure into a bare 500 and its `create` may leave an
 * empty file without its metadata; here a full disk (ENOSPC, EDQUOT) is the tus error 507 with
 * the message a person reads (storage/file-store.ts), a creation that did not fit leaves nothing,
 * and a PATCH that did not fit keeps the bytes that were written: the upload stays resumable
 * from the offset HEAD reports once there is room again.
 */
import { createWriteStream } from 'node:fs';
import { unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { FileStore as TusFileStore } from '@tus/file-store';
import type { Upload } from '@tus/utils';
import { isStorageFull, STORAGE_FULL_MESSAGE } from './file-store';

/** The tus error of a full disk (answered as 507 INSUFFICIENT_STORAGE by the routes). */
export const STAGING_FULL = { status_code: 507, body: `${STORAGE_FULL_MESSAGE}\n` } as const;

export class StagingStore extends TusFileStore {
  override async create(file: Upload): Promise<Upload> {
    try {
      return await super.create(file);
    } catch (error) {
      if (!isStorageFull(error)) throw error;
      // Neither the empty file nor its metadata stays behind.
      await unlink(join(this.directory, file.id)).catch(() => undefined);
      await this.configstore.delete(file.id).catch(() => undefined);
      throw STAGING_FULL;
    }
  }

  /** As `@tus/file-store`'s write (append from `offset`), a full disk answered as such. */
  override async write(readable: Readable, id: string, offset: number): Promise<number> {
    let received = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        received += chunk.length;
        callback(null, chunk);
      },
    });
    try {
      await pipeline(
        readable,
        count,
        createWriteStream(join(this.directory, id), { flags: 'r+', start: offset }),
      );
    } catch (error) {
      if (isStorageFull(error)) throw STAGING_FULL;
      throw error;
    }
    return offset + received;
  }
}
