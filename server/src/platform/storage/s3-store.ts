/**
 * Files in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, …). Uploads stream through
 * `@aws-sdk/lib-storage`'s `Upload` (multipart above one part), so at most a few parts are in
 * memory whatever the file's size; an upload refused at the size limit is aborted and whatever
 * reached the bucket is removed.
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { PassThrough, Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FileStoreConfig } from '../../config';
import {
  detectMime,
  MeteredStream,
  newObjectKey,
  OBJECT_KEY,
  type ByteRange,
  type FileStore,
  type ObjectRead,
  type PutOptions,
  type StoredObject,
} from './file-store';

/** Multipart part size: the smallest S3 accepts; `QUEUE_SIZE` parts are in flight at once. */
const PART_SIZE = 5 * 1024 * 1024;
const QUEUE_SIZE = 2;

export type S3StoreConfig = Extract<FileStoreConfig, { kind: 's3' }>;

export function createS3Client(config: S3StoreConfig): S3Client {
  const options: S3ClientConfig = {
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    // Checksums only where S3 requires them: several S3-compatible stores refuse the SDK's
    // default trailing checksums (aws-chunked bodies).
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  if (config.endpoint) options.endpoint = config.endpoint;
  if (config.credentials) options.credentials = config.credentials;
  return new S3Client(options);
}

function isNotFound(error: unknown): boolean {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}

export class S3FileStore implements FileStore {
  readonly kind = 's3' as const;

  constructor(
    private readonly client: S3Client,
    private readonly bucket: string,
  ) {}

  async put(stream: Readable, options: PutOptions): Promise<StoredObject> {
    const key = newObjectKey();
    const meter = new MeteredStream(options.maxBytes);
    const body = new PassThrough({ highWaterMark: 1024 * 1024 });
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: 'application/octet-stream',
      },
      partSize: PART_SIZE,
      queueSize: QUEUE_SIZE,
      leavePartsOnError: false,
    });
    const uploaded = upload.done();
    // When the upload fails first (the store refuses, the network drops), stop reading the source
    // too; this also keeps the rejection from being reported as unhandled.
    uploaded.catch((error: unknown) => body.destroy(error as Error));
    try {
      await pipeline(stream, meter, body);
      await uploaded;
    } catch (error) {
      body.destroy();
      await upload.abort().catch(() => undefined);
      await uploaded.catch(() => undefined);
      // A single-part upload may have completed before the failure surfaced.
      await this.delete(key).catch(() => undefined);
      throw error;
    }
    const { size, sha256, head } = meter.result();
    return { key, size, sha256, mime: await detectMime(head, options.contentType) };
  }

  async stat(key: string): Promise<{ size: number } | null> {
    if (!OBJECT_KEY.test(key)) return null;
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return { size: head.ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.stat(key)) !== null;
  }

  async get(key: string, range?: ByteRange): Promise<ObjectRead | null> {
    if (!OBJECT_KEY.test(key)) return null;
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      // A ranged answer names the whole size in Content-Range (`bytes 0-9/1000`).
      const total = /\/(\d+)$/.exec(answer.ContentRange ?? '')?.[1];
      const size = range && total !== undefined ? Number(total) : (answer.ContentLength ?? 0);
      const stream = answer.Body instanceof Readable ? answer.Body : Readable.from([]);
      return range
        ? { stream, size, start: range.start, end: range.end }
        : { stream, size, start: 0, end: size - 1 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    if (!OBJECT_KEY.test(key)) return;
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }
}
