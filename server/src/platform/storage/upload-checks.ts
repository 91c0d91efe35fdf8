/**
 * The refusals every upload gets, whatever route it came through (POST /api/files, resumable
 * uploads): an empty file, and a name whose extension claims a type its content is not
 * (`report.pdf` that is plain text). FileService.upload applies them to the first bytes of the
 * stream, before anything is stored.
 */
import { PassThrough, pipeline, Readable } from 'node:stream';
import { AppError } from '@learning-hub/core';
import { detectMime } from './file-store';

/** How many leading bytes the checks read (what type detection reads, file-store.ts). */
export const HEAD_BYTES = 4100;

/** The family of ISO media files: one brand or another is a matter of the recording device. */
const ISO_MEDIA = ['video/mp4', 'video/quicktime', 'audio/mp4', 'video/x-m4v', 'video/3gpp'];
/** Office Open XML files are zip archives; the first bytes may show only the zip. */
const OOXML = (type: string) => [type, 'application/zip'];

/**
 * Extensions with a type their content shows (a magic number): the name and the types its
 * content may be detected as. Text-like extensions (txt, csv, md, html, svg, json) have no magic
 * number and are not checked.
 */
const CHECKED_EXTENSIONS: Record<string, { words: string; types: readonly string[] }> = {
  pdf: { words: 'a PDF', types: ['application/pdf'] },
  png: { words: 'a PNG image', types: ['image/png', 'image/apng'] },
  jpg: { words: 'a JPEG image', types: ['image/jpeg'] },
  jpeg: { words: 'a JPEG image', types: ['image/jpeg'] },
  gif: { words: 'a GIF image', types: ['image/gif'] },
  webp: { words: 'a WebP image', types: ['image/webp'] },
  mp4: { words: 'an MP4 video', types: ISO_MEDIA },
  mov: { words: 'a QuickTime video', types: ISO_MEDIA },
  webm: { words: 'a WebM video', types: ['video/webm', 'audio/webm', 'video/x-matroska'] },
  mp3: { words: 'an MP3 audio file', types: ['audio/mpeg'] },
  wav: { words: 'a WAV audio file', types: ['audio/wav', 'audio/vnd.wave', 'audio/x-wav'] },
  ogg: {
    words: 'an Ogg audio or video file',
    types: ['audio/ogg', 'video/ogg', 'audio/opus', 'application/ogg', 'audio/x-flac'],
  },
  zip: { words: 'a zip archive', types: ['application/zip'] },
  docx: {
    words: 'a Word document',
    types: OOXML('application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
  },
  xlsx: {
    words: 'an Excel workbook',
    types: OOXML('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'),
  },
  pptx: {
    words: 'a PowerPoint presentation',
    types: OOXML('application/vnd.openxmlformats-officedocument.presentationml.presentation'),
  },
};

/** A detected type in words, for the refusal's message. */
function typeInWords(mime: string): string {
  if (mime === 'text/plain' || mime === 'text/markdown') return 'plain text';
  if (mime === 'text/csv') return 'CSV text';
  if (mime === 'application/json') return 'JSON text';
  if (mime === 'application/octet-stream') return 'of no type we recognise';
  for (const { words, types } of Object.values(CHECKED_EXTENSIONS)) {
    if (types[0] === mime) return words;
  }
  return `of type ${mime}`;
}

/** The refusals of `refuseUpload`, for the API description of every upload route. */
export const UPLOAD_REFUSALS = {
  400: ['The file is empty. (`FILE_EMPTY`)'],
  415: [
    '<name> is not <the type its extension names>: its content is <what it is>. (`FILE_TYPE_MISMATCH`)',
  ],
} as const;

export function fileEmpty(): AppError {
  return new AppError('FILE_EMPTY', 'The file is empty.');
}

/**
 * The refusal of a file named `name` whose first bytes are `head`, or null when it may be
 * stored: empty (400 FILE_EMPTY), or not of the type its extension names (415
 * FILE_TYPE_MISMATCH: "report.pdf is not a PDF: its content is plain text.").
 */
export async function refuseUpload(name: string, head: Buffer): Promise<AppError | null> {
  if (head.length === 0) return fileEmpty();
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  const expected = extension ? CHECKED_EXTENSIONS[extension] : undefined;
  if (!expected) return null;
  const mime = await detectMime(head);
  if (expected.types.includes(mime)) return null;
  return new AppError(
    'FILE_TYPE_MISMATCH',
    `${name} is not ${expected.words}: its content is ${typeInWords(mime)}.`,
    { extension, detected: mime },
  );
}

/**
 * Reads up to `bytes` from the start of `stream` without losing them: `head` holds them, and the
 * `stream` returned reads everything from the start (read from it, no longer from the original).
 */
export async function peekHead(
  stream: Readable,
  bytes = HEAD_BYTES,
): Promise<{ head: Buffer; stream: Readable }> {
  const chunks: Buffer[] = [];
  let length = 0;
  const ended = await new Promise<boolean>((resolve, reject) => {
    const cleanup = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    // Closed without ending: destroyed, or failed before we listened (a body cut short).
    const onClose = () => {
      if (stream.readableEnded) return onEnd();
      onError((stream.errored as Error | null) ?? new Error('The upload ended before its end.'));
    };
    const onEnd = () => {
      cleanup();
      resolve(true);
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onReadable = () => {
      let chunk: unknown;
      while (length < bytes && (chunk = stream.read()) !== null) {
        const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string);
        chunks.push(buffer);
        length += buffer.length;
      }
      if (length >= bytes) {
        cleanup();
        resolve(false);
      }
    };
    stream.on('readable', onReadable);
    stream.once('end', onEnd);
    stream.once('error', onError);
    stream.once('close', onClose);
    if (stream.readableEnded) onEnd();
    else if (stream.errored || stream.destroyed) onClose();
  });
  const head = Buffer.concat(chunks, length);
  if (ended) {
    return { head: head.subarray(0, bytes), stream: Readable.from(head.length ? [head] : []) };
  }
  // What was read, then the rest; an error on either side ends both.
  const rest = new PassThrough();
  rest.write(head);
  pipeline(stream, rest, () => {});
  return { head: head.subarray(0, bytes), stream: rest };
}
