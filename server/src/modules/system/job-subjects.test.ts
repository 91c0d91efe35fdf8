import type { JobList, LibraryItem } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob } from '../../platform/jobs';
import { multipartBody, PDF_HEAD } from '../../platform/storage/test-files';
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

/** Jobs of the test's own, with data the listing reads. */
const OfFile = defineJob('test.of-file', z.object({ fileId: z.string() }));
const OfNothing = defineJob('test.of-nothing', z.object({ n: z.number() }));

describe.skipIf(!available)(`background jobs: what each worked on (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let priya: string;
  let admin: string;
  beforeEach(async () => {
    ctx = await createTestApp();
    const p = await createTestUser(ctx, { username: 'priya', role: 'instructor' });
    priya = await signIn(ctx.app, 'priya', p.password);
    const a = await createTestUser(ctx, { username: 'root', role: 'admin' });
    admin = await signIn(ctx.app, 'root', a.password);
  });
  afterEach(async () => {
    await ctx.close();
  });

  async function upload(name: string): Promise<string> {
    const body = multipartBody(name, PDF_HEAD, 'application/pdf');
    const uploaded = await ctx.app.inject({
      method: 'POST',
      url: '/api/files',
      headers: { ...bearer(priya), ...body.headers },
      payload: body.payload,
    });
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    return (uploaded.json() as { id: string }).id;
  }

  async function listed(): Promise<JobList['items']> {
    const response = await ctx.app.inject({
      method: 'GET',
      url: '/api/admin/jobs?pageSize=50',
      headers: bearer(admin),
    });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as JobList).items;
  }

  it("names the library item and file a job worked on, with the item's path; a file alone or nothing", async () => {
    const fileId = await upload('splice-closure.pdf');
    const created = await ctx.app.inject({
      method: 'POST',
      url: '/api/library/items',
      headers: bearer(priya),
      payload: { title: 'Splice closure procedure', fileId, scope: { type: 'everyone' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    const item = created.json() as LibraryItem;
    const loose = await upload('scan.pdf');
    ctx.app.jobs.register(OfFile, async () => {});
    ctx.app.jobs.register(OfNothing, async () => {});
    await ctx.app.jobs.send(OfFile, { fileId: loose });
    await ctx.app.jobs.send(OfNothing, { n: 1 });

    const subjectOf = (jobs: JobList['items'], name: string) =>
      jobs.find((j) => j.name === name)?.subject;
    const subject = {
      type: 'library-item',
      title: 'Splice closure procedure',
      fileName: 'splice-closure.pdf',
      path: `/library/${item.id}`,
    };
    let jobs = await listed();
    // The text job names the item's version, the thumbnail job its file: both lead to the item.
    expect(subjectOf(jobs, 'library.extract-text')).toEqual(subject);
    expect(subjectOf(jobs, 'library.thumbnail')).toEqual(subject);
    expect(subjectOf(jobs, 'test.of-file')).toEqual({
      type: 'file',
      title: 'scan.pdf',
      fileName: null,
      path: null,
    });
    expect(subjectOf(jobs, 'test.of-nothing')).toBeNull();
    expect(jobs.every((j) => !('data' in j))).toBe(true);

    // In the trash: still named, no longer linked.
    const trashed = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/library/items/${item.id}`,
      headers: bearer(admin),
    });
    expect(trashed.statusCode, trashed.body).toBeLessThan(300);
    jobs = await listed();
    expect(subjectOf(jobs, 'library.extract-text')).toEqual({ ...subject, path: null });
  });
});
