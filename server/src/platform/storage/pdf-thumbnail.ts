/**
 * The preview of a PDF: its first page drawn with pdfjs-dist on @napi-rs/canvas (prebuilt, no
 * compiler needed) in a content worker (workers/), made a WebP of at most 320 × 320 px with sharp
 * there, and stored by the server in the same file store, as image thumbnails are (thumbnails.ts).
 */
import { Readable } from 'node:stream';
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import type { ContentWork } from '../../workers/content-workers';
import { openPdf, pdfError, readPdfInWorker } from './pdf-document';
import { THUMBNAIL_SIZE } from './thumbnails';

/** The page is drawn at twice the thumbnail's size, then scaled down (sharper text). */
const RENDER_SIZE = THUMBNAIL_SIZE * 2;
/** Drawing a page that takes longer than this is given up (the worker is stopped). */
export const RENDER_TIME_LIMIT_MS = 20_000;
const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Draws page 1 of the PDF `storageKey` in a content worker and stores it as a ≤ 320 px WebP;
 * returns its key. Throws a PdfUnreadable in words when the file is not a readable PDF (or is
 * protected by a password, or needs more memory or time than a worker is given).
 */
export async function makePdfThumbnail(
  work: ContentWork,
  storageKey: string,
  signal?: AbortSignal,
): Promise<string> {
  const webp = await readPdfInWorker(work, storageKey, 'pdf.thumbnail', {
    timeoutMs: RENDER_TIME_LIMIT_MS,
    signal,
  });
  const stored = await work.store.put(Readable.from([Buffer.from(webp)]), {
    maxBytes: THUMBNAIL_MAX_BYTES,
  });
  return stored.key;
}

/** In a content worker: page 1 of a PDF as a WebP of at most 320 × 320 px. */
export async function renderPdfThumbnail(data: Uint8Array): Promise<Uint8Array> {
  const { document, close } = await openPdf(data);
  let png: Buffer;
  try {
    const page = await document.getPage(1);
    const base = page.getViewport({ scale: 1 });
    const scale = RENDER_SIZE / Math.max(base.width, base.height, 1);
    const viewport = page.getViewport({ scale });
    const width = Math.max(1, Math.ceil(viewport.width));
    const height = Math.max(1, Math.ceil(viewport.height));
    const canvas = createCanvas(width, height);
    const context = canvas.getContext('2d');
    // Pages are drawn on white (a PDF page has no background of its own).
    context.fillStyle = '#ffffff';
    context.fillRect(0, 0, width, height);
    await page.render({ canvas: canvas as never, viewport }).promise;
    png = canvas.toBuffer('image/png');
  } catch (error) {
    throw pdfError(error);
  } finally {
    await close();
  }
  return sharp(png)
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 })
    .toBuffer();
}
