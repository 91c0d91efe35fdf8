import { Readable } from 'node:stream';
import type { LibraryItem } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runExtractText, runThumbnail } from './library-jobs';
import { compressionBombPdf, manyPagesPdf } from '../../platform/storage/hostile-pdfs';
import { makeSamplePdf } from '../../platform/storage/sample-pdf';
import { PDF_HEAD, PNG_1X1, multipartBody } from '../../platform/storage/test-files';
import { MAX_PDF_PAGES } from '../../platform/storage/text-extraction';
import type { ContentWork } from '../../workers/content-workers';
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

const MB = 1024 * 1024;

describe.skipIf(!available)(`library jobs (${TEST_DB_KIND})`, { timeout: 90_000 }, () => {
  let ctx: TestContext;
  let token: string;
  beforeEach(async () => {
    // A content worker (a child process) starts at about 120 MB; 256 MB reads the PDFs of these
    // tests and stops the bomb soon.
    ctx = await createTestApp({
      env: { CONTENT_WORKER_MAX_MB: '256', JOBS_POLL_INTERVAL_MS: '100' },
    });
    const { password } = await createTestUser(ctx, { username: 'priya', role: 'instructor' });
    token = await signIn(ctx.app, 'priya', password);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const get = async (url: string) => ctx.app.inject({ method: 'GET', url, headers: bearer(token) });

  /** Uploads `content` as a PDF and makes it a library item; returns the item and file id. */
  async function addPdf(
    title: string,
    content: Uint8Array,
  ): Promise<LibraryItem & { fileId: string }> {
    const body = multipartBody(`${title}.pdf`, Buffer.from(content), 'application/pdf');
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...bearer(token), ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    const fileId = (uploaded.json() as { id: string }).id;
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/library/items',
      headers: bearer(token),
      payload: { title, fileId, scope: { type: 'everyone' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    return { ...(created.json() as LibraryItem), fileId };
  }

  it('sends a PDF’s jobs with its version; they record its thumbnail and settle its text', async () => {
    const item = await addPdf('Guide', PDF_HEAD);
    const { fileId } = item;
    expect(item).toMatchObject({ textState: 'pending', file: { hasThumbnail: false } });
    const { items: jobs } = await ctx.app.jobs.list({ page: 1, pageSize: 50 });
    expect(jobs.map((j) => j.name).sort()).toEqual(['library.extract-text', 'library.thumbnail']);

    // The renderer is the storage's (storage/pdf-thumbnail.ts); a picture stands in for the page.
    const db = ctx.database.db;
    const work: ContentWork = { store: ctx.app.files.store, workers: ctx.app.contentWorkers };
    let renders = 0;
    const render = async (w: ContentWork) => {
      renders += 1;
      return (await w.store.put(Readable.from([PNG_1X1]), { maxBytes: 1_000_000 })).key;
    };
    await runThumbnail(db, work, fileId, undefined, render);
    await runThumbnail(db, work, fileId, undefined, render); // again: nothing to do
    expect(renders).toBe(1);
    expect((await get(`/api/files/${fileId}/thumbnail`)).statusCode).toBe(200);

    const versions = (await get(`/api/library/items/${item.id}/versions`)).json() as {
      items: { id: string }[];
    };
    const versionId = versions.items[0]?.id ?? '';
    await runExtractText(db, work, versionId);
    await runExtractText(db, work, versionId); // again: settled already
    const shown = (await get(`/api/library/items/${item.id}`)).json() as LibraryItem;
    expect(shown.file?.hasThumbnail).toBe(true);
    expect(shown.textState).not.toBe('pending');
    // A bare PDF header has no text: failed with a reason, and the item stays.
    if (shown.textState === 'failed') expect(shown.textError).toEqual(expect.any(String));
  });

  it('reads hostile PDFs in a content worker: the server answers meanwhile and keeps its memory', async () => {
    const bomb = await addPdf('Bomb', compressionBombPdf());
    const long = await addPdf('Long manual', manyPagesPdf());
    const guide = await addPdf(
      'Splice guide',
      await makeSamplePdf('Splice guide', ['Clean the fibre before every splice.']),
    );
    const textOf = async (item: LibraryItem) =>
      (await get(`/api/library/items/${item.id}`)).json() as LibraryItem;
    const settled = async () => {
      const { items: jobs } = await ctx.app.jobs.list({ page: 1, pageSize: 50 });
      return (
        jobs.length === 6 && jobs.every((j) => j.state === 'completed' || j.state === 'failed')
      );
    };

    const before = process.memoryUsage.rss();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 20);
    let answeredWhileBombPending = 0;
    try {
      await ctx.app.jobs.start();
      const deadline = Date.now() + 80_000;
      while (!(await settled())) {
        if (Date.now() > deadline) throw new Error('the jobs did not settle');
        const health = await ctx.app.inject({ method: 'GET', url: '/healthz' });
        expect(health.statusCode).toBe(200);
        // Answered, and the bomb's text is still being read: the server was not held up by it.
        if ((await textOf(bomb)).textState === 'pending') answeredWhileBombPending += 1;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      clearInterval(sampler);
    }
    expect(answeredWhileBombPending).toBeGreaterThan(0);
    // The bomb inflates to 1 GB; in a content worker none of it is this process's memory.
    expect((peak - before) / MB).toBeLessThan(200);

    expect(await textOf(bomb)).toMatchObject({
      textState: 'failed',
      textError: 'The PDF needs more memory than allowed (over 256 MB) to read.',
    });
    const { items: jobs } = await ctx.app.jobs.list({ page: 1, pageSize: 50 });
    // Its thumbnail job failed at once with the reason (no retries of a deterministic failure);
    // the other jobs completed.
    const failed = jobs.filter((j) => j.state === 'failed');
    expect(failed).toEqual([
      expect.objectContaining({
        name: 'library.thumbnail',
        attempts: 1,
        lastError: 'The PDF needs more memory than allowed (over 256 MB) to read.',
      }),
    ]);

    // The 10,000-page PDF: the text of its first MAX_PDF_PAGES pages; the PDF after it was read.
    expect(await textOf(long)).toMatchObject({ textState: 'extracted' });
    expect(await textOf(guide)).toMatchObject({ textState: 'extracted' });
    const texts = await ctx.database.db
      .selectFrom('library_versions')
      .select(['item_id', 'extracted_text'])
      .where('item_id', 'in', [long.id, guide.id])
      .execute();
    const longText = texts.find((t) => t.item_id === long.id)?.extracted_text ?? '';
    expect(longText).toContain(`Page ${MAX_PDF_PAGES} of the long manual`);
    expect(longText).not.toContain(`Page ${MAX_PDF_PAGES + 1} of`);
    expect(texts.find((t) => t.item_id === guide.id)?.extracted_text).toContain(
      'Clean the fibre before every splice.',
    );
    expect((await textOf(guide)).file?.hasThumbnail).toBe(true);
    expect((await textOf(long)).file?.hasThumbnail).toBe(true);
  });

  it('leaves no content worker running once the app is closed', async () => {
    const guide = await addPdf('Guide', await makeSamplePdf('Guide', ['Words.']));
    const versions = (await get(`/api/library/items/${guide.id}/versions`)).json() as {
      items: { id: string }[];
    };
    const work: ContentWork = { store: ctx.app.files.store, workers: ctx.app.contentWorkers };
    await runExtractText(ctx.database.db, work, versions.items[0]?.id ?? '');
    const pids = ctx.app.contentWorkers.pids;
    expect(pids).toHaveLength(1);
    await ctx.app.close();
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow();
  });
});
