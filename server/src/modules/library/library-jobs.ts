/**
 * The library's background jobs (docs/jobs.md, docs/library.md): the text of a document version
 * for search, and a PDF's first-page thumbnail. Both idempotent: run twice, they end the same.
 */
import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../platform/db';
import { defineJob, FinalJobError } from '../../platform/jobs';
import { findFile, setFileThumbnail } from '../../platform/storage/file-repository';
import { PDF_THUMBNAIL_MAX_BYTES } from '../../platform/storage/file-service';
import { asStorageError } from '../../platform/storage/file-store';
import { isPdfFailure, pdfError } from '../../platform/storage/pdf-document';
import { makePdfThumbnail } from '../../platform/storage/pdf-thumbnail';
import { extractText } from '../../platform/storage/text-extraction';
import type { ContentWork } from '../../workers/content-workers';
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

/**
 * A PDF is read in a content worker (docs/jobs.md): one the worker cannot read within its memory
 * and time ends `failed` with the reason in words, like any unreadable file. Throws (the attempt
 * is tried again) only for what is not about the file: the job stopped, the store away.
 */
export async function runExtractText(
  db: Db,
  work: ContentWork,
  versionId: string,
  signal?: AbortSignal,
): Promise<void> {
  const version = await findVersionForText(db, versionId);
  // Gone (purged), or done by an earlier run of this job.
  if (!version || version.textState === 'extracted' || version.textState === 'failed') return;
  let outcome = await extractText(
    work,
    { storageKey: version.file.storageKey, mime: version.file.mime },
    signal,
  );
  if (outcome.ok) outcome = { ok: true, text: outcome.text.slice(0, MAX_TEXT_CHARS) };
  const result = outcome;
  await db.transaction().execute(async (trx) => {
    await setVersionText(trx, version.id, result);
    if (await isCurrentVersion(trx, version.itemId, version.version)) {
      await indexItem(trx, version.itemId);
    }
  });
}

/**
 * Draws the thumbnail in a content worker. A PDF it cannot draw (unreadable, or over the worker's
 * memory or time) fails the job at once with the reason (FinalJobError): the same file would fail
 * the same way again. `make`: the renderer (the storage's makePdfThumbnail; a test passes its own).
 */
export async function runThumbnail(
  db: Db,
  work: ContentWork,
  fileId: string,
  signal?: AbortSignal,
  make: typeof makePdfThumbnail = makePdfThumbnail,
): Promise<void> {
  const file = await findFile(db, fileId);
  if (!file || file.thumbnailKey !== null || file.size > PDF_THUMBNAIL_MAX_BYTES) return;
  // A full disk fails the job with the reason in words (it is tried again later); the store
  // keeps no partial picture. An unreadable PDF (or one over a worker's memory or time) fails
  // it for good.
  let key: string;
  try {
    key = await make(work, file.storageKey, signal);
  } catch (error) {
    if (isPdfFailure(error)) throw new FinalJobError(pdfError(error).message);
    throw asStorageError(error);
  }
  let recorded: boolean;
  try {
    recorded = await setFileThumbnail(db, fileId, key);
  } catch (error) {
    await work.store.delete(key);
    throw asStorageError(error);
  }
  // Another run (or the file's removal) got there first: drop this picture.
  if (!recorded) await work.store.delete(key);
}

/**
 * Registers the library's jobs (the manifest calls it). The PDFs themselves are read in the
 * content workers (docs/jobs.md), whose own time limits (30 s for text, 20 s for a thumbnail) stop
 * the work; the jobs' timeouts also cover the wait for a free worker.
 */
export function registerLibraryJobs(app: FastifyInstance, db: Db): void {
  const work = { store: app.files.store, workers: app.contentWorkers };
  app.jobs.register(
    ExtractLibraryText,
    async ({ versionId }, { signal }) => runExtractText(db, work, versionId, signal),
    { retryLimit: 2, timeoutSeconds: 300, concurrency: 2 },
  );
  app.jobs.register(
    LibraryThumbnail,
    async ({ fileId }, { signal }) => runThumbnail(db, work, fileId, signal),
    { retryLimit: 1, timeoutSeconds: 120 },
  );
}
