/**
 * Pictures added with the editor's image button (POST /api/files, then an <img> in the saved
 * HTML) belong to what the document is saved in, whatever the area: a hand-in's answer, a lesson,
 * a wiki page, a library item's or a department's description. The one path is FileService.attachReferenced: who may
 * see the thing sees its pictures; who may not does not; and no one captures another person's
 * upload by naming it.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PNG_1X1 } from './test-files';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import {
  as,
  people,
  publishedCourse,
  upload,
  type Person,
} from '../../modules/courses/test-support';

const available = await testDatabaseAvailable();
/** Setting up signs several people in (password hashing) on a loaded machine. */
const SETUP_TIMEOUT_MS = 60_000;

describe.skipIf(!available)(`pictures in rich text are attached (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let p: Awaited<ReturnType<typeof people>>;
  let courseId: string;
  let sectionId: string;

  beforeEach(async () => {
    ctx = await createTestApp();
    p = await people(ctx);
    ({ courseId, sectionId } = await publishedCourse(ctx, p.priya));
    // sam learns in the course; kim is in no course.
    expect((await as(ctx, p.sam).post(`/api/courses/${courseId}/enrolment`, {})).statusCode).toBe(
      201,
    );
  }, SETUP_TIMEOUT_MS);
  afterEach(async () => {
    await ctx.close();
  });

  const picture = (who: Person) => upload(ctx, who, 'trace.png', PNG_1X1);
  const img = (fileId: string) =>
    `<p>See:</p><p><img src="/api/files/${fileId}" alt="trace" /></p>`;
  const status = async (who: Person, fileId: string) =>
    (await as(ctx, who).get(`/api/files/${fileId}`)).statusCode;

  it('a hand-in: the trainer and the admin see the picture of the answer, others do not', async () => {
    const created = await as(ctx, p.priya).post(`/api/courses/${courseId}/assignments`, {
      title: 'Describe your splice',
      submissionKinds: ['text'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const assignmentId = (created.json() as { id: string }).id;

    const fileId = await picture(p.sam);
    const handedIn = await as(ctx, p.sam).post(`/api/assignments/${assignmentId}/submissions`, {
      textHtml: img(fileId),
      submit: true,
    });
    // A text-only assignment takes the answer: its picture is the text's, not an attachment.
    expect(handedIn.statusCode, handedIn.body).toBe(201);
    expect(handedIn.json()).toMatchObject({ status: 'submitted', files: [] });

    expect(await status(p.sam, fileId)).toBe(200);
    expect(await status(p.priya, fileId)).toBe(200);
    expect(await status(p.ada, fileId)).toBe(200);
    expect(await status(p.kim, fileId)).toBe(403);
  });

  it('a draft saved with a new list of attachments keeps the pictures its answer shows', async () => {
    const created = await as(ctx, p.priya).post(`/api/courses/${courseId}/assignments`, {
      title: 'Report with photos',
      submissionKinds: ['text', 'file'],
    });
    const assignmentId = (created.json() as { id: string }).id;
    const url = `/api/assignments/${assignmentId}/submissions`;
    const photo = await picture(p.sam);
    const notes = await upload(ctx, p.sam, 'notes.txt', Buffer.from('splice notes'));
    const first = await as(ctx, p.sam).post(url, { textHtml: img(photo), fileIds: [notes] });
    expect(first.statusCode, first.body).toBe(200);
    expect((first.json() as { files: { id: string }[] }).files.map((f) => f.id)).toEqual([notes]);
    const second = await as(ctx, p.sam).post(url, { fileIds: [] });
    expect(second.statusCode, second.body).toBe(200);
    expect(second.json()).toMatchObject({ files: [] });
    expect((await as(ctx, p.sam).post(url, { submit: true })).statusCode).toBe(201);
    expect(await status(p.priya, photo)).toBe(200);

    // A picture taken out of the next draft's answer goes; it never turns into an attachment.
    const other = await picture(p.sam);
    expect((await as(ctx, p.sam).post(url, { textHtml: img(other) })).statusCode).toBe(200);
    const without = await as(ctx, p.sam).post(url, { textHtml: '<p>No picture after all.</p>' });
    expect(without.statusCode, without.body).toBe(200);
    expect(without.json()).toMatchObject({ files: [] });
    expect(await status(p.sam, other)).toBe(404);
  });

  it('a grade’s feedback: the learner sees its picture once grades are released, others do not', async () => {
    const created = await as(ctx, p.priya).post(`/api/courses/${courseId}/assignments`, {
      title: 'Describe your splice',
      submissionKinds: ['text'],
      releaseOnSave: false,
    });
    expect(created.statusCode, created.body).toBe(201);
    const assignmentId = (created.json() as { id: string }).id;
    const handedIn = await as(ctx, p.sam).post(`/api/assignments/${assignmentId}/submissions`, {
      textHtml: '<p>Done.</p>',
      submit: true,
    });
    const submissionId = (handedIn.json() as { id: string }).id;
    expect((await as(ctx, p.lee).post(`/api/courses/${courseId}/enrolment`, {})).statusCode).toBe(
      201,
    );

    const fileId = await picture(p.priya);
    const graded = await as(ctx, p.priya).put(`/api/submissions/${submissionId}/grade`, {
      points: 8,
      feedbackHtml: img(fileId),
    });
    expect(graded.statusCode, graded.body).toBe(200);
    expect(await status(p.ada, fileId)).toBe(200);
    expect(await status(p.sam, fileId)).toBe(403);

    const released = await as(ctx, p.priya).patch(`/api/assignments/${assignmentId}`, {
      gradesReleased: true,
      revision: 1,
    });
    expect(released.statusCode, released.body).toBe(200);
    expect(await status(p.sam, fileId)).toBe(200);
    expect(await status(p.lee, fileId)).toBe(403);
    expect(await status(p.kim, fileId)).toBe(403);
  });

  it('a hand-in cannot take over another learner’s upload by naming it', async () => {
    const created = await as(ctx, p.priya).post(`/api/courses/${courseId}/assignments`, {
      title: 'Describe your splice',
      submissionKinds: ['text'],
    });
    const assignmentId = (created.json() as { id: string }).id;
    const kims = await picture(p.kim);
    const saved = await as(ctx, p.sam).post(`/api/assignments/${assignmentId}/submissions`, {
      textHtml: img(kims),
      submit: true,
    });
    expect(saved.statusCode, saved.body).toBe(201);
    // Still kim's alone, unattached.
    expect(await status(p.kim, kims)).toBe(200);
    expect(await status(p.priya, kims)).toBe(404);
    const row = await ctx.database.db
      .selectFrom('files')
      .select(['owner_type', 'owner_id'])
      .where('id', '=', kims)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ owner_type: null, owner_id: null });
  });

  it('a lesson: its learners see the picture, others do not', async () => {
    const fileId = await picture(p.priya);
    const created = await as(ctx, p.priya).post(`/api/courses/${courseId}/lessons`, {
      sectionId,
      title: 'With a picture',
      bodyHtml: img(fileId),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await status(p.sam, fileId)).toBe(200);
    expect(await status(p.kim, fileId)).toBe(403);
  });

  it('a wiki page: its readers see the picture, others do not', async () => {
    const fileId = await picture(p.priya);
    const created = await as(ctx, p.priya).post('/api/wiki/pages', {
      space: `course:${courseId}`,
      title: 'Splice log',
      html: img(fileId),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await status(p.sam, fileId)).toBe(200);
    expect(await status(p.kim, fileId)).toBe(403);
  });

  it('a library item’s description: its readers see the picture, others do not', async () => {
    const fileId = await picture(p.priya);
    const created = await as(ctx, p.priya).post('/api/library/items', {
      title: 'Splicer manual',
      url: 'https://example.com/manual',
      scope: { type: 'course', courseId },
      descriptionHtml: img(fileId),
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await status(p.sam, fileId)).toBe(200);
    expect(await status(p.kim, fileId)).toBe(403);
  });

  it('a department’s description: its members see the picture, others do not', async () => {
    const fileId = await picture(p.ada);
    const created = await as(ctx, p.ada).post('/api/departments', {
      name: 'Splicing crew',
      description: img(fileId),
    });
    expect(created.statusCode, created.body).toBe(201);
    const departmentId = (created.json() as { id: string }).id;
    // The description is served with its picture's address signed for the reader's session.
    expect((created.json() as { description: string }).description).toMatch(
      new RegExp(`/api/files/${fileId}\\?[^"]*sig=`),
    );
    const added = await as(ctx, p.ada).post(`/api/departments/${departmentId}/members`, {
      userId: p.sam.id,
    });
    expect(added.statusCode, added.body).toBeLessThan(300);
    expect(await status(p.ada, fileId)).toBe(200);
    expect(await status(p.sam, fileId)).toBe(200);
    expect(await status(p.kim, fileId)).toBe(403);

    // A picture added by editing the description is attached the same way.
    const second = await picture(p.ada);
    const edited = await as(ctx, p.ada).patch(`/api/departments/${departmentId}`, {
      description: img(second),
      revision: 1,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await status(p.sam, second)).toBe(200);
    expect(await status(p.kim, second)).toBe(403);
  });
});
