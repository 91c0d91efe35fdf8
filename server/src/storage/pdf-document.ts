/**
 * Opening a stored PDF with pdfjs-dist (its legacy build, for Node.js), for text extraction and
 * thumbnails: the bytes read from the store up to a bound, no code evaluated from the document,
 * and the standard fonts from the package. pdfjs is imported when first needed (it is large).
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type * as PdfJsModule from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { PDFDocumentProxy } from 'pdfjs-dist/types/src/display/api';
import type { FileStore } from './file-store';
import { formatBytes } from './file-store';

/** The largest PDF read whole into memory to be opened. */
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

/** Reads the object `storageKey` whole (up to PDF_MAX_BYTES). */
export async function readObject(
  store: FileStore,
  storageKey: string,
  maxBytes: number,
): Promise<Uint8Array> {
  const read = await store.get(storageKey);
  if (!read) throw new PdfUnreadable('The file is missing from storage.');
  if (read.size > maxBytes) {
    read.stream.destroy();
    throw new PdfUnreadable(`The file is too large to read (over ${formatBytes(maxBytes)}).`);
  }
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of read.stream) {
    const buffer = chunk as Buffer;
    length += buffer.length;
    if (length > maxBytes) {
      read.stream.destroy();
      throw new PdfUnreadable(`The file is too large to read (over ${formatBytes(maxBytes)}).`);
    }
    chunks.push(buffer);
  }
  return new Uint8Array(Buffer.concat(chunks, length));
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

/** A pdfjs failure as a PdfUnreadable in words. */
export function pdfError(error: unknown): PdfUnreadable {
  if (error instanceof PdfUnreadable) return error;
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'PasswordException') {
    return new PdfUnreadable('The PDF is protected by a password.');
  }
  const message = error instanceof Error ? error.message : String(error);
  return new PdfUnreadable(`The file is not a readable PDF (${message.replace(/\.$/, '')}).`);
}

/** Rejects with a PdfUnreadable after `ms`, calling `onTimeout` first; else what `work` gives. */
export async function withTimeLimit<T>(
  work: Promise<T>,
  ms: number,
  onTimeout: () => void,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      onTimeout();
      reject(new PdfUnreadable(`Reading the PDF took longer than ${Math.round(ms / 1000)} s.`));
    }, ms);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}
