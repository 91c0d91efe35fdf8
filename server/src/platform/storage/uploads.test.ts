/**
 * Resumable uploads (tus 1.0.0) at /api/uploads: create, send in pieces with a HEAD in between,
 * finish into a stored file; owners only; the refusals at creation and at the end; an upload cut
 * off mid-request resumed; unfinished uploads removed by the clean-up.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSamplePdf } from './sample-pdf';
import { multipartBody, PDF_HEAD, PNG_1X1 } from './test-files';
import {
  bearer,
  createTestApp,
  createTestUser,
  signIn,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';

const available = await testDatabaseAvailable();
const TUS = { 'tus-resumable': '1.0.0' };

/** tus Upload-Metadata: `key base64,key base64`. */
function metadata(values: Record<string, string>): string {
  return Object.entries(values)
    .map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
    .join(',');
}

function storedObjects(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe.skipIf(!available)(`resumable uploads (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  afterEach(async () => {
    await ctx?.close();
  });

  async function start(env: Record<string, string> = {}) {
    ctx = await createTestApp({ env });
    const sam = await createTestUser(ctx, { username: 'sam', role: 'student' });
    const kim = await createTestUser(ctx, { username: 'kim', role: 'student' });
    return {
      sam: { ...sam, token: await signIn(ctx.app, 'sam', sam.password) },
      kim: { ...kim, token: await signIn(ctx.app, 'kim', kim.password) },
    };
  }

  function create(token: string, length: number | string, name = 'splice.mp4') {
    return ctx.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...bearer(token),
        ...TUS,
        'upload-length': String(length),
        'upload-metadata': metadata({ filename: name, filetype: 'video/mp4' }),
      },
    });
  }

  function patch(token: string, location: string, offset: number, body: Buffer) {
    return ctx.app.inject({
      method: 'PATCH',
      url: location,
      headers: {
        ...bearer(token),
        ...TUS,
        'upload-offset': String(offset),
        'content-type': 'application/offset+octet-stream',
      },
      payload: body,
    });
  }

  function head(token: string, location: string) {
    return ctx.app.inject({ method: 'HEAD', url: location, headers: { ...bearer(token), ...TUS } });
  }

  const staged = () => readdirSync(join(ctx.filesDir, 'uploads'));

  it('creates, takes the bytes in two pieces resumed from HEAD, and stores the file', async () => {
    const { sam } = await start();
    const content = Buffer.concat([PDF_HEAD, randomBytes(300_000)]);
    const created = await create(sam.token, content.length, 'field report.pdf');
    expect(created.statusCode).toBe(201);
    expect(created.headers['tus-resumable']).toBe('1.0.0');
    expect(created.headers['upload-expires']).toEqual(expect.any(String));
    const location = String(created.headers.location);
    expect(location).toMatch(/^\/api\/uploads\/[0-9a-f]{32}$/);

    const first = await patch(sam.token, location, 0, content.subarray(0, 100_000));
    expect(first.statusCode).toBe(204);
    expect(first.headers['upload-offset']).toBe('100000');
    expect(first.headers['upload-file-id']).toBeUndefined();

    const state = await head(sam.token, location);
    expect(state.statusCode).toBe(200);
    expect(state.headers['upload-offset']).toBe('100000');
    expect(state.headers['upload-length']).toBe(String(content.length));
    expect(state.headers['cache-control']).toBe('no-store');

    // A PATCH from the wrong offset changes nothing.
    const wrong = await patch(sam.token, location, 5, content.subarray(5));
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({ code: 'CONFLICT' });

    const last = await patch(sam.token, location, 100_000, content.subarray(100_000));
    expect(last.statusCode).toBe(204);
    expect(last.headers['upload-offset']).toBe(String(content.length));
    expect(String(last.headers['access-control-expose-headers'])).toContain('Upload-File-Id');
    const fileId = String(last.headers['upload-file-id']);
    const row = await ctx.database.db
      .selectFrom('files')
      .selectAll()
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
    expect({ ...row, size: Number(row.size) }).toMatchObject({
      original_name: 'field report.pdf',
      mime: 'application/pdf',
      size: content.length,
      uploaded_by: sam.user.id,
    });
    const download = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${fileId}`,
      headers: bearer(sam.token),
    });
    expect(download.rawPayload.equals(content)).toBe(true);
    // The staged copy is gone; the upload with it.
    expect(staged()).toEqual([]);
    expect((await head(sam.token, location)).statusCode).toBe(404);
  });

  it('stores a PDF sent in one piece, detected as a PDF', async () => {
    const { sam } = await start();
    const pdf = Buffer.from(await makeSamplePdf('Splice closure', ['Seal the closure.']));
    const location = String((await create(sam.token, pdf.length, 'closure.pdf')).headers.location);
    const done = await patch(sam.token, location, 0, pdf);
    expect(done.statusCode).toBe(204);
    const file = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${String(done.headers['upload-file-id'])}`,
      headers: bearer(sam.token),
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.rawPayload.equals(pdf)).toBe(true);
  });

  it('keeps an upload to who created it: others get 404 for HEAD, PATCH and DELETE', async () => {
    const { sam, kim } = await start();
    const location = String((await create(sam.token, 10)).headers.location);
    const answers = [
      await head(kim.token, location),
      await patch(kim.token, location, 0, Buffer.from('0123456789')),
      await ctx.app.inject({
        method: 'DELETE',
        url: location,
        headers: { ...bearer(kim.token), ...TUS },
      }),
    ];
    for (const answer of answers) expect(answer.statusCode).toBe(404);
    expect(answers[1]?.json()).toMatchObject({ code: 'NOT_FOUND' });
    // Not signed in: 401 before anything else.
    const anonymous = await ctx.app.inject({ method: 'HEAD', url: location, headers: TUS });
    expect(anonymous.statusCode).toBe(401);
    // The owner's metadata cannot be forged at creation.
    const forged = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...bearer(kim.token),
        ...TUS,
        'upload-length': '10',
        'upload-metadata': `${metadata({ filename: 'x.txt' })},lh-owner ${Buffer.from(sam.user.id).toString('base64')}`,
      },
    });
    expect((await head(sam.token, String(forged.headers.location))).statusCode).toBe(404);
    expect((await head(kim.token, String(forged.headers.location))).statusCode).toBe(200);

    // Only the upload of the path is acted on, whatever the query says.
    const kims = String(forged.headers.location);
    const sneaky = await ctx.app.inject({
      method: 'DELETE',
      url: `${kims}?x=/${location.split('/').pop() as string}`,
      headers: { ...bearer(kim.token), ...TUS },
    });
    expect(sneaky.statusCode).toBe(204);
    expect((await head(sam.token, location)).statusCode).toBe(200);
    expect((await head(kim.token, kims)).statusCode).toBe(404);

    // The owner may end it; the staged bytes go.
    const ended = await ctx.app.inject({
      method: 'DELETE',
      url: location,
      headers: { ...bearer(sam.token), ...TUS },
    });
    expect(ended.statusCode).toBe(204);
    expect((await head(sam.token, location)).statusCode).toBe(404);
  });

  it('refuses at creation: no length, 0 bytes, over the size, over the room, past the rate', async () => {
    const { sam } = await start({
      UPLOAD_RESUMABLE_MAX_BYTES: String(64 * 1024),
      UPLOAD_MAX_BYTES: String(8 * 1024),
      UPLOAD_USER_MAX_UNATTACHED_BYTES: String(40 * 1024),
      UPLOAD_USER_MAX_STORED_BYTES: String(100 * 1024),
      UPLOAD_RATE_LIMIT: '5',
    });
    const empty = await create(sam.token, 0);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toEqual({ code: 'FILE_EMPTY', message: 'The file is empty.' });

    expect(empty.headers['tus-resumable']).toBe('1.0.0');
    const noLength = await create(sam.token, 'lots');
    expect(noLength.statusCode).toBe(400);
    const withBytes = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...bearer(sam.token),
        ...TUS,
        'upload-length': '5',
        'content-type': 'application/offset+octet-stream',
      },
      payload: 'hello',
    });
    expect(withBytes.statusCode).toBe(400);
    expect(withBytes.json()).toMatchObject({
      message: 'Send the bytes with PATCH after creating the upload.',
    });

    const tooLarge = await create(sam.token, 64 * 1024 + 1);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toEqual({
      code: 'FILE_TOO_LARGE',
      message: 'The file is larger than the limit of 64 KB.',
      details: { maxBytes: 64 * 1024 },
    });

    // 30 KB staged leaves 10 KB of the 40 KB unattached room: 20 KB more does not fit.
    expect((await create(sam.token, 30 * 1024)).statusCode).toBe(201);
    const noRoom = await create(sam.token, 20 * 1024);
    expect(noRoom.statusCode).toBe(413);
    expect(noRoom.json()).toMatchObject({ code: 'UPLOAD_QUOTA_EXCEEDED' });

    const last = await create(sam.token, 1024);
    expect(last.statusCode).toBe(201);
    const limited = await create(sam.token, 1024);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toEqual(expect.any(String));
  });

  it('enforces the size as the bytes arrive', async () => {
    const { sam } = await start();
    const location = String((await create(sam.token, 10, 'notes.txt')).headers.location);
    const over = await patch(sam.token, location, 0, Buffer.from('0123456789ABCDEF'));
    expect(over.statusCode).toBe(413);
    expect(over.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    expect((await head(sam.token, location)).headers['upload-offset']).toBe('0');
  });

  it('answers a refused file on the final PATCH and keeps nothing', async () => {
    const { sam } = await start();
    const text = Buffer.from('not a video at all\n');
    const location = String((await create(sam.token, text.length, 'clip.mp4')).headers.location);
    const refused = await patch(sam.token, location, 0, text);
    expect(refused.statusCode).toBe(415);
    expect(refused.json()).toEqual({
      code: 'FILE_TYPE_MISMATCH',
      message: 'clip.mp4 is not an MP4 video: its content is plain text.',
      details: { extension: 'mp4', detected: 'text/plain' },
    });
    expect(await ctx.database.db.selectFrom('files').select('id').execute()).toEqual([]);
    expect(storedObjects(ctx.filesDir)).toEqual([]);
    expect(await ctx.database.db.selectFrom('upload_reservations').select('id').execute()).toEqual(
      [],
    );
  });

  it('answers a file that no longer fits when its last byte arrives with 413, keeping nothing', async () => {
    const { sam } = await start({
      UPLOAD_MAX_BYTES: String(8 * 1024),
      UPLOAD_USER_MAX_UNATTACHED_BYTES: String(40 * 1024),
      UPLOAD_USER_MAX_STORED_BYTES: String(100 * 1024),
    });
    const content = Buffer.alloc(30 * 1024, 'a');
    const location = String((await create(sam.token, content.length, 'log.txt')).headers.location);
    // Meanwhile other uploads take the room.
    const body = multipartBody('other.txt', Buffer.alloc(8 * 1024, 'b'));
    for (let i = 0; i < 2; i += 1) {
      const other = await ctx.app.inject({
        method: 'POST',
        url: '/api/files',
        headers: { ...bearer(sam.token), ...body.headers },
        payload: body.payload,
      });
      expect(other.statusCode).toBe(201);
    }
    const refused = await patch(sam.token, location, 0, content);
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toMatchObject({ code: 'UPLOAD_QUOTA_EXCEEDED' });
    expect(await ctx.database.db.selectFrom('files').select('id').execute()).toHaveLength(2);
    expect(staged()).toEqual([]);
    expect(await ctx.database.db.selectFrom('upload_reservations').select('id').execute()).toEqual(
      [],
    );
  });

  it('refuses another tus version with 412 and the version it speaks in Tus-Version', async () => {
    const { sam } = await start();
    const location = String((await create(sam.token, 10)).headers.location);
    const old = { ...bearer(sam.token), 'tus-resumable': '0.2.2' };
    const answers = [
      await ctx.app.inject({ method: 'HEAD', url: location, headers: old }),
      await ctx.app.inject({
        method: 'POST',
        url: '/api/uploads',
        headers: { ...old, 'upload-length': '10' },
      }),
      await ctx.app.inject({
        method: 'PATCH',
        url: location,
        headers: {
          ...old,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
        },
        payload: Buffer.from('0123456789'),
      }),
      // None at all is no version this server speaks either.
      await ctx.app.inject({ method: 'DELETE', url: location, headers: bearer(sam.token) }),
    ];
    for (const answer of answers) {
      expect(answer.statusCode).toBe(412);
      expect(answer.headers['tus-version']).toBe('1.0.0');
    }
    expect(answers[1]?.json()).toEqual({
      code: 'PRECONDITION_FAILED',
      message: 'Send Tus-Resumable: 1.0.0 (the tus protocol version).',
    });
    // Nothing was written or ended.
    expect((await head(sam.token, location)).headers['upload-offset']).toBe('0');
  });

  it('refuses a PATCH that is not application/offset+octet-stream with 415, saying so', async () => {
    const { sam } = await start();
    const location = String((await create(sam.token, 10)).headers.location);
    for (const type of ['application/json', 'text/plain', undefined]) {
      const refused = await ctx.app.inject({
        method: 'PATCH',
        url: location,
        headers: {
          ...bearer(sam.token),
          ...TUS,
          'upload-offset': '0',
          ...(type ? { 'content-type': type } : {}),
        },
        payload: type === 'application/json' ? '{"a":1}' : '0123456789',
      });
      expect(refused.statusCode, type).toBe(415);
      expect(refused.json()).toEqual({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        message: 'Send the bytes of a PATCH as application/offset+octet-stream.',
      });
    }
    expect((await head(sam.token, location)).headers['upload-offset']).toBe('0');
  });

  it('echoes in HEAD only the metadata the client sent, never the owner it keeps', async () => {
    const { sam } = await start();
    const location = String((await create(sam.token, 10, 'notes.txt')).headers.location);
    const state = await head(sam.token, location);
    expect(state.headers['upload-metadata']).toBe(
      metadata({ filename: 'notes.txt', filetype: 'video/mp4' }),
    );
    expect(String(state.headers['upload-metadata'])).not.toContain(
      Buffer.from(sam.user.id).toString('base64'),
    );
  });

  it('honours X-HTTP-Method-Override: a POST to an upload acts as its PATCH, HEAD or DELETE', async () => {
    const { sam, kim } = await start();
    const content = Buffer.from('0123456789');
    const location = String((await create(sam.token, content.length, 'n.txt')).headers.location);
    const post = (
      token: string,
      method: string,
      headers: Record<string, string> = {},
      payload?: Buffer,
    ) =>
      ctx.app.inject({
        method: 'POST',
        url: location,
        headers: { ...bearer(token), ...TUS, 'x-http-method-override': method, ...headers },
        ...(payload ? { payload } : {}),
      });
    const bytes = { 'content-type': 'application/offset+octet-stream' };

    const first = await post(
      sam.token,
      'PATCH',
      { ...bytes, 'upload-offset': '0' },
      content.subarray(0, 4),
    );
    expect(first.statusCode).toBe(204);
    expect(first.headers['upload-offset']).toBe('4');
    const state = await post(sam.token, 'head');
    expect(state.statusCode).toBe(200);
    expect(state.headers['upload-offset']).toBe('4');
    expect(state.body).toBe('');
    // The owner rule and the protocol's refusals hold as for the method itself.
    expect((await post(kim.token, 'HEAD')).statusCode).toBe(404);
    expect((await post(sam.token, 'PATCH', { 'upload-offset': '4' }, content)).statusCode).toBe(
      415,
    );
    expect((await post(sam.token, 'PUT')).statusCode).toBe(400);
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: location,
          headers: { ...bearer(sam.token), ...TUS },
        })
      ).statusCode,
    ).toBe(400);

    const last = await post(
      sam.token,
      'PATCH',
      { ...bytes, 'upload-offset': '4' },
      content.subarray(4),
    );
    expect(last.statusCode).toBe(204);
    expect(last.headers['upload-file-id']).toEqual(expect.any(String));

    const other = String((await create(sam.token, 10)).headers.location);
    const ended = await ctx.app.inject({
      method: 'POST',
      url: other,
      headers: { ...bearer(sam.token), ...TUS, 'x-http-method-override': 'DELETE' },
    });
    expect(ended.statusCode).toBe(204);
    expect((await head(sam.token, other)).statusCode).toBe(404);
    // Creating with an override that names another method is refused, not taken as a creation.
    const overridden = await ctx.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...bearer(sam.token),
        ...TUS,
        'upload-length': '10',
        'x-http-method-override': 'DELETE',
      },
    });
    expect(overridden.statusCode).toBe(400);
  });

  it('describes itself to OPTIONS', async () => {
    const { sam } = await start();
    const options = await ctx.app.inject({
      method: 'OPTIONS',
      url: '/api/uploads',
      headers: bearer(sam.token),
    });
    expect(options.statusCode).toBe(204);
    expect(options.headers['tus-version']).toBe('1.0.0');
    expect(options.headers['tus-extension']).toBe('creation,termination,expiration');
    expect(options.headers['tus-max-size']).toBe(String(5 * 1024 ** 3));
  });

  it('removes unfinished uploads past UPLOAD_UNATTACHED_HOURS in the clean-up', async () => {
    const { sam } = await start();
    const old = String((await create(sam.token, 100)).headers.location)
      .split('/')
      .pop() as string;
    const fresh = String((await create(sam.token, 100)).headers.location);
    const info = join(ctx.filesDir, 'uploads', `${old}.json`);
    const record = JSON.parse(readFileSync(info, 'utf8')) as { creation_date: string };
    record.creation_date = new Date(Date.now() - 25 * 3_600_000).toISOString();
    writeFileSync(info, JSON.stringify(record));
    await ctx.app.files.cleanupOrphans();
    expect(staged().sort()).toEqual(
      [fresh.split('/').pop(), `${fresh.split('/').pop()}.json`].sort(),
    );
  });

  it('over real HTTP, resumes an upload cut off mid-request from the offset HEAD reports', async () => {
    const { sam } = await start();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as { port: number };
    const content = Buffer.concat([PNG_1X1, randomBytes(4 * 1024 * 1024)]);
    const location = String((await create(sam.token, content.length, 'rig.png')).headers.location);

    // Send half, then cut the connection.
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        port,
        host: '127.0.0.1',
        path: location,
        method: 'PATCH',
        headers: {
          ...bearer(sam.token),
          ...TUS,
          'upload-offset': '0',
          'content-type': 'application/offset+octet-stream',
          'content-length': String(content.length),
        },
      });
      req.on('error', () => resolve());
      req.write(content.subarray(0, 2 * 1024 * 1024), () => {
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 200);
      });
    });
    // The lock of the cut request is let go; the bytes that arrived are kept.
    let offset = 0;
    for (let i = 0; i < 50; i += 1) {
      const state = await head(sam.token, location);
      offset = Number(state.headers['upload-offset']);
      if (offset > 0) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(offset).toBeGreaterThan(0);
    expect(offset).toBeLessThan(content.length);

    let finished = await patch(sam.token, location, offset, content.subarray(offset));
    for (let i = 0; finished.statusCode === 400 && i < 50; i += 1) {
      // The cut request may still hold its lock for a moment.
      await new Promise((r) => setTimeout(r, 100));
      finished = await patch(sam.token, location, offset, content.subarray(offset));
    }
    expect(finished.statusCode).toBe(204);
    const fileId = String(finished.headers['upload-file-id']);
    const download = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${fileId}`,
      headers: bearer(sam.token),
    });
    expect(download.rawPayload.equals(content)).toBe(true);
  });
});
