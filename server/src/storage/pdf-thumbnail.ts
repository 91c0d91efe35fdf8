/**
 * The preview of a PDF: its first page drawn with pdfjs-dist on @napi-rs/canvas (prebuilt, no
 * compiler needed), made a WebP of at most 320 × 320 px with sharp and stored in the same file
 * store, as image thumbnails are (thumbnails.ts).
 */
import { Readable } from 'node:stream';
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import type { FileStore } from './file-store';
import { openPdf, PDF_MAX_BYTES, pdfError, readObject, withTimeLimit } from './pdf-document';
import { THUMBNAIL_SIZE } from './thumbnails';

/** The page is drawn at twice the thumbnail's size, then scaled down (sharper text). */
const RENDER_SIZE = THUMBNAIL_SIZE * 2;
const RENDER_TIME_LIMIT_MS = 20_000;
const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

/**
 * Draws page 1 of the PDF `storageKey` and stores it as a ≤ 320 px WebP; returns its key. Throws
 * an Error in words when the file is not a readable PDF (or is protected by a password).
 */
export async function makePdfThumbnail(store: FileStore, storageKey: string): Promise<string> {
  const data = await readObject(store, storageKey, PDF_MAX_BYTES);
  const { document, close } = await openPdf(data);
  let png: Buffer;
  try {
    const page = await document.getPage(1).catch((error: unknown) => {
      throw pdfError(error);
    });
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
    const task = page.render({
      canvas: canvas as never,
      viewport,
    });
    await withTimeLimit(task.promise, RENDER_TIME_LIMIT_MS, () => task.cancel()).catch(
      (error: unknown) => {
        throw pdfError(error);
      },
    );
    png = canvas.toBuffer('image/png');
  } finally {
    await close();
  }
  const webp = await sharp(png)
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 })
    .toBuffer();
  const stored = await store.put(Readable.from([webp]), { maxBytes: THUMBNAIL_MAX_BYTES });
  return stored.key;
}
