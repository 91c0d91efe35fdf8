/**
 * Opening a stored PDF with pdfjs-dist (its legacy build, for Node.js), for text extraction and
 * thumbnails — always in a content worker (workers/, docs/jobs.md), never in the server's own
 * process: the bytes read up to a bound, no code evaluated from the document, and the standard
 * fonts from the package. pdfjs is imported when first needed (it is large).
 */
import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api';
import type { ContentTasks, ContentWork } from '../../workers/content-workers';
import {
  TaskFailed,
  TaskStopped,
  type TaskInput,
  type TaskOutput,
} from '../../workers/process-pool';
import { formatBytes } from './file-store';

/** The largest PDF read whole into a content worker's memory to be opened. */
export const PDF_MAX_BYTES = 256 * 1024 * 1024;

type PdfJs = typeof PdfJsModule;
let pdfjs: Promise<PdfJs> | undefined;

function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

/** The package's own data (standard fonts, wasm decoders), as directory paths ending in `/`. */
function packageDir(sub: string): string {
  const root = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
  return `${join(root, sub)}/`;
}

/** Why a PDF could not be opened, in words; thrown as the Error's message. */
export class PdfUnreadable extends Error {
  override name = 'PdfUnreadable';
}

/**
 * The PDF of object `storageKey`, read by content task `task` in a content worker (the
 * server's process never holds the document): the object is copied to a temporary file whose path
 * the task gets, and removed afterwards. The worker's kills come back as PdfUnreadable in words
 * (see `pdfError`); the job's `signal` stopping it, or the workers shutting down, as they are.
 */
export async function readPdfInWorker<K extends 'pdf.text' | 'pdf.thumbnail'>(
  work: ContentWork,
  storageKey: string,
  task: K,
  options: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<TaskOutput<ContentTasks, K>> {
  const read = await work.store.get(storageKey);
  if (!read) throw new PdfUnreadable('The file is missing from storage.');
  if (read.size > PDF_MAX_BYTES) {
    read.stream.destroy();
    throw new PdfUnreadable(`The file is too large to read (over ${formatBytes(PDF_MAX_BYTES)}).`);
  }
  return work.workers.withFile(read.stream, (path) =>
    work.workers.run(task, { path } as TaskInput<ContentTasks, K>, options),
  );
}

/** In a content worker: the PDF at `path` (up to PDF_MAX_BYTES). */
export async function readPdfFile(path: string): Promise<Uint8Array> {
  const { size } = await stat(path);
  if (size > PDF_MAX_BYTES) {
    throw new PdfUnreadable(`The file is too large to read (over ${formatBytes(PDF_MAX_BYTES)}).`);
  }
  return new Uint8Array(await readFile(path));
}

/**
 * Opens a PDF from its bytes. A password-protected PDF is a PdfUnreadable "The PDF is protected
 * by a password."; a broken one "The file is not a readable PDF (<why>)."
 */
export async function openPdf(
  data: Uint8Array,
): Promise<{ document: PDFDocumentProxy; close: () => Promise<void> }> {
  const { getDocument } = await loadPdfJs();
  const task = getDocument({
    data,
    useSystemFonts: false,
    stopAtErrors: false,
    verbosity: 0,
    standardFontDataUrl: packageDir('standard_fonts'),
    wasmUrl: packageDir('wasm'),
    iccUrl: packageDir('iccs'),
  });
  const close = () => task.destroy().catch(() => undefined);
  try {
    return { document: await task.promise, close };
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw pdfError(error);
  }
}

/**
 * A failure to read a PDF as a PdfUnreadable in words: pdfjs's own, the task's error from a
 * content worker, or the worker killed for its memory or its time.
 */
export function pdfError(error: unknown): PdfUnreadable {
  if (error instanceof PdfUnreadable) return error;
  if (error instanceof TaskStopped) {
    if (error.reason === 'memory') {
      return new PdfUnreadable(
        `The PDF needs more memory than allowed (over ${formatBytes(error.limit)}) to read.`,
      );
    }
    if (error.reason === 'time') {
      const seconds = Math.max(1, Math.round(error.limit / 1000));
      return new PdfUnreadable(`Reading the PDF took longer than ${seconds} s.`);
    }
    return new PdfUnreadable('The PDF could not be read: its reader stopped unexpectedly.');
  }
  const name = (error as { name?: unknown } | null)?.name;
  if (error instanceof TaskFailed && name === 'PdfUnreadable') {
    return new PdfUnreadable(error.message);
  }
  if (name === 'PasswordException') {
    return new PdfUnreadable('The PDF is protected by a password.');
  }
  const message = error instanceof Error ? error.message : String(error);
  return new PdfUnreadable(`The file is not a readable PDF (${message.replace(/\.$/, '')}).`);
}

/**
 * Whether `error` says something about the PDF (then the same file fails the same way: record
 * it, do not retry) rather than about the server (stopping, storage away: try again later).
 */
export function isPdfFailure(error: unknown): boolean {
  return (
    error instanceof PdfUnreadable ||
    error instanceof TaskFailed ||
    (error instanceof TaskStopped && error.reason !== 'exit') ||
    (error as { name?: unknown } | null)?.name === 'PasswordException'
  );
}
