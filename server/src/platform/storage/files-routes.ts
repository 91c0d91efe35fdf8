/**
 * Files: upload (multipart, streamed straight into the file store), download with HTTP Range and
 * ETag, the thumbnail of an image, and deleting one's own unattached upload. Every download
 * checks the read permission of the thing the file belongs to (storage/file-service.ts).
 */
import multipart from '@fastify/multipart';
import {
  AppError,
  FileParamsSchema,
  SignedUrlQuerySchema,
  StoredFileSchema,
} from '@learning-hub/core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser } from '../http/access';
import { createdAnswer } from '../http/openapi';
import { toStoredFile, type FileRecord } from './file-repository';
import type { FileService } from './file-service';
import { parseRange } from './range';
import { UPLOAD_REFUSALS } from './upload-checks';

/** Types a browser shows in place without running anything of ours; the rest is a download. */
function isInlineType(mime: string): boolean {
  if (mime === 'image/svg+xml') return false; // scripts: never rendered in our origin
  return (
    mime.startsWith('image/') ||
    mime.startsWith('video/') ||
    mime.startsWith('audio/') ||
    mime === 'application/pdf'
  );
}

/** `Content-Disposition` (RFC 6266) with an ASCII fallback and the UTF-8 name (RFC 8187). */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

function contentType(mime: string): string {
  return mime.startsWith('text/') ? `${mime}; charset=utf-8` : mime;
}

/** Whether `If-None-Match` names the entity tag (weak comparison, RFC 9110 §13.1.2). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/** The headers of every answer of a download (`sendFile`). */
const DOWNLOAD_HEADERS = {
  etag: 'The entity tag of the content (its SHA-256, quoted): send it back in `If-None-Match`.',
  'accept-ranges': '`bytes`: parts of the file may be asked for with `Range`.',
  'cache-control': '`private, no-cache`: kept by the browser only, revalidated every time.',
} as const;

/** What a download answers (API description). */
const DOWNLOAD_ANSWERS = {
  200: {
    description: 'The file, with its stored type, `Content-Disposition` and ETag (its SHA-256).',
    content: '*/*',
    headers: {
      ...DOWNLOAD_HEADERS,
      'content-disposition': '`inline` or `attachment`, with the file’s name.',
      'content-length': 'The size in bytes.',
    },
  },
  206: {
    description: 'The requested range of the file (`Range: bytes=…`).',
    content: '*/*',
    headers: {
      ...DOWNLOAD_HEADERS,
      'content-range': '`bytes <start>-<end>/<size>`',
      'content-length': 'The bytes of the range.',
    },
  },
  304: {
    description: 'Not modified: `If-None-Match` names the current ETag.',
    headers: DOWNLOAD_HEADERS,
  },
  403: ['You may not open this file.'],
  416: {
    messages: ['The requested range is not within the file (<size> bytes).'],
    headers: { ...DOWNLOAD_HEADERS, 'content-range': '`bytes */<size>`: the size of the file.' },
  },
} as const;

/** The headers a download reads (`sendFile`). */
const DOWNLOAD_REQUEST_HEADERS = {
  range: '`bytes=<start>-<end>` (one range): answers 206 with those bytes, 416 when outside.',
  'if-range':
    'An ETag: the range is served only if the file still has it, else the whole file (200).',
  'if-none-match': 'ETags the client holds (or `*`): 304 without a body when one is current.',
} as const;

/** A download's query: the signature, and `download=1` to save the file instead of showing it. */
const DownloadQuerySchema = SignedUrlQuerySchema.extend({
  download: z.enum(['1']).optional(),
});

const filesRoutes: FastifyPluginAsyncZod<{ files: FileService; maxUploadBytes: number }> = async (
  app,
  { files, maxUploadBytes },
) => {
  await app.register(multipart, {
    // The store enforces maxUploadBytes itself (with our message); busboy's own limit sits just
    // above it. A few small form fields (ignored) are tolerated before the file part.
    limits: {
      fileSize: maxUploadBytes + 1,
      files: 1,
      fields: 10,
      fieldSize: 1024,
      parts: 11,
      headerPairs: 100,
    },
  });

  app.post(
    '/api/files',
    {
      config: {
        access: {},
        requestBody: {
          contentType: 'multipart/form-data',
          description: 'One file part (other small form fields are ignored).',
          schema: {
            type: 'object',
            required: ['file'],
            properties: { file: { type: 'string', format: 'binary' } },
          },
        },
        responses: {
          201: createdAnswer('/api/files/<id>', 'Stored.'),
          400: [
            'The request has no file part.',
            'The upload is not valid multipart/form-data (no boundary, or the body ended early).',
            ...UPLOAD_REFUSALS[400],
          ],
          413: [
            'The file is over the upload limit, UPLOAD_MAX_BYTES (`FILE_TOO_LARGE`).',
            'The file does not fit in the bytes the person may keep unattached, or store in all (`UPLOAD_QUOTA_EXCEEDED`).',
          ],
          415: [
            'Send the file as multipart/form-data with one file part.',
            ...UPLOAD_REFUSALS[415],
          ],
          429: [
            'Too many uploads: at most <n> files in <window>. Try again in <n> seconds. (`RATE_LIMITED`, with Retry-After)',
          ],
        },
      },
      schema: {
        operationId: 'uploadFile',
        tags: ['files'],
        summary: 'Upload a file',
        description:
          'Upload one file (multipart/form-data, one file part). Streams into storage; the type ' +
          'is detected from the content. The file is the uploader’s alone until an area attaches it. ' +
          'Each person’s uploads are limited: past the upload rate, 429 RATE_LIMITED with ' +
          'Retry-After; a file that does not fit in the bytes a person may have unattached or ' +
          'store in all, 413 UPLOAD_QUOTA_EXCEEDED; a file over the size of one upload, 413 ' +
          'FILE_TOO_LARGE. Each answer’s message says which limit and what to do.',
        response: { 201: StoredFileSchema },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      if (!request.isMultipart()) {
        throw new AppError(
          'UNSUPPORTED_MEDIA_TYPE',
          'Send the file as multipart/form-data with one file part.',
        );
      }
      const wait = await files.countUpload(user);
      if (wait > 0) {
        // Nothing of the body will be read: close the connection once the answer is out.
        reply.header('retry-after', String(wait)).header('connection', 'close');
        throw files.rateRefusal(wait);
      }
      const length = Number(request.headers['content-length']);
      let part: Awaited<ReturnType<typeof request.file>>;
      try {
        part = await request.file();
      } catch (error) {
        throw malformedUpload(error);
      }
      if (!part) throw new AppError('BAD_REQUEST', 'The request has no file part.');
      try {
        const file = await files.upload(user, part.file, {
          name: part.filename,
          maxBytes: maxUploadBytes,
          contentType: part.mimetype,
          ...(Number.isSafeInteger(length) && length >= 0 ? { declaredBytes: length } : {}),
        });
        return await reply
          .code(201)
          .header('location', `/api/files/${encodeURIComponent(file.id)}`)
          .send(toStoredFile(file));
      } catch (error) {
        // The rest of the body will not be read: close the connection once the answer is out,
        // so the client stops sending instead of waiting on a socket nobody reads.
        reply.header('connection', 'close');
        // An error of the body itself (cut short, a broken part) is the client's, not the store's.
        const bodyError = part.file.errored;
        if (bodyError && !(error instanceof AppError)) throw malformedUpload(bodyError);
        throw error;
      }
    },
  );

  app.get(
    '/api/files/:fileId',
    {
      config: {
        access: { allowSignedUrl: true },
        responses: DOWNLOAD_ANSWERS,
        requestHeaders: DOWNLOAD_REQUEST_HEADERS,
      },
      // Sent as stored: ranges, the length and the ETag describe these bytes (plugins/compression.ts).
      compress: false,
      schema: {
        operationId: 'getFile',
        tags: ['files'],
        summary: 'Download a file',
        description:
          'Download a file (its owner’s read permission is checked on every request). Supports ' +
          'Range (206, 416) and If-None-Match (304, the ETag is the SHA-256). An <img>, <video> ' +
          'or link uses the signed URL the server handed out (exp, sid, sig) instead of the token. ' +
          '`download=1` serves it as an attachment whatever its type.',
        params: FileParamsSchema,
        querystring: DownloadQuerySchema,
      },
    },
    async (request, reply) => {
      const file = await files.findReadable(currentUser(request), request.params.fileId);
      const inline = isInlineType(file.mime) && request.query.download !== '1';
      return sendFile(request, reply, files, file, {
        key: file.storageKey,
        mime: file.mime,
        etag: `"${file.sha256}"`,
        disposition: contentDisposition(inline ? 'inline' : 'attachment', file.name),
      });
    },
  );

  app.get(
    '/api/files/:fileId/thumbnail',
    {
      config: {
        access: { allowSignedUrl: true },
        responses: {
          ...DOWNLOAD_ANSWERS,
          200: { ...DOWNLOAD_ANSWERS[200], content: 'image/webp' },
          206: { ...DOWNLOAD_ANSWERS[206], content: 'image/webp' },
          404: ['This file has no thumbnail.'],
        },
        requestHeaders: DOWNLOAD_REQUEST_HEADERS,
      },
      // Sent as stored: ranges, the length and the ETag describe these bytes (plugins/compression.ts).
      compress: false,
      schema: {
        operationId: 'getFileThumbnail',
        tags: ['files'],
        summary: 'The thumbnail of a file',
        description:
          'A ≤ 320 px WebP preview of an image file, or of page 1 of a PDF (404 when it has none).',
        params: FileParamsSchema,
        querystring: SignedUrlQuerySchema,
      },
    },
    async (request, reply) => {
      const file = await files.findReadable(currentUser(request), request.params.fileId);
      if (!file.thumbnailKey) throw new AppError('NOT_FOUND', 'This file has no thumbnail.');
      const name = `${file.name.replace(/\.[^.]*$/, '')}.webp`;
      return sendFile(request, reply, files, file, {
        key: file.thumbnailKey,
        mime: 'image/webp',
        etag: `"${file.sha256}-thumbnail"`,
        disposition: contentDisposition('inline', name),
      });
    },
  );

  app.delete(
    '/api/files/:fileId',
    {
      config: {
        access: {},
        responses: {
          204: 'Deleted.',
          409: ['This file is attached; remove it from where it is used instead.'],
        },
      },
      schema: {
        operationId: 'deleteFile',
        tags: ['files'],
        summary: 'Delete one’s own unattached upload',
        description: 'Delete one’s own upload that is not attached to anything yet.',
        params: FileParamsSchema,
      },
    },
    async (request, reply) => {
      await files.deleteUnattached(currentUser(request), request.params.fileId);
      return reply.code(204).send();
    },
  );
};

/**
 * A served file loads nothing, may be framed by the app's own pages only, and is a sandboxed
 * document (a unique origin, no scripts, no forms): even a file a browser were to render as a
 * page could never run script on the app's origin.
 */
export const FILE_CSP = "default-src 'none'; frame-ancestors 'self'; sandbox";
/**
 * An inline PDF without `sandbox`: Chromium refuses to open its PDF viewer in a sandboxed
 * document (the grader shows PDFs in a frame, docs/classroom.md). The content is a PDF by its
 * magic number, and the viewer runs in its own origin, never the app's.
 */
export const PDF_CSP = "default-src 'none'; frame-ancestors 'self'";

/** The CSP a stored object is served with (see FILE_CSP and PDF_CSP). */
export function fileCsp(mime: string, disposition: string): string {
  return mime === 'application/pdf' && disposition.startsWith('inline') ? PDF_CSP : FILE_CSP;
}

async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  files: FileService,
  file: FileRecord,
  object: { key: string; mime: string; etag: string; disposition: string },
) {
  reply
    .header('etag', object.etag)
    // Cached only privately and revalidated every time: the permission is checked per request.
    .header('cache-control', 'private, no-cache')
    .header('x-content-type-options', 'nosniff')
    // The app's own pages show a PDF in an <iframe> (the grader, docs/classroom.md): framing by
    // the same origin only; the file itself may still load nothing (the API's CSP otherwise).
    .header('content-security-policy', fileCsp(object.mime, object.disposition))
    .header('x-frame-options', 'SAMEORIGIN')
    .header('accept-ranges', 'bytes');
  if (matchesEtag(request.headers['if-none-match'], object.etag)) {
    return reply.code(304).send();
  }
  const size = (await files.store.stat(object.key))?.size;
  if (size === undefined) {
    request.log.error({ fileId: file.id, key: object.key }, 'a stored file has no object');
    throw new AppError('NOT_FOUND', 'File not found');
  }
  const ifRange = request.headers['if-range'];
  const range =
    ifRange === undefined || ifRange === object.etag
      ? parseRange(request.headers.range, size)
      : ({ kind: 'whole' } as const);
  if (range.kind === 'unsatisfiable') {
    reply.header('content-range', `bytes */${size}`);
    throw new AppError(
      'RANGE_NOT_SATISFIABLE',
      `The requested range is not within the file (${size} bytes).`,
    );
  }
  const read = await files.store.get(
    object.key,
    range.kind === 'range' ? { start: range.start, end: range.end } : undefined,
  );
  if (!read) throw new AppError('NOT_FOUND', 'File not found');
  reply
    .header('content-type', contentType(object.mime))
    .header('content-disposition', object.disposition)
    .header('content-length', String(read.end - read.start + 1));
  if (range.kind === 'range') {
    reply.code(206).header('content-range', `bytes ${read.start}-${read.end}/${read.size}`);
  }
  return reply.send(read.stream);
}

export default filesRoutes;

/**
 * A multipart body the parser refuses (no boundary, cut short, a malformed header) as a clear 400;
 * the parser's own limit errors keep their 4xx.
 */
function malformedUpload(error: unknown): Error {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  if (error instanceof AppError || (typeof status === 'number' && status >= 400 && status < 500)) {
    return error as Error;
  }
  return new AppError(
    'BAD_REQUEST',
    'The upload is not valid multipart/form-data (no boundary, or the body ended early).',
  );
}
