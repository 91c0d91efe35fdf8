/**
 * A full disk, for real (a small tmpfs, test/small-disk.ts): every upload path answers 507
 * INSUFFICIENT_STORAGE in plain words and keeps nothing half-stored — no object, no row, no
 * staged leftovers — and a resumable upload goes on from its last good offset once there is room.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { runThumbnail } from '../../modules/library/library-jobs';
import { makeSamplePdf } from './sample-pdf';
import { PDF_HEAD, multipartBody } from './test-files';
import {
  bearer,
  createTestApp,
  createTestUser,
  signIn,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { mountSmallDisk, smallDiskAvailable, type SmallDisk } from '../../test/small-disk';

const available = await testDatabaseAvailable();
const canMount = available && smallDiskAvailable();
const TUS = { 'tus-resumable': '1.0.0' };
const FULL = {
  code: 'INSUFFICIENT_STORAGE',
  message:
    'The server has no room to store this file right now. Try again later or tell an administrator.',
};

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

describe.skipIf(!canMount)(`a full disk (${TEST_DB_KIND})`, () => {
  let disk: SmallDisk | undefined;
  let filesDir = '';
  let stagingDir = '';
  let ctx: TestContext;
  let token: string;

  beforeAll(() => {
    disk = mountSmallDisk();
    filesDir = join(disk.dir, 'files');
    stagingDir = join(disk.dir, 'staging');
  });
  afterAll(() => disk?.unmount());
  afterEach(async () => {
    disk?.free();
    await ctx?.close();
    // Each test starts on an empty disk.
    rmSync(filesDir, { recursive: true, force: true });
    rmSync(stagingDir, { recursive: true, force: true });
  });

  async function start() {
    ctx = await createTestApp({ env: { FILES_DIR: filesDir, UPLOAD_STAGING_DIR: stagingDir } });
    const sam = await createTestUser(ctx, { username: 'sam', role: 'student' });
    token = await signIn(ctx.app, 'sam', sam.password);
  }

  const fileRows = () => ctx.database.db.selectFrom('files').selectAll().execute();

  function postFile(content: Buffer) {
    const { payload, headers } = multipartBody('report.pdf', content, 'application/pdf');
    return ctx.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...bearer(token), ...headers },
      payload,
    });
  }

  function create(length: number) {
    return ctx.app.inject({
      method: 'POST',
      url: '/api/uploads',
      headers: {
        ...bearer(token),
        ...TUS,
        'upload-length': String(length),
        'upload-metadata': `filename ${Buffer.from('field.pdf').toString('base64')}`,
      },
    });
  }

  function patch(location: string, offset: number, body: Buffer) {
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

  it('a form upload answers 507 in plain words and keeps nothing; with room again it is stored', async () => {
    await start();
    const content = Buffer.concat([PDF_HEAD, randomBytes(300_000)]);
    disk?.fill(64 * 1024);
    const refused = await postFile(content);
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toEqual(FULL);
    expect(await fileRows()).toEqual([]);
    expect(filesUnder(filesDir)).toEqual([]);

    disk?.free();
    const stored = await postFile(content);
    expect(stored.statusCode).toBe(201);
    expect(await fileRows()).toHaveLength(1);
  });

  it('a resumable upload: creation on a full disk is refused with nothing staged', async () => {
    await start();
    disk?.fill();
    const refused = await create(1000);
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toEqual(FULL);
    expect(filesUnder(stagingDir)).toEqual([]);
  });

  it('a PATCH on a full disk answers 507 and the upload resumes from its last good offset', async () => {
    await start();
    const content = Buffer.concat([PDF_HEAD, randomBytes(300_000)]);
    const created = await create(content.length);
    expect(created.statusCode).toBe(201);
    const location = String(created.headers.location);

    disk?.fill(64 * 1024);
    const refused = await patch(location, 0, content);
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toEqual(FULL);
    expect(await fileRows()).toEqual([]);

    disk?.free();
    const state = await ctx.app.inject({
      method: 'HEAD',
      url: location,
      headers: { ...bearer(token), ...TUS },
    });
    expect(state.statusCode).toBe(200);
    const offset = Number(state.headers['upload-offset']);
    expect(offset).toBeLessThan(content.length);
    const rest = await patch(location, offset, content.subarray(offset));
    expect(rest.statusCode).toBe(204);
    const download = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${String(rest.headers['upload-file-id'])}`,
      headers: bearer(token),
    });
    expect(download.rawPayload.equals(content)).toBe(true);
  });

  it('the last PATCH that cannot be stored answers 507 and leaves no object, row or staged copy', async () => {
    await start();
    const content = Buffer.concat([PDF_HEAD, randomBytes(300_000)]);
    const created = await create(content.length);
    const location = String(created.headers.location);
    const last = content.length - 1;
    expect((await patch(location, 0, content.subarray(0, last))).statusCode).toBe(204);

    // The last byte fits in the staged file's last page; the stored copy does not fit.
    disk?.fill(16 * 1024);
    const refused = await patch(location, last, content.subarray(last));
    expect(refused.statusCode).toBe(507);
    expect(refused.json()).toEqual(FULL);
    expect(await fileRows()).toEqual([]);
    expect(filesUnder(filesDir)).toEqual([]);
    expect(filesUnder(stagingDir)).toEqual([]);
  });

  it('a PDF thumbnail job fails with the reason in words and stores no picture', async () => {
    await start();
    const pdf = Buffer.from(await makeSamplePdf('Field guide', ['Page one.']));
    const uploaded = await postFile(pdf);
    expect(uploaded.statusCode).toBe(201);
    const fileId = (uploaded.json() as { id: string }).id;
    const before = filesUnder(filesDir);

    disk?.fill();
    const work = { store: ctx.app.files.store, workers: ctx.app.contentWorkers };
    const failed = await runThumbnail(ctx.database.db, work, fileId).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failed).toMatchObject(FULL);
    expect(filesUnder(filesDir)).toEqual(before);
    const [row] = await fileRows();
    expect(row?.thumbnail_key).toBeNull();
  });
});

describe.skipIf(!available || TEST_DB_KIND !== 'sqlite')('a full database (sqlite)', () => {
  let ctx: TestContext;
  afterEach(async () => {
    await ctx?.close();
  });

  it('a write the database has no room for answers 507 in plain words (SQLITE_FULL)', async () => {
    ctx = await createTestApp();
    const sam = await createTestUser(ctx, { username: 'sam', role: 'admin' });
    const token = await signIn(ctx.app, 'sam', sam.password);
    // The database may not grow any more: SQLite's own SQLITE_FULL on the next new page.
    const { page_count: pages } = (
      await sql<{ page_count: number }>`pragma page_count`.execute(ctx.database.db)
    ).rows[0] as { page_count: number };
    await sql.raw(`pragma max_page_count = ${pages}`).execute(ctx.database.db);
    const answer = await ctx.app.inject({
      method: 'POST',
      url: '/api/wiki/pages',
      headers: bearer(token),
      payload: {
        space: 'company',
        title: 'Splice log',
        html: `<p>${'Arc power 42, loss 0.02 dB. '.repeat(4000)}</p>`,
      },
    });
    expect(answer.statusCode).toBe(507);
    expect(answer.json()).toEqual(FULL);
  });
});
