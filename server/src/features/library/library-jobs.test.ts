import { Readable } from 'node:stream';
import type { LibraryItem } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
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

// The PDF renderer is the storage work's (storage/pdf-thumbnail.ts): here a picture stands in
// for the first page, so the test is about the job recording it, not about rendering.
vi.mock('../../storage/pdf-thumbnail', () => ({
  makePdfThumbnail: async (store: {
    put: (s: Readable, o: { maxBytes: number }) => Promise<{ key: string }>;
  }) => (await store.put(Readable.from([PNG_1X1]), { maxBytes: 1_000_000 })).key,
}));

const available = await testDatabaseAvailable();

describe.skipIf(!available)(`library jobs (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let token: string;
  beforeEach(async () => {
    ctx = await createTestApp({ env: { JOBS_POLL_INTERVAL_MS: '20' } });
    const { password } = await createTestUser(ctx, { username: 'priya', role: 'instructor' });
    token = await signIn(ctx.app, 'priya', password);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('gives a PDF its thumbnail and settles its text extraction, whatever the outcome', async () => {
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
    await ctx.app.jobs.start();
    const settled = await vi.waitFor(
      async () => {
        const shown = (
          await ctx.app.inject({
            method: 'GET',
            url: `/api/library/items/${item.id}`,
            headers: bearer(token),
          })
        ).json() as LibraryItem;
        expect(shown.file?.hasThumbnail).toBe(true);
        expect(shown.textState).not.toBe('pending');
        return shown;
      },
      { timeout: 15_000, interval: 50 },
    );
    // A bare PDF header has no text: failed with a reason, and the item stays.
    if (settled.textState === 'failed') expect(settled.textError).toEqual(expect.any(String));
    const thumbnail = await ctx.app.inject({
      method: 'GET',
      url: `/api/files/${fileId}/thumbnail`,
      headers: bearer(token),
    });
    expect(thumbnail.statusCode).toBe(200);
  });
});
