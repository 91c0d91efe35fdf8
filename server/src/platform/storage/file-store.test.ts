/**
 * The contract every FileStore keeps, run against local disk and against a real S3 protocol
 * server (s3rver, started here on a free port). Under CI=true a missing s3rver fails the run;
 * elsewhere its half is skipped with a loud notice.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { s3rverAvailable, startS3rver, type TestS3 } from '../../test/s3rver';
import type { FileStore } from './file-store';
import { LocalFileStore } from './local-store';
import { createS3Client, S3FileStore } from './s3-store';
import { PNG_1X1 } from './test-files';

const haveS3rver = s3rverAvailable();

async function bytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `size` bytes produced in chunks, never all in memory at once. */
function generated(size: number, chunk = 64 * 1024): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) return void this.push(null);
      const n = Math.min(chunk, size - sent);
      sent += n;
      this.push(Buffer.alloc(n, sent % 251));
    },
  });
}

function contract(name: string, setup: () => Promise<{ store: FileStore; leftovers(): number }>) {
  describe(`FileStore contract: ${name}`, () => {
    let store: FileStore;
    let leftovers: () => number;
    beforeAll(async () => {
      ({ store, leftovers } = await setup());
    });

    it('stores a stream and reads it back byte for byte, with size, hash and type', async () => {
      const content = Buffer.concat([PNG_1X1, randomBytes(300_000)]);
      const stored = await store.put(Readable.from([content]), { maxBytes: 1_000_000 });
      expect(stored).toMatchObject({
        size: content.length,
        sha256: createHash('sha256').update(content).digest('hex'),
        mime: 'image/png',
      });
      expect(await store.exists(stored.key)).toBe(true);
      expect(await store.stat(stored.key)).toEqual({ size: content.length });
      const read = await store.get(stored.key);
      expect(read).toMatchObject({ size: content.length, start: 0, end: content.length - 1 });
      expect((await bytes(read!.stream)).equals(content)).toBe(true);
    });

    it('reads a byte range', async () => {
      const content = Buffer.from('0123456789abcdefghij');
      const { key } = await store.put(Readable.from([content]), { maxBytes: 100 });
      const read = await store.get(key, { start: 5, end: 9 });
      expect(read).toMatchObject({ size: 20, start: 5, end: 9 });
      expect(await text(read!.stream)).toBe('56789');
      const last = await store.get(key, { start: 19, end: 19 });
      expect(await text(last!.stream)).toBe('j');
    });

    it('detects the type from the content, not from the hint', async () => {
      const png = await store.put(Readable.from([PNG_1X1]), {
        maxBytes: 1000,
        contentType: 'application/pdf',
      });
      expect(png.mime).toBe('image/png');
      const html = await store.put(Readable.from(['<!doctype html><script>alert(1)</script>']), {
        maxBytes: 1000,
        contentType: 'text/html',
      });
      expect(html.mime).toBe('text/plain');
      const csv = await store.put(Readable.from(['a,b\n1,2\n']), {
        maxBytes: 1000,
        contentType: 'text/csv',
      });
      expect(csv.mime).toBe('text/csv');
      const binary = await store.put(Readable.from([Buffer.from([0, 1, 2, 3, 255, 254])]), {
        maxBytes: 1000,
      });
      expect(binary.mime).toBe('application/octet-stream');
    });

    it('stores an empty file', async () => {
      const stored = await store.put(Readable.from([]), { maxBytes: 10 });
      expect(stored.size).toBe(0);
      const read = await store.get(stored.key);
      expect(read?.size).toBe(0);
      expect((await bytes(read!.stream)).length).toBe(0);
    });

    it('refuses a file over the limit while streaming and leaves nothing behind', async () => {
      const before = leftovers();
      await expect(
        store.put(generated(6 * 1024 * 1024), { maxBytes: 5_500_000 }),
      ).rejects.toMatchObject({
        code: 'FILE_TOO_LARGE',
        status: 413,
        message: 'The file is larger than the limit of 5.2 MB.',
      });
      expect(leftovers()).toBe(before);
    });

    it('streams a file larger than one multipart part', async () => {
      const size = 11 * 1024 * 1024 + 17;
      const stored = await store.put(generated(size), { maxBytes: size });
      expect(stored.size).toBe(size);
      const read = await store.get(stored.key, { start: size - 10, end: size - 1 });
      expect((await bytes(read!.stream)).length).toBe(10);
    });

    it('deletes, and treats missing and malformed keys as missing', async () => {
      const { key } = await store.put(Readable.from(['bye']), { maxBytes: 10 });
      await store.delete(key);
      expect(await store.exists(key)).toBe(false);
      expect(await store.get(key)).toBeNull();
      expect(await store.stat(key)).toBeNull();
      await store.delete(key);
      for (const bad of ['../../etc/passwd', 'x', `${key}/..`]) {
        expect(await store.get(bad)).toBeNull();
        await store.delete(bad);
      }
    });
  });
}

let localDir = '';
contract('local disk', async () => {
  localDir = mkdtempSync(join(tmpdir(), 'lh-files-'));
  const countFiles = (dir: string): number =>
    readdirSync(dir, { withFileTypes: true }).reduce(
      (n, entry) =>
        n + (entry.isDirectory() ? countFiles(join(dir, entry.name)) : entry.isFile() ? 1 : 0),
      0,
    );
  return { store: new LocalFileStore(localDir), leftovers: () => countFiles(localDir) };
});

describe('local disk: interrupted writes', () => {
  it('removes half-written uploads older than the cut-off, and only those', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lh-files-'));
    try {
      const store = new LocalFileStore(dir);
      const kept = await store.put(Readable.from(['keep']), { maxBytes: 10 });
      mkdirSync(join(dir, 'tmp'), { recursive: true });
      const old = join(dir, 'tmp', 'a'.repeat(32) + '.part');
      const recent = join(dir, 'tmp', 'b'.repeat(32) + '.part');
      writeFileSync(old, 'half');
      writeFileSync(recent, 'half');
      const dayAgo = new Date(Date.now() - 2 * 86_400_000);
      utimesSync(old, dayAgo, dayAgo);
      expect(await store.removeIncomplete(Date.now() - 86_400_000)).toBe(1);
      expect(readdirSync(join(dir, 'tmp'))).toEqual(['b'.repeat(32) + '.part']);
      expect(await store.exists(kept.key)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

let s3: TestS3 | null = null;
describe.skipIf(!haveS3rver)('s3', () => {
  contract('S3 (s3rver)', async () => {
    s3 = await startS3rver('contract-bucket');
    const store = new S3FileStore(
      createS3Client({
        kind: 's3',
        bucket: s3.bucket,
        endpoint: s3.endpoint,
        region: 'us-east-1',
        credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
        forcePathStyle: true,
      }),
      s3.bucket,
    );
    return { store, leftovers: () => s3!.objectCount() };
  });
});

afterAll(async () => {
  await s3?.close();
  if (localDir) rmSync(localDir, { recursive: true, force: true });
});
