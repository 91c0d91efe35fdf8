/**
 * The tasks content workers run (in the child process, see content-worker.ts). To add one: a
 * function of one structured-clonable input (ids, paths, numbers, Buffers — not a whole stored
 * document: pass a file's path, see ProcessPool.withFile) to a promise of its result, named
 * `<area>.<what>`; the server calls `app.contentWorkers.run('<name>', input, { timeoutMs,
 * signal })`.
 */
import { readPdfFile } from '../platform/storage/pdf-document';
import { renderPdfThumbnail } from '../platform/storage/pdf-thumbnail';
import { pdfTextOf } from '../platform/storage/text-extraction';

export const contentTasks = {
  /** The text of the PDF at `path` (its first MAX_PDF_PAGES pages, at most MAX_TEXT_BYTES). */
  'pdf.text': async ({ path }: { path: string }) => pdfTextOf(await readPdfFile(path)),
  /** Page 1 of the PDF at `path` as a WebP of at most 320 × 320 px. */
  'pdf.thumbnail': async ({ path }: { path: string }) =>
    renderPdfThumbnail(await readPdfFile(path)),
};
