/**
 * A preview picture of a PDF's first page (docs/library.md). Not available until the storage
 * work lands its version (same signature): it returns the stored thumbnail's key.
 */
import type { FileStore } from './file-store';

export async function makePdfThumbnail(store: FileStore, storageKey: string): Promise<string> {
  void store;
  void storageKey;
  return Promise.reject(new Error('not available'));
}
