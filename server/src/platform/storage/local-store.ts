/**
 * Files on local disk under one directory (FILES_DIR). An upload is written to `tmp/` first and
 * renamed under its key only when complete, so a crash or a refused upload never leaves a half
 * file under a real key; objects are spread over `ab/cd/` subdirectories by the key's first bytes.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  detectMime,
  MeteredStream,
  newObjectKey,
  OBJECT_KEY,
  type ByteRange,
  type FileStore,
  type ObjectRead,
  type PutOptions,
  type StoredObject,
} from './file-store';

export class LocalFileStore implements FileStore {
  readonly kind = 'local' as const;

  constructor(private readonly dir: string) {}

  private path(key: string): string | null {
    if (!OBJECT_KEY.test(key)) return null;
    return join(this.dir, key.slice(0, 2), key.slice(2, 4), key);
  }

  async put(stream: Readable, options: PutOptions): Promise<StoredObject> {
    const key = newObjectKey();
    const tmpDir = join(this.dir, 'tmp');
    await mkdir(tmpDir, { recursive: true });
    const tmp = join(tmpDir, `${key}.part`);
    const meter = new MeteredStream(options.maxBytes);
    try {
      await pipeline(stream, meter, createWriteStream(tmp, { flags: 'wx' }));
      const { size, sha256, head } = meter.result();
      const mime = await detectMime(head, options.contentType);
      const final = this.path(key) as string;
      await mkdir(join(final, '..'), { recursive: true });
      await rename(tmp, final);
      return { key, size, sha256, mime };
    } catch (error) {
      await rm(tmp, { force: true });
      throw error;
    }
  }

  async stat(key: string): Promise<{ size: number } | null> {
    const path = this.path(key);
    if (!path) return null;
    try {
      const s = await stat(path);
      return s.isFile() ? { size: s.size } : null;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async get(key: string, range?: ByteRange): Promise<ObjectRead | null> {
    const found = await this.stat(key);
    if (!found) return null;
    if (found.size === 0) return { stream: Readable.from([]), size: 0, start: 0, end: -1 };
    const start = range?.start ?? 0;
    const end = range?.end ?? found.size - 1;
    const stream = createReadStream(this.path(key) as string, { start, end });
    return { stream, size: found.size, start, end };
  }

  async removeIncomplete(before: number): Promise<number> {
    const tmpDir = join(this.dir, 'tmp');
    let names: string[];
    try {
      names = await readdir(tmpDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
    let removed = 0;
    for (const name of names) {
      if (!name.endsWith('.part')) continue;
      const path = join(tmpDir, name);
      const s = await stat(path).catch(() => null);
      if (s && s.mtimeMs < before) {
        await rm(path, { force: true });
        removed += 1;
      }
    }
    return removed;
  }

  async delete(key: string): Promise<void> {
    const path = this.path(key);
    if (!path) return;
    await rm(path, { force: true });
  }
}
