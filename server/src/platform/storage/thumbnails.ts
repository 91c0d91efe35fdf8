/**
 * Image previews: a WebP no larger than 320 × 320 px, made with sharp from the stored original
 * and stored in the same file store. Only for raster types sharp reads safely; SVG is never
 * rendered (it is served as an attachment, never as an image of ours).
 */
import sharp from 'sharp';
import type { FileStore } from './file-store';

export const THUMBNAIL_SIZE = 320;
/** A thumbnail larger than this means something is wrong; it is refused like any upload. */
const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;
/** Images with more pixels than this (≈ 100 megapixels) get no thumbnail (decompression bombs). */
const MAX_INPUT_PIXELS = 100_000_000;

const THUMBNAIL_TYPES = new Set([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'image/avif',
  'image/tiff',
  'image/heic',
  'image/heif',
]);

export function canThumbnail(mime: string): boolean {
  return THUMBNAIL_TYPES.has(mime);
}

/** Makes and stores the thumbnail of the object `key`; returns its key. */
export async function makeThumbnail(store: FileStore, key: string): Promise<string> {
  const original = await store.get(key);
  if (!original) throw new Error(`no object ${key} to make a thumbnail of`);
  const resize = sharp({ limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' })
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 75 });
  original.stream.on('error', (error) => resize.destroy(error));
  const stored = await store.put(original.stream.pipe(resize), { maxBytes: THUMBNAIL_MAX_BYTES });
  return stored.key;
}
