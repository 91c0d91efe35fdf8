import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { COMPRESS_THRESHOLD_BYTES } from './compression';
import { OPENAPI_PATH } from './openapi';

/** A built web app as `npm run build` leaves it: each text file with its .br and .gz copies. */
function writeDist(dir: string) {
  const files = {
    'index.html': `<!doctype html><title>Learning Hub</title>${'<!-- padding -->'.repeat(100)}`,
    'assets/index-abc123.js': `export const answer = 42;\n${'console.log("fiber");\n'.repeat(200)}`,
    'assets/index-abc123.css': `body { margin: 0 }\n${'.card { padding: 1rem }\n'.repeat(100)}`,
  };
  mkdirSync(join(dir, 'assets'));
  for (const [name, text] of Object.entries(files)) {
    const path = join(dir, name);
    writeFileSync(path, text);
    writeFileSync(`${path}.br`, brotliCompressSync(text));
    writeFileSync(`${path}.gz`, gzipSync(text));
  }
  // A small file the build leaves uncompressed (below its threshold).
  writeFileSync(join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return files;
}

const BROWSER = 'gzip, deflate, br, zstd';

describe('compression', () => {
  let dir: string;
  let files: ReturnType<typeof writeDist>;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lh-web-'));
    files = writeDist(dir);
    const config = loadConfig({ NODE_ENV: 'test', WEB_DIST_DIR: dir });
    // Neither the static files nor the public routes used here reach the database.
    app = await buildApp({ config, db: {} as never, logger: false });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (url: string, acceptEncoding?: string, extra: Record<string, string> = {}) =>
    app.inject({
      method: 'GET',
      url,
      headers: {
        ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }),
        ...extra,
      },
    });

  describe('the web app’s files, compressed at build time', () => {
    const js = 'assets/index-abc123.js';

    it('sends the brotli copy to a browser that accepts it, cached for a year', async () => {
      const res = await get(`/${js}`, BROWSER);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toBe('application/javascript; charset=utf-8');
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(res.headers['content-length']).toBe(String(res.rawPayload.length));
      // The file from the build as it is, not compressed a second time.
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(files[js]);
    });

    it('sends the gzip copy when brotli is not accepted (or not preferred)', async () => {
      for (const accept of ['gzip', 'gzip, deflate', 'br;q=0.5, gzip', 'br;q=0, gzip;q=0.8']) {
        const res = await get(`/${js}`, accept);
        expect(res.headers['content-encoding'], accept).toBe('gzip');
        expect(res.headers.vary).toBe('accept-encoding');
        expect(gunzipSync(res.rawPayload).toString()).toBe(files[js]);
      }
    });

    it('sends the file itself without an accepted encoding, still varying on it', async () => {
      for (const accept of [undefined, 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
        const res = await get(`/${js}`, accept);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding'], accept).toBeUndefined();
        expect(res.headers.vary).toBe('accept-encoding');
        expect(res.headers['content-length']).toBe(String(Buffer.byteLength(files[js])));
        expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(res.body).toBe(files[js]);
      }
    });

    it('compresses stylesheets the same way', async () => {
      const res = await get('/assets/index-abc123.css', BROWSER);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-type']).toBe('text/css; charset=utf-8');
      expect(brotliDecompressSync(res.rawPayload).toString()).toBe(
        files['assets/index-abc123.css'],
      );
    });

    it('answers HEAD with the headers of the copy it would send and no body', async () => {
      const res = await app.inject({
        method: 'HEAD',
        url: `/${js}`,
        headers: { 'accept-encoding': BROWSER },
      });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBe('br');
      expect(res.headers['content-length']).toBe(String(brotliCompressSync(files[js]).length));
      expect(res.headers.vary).toBe('accept-encoding');
      expect(res.body).toBe('');
    });

    it('serves byte ranges of the file itself, and gives each copy its own entity tag', async () => {
      const range = await get(`/${js}`, undefined, { range: 'bytes=0-5' });
      expect(range.statusCode).toBe(206);
      expect(range.headers['content-range']).toBe(`bytes 0-5/${Buffer.byteLength(files[js])}`);
      expect(range.body).toBe('export');
      const tags = await Promise.all(
        [BROWSER, 'gzip', 'identity'].map(
          async (accept) => (await get(`/${js}`, accept)).headers.etag,
        ),
      );
      expect(new Set(tags).size).toBe(3);
    });

    it('sends the app shell compressed on every client-side route, always revalidated', async () => {
      for (const url of ['/', '/login', '/classroom/fiber-splicing-101']) {
        const res = await get(url, BROWSER);
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-encoding']).toBe('br');
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.headers.vary).toBe('accept-encoding');
        expect(brotliDecompressSync(res.rawPayload).toString()).toBe(files['index.html']);
      }
      const plain = await get('/login');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.headers['cache-control']).toBe('no-cache');
      expect(plain.body).toBe(files['index.html']);
    });

    it('sends a file without compressed copies as it is', async () => {
      const res = await get('/favicon.svg', BROWSER);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<svg');
    });

    it('gives the compressed copies no URL of their own', async () => {
      const res = await get(`/${js}.br`, BROWSER);
      // Not the brotli bytes: a file of the build that is not there is a 404.
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    });
  });

  describe('API JSON, compressed on the fly', () => {
    it('compresses a large answer with brotli or gzip as accepted', async () => {
      const plain = await get(OPENAPI_PATH);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(Buffer.byteLength(plain.body)).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);

      const br = await get(OPENAPI_PATH, BROWSER);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers.vary).toBe('accept-encoding');
      expect(br.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(br.rawPayload.length).toBeLessThan(Buffer.byteLength(plain.body) / 4);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);

      const gz = await get(OPENAPI_PATH, 'gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    });

    it('sends a small answer as it is', async () => {
      const res = await get('/healthz', BROWSER);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.json()).toEqual({ status: 'ok' });
    });

    it('sends errors as JSON the same way', async () => {
      const res = await get('/api/nope', BROWSER);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.json().code).toBe('NOT_FOUND');
    });

    it('does not take compressed request bodies', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/api/auth/local',
        headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
        payload: gzipSync(JSON.stringify({ username: 'sam', password: 'x' })),
      });
      expect(res.statusCode).toBe(400);
    });
  });
});
