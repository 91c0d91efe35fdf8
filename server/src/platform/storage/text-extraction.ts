/**
 * The text of a stored file, for search and previews: PDFs through pdfjs-dist in a content
 * worker (workers/), plain text, Markdown and CSV as they are. Bounded (PDF pages, characters,
 * the worker's memory and time) and never throws for what a file contains: a file it cannot read
 * is `{ ok: false, reason }` in words a person can act on. It throws for what is not about the
 * file (the job stopped, the store away), so the job is tried again.
 */
import type { ContentWork } from '../../workers/content-workers';
import type { FileStore } from './file-store';
import { isPdfFailure, openPdf, pdfError, PdfUnreadable, readPdfInWorker } from './pdf-document';

/** At most this many PDF pages are read. */
export const MAX_PDF_PAGES = 500;
/** At most this many bytes of text (UTF-8) are kept; the rest is cut off. */
export const MAX_TEXT_BYTES = 2 * 1024 * 1024;
/** A PDF whose text takes longer than this is given up. */
export const EXTRACTION_TIME_LIMIT_MS = 30_000;

const TEXT_TYPES = new Set(['text/plain', 'text/markdown', 'text/csv']);

export type ExtractedText = { ok: true; text: string } | { ok: false; reason: string };

/** Cuts `text` to at most `maxBytes` of UTF-8 without splitting a character. */
function cut(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  return new TextDecoder('utf-8', { fatal: false })
    .decode(bytes.subarray(0, maxBytes))
    .replace(/\uFFFD$/, '');
}

export async function extractText(
  work: ContentWork,
  file: { storageKey: string; mime: string },
  signal?: AbortSignal,
): Promise<ExtractedText> {
  try {
    if (TEXT_TYPES.has(file.mime)) {
      // A little more than the limit, so a character cut at the end is dropped, not mangled.
      const data = await readPrefix(work.store, file.storageKey, MAX_TEXT_BYTES + 4);
      return { ok: true, text: cut(new TextDecoder('utf-8').decode(data), MAX_TEXT_BYTES) };
    }
    if (file.mime === 'application/pdf') {
      return await readPdfInWorker(work, file.storageKey, 'pdf.text', {
        timeoutMs: EXTRACTION_TIME_LIMIT_MS,
        signal,
      });
    }
    return { ok: false, reason: `Text cannot be read from files of type ${file.mime}.` };
  } catch (error) {
    if (!isPdfFailure(error)) throw error;
    return { ok: false, reason: pdfError(error).message };
  }
}

/** In a content worker: the text of a PDF's first MAX_PDF_PAGES pages, cut at MAX_TEXT_BYTES. */
export async function pdfTextOf(data: Uint8Array): Promise<ExtractedText> {
  const { document, close } = await openPdf(data);
  try {
    const pages: string[] = [];
    let bytes = 0;
    const last = Math.min(document.numPages, MAX_PDF_PAGES);
    for (let number = 1; number <= last && bytes < MAX_TEXT_BYTES; number += 1) {
      const page = await document.getPage(number);
      const content = await page.getTextContent();
      let text = '';
      for (const item of content.items) {
        if (!('str' in item)) continue;
        text += item.str;
        if (item.hasEOL) text += '\n';
      }
      page.cleanup();
      pages.push(text.trim());
      bytes += Buffer.byteLength(text, 'utf8') + 2;
    }
    return { ok: true, text: cut(pages.join('\n\n'), MAX_TEXT_BYTES) };
  } catch (error) {
    return { ok: false, reason: pdfError(error).message };
  } finally {
    await close();
  }
}

/** The first `maxBytes` of an object. */
async function readPrefix(store: FileStore, key: string, maxBytes: number): Promise<Buffer> {
  const read = await store.get(key, undefined);
  if (!read) throw new PdfUnreadable('The file is missing from storage.');
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of read.stream) {
    const buffer = chunk as Buffer;
    chunks.push(buffer);
    length += buffer.length;
    if (length >= maxBytes) {
      read.stream.destroy();
      break;
    }
  }
  return Buffer.concat(chunks, length).subarray(0, maxBytes);
}
