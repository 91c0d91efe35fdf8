/** The file store the configuration names: local disk, or an S3-compatible bucket. */
import type { FileStoreConfig } from '../../config';
import type { FileStore } from './file-store';
import { LocalFileStore } from './local-store';
import { createS3Client, S3FileStore } from './s3-store';

export function createFileStore(config: FileStoreConfig): FileStore {
  if (config.kind === 's3') return new S3FileStore(createS3Client(config), config.bucket);
  return new LocalFileStore(config.dir);
}

export type { FileStore, StoredObject, ObjectRead, ByteRange, PutOptions } from './file-store';
