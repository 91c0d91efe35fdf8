/**
 * The text of a stored document, for search (docs/library.md). A minimal version until the
 * storage work lands its own (same signature): text files are read as UTF-8 (at most 2 MB);
 * other types, PDFs included, are not extracted here.
 */
import type { FileStore } from './file-store';

/** The most bytes of a text file read for its text. */
const MAX_TEXT_BYTES = 2 * 1024 * 1024;

export async function extractText(
  store: FileStore,
  file: { storageKey: string; mime: string },
): Promise<{ ok: true; text: string } | { ok: false; reason: string }> {
  if (!file.mime.startsWith('text/')) {
    return { ok: false, reason: 'Text cannot be extracted from this type of file yet.' };
  }
  const read = await store.get(file.storageKey);
  if (!read) return { ok: false, reason: 'The stored file is missing.' };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of read.stream) {
    const buffer = Buffer.from(chunk as Uint8Array);
    chunks.push(buffer);
    size += buffer.length;
    if (size >= MAX_TEXT_BYTES) {
      read.stream.destroy();
      break;
    }
  }
  return { ok: true, text: Buffer.concat(chunks).subarray(0, MAX_TEXT_BYTES).toString('utf8') };
}
