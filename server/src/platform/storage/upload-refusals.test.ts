/**
 * The refusals every upload gets (storage/upload-checks.ts, applied in FileService.upload): an
 * empty file and a name whose extension claims another type, with nothing left stored; names
 * reduced to plain names; and stored files never served as something that could run script.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PDF_HEAD, PNG_1X1, multipartBody } from './test-files';
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

function storedObjects(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe.skipIf(!available)(`upload refusals (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let token: string;
  afterEach(async () => {
    await ctx?.close();
  });

  async function start() {
    ctx = await createTestApp();
    const sam = await createTestUser(ctx, { username: 'sam', role: 'student' });
    token = await signIn(ctx.app, 'sam', sam.password);
  }

  function upload(name: string, content: Buffer | string, type?: string) {
    const body = multipartBody(name, content, type);
    return ctx.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
  }

  async function expectNothingStored() {
    expect(await ctx.database.db.selectFrom('files').select('id').execute()).toEqual([]);
    expect(await ctx.database.db.selectFrom('upload_reservations').select('id').execute()).toEqual(
      [],
    );
    expect(storedObjects(ctx.filesDir)).toEqual([]);
  }

  it('refuses an empty file', async () => {
    await start();
    const refused = await upload('notes.txt', '');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ code: 'FILE_EMPTY', message: 'The file is empty.' });
    await expectNothingStored();
  });

  it('refuses a name whose extension claims a type its content is not', async () => {
    await start();
    const cases: Array<[string, Buffer | string, string]> = [
      ['report.pdf', 'just some words\n', 'report.pdf is not a PDF: its content is plain text.'],
      ['report.pdf', PNG_1X1, 'report.pdf is not a PDF: its content is a PNG image.'],
      ['photo.jpg', PDF_HEAD, 'photo.jpg is not a JPEG image: its content is a PDF.'],
      ['clip.MP4', 'text', 'clip.MP4 is not an MP4 video: its content is plain text.'],
      [
        'sheet.xlsx',
        Buffer.from([0, 1, 2, 3, 250]),
        'sheet.xlsx is not an Excel workbook: its content is of no type we recognise.',
      ],
    ];
    for (const [name, content, message] of cases) {
      const refused = await upload(name, content);
      expect(refused.statusCode, name).toBe(415);
      expect(refused.json()).toMatchObject({ code: 'FILE_TYPE_MISMATCH', message });
    }
    await expectNothingStored();

    // What the name says, or a name that says nothing checkable, is stored.
    for (const [name, content] of [
      ['report.pdf', PDF_HEAD],
      ['picture.PNG', PNG_1X1],
      ['notes.md', '# Splicing'],
      ['trace.sor', Buffer.from([1, 2, 3])],
    ] as const) {
      expect((await upload(name, content)).statusCode, name).toBe(201);
    }
  });

  it('stores path-like names as plain names', async () => {
    await start();
    const passwd = (await upload('../../etc/passwd', 'root:x:0:0')).json();
    expect(passwd.name).toBe('passwd');
    const backslash = (await upload('a\\b', 'hello')).json();
    expect(backslash.name).toBe('b');
    expect(storedObjects(ctx.filesDir).every((p) => p.startsWith(ctx.filesDir))).toBe(true);
  });

  it('serves HTML and SVG as sandboxed attachments with nosniff, and every file sandboxed', async () => {
    await start();
    const files = {
      html: (
        await upload('page.html', '<html><script>alert(1)</script></html>', 'text/html')
      ).json(),
      svg: (
        await upload(
          'logo.svg',
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
          'image/svg+xml',
        )
      ).json(),
      png: (await upload('dot.png', PNG_1X1)).json(),
    };
    for (const [kind, file] of Object.entries(files)) {
      const served = await ctx.app.inject({
        method: 'GET',
        url: `/api/files/${file.id as string}`,
        headers: bearer(token),
      });
      expect(served.statusCode, kind).toBe(200);
      expect(served.headers['x-content-type-options']).toBe('nosniff');
      expect(served.headers['content-security-policy']).toBe(
        "default-src 'none'; frame-ancestors 'self'; sandbox",
      );
      if (kind !== 'png') {
        expect(served.headers['content-disposition']).toMatch(/^attachment;/);
        expect(served.headers['content-type']).toBe('text/plain; charset=utf-8');
      }
    }
    const thumbnail = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${files.png.id as string}/thumbnail`,
      headers: bearer(token),
    });
    expect(thumbnail.headers['content-security-policy']).toMatch(/; sandbox$/);

    // A PDF opens in the browser's own viewer, which a sandboxed document may not load; it is a
    // PDF by its content, and still loads nothing.
    const pdf = (await upload('guide.pdf', PDF_HEAD)).json();
    const served = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${pdf.id as string}`,
      headers: bearer(token),
    });
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-security-policy']).toBe(
      "default-src 'none'; frame-ancestors 'self'",
    );
  });
});
