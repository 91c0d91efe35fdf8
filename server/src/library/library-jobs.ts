/**
 * The library's background jobs (docs/jobs.md, docs/library.md): the text of a document version
 * for search, and a PDF's first-page thumbnail. Both idempotent: run twice, they end the same.
 */
import { z } from 'zod';
import type { Db } from '../db';
import { defineJob } from '../jobs';
import { findFile, setFileThumbnail } from '../storage/file-repository';
import { PDF_THUMBNAIL_MAX_BYTES } from '../storage/file-service';
import { asStorageError, type FileStore } from '../storage/file-store';
import { makePdfThumbnail } from '../storage/pdf-thumbnail';
import { extractText } from '../storage/text-extraction';
import {
  findVersionForText,
  indexItem,
  isCurrentVersion,
  setVersionText,
} from './library-repository';

/** Extract the text of one version's document (PDF or text), then index it if it is current. */
export const ExtractLibraryText = defineJob(
  'library.extract-text',
  z.object({ versionId: z.string() }),
);

/** Make the first-page thumbnail of a PDF and record it as the file's thumbnail. */
export const LibraryThumbnail = defineJob('library.thumbnail', z.object({ fileId: z.string() }));

/** The most characters of a document's text kept for search. */
const MAX_TEXT_CHARS = 1_000_000;

/** Documents whose text is extracted for search. */
export const hasExtractableText = (mime: string) =>
  mime === 'application/pdf' || mime.startsWith('text/');

export async function runExtractText(db: Db, store: FileStore, versionId: string): Promise<void> {
  const version = await findVersionForText(db, versionId);
  // Gone (purged), or done by an earlier run of this job.
  if (!version || version.textState === 'extracted' || version.textState === 'failed') return;
  let outcome: { ok: true; text: string } | { ok: false; reason: string };
  try {
    outcome = await extractText(store, {
      storageKey: version.file.storageKey,
      mime: version.file.mime,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    outcome = { ok: false, reason: `The text could not be read: ${message}` };
  }
  if (outcome.ok) outcome = { ok: true, text: outcome.text.slice(0, MAX_TEXT_CHARS) };
  const result = outcome;
  await db.transaction().execute(async (trx) => {
    await setVersionText(trx, version.id, result);
    if (await isCurrentVersion(trx, version.itemId, version.version)) {
      await indexItem(trx, version.itemId);
    }
  });
}

/** `make`: the renderer (the storage's makePdfThumbnail; a test passes its own). */
export async function runThumbnail(
  db: Db,
  store: FileStore,
  fileId: string,
  make: typeof makePdfThumbnail = makePdfThumbnail,
): Promise<void> {
  const file = await findFile(db, fileId);
  if (!file || file.thumbnailKey !== null || file.size > PDF_THUMBNAIL_MAX_BYTES) return;
  // A full disk fails the job with the reason in words (it is tried again later); the store
  // keeps no partial picture.
  const key = await make(store, file.storageKey).catch((error: unknown) => {
    throw asStorageError(error);
  });
  let recorded: boolean;
  try {
    recorded = await setFileThumbnail(db, fileId, key);
  } catch (error) {
    await store.delete(key);
    throw asStorageError(error);
  }
  // Another run (or the file's removal) got there first: drop this picture.
  if (!recorded) await store.delete(key);
}
