/**
 * The one file storage interface every area uses (docs/adding-an-area.md, "Shared services"):
 * objects addressed by an opaque key, written from a stream and read back as a stream, whole or
 * a byte range. Two implementations: local disk (local-store.ts) and any S3-compatible store
 * (s3-store.ts); both pass the same contract tests (file-store.contract.ts).
 *
 * A store never trusts what the client says a file is: `put` measures the size while the bytes
 * stream through (and stops at the limit), hashes them, and detects the type from the content.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import { AppError } from '@learning-hub/core';
import { fileTypeFromBuffer } from 'file-type';

/** How many leading bytes type detection reads (file-type's own "reasonable" sample size). */
const DETECTION_BYTES = 4100;

export interface PutOptions {
  /** The largest accepted size in bytes; one byte more aborts the write (413 FILE_TOO_LARGE). */
  maxBytes: number;
  /**
   * What the client said the file is. Only a hint between safe text types for content without a
   * magic number (text/csv rather than text/plain); never decides anything else.
   */
  contentType?: string;
}

export interface StoredObject {
  key: string;
  size: number;
  /** SHA-256 of the content, hex. */
  sha256: string;
  /** Detected from the content (see detectMime). */
  mime: string;
}

/** A byte range, both ends inclusive, already checked against the object's size. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface ObjectRead {
  stream: Readable;
  /** The whole object's size. */
  size: number;
  start: number;
  /** Inclusive; `size - 1` for a whole read (-1 for an empty object). */
  end: number;
}

export interface FileStore {
  /** Which implementation (for logs and the health page). */
  readonly kind: 'local' | 's3';
  /** Streams `stream` into a new object; nothing stays under the key when it fails. */
  put(stream: Readable, options: PutOptions): Promise<StoredObject>;
  /** The object's bytes (a range of them); null when there is no such object. */
  get(key: string, range?: ByteRange): Promise<ObjectRead | null>;
  /** Removes the object; removing a missing object is not an error. */
  delete(key: string): Promise<void>;
  exists(key: string): Promise<boolean>;
  /** The object's size, or null when there is no such object. */
  stat(key: string): Promise<{ size: number } | null>;
  /**
   * Removes what interrupted writes left behind (a crash mid-upload) that is older than
   * `before` (epoch ms); returns how many. S3 stores leave that to the bucket's lifecycle rule
   * (AbortIncompleteMultipartUpload).
   */
  removeIncomplete?(before: number): Promise<number>;
}

/** A new object key: random, URL- and path-safe, and sorted roughly by nothing (no hot prefix). */
export function newObjectKey(): string {
  return randomBytes(16).toString('hex');
}

/** Keys this service generates; anything else is refused before touching a disk path or URL. */
export const OBJECT_KEY = /^[0-9a-f]{32}$/;

export function fileTooLarge(maxBytes: number): AppError {
  return new AppError(
    'FILE_TOO_LARGE',
    `The file is larger than the limit of ${formatBytes(maxBytes)}.`,
    { maxBytes },
  );
}

/** What a person is told when the server's disk (or database) is full. */
export const STORAGE_FULL_MESSAGE =
  'The server has no room to store this file right now. Try again later or tell an administrator.';

/**
 * Whether `error` says the storage is full: the disk (ENOSPC), the user's disk quota (EDQUOT),
 * SQLite's database file (SQLITE_FULL) or PostgreSQL's disk (53100 disk_full). Looks through
 * `cause` too (a stream or driver error wrapping the system's).
 */
export function isStorageFull(error: unknown): boolean {
  for (let e = error, depth = 0; e && typeof e === 'object' && depth < 5; depth += 1) {
    const code = (e as { code?: unknown }).code;
    if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === '53100') {
      return true;
    }
    if (e instanceof AppError) return e.code === 'INSUFFICIENT_STORAGE';
    e = (e as { cause?: unknown }).cause;
  }
  return false;
}

/** The 507 of a full disk: nothing of the request was kept. */
export function storageFull(): AppError {
  return new AppError('INSUFFICIENT_STORAGE', STORAGE_FULL_MESSAGE);
}

/** `error` as the 507 when it says the storage is full, else as it is. */
export function asStorageError(error: unknown): unknown {
  return isStorageFull(error) && !(error instanceof AppError) ? storageFull() : error;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 ** 3) return `${Math.round((bytes / 1024 ** 3) * 10) / 10} GB`;
  if (bytes >= 1024 ** 2) return `${Math.round((bytes / 1024 ** 2) * 10) / 10} MB`;
  if (bytes >= 1024) return `${Math.round((bytes / 1024) * 10) / 10} KB`;
  return `${bytes} bytes`;
}

/**
 * A pass-through that counts, hashes and keeps the first bytes (for type detection) of what
 * flows through it, and fails with FILE_TOO_LARGE as soon as more than `maxBytes` have passed.
 */
export class MeteredStream extends Transform {
  size = 0;
  private readonly hash = createHash('sha256');
  private readonly headChunks: Buffer[] = [];
  private headLength = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback) {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(fileTooLarge(this.maxBytes));
      return;
    }
    this.hash.update(chunk);
    if (this.headLength < DETECTION_BYTES) {
      const part = chunk.subarray(0, DETECTION_BYTES - this.headLength);
      this.headChunks.push(Buffer.from(part));
      this.headLength += part.length;
    }
    callback(null, chunk);
  }

  /** Call once the stream has ended. */
  result(): { size: number; sha256: string; head: Buffer } {
    return {
      size: this.size,
      sha256: this.hash.digest('hex'),
      head: Buffer.concat(this.headChunks, this.headLength),
    };
  }
}

/** Text types a client may name for text content; anything else text-like is text/plain. */
const TEXT_HINTS = new Set(['text/plain', 'text/csv', 'text/markdown', 'application/json']);

/**
 * The type of a file from its first bytes: the magic number when it has one (file-type), else
 * text/plain for text (UTF-8 without control characters, or the hint among safe text types),
 * else application/octet-stream. HTML, SVG and scripts have no magic number and so never come
 * out as a type a browser would render as a document.
 */
export async function detectMime(head: Buffer, hint?: string): Promise<string> {
  const found = await fileTypeFromBuffer(head);
  if (found) return found.mime;
  if (head.length > 0 && looksLikeText(head)) {
    const wanted = hint?.split(';')[0]?.trim().toLowerCase();
    return wanted && TEXT_HINTS.has(wanted) ? wanted : 'text/plain';
  }
  return 'application/octet-stream';
}

function looksLikeText(head: Buffer): boolean {
  // The head may end in the middle of a UTF-8 sequence: drop up to 3 trailing bytes of one.
  let end = head.length;
  for (let i = 1; i <= 3 && end - i >= 0; i += 1) {
    const byte = head[end - i] as number;
    if ((byte & 0xc0) === 0xc0) {
      end -= i;
      break;
    }
    if ((byte & 0x80) === 0) break;
  }
  const text = head.subarray(0, end);
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(text);
  } catch {
    return false;
  }
  for (const byte of text) {
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) {
      return false;
    }
    if (byte === 0x7f) return false;
  }
  return true;
}
