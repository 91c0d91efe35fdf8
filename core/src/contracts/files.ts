/**
 * Stored files (the shared storage service, server/src/platform/storage): what an upload answers and what
 * a download is addressed by. The bytes themselves travel as multipart (upload) and as the raw
 * body (download), not as JSON.
 */
import { z } from 'zod';
import { IsoDateTime, sanitiseIdentityText } from './common';

/** The longest stored file name, in characters (the extension is kept when cutting). */
export const FILE_NAME_MAX = 200;

/** A stored file's metadata. */
export const StoredFileSchema = z.object({
  id: z.string(),
  /** The name it was uploaded with, sanitised (see sanitiseFileName); only for display. */
  name: z.string(),
  /** Detected from the content, never taken from the name or the client's content type. */
  mime: z.string(),
  /** Bytes. */
  size: z.number().int().nonnegative(),
  /** SHA-256 of the content, hex; the download's ETag. */
  sha256: z.string(),
  uploadedBy: z.string(),
  createdAt: IsoDateTime,
  /**
   * The thing the file belongs to (a lesson, a submission, …), whose read permission every
   * download checks; null until an area attaches it, and then only its uploader may read it.
   */
  owner: z.object({ type: z.string(), id: z.string() }).nullable(),
  attachedAt: IsoDateTime.nullable(),
  /**
   * Whether `GET /api/files/{fileId}/thumbnail` has a ≤ 320 px WebP preview (images at upload;
   * page 1 of a library PDF up to 64 MB once its background job has drawn it).
   */
  hasThumbnail: z.boolean(),
});
export type StoredFile = z.infer<typeof StoredFileSchema>;

/**
 * The query of a signed file URL (what the server hands out for `<img>`, `<video>` and links,
 * which cannot send the bearer token): expiry (epoch ms), the session it speaks for, signature.
 */
export const SignedUrlQuerySchema = z.object({
  exp: z.string().max(20).optional(),
  sid: z.string().max(128).optional(),
  sig: z.string().max(128).optional(),
});

/** The path parameter of every file route. */
export const FileParamsSchema = z.object({ fileId: z.string().min(1).max(64) });

/**
 * A file name as sent by a browser or a client made safe to store and show: no directory parts
 * (either slash), no control or bidirectional characters, NFC, at most FILE_NAME_MAX characters
 * keeping the extension; `file` when nothing is left.
 */
export function sanitiseFileName(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  let name = sanitiseIdentityText(base, Number.MAX_SAFE_INTEGER);
  if (name === '' || /^\.+$/.test(name)) return 'file';
  if (name.length > FILE_NAME_MAX) {
    const dot = name.lastIndexOf('.');
    const ext = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name =
      sanitiseIdentityText(
        name.slice(0, dot > 0 && ext ? dot : name.length),
        FILE_NAME_MAX - ext.length,
      ) + ext;
  }
  return name;
}
