/**
 * A real S3 protocol server for tests: s3rver on a free port with a throwaway directory. Under
 * CI=true a missing s3rver fails the run; elsewhere the tests that need it skip with a loud
 * notice (requireTool).
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requireTool } from './helpers';

type S3rverInstance = {
  run(): Promise<{ address: string; port: number }>;
  close(): Promise<void>;
};
type S3rverClass = new (options: object) => S3rverInstance;

async function loadS3rver(): Promise<S3rverClass | null> {
  try {
    // s3rver ships no types; the two methods used here are declared above.
    const name = 's3rver';
    const module = (await import(name)) as { default: S3rverClass };
    return module.default;
  } catch {
    return null;
  }
}

const S3rver = await loadS3rver();

/** Whether s3rver can be started (see the module comment). */
export const s3rverAvailable = (): boolean =>
  requireTool('s3rver', S3rver !== null, 'npm install -D s3rver -w server');

export interface TestS3 {
  bucket: string;
  endpoint: string;
  /** The S3_* settings that point the app at it. */
  env: Record<string, string>;
  /** How many objects the bucket holds (s3rver keeps one `._S3rver_object` file per object). */
  objectCount(): number;
  close(): Promise<void>;
}

export async function startS3rver(bucket = 'test-bucket'): Promise<TestS3> {
  if (!S3rver) throw new Error('s3rver is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'lh-s3rver-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory: dir,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    bucket,
    endpoint,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    objectCount: () =>
      readdirSync(dir, { withFileTypes: true, recursive: true }).filter(
        (entry) => entry.isFile() && entry.name.endsWith('._S3rver_object'),
      ).length,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
