import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1X1, PDF_HEAD } from './test-files';
import {
  bearer,
  createSecondInstance,
  createTestApp,
  createTestUser,
  signIn,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { s3rverAvailable, startS3rver, type TestS3 } from '../../test/s3rver';

const available = await testDatabaseAvailable();
const HOUR = 3_600_000;

/** A multipart/form-data body with one file part, as a browser sends it. */
function multipart(filename: string, content: Buffer | string, type = 'application/octet-stream') {
  const boundary = `----lh${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        `Content-Type: ${type}\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Objects in the local store, not counting the temp directory's (which must be empty too). */
function storedObjects(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe.skipIf(!available)(`files (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  afterEach(async () => {
    await ctx?.close();
  });

  async function start(env: Record<string, string> = {}) {
    ctx = await createTestApp({
      env,
      beforeReady: (app) => {
        // A test owner type: "open-…" things are readable by all, others by admins only;
        // nothing may be attached to "locked".
        app.files.registerFileOwner('note', {
          canRead: (user, id, c) => id.startsWith('open-') || c.can(user, ['system.admin']),
          canAttach: (_user, id) => id !== 'locked',
        });
      },
    });
    const sam = await createTestUser(ctx, { username: 'sam', role: 'student' });
    const kim = await createTestUser(ctx, { username: 'kim', role: 'student' });
    const ada = await createTestUser(ctx, { username: 'ada', role: 'admin' });
    return {
      sam: { ...sam, token: await signIn(ctx.app, 'sam', sam.password) },
      kim: { ...kim, token: await signIn(ctx.app, 'kim', kim.password) },
      ada: { ...ada, token: await signIn(ctx.app, 'ada', ada.password) },
    };
  }

  async function upload(token: string, name: string, content: Buffer | string, type?: string) {
    const body = multipart(name, content, type);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
  }

  it('uploads and downloads byte for byte, with type, ETag and safe headers', async () => {
    const { sam } = await start();
    const content = Buffer.concat([PNG_1X1, randomBytes(200_000)]);
    const created = await upload(sam.token, 'splice.png', content, 'image/png');
    expect(created.statusCode).toBe(201);
    const file = created.json();
    expect(file).toMatchObject({
      name: 'splice.png',
      mime: 'image/png',
      size: content.length,
      uploadedBy: sam.user.id,
      owner: null,
      attachedAt: null,
    });
    expect(file.id).toEqual(expect.any(String));

    const download = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${file.id}`,
      headers: bearer(sam.token),
    });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(content)).toBe(true);
    expect(download.headers).toMatchObject({
      'content-type': 'image/png',
      'content-length': String(content.length),
      'content-disposition': `inline; filename="splice.png"; filename*=UTF-8''splice.png`,
      'x-content-type-options': 'nosniff',
      'accept-ranges': 'bytes',
      etag: `"${file.sha256}"`,
      // The app's pages may frame it (an inline PDF); nobody else may.
      'content-security-policy': "default-src 'none'; frame-ancestors 'self'; sandbox",
      'x-frame-options': 'SAMEORIGIN',
    });

    const again = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${file.id}`,
      headers: { ...bearer(sam.token), 'if-none-match': `"${file.sha256}"` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');

    const head = await ctx.app.inject({
      method: 'HEAD',
      url: `/api/files/${file.id}`,
      headers: bearer(sam.token),
    });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(content.length));
    expect(head.body).toBe('');
  });

  it('sends a stored JSON file as stored, never compressed on the way (plugins/compression.ts)', async () => {
    const { sam } = await start();
    const content = JSON.stringify({ splices: Array.from({ length: 400 }, (_, i) => i) });
    const created = await upload(sam.token, 'log.json', content, 'application/json');
    expect(created.json().mime).toBe('application/json');
    const download = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${created.json().id}`,
      headers: { ...bearer(sam.token), 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-encoding']).toBeUndefined();
    expect(download.headers['content-length']).toBe(String(content.length));
    expect(download.body).toBe(content);
  });

  it('serves byte ranges (206) and refuses ranges outside the file (416)', async () => {
    const { sam } = await start();
    const content = Buffer.from('0123456789'.repeat(100));
    const file = (await upload(sam.token, 'trace.txt', content)).json();
    const part = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${file.id}`,
      headers: { ...bearer(sam.token), range: 'bytes=10-19' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe('bytes 10-19/1000');
    expect(part.headers['content-length']).toBe('10');
    expect(part.body).toBe('0123456789');
    const tail = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${file.id}`,
      headers: { ...bearer(sam.token), range: 'bytes=-3' },
    });
    expect(tail.statusCode).toBe(206);
    expect(tail.body).toBe('789');

    const outside = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${file.id}`,
      headers: { ...bearer(sam.token), range: 'bytes=5000-' },
    });
    expect(outside.statusCode).toBe(416);
    expect(outside.headers['content-range']).toBe('bytes */1000');
    expect(outside.json()).toEqual({
      code: 'RANGE_NOT_SATISFIABLE',
      message: 'The requested range is not within the file (1000 bytes).',
    });
  });

  it('takes the type from the content, never from the name, and never serves HTML inline', async () => {
    const { sam } = await start();
    // (A name whose extension claims another type is refused: upload-refusals.test.ts.)
    const png = (await upload(sam.token, 'x.dat', PNG_1X1, 'application/pdf')).json();
    expect(png.mime).toBe('image/png');
    const pdf = (await upload(sam.token, 'report', PDF_HEAD, 'image/png')).json();
    expect(pdf.mime).toBe('application/pdf');

    const html = (
      await upload(sam.token, 'page.html', '<html><script>alert(1)</script></html>', 'text/html')
    ).json();
    expect(html.mime).toBe('text/plain');
    const served = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${html.id}`,
      headers: bearer(sam.token),
    });
    expect(served.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(served.headers['content-disposition']).toMatch(/^attachment;/);
    expect(served.headers['x-content-type-options']).toBe('nosniff');

    const svg = (
      await upload(
        sam.token,
        'logo.svg',
        '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        'image/svg+xml',
      )
    ).json();
    expect(svg.mime).not.toBe('image/svg+xml');
    const svgServed = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${svg.id}`,
      headers: bearer(sam.token),
    });
    expect(svgServed.headers['content-disposition']).toMatch(/^attachment;/);
  });

  it('sanitises the stored name', async () => {
    const { sam } = await start();
    const file = (await upload(sam.token, '../../evil\u202Etxt.exe', 'hello')).json();
    expect(file.name).toBe('eviltxt.exe');
  });

  it('refuses a file over the limit with 413 and leaves no row and no object', async () => {
    const { sam } = await start({ UPLOAD_MAX_BYTES: '4096' });
    const refused = await upload(sam.token, 'big.bin', randomBytes(5000));
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      code: 'FILE_TOO_LARGE',
      message: 'The file is larger than the limit of 4 KB.',
      details: { maxBytes: 4096 },
    });
    const rows = await ctx.database.db.selectFrom('files').select('id').execute();
    expect(rows).toEqual([]);
    expect(storedObjects(ctx.filesDir)).toEqual([]);

    const fits = await upload(sam.token, 'small.bin', randomBytes(4096));
    expect(fits.statusCode).toBe(201);
  });

  it('over real HTTP, answers 413 mid-upload and closes the connection', async () => {
    const { sam } = await start({ UPLOAD_MAX_BYTES: String(1024 * 1024) });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as { port: number };
    const size = 20 * 1024 * 1024;
    const boundary = 'lhboundary';
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const answer = await new Promise<{ status: number; body: string; connection: string }>(
      (resolve, reject) => {
        const req = request(
          {
            port,
            host: '127.0.0.1',
            path: '/api/files',
            method: 'POST',
            headers: {
              ...bearer(sam.token),
              'content-type': `multipart/form-data; boundary=${boundary}`,
              'content-length': String(head.length + size + tail.length),
            },
          },
          (res) => {
            let body = '';
            res.on('data', (c: Buffer) => (body += c.toString()));
            res.on('end', () =>
              resolve({
                status: res.statusCode ?? 0,
                body,
                connection: String(res.headers.connection),
              }),
            );
          },
        );
        // Writes after the server closed the connection fail; the answer has arrived by then.
        req.on('error', (error) => setTimeout(() => reject(error), 1000));
        req.write(head);
        const chunk = Buffer.alloc(64 * 1024, 7);
        let sent = 0;
        const pump = () => {
          while (sent < size) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          req.end(tail);
        };
        pump();
      },
    );
    expect(answer.status).toBe(413);
    expect(answer.connection).toBe('close');
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'FILE_TOO_LARGE' });
    expect(await ctx.database.db.selectFrom('files').select('id').execute()).toEqual([]);
    expect(storedObjects(ctx.filesDir)).toEqual([]);
  });

  it('refuses uploads that are not multipart, have no file, or come from nobody', async () => {
    const { sam } = await start();
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: bearer(sam.token),
      payload: { file: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');

    const boundary = 'xyz';
    const empty = await ctx.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: {
        ...bearer(sam.token),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: `--${boundary}--\r\n`,
    });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ code: 'BAD_REQUEST' });

    const body = multipart('a.txt', 'a');
    const anonymous = await ctx.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: body.headers,
      payload: body.payload,
    });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a malformed multipart body with a clear 400 and stores nothing', async () => {
    const { sam } = await start();
    const before = await ctx.database.db.selectFrom('files').select('id').execute();
    const malformed: [string, string][] = [
      // No boundary in the content type.
      ['multipart/form-data', 'x'],
      // The body ends inside the file part.
      [
        'multipart/form-data; boundary=cut',
        '--cut\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nhello',
      ],
    ];
    for (const [contentType, payload] of malformed) {
      const response = await ctx.app.inject({
        method: 'POST',
        url: '/api/files',
        headers: { ...bearer(sam.token), 'content-type': contentType },
        payload,
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({
        code: 'BAD_REQUEST',
        message:
          'The upload is not valid multipart/form-data (no boundary, or the body ended early).',
      });
    }
    expect(await ctx.database.db.selectFrom('files').select('id').execute()).toEqual(before);
  });

  it('keeps an unattached file to its uploader; only they may delete it', async () => {
    const { sam, kim, ada } = await start();
    const file = (await upload(sam.token, 'mine.txt', 'private notes')).json();
    for (const token of [kim.token, ada.token]) {
      for (const url of [`/api/files/${file.id}`, `/api/files/${file.id}/thumbnail`]) {
        const response = await ctx.app.inject({ method: 'GET', url, headers: bearer(token) });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ code: 'NOT_FOUND', message: 'File not found' });
      }
      const del = await ctx.app.inject({
        method: 'DELETE',
        url: `/api/files/${file.id}`,
        headers: bearer(token),
      });
      expect(del.statusCode).toBe(404);
    }
    const missing = await ctx.app.inject({
      method: 'GET',
      url: '/api/files/no-such-file',
      headers: bearer(sam.token),
    });
    expect(missing.statusCode).toBe(404);

    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/files/${file.id}`,
      headers: bearer(sam.token),
    });
    expect(deleted.statusCode).toBe(204);
    expect(storedObjects(ctx.filesDir)).toEqual([]);
    const gone = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${file.id}`,
      headers: bearer(sam.token),
    });
    expect(gone.statusCode).toBe(404);
  });

  it("checks the owner's read permission once attached, on every download", async () => {
    const { sam, kim, ada } = await start();
    const open = (await upload(sam.token, 'open.txt', 'for everyone')).json();
    const closed = (await upload(sam.token, 'closed.txt', 'for admins')).json();
    await ctx.app.files.attach(sam.user, open.id, { type: 'note', id: 'open-1' });
    const attached = await ctx.app.files.attach(sam.user, closed.id, { type: 'note', id: 'n2' });
    expect(attached).toMatchObject({ ownerType: 'note', ownerId: 'n2' });

    const get = (id: string, token: string) =>
      ctx.app.inject({ method: 'GET', url: `/api/files/${id}`, headers: bearer(token) });
    expect((await get(open.id, kim.token)).body).toBe('for everyone');
    expect((await get(closed.id, ada.token)).body).toBe('for admins');
    const denied = await get(closed.id, kim.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ code: 'FORBIDDEN', message: 'You may not open this file.' });
    // Even the uploader, once the thing it belongs to decides.
    expect((await get(closed.id, sam.token)).statusCode).toBe(403);

    // An attached file is no longer the uploader's to delete.
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/files/${open.id}`,
      headers: bearer(sam.token),
    });
    expect(del.statusCode).toBe(409);

    // The area deleting the thing deletes its files.
    const owned = await ctx.app.files.listOwned({ type: 'note', id: 'n2' });
    expect(owned.map((f) => f.id)).toEqual([closed.id]);
    for (const f of owned) await ctx.app.files.deleteOwned(f.id);
    expect((await get(closed.id, ada.token)).statusCode).toBe(404);
    expect(storedObjects(ctx.filesDir)).toHaveLength(1);
  });

  it('serves a signed URL (for <img>/<video>) only while its session lives and the owner allows', async () => {
    const { sam, kim } = await start();
    const image = (await upload(sam.token, 'pic.png', PNG_1X1)).json();
    await ctx.app.files.attach(sam.user, image.id, { type: 'note', id: 'open-3' });
    const session = async (token: string) =>
      (await ctx.app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(token) })).json();
    const me = await session(kim.token);
    const sid: string = me.session.id;
    expect(sid).toBeTruthy();
    const url = ctx.app.urlSigner.sign(`/api/files/${image.id}`, sid);
    const open = (u: string) => ctx.app.inject({ method: 'GET', url: u });

    const ok = await open(url);
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['content-type']).toBe('image/png');
    // Rich text gets the same signatures, with the ampersands escaped for an attribute.
    const html = ctx.app.urlSigner.signHtml(`<p><img src="/api/files/${image.id}"></p>`, sid);
    expect(html).toBe(`<p><img src="${url.replace(/&/g, '&amp;')}"></p>`);

    // Any change to the path, session, expiry or signature is refused like a missing token.
    const tampered = [
      url.replace(image.id, `${image.id}x`),
      url.replace(/sig=[^&]+/, 'sig=AAAA'),
      url.replace(/exp=\d+/, (m) => `exp=${Number(m.slice(4)) + 3_600_000}`),
      url.replace(/sid=[^&]+/, 'sid=someone-else'),
      `/api/files/${image.id}`,
      `${url.replace(`/api/files/${image.id}`, `/api/files/${image.id}/thumbnail`)}`,
    ];
    for (const u of tampered) expect((await open(u)).statusCode, u).toBe(401);

    // It is not a way around the route's own requirements: other routes ignore signatures.
    expect((await open(url.replace(`/api/files/${image.id}`, '/api/auth/me'))).statusCode).toBe(
      401,
    );

    // Expired after at most two hours.
    ctx.clock.advance(2 * HOUR + 1);
    expect((await open(url)).statusCode).toBe(401);

    // Signing out ends it at once.
    const fresh = ctx.app.urlSigner.sign(`/api/files/${image.id}`, sid);
    expect((await open(fresh)).statusCode).toBe(200);
    await ctx.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(kim.token) });
    expect((await open(fresh)).statusCode).toBe(401);
  });

  it('attaches a file to exactly one thing when two attaches race', async () => {
    const { sam, kim } = await start();
    const file = (await upload(sam.token, 'race.txt', 'one owner')).json();
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        ctx.app.files.attach(sam.user, file.id, { type: 'note', id: `open-${i}` }),
      ),
    );
    const won = results.filter((r) => r.status === 'fulfilled');
    expect(won).toHaveLength(1);
    for (const lost of results.filter((r) => r.status === 'rejected')) {
      expect((lost as PromiseRejectedResult).reason).toMatchObject({ code: 'CONFLICT' });
    }
    const row = await ctx.database.db
      .selectFrom('files')
      .select(['owner_type', 'owner_id'])
      .where('id', '=', file.id)
      .executeTakeFirstOrThrow();
    expect(row.owner_id).toBe(
      (won[0] as PromiseFulfilledResult<{ ownerId: string }>).value.ownerId,
    );

    // Someone else's upload cannot be attached; nor to a thing that refuses it.
    const other = (await upload(kim.token, 'kim.txt', 'kim')).json();
    await expect(
      ctx.app.files.attach(sam.user, other.id, { type: 'note', id: 'open-x' }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
    await expect(
      ctx.app.files.attach(kim.user, other.id, { type: 'note', id: 'locked' }),
    ).rejects.toMatchObject({ code: 'FORBIDDEN' });
    expect(() =>
      ctx.app.files.registerFileOwner('note', { canRead: () => true, canAttach: () => true }),
    ).toThrow(/already registered/);
  });

  it('makes a WebP thumbnail of at most 320 px for images', async () => {
    const { sam } = await start();
    const image = await sharp({
      create: { width: 1200, height: 600, channels: 3, background: '#2a7' },
    })
      .jpeg()
      .toBuffer();
    const file = (await upload(sam.token, 'splice.jpg', image)).json();
    expect(file).toMatchObject({ mime: 'image/jpeg', hasThumbnail: true });
    const thumb = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${file.id}/thumbnail`,
      headers: bearer(sam.token),
    });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/webp');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'webp', width: 320, height: 160 });

    const text = (await upload(sam.token, 'a.txt', 'no picture')).json();
    expect(text.hasThumbnail).toBe(false);
    const none = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${text.id}/thumbnail`,
      headers: bearer(sam.token),
    });
    expect(none.statusCode).toBe(404);
    expect(none.json()).toEqual({ code: 'NOT_FOUND', message: 'This file has no thumbnail.' });

    // Deleting removes the thumbnail too.
    await ctx.app.inject({
      method: 'DELETE',
      url: `/api/files/${file.id}`,
      headers: bearer(sam.token),
    });
    await ctx.app.inject({
      method: 'DELETE',
      url: `/api/files/${text.id}`,
      headers: bearer(sam.token),
    });
    expect(storedObjects(ctx.filesDir)).toEqual([]);
  });

  it('cleans up unattached uploads older than a day, once, with two instances at once', async () => {
    const { sam } = await start();
    const orphans = [];
    for (let i = 0; i < 5; i += 1)
      orphans.push((await upload(sam.token, `o${i}.txt`, `o${i}`)).json());
    const kept = (await upload(sam.token, 'kept.txt', 'attached')).json();
    await ctx.app.files.attach(sam.user, kept.id, { type: 'note', id: 'open-1' });

    ctx.clock.advance(23 * HOUR);
    const fresh = (await upload(sam.token, 'fresh.txt', 'new')).json();
    expect(await ctx.app.files.cleanupOrphans()).toBe(0);

    // Another instance (its own clean-up at start finds nothing old enough yet).
    const second = await createSecondInstance(ctx);
    ctx.clock.advance(2 * HOUR);
    try {
      const [a, b] = await Promise.all([
        ctx.app.files.cleanupOrphans(),
        second.app.files.cleanupOrphans(),
      ]);
      expect(a + b).toBe(5);
    } finally {
      await second.close();
    }
    const rows = await ctx.database.db.selectFrom('files').select('id').orderBy('id').execute();
    expect(rows.map((r) => r.id).sort()).toEqual([kept.id, fresh.id].sort());
    expect(storedObjects(ctx.filesDir)).toHaveLength(2);
    const token = await signIn(ctx.app, 'sam', sam.password); // a day later: a new session
    for (const orphan of orphans) {
      const response = await ctx.app.inject({
        method: 'GET',
        url: `/api/files/${orphan.id}`,
        headers: bearer(token),
      });
      expect(response.statusCode).toBe(404);
    }
  });
});

describe.skipIf(!available || !s3rverAvailable())(`files on S3 (${TEST_DB_KIND})`, () => {
  let s3: TestS3;
  let ctx: TestContext;
  beforeAll(async () => {
    s3 = await startS3rver('files-routes');
  });
  afterAll(async () => {
    await s3?.close();
  });
  afterEach(async () => {
    await ctx?.close();
  });

  async function upload(token: string, name: string, content: Buffer | string) {
    const body = multipart(name, content);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
  }

  it('round-trips, serves ranges and thumbnails, refuses 413 and cleans orphans in the bucket', async () => {
    ctx = await createTestApp({ env: { ...s3.env, UPLOAD_MAX_BYTES: String(8 * 1024 * 1024) } });
    expect(ctx.app.files.store.kind).toBe('s3');
    const sam = await createTestUser(ctx, { username: 'sam' });
    const token = await signIn(ctx.app, 'sam', sam.password);
    const before = s3.objectCount();

    const content = randomBytes(6 * 1024 * 1024);
    const file = (await upload(token, 'big.bin', content)).json();
    expect(file.size).toBe(content.length);
    const whole = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${file.id}`,
      headers: bearer(token),
    });
    expect(whole.rawPayload.equals(content)).toBe(true);
    const part = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${file.id}`,
      headers: { ...bearer(token), range: 'bytes=100-199' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(content.subarray(100, 200))).toBe(true);

    const image = await sharp({
      create: { width: 400, height: 400, channels: 3, background: '#123' },
    })
      .png()
      .toBuffer();
    const picture = (await upload(token, 'p.png', image)).json();
    const thumb = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${picture.id}/thumbnail`,
      headers: bearer(token),
    });
    expect(thumb.statusCode).toBe(200);
    expect((await sharp(thumb.rawPayload).metadata()).width).toBe(320);
    expect(s3.objectCount()).toBe(before + 3);

    const refused = await upload(token, 'huge.bin', randomBytes(9 * 1024 * 1024));
    expect(refused.statusCode).toBe(413);
    expect(s3.objectCount()).toBe(before + 3);

    ctx.clock.advance(25 * HOUR);
    expect(await ctx.app.files.cleanupOrphans()).toBe(2);
    expect(s3.objectCount()).toBe(before);
  });
});
