import { Readable } from 'node:stream';
import type { LibraryItem } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runExtractText, runThumbnail } from '../../library/library-jobs';
import type { FileStore } from '../../storage/file-store';
import { PDF_HEAD, PNG_1X1, multipartBody } from '../../storage/test-files';
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

describe.skipIf(!available)(`library jobs (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let token: string;
  beforeEach(async () => {
    ctx = await createTestApp();
    const { password } = await createTestUser(ctx, { username: 'priya', role: 'instructor' });
    token = await signIn(ctx.app, 'priya', password);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const get = async (url: string) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) });

  it('sends a PDF’s jobs with its version; they record its thumbnail and settle its text', async () => {
    const body = multipartBody('guide.pdf', PDF_HEAD);
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
    const fileId = (uploaded.json() as { id: string }).id;
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/library/items',
      headers: bearer(token),
      payload: { title: 'Guide', fileId, scope: { type: 'everyone' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const item = created.json() as LibraryItem;
    expect(item).toMatchObject({ textState: 'pending', file: { hasThumbnail: false } });
    const { jobs } = await ctx.app.jobs.list({ page: 1, pageSize: 50 });
    expect(jobs.map((j) => j.name).sort()).toEqual(['library.extract-text', 'library.thumbnail']);

    // The renderer is the storage's (storage/pdf-thumbnail.ts); a picture stands in for the page.
    const db = ctx.database.db;
    const store = ctx.app.files.store;
    let renders = 0;
    const render = async (s: FileStore) => {
      renders += 1;
      return (await s.put(Readable.from([PNG_1X1]), { maxBytes: 1_000_000 })).key;
    };
    await runThumbnail(db, store, fileId, render);
    await runThumbnail(db, store, fileId, render); // again: nothing to do
    expect(renders).toBe(1);
    expect((await get(`/api/files/${fileId}/thumbnail`)).statusCode).toBe(200);

    const versions = (await get(`/api/library/items/${item.id}/versions`)).json() as {
      versions: { id: string }[];
    };
    const versionId = versions.versions[0]?.id ?? '';
    await runExtractText(db, store, versionId);
    await runExtractText(db, store, versionId); // again: settled already
    const shown = (await get(`/api/library/items/${item.id}`)).json() as LibraryItem;
    expect(shown.file?.hasThumbnail).toBe(true);
    expect(shown.textState).not.toBe('pending');
    // A bare PDF header has no text: failed with a reason, and the item stays.
    if (shown.textState === 'failed') expect(shown.textError).toEqual(expect.any(String));
  });
});
