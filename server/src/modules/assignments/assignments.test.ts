/**
 * Assignments themselves: defaults and limits, who reads and who changes them, attachments and
 * inline files with signed URLs, sanitised instructions, an archived course kept read-only,
 * deleting only what nobody worked on, and course roles that end at the course's edge.
 */
import { STALE_REVISION_MESSAGE } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PDF_HEAD, PNG_1X1 } from '../../platform/storage/test-files';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import {
  classroom,
  giveCourseRoles,
  insertTestCourse,
  person,
  setCourseState,
  upload,
  type Person,
} from './test-fixture';

const available = await testDatabaseAvailable();
/** Setting up signs several people in (password hashing) on a loaded machine. */
const SETUP_TIMEOUT_MS = 60_000;
const MB = 1024 * 1024;

describe.skipIf(!available)(`assignments: the assignments (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let room: Awaited<ReturnType<typeof classroom>>;
  beforeEach(async () => {
    ctx = await createTestApp({ env: { UPLOAD_MAX_BYTES: String(50 * MB) } });
    room = await classroom(ctx);
  }, SETUP_TIMEOUT_MS);
  afterEach(async () => {
    await ctx.close();
  });

  const call = (
    who: Person,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: object,
  ) => ctx.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });
  const create = (who: Person, body: object) =>
    call(who, 'POST', `/api/courses/${room.courseId}/assignments`, body);

  it('fills the defaults, keeps the order, and refuses files above the upload limit', async () => {
    const first = await create(room.teacher, { title: 'One' });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      points: 100,
      submissionKinds: ['text', 'file'],
      fileKinds: [],
      maxFileBytes: 50 * MB,
      latePolicy: 'mark_late',
      maxAttempts: null,
      dueAt: null,
      instructionsHtml: '',
      position: 0,
    });
    const second = await create(room.teacher, {
      title: 'Two',
      points: 20,
      dueAt: '2026-12-01T12:00:00+01:00',
    });
    expect(second.json()).toMatchObject({ position: 1, dueAt: '2026-12-01T11:00:00.000Z' });
    const tooBig = await create(room.teacher, { title: 'Three', maxFileBytes: 51 * MB });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toBe(
      `The largest file size an assignment can accept is 50 MB (${50 * MB} bytes).`,
    );
    const badInput = await create(room.teacher, { title: '  ', points: -1 });
    expect(badInput.statusCode).toBe(400);

    const list = await call(room.alice, 'GET', `/api/courses/${room.courseId}/assignments`);
    expect(list.json().items.map((a: { title: string }) => a.title)).toEqual(['One', 'Two']);

    // Only those who build assignments create and change them.
    const byLearner = await create(room.alice, { title: 'Mine' });
    expect(byLearner.statusCode).toBe(403);
    expect(byLearner.json().message).toBe('Missing required permission: assignment.create');
    const byAssistant = await call(room.assistant, 'PATCH', `/api/assignments/${first.json().id}`, {
      title: 'Changed',
      revision: 1,
    });
    expect(byAssistant.statusCode).toBe(403);
    expect(byAssistant.json().message).toBe('Missing required permission: assignment.edit');
    const patched = await call(room.teacher, 'PATCH', `/api/assignments/${first.json().id}`, {
      title: 'One, revised',
      maxAttempts: 3,
      dueAt: null,
      revision: 1,
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()).toMatchObject({
      title: 'One, revised',
      maxAttempts: 3,
      dueAt: null,
      revision: 2,
    });
    expect((await call(room.teacher, 'GET', '/api/assignments/nope')).statusCode).toBe(404);
  });

  it('of two changes based on the same revision at once, exactly one lands', async () => {
    const created = (await create(room.teacher, { title: 'Splice log', points: 20 })).json();
    expect(created.revision).toBe(1);
    const url = `/api/assignments/${created.id}`;
    const both = await Promise.all([
      call(room.teacher, 'PATCH', url, { title: 'Splice log A', revision: 1 }),
      call(room.teacher, 'PATCH', url, { points: 30, revision: 1 }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const [won, lost] = both[0]?.statusCode === 200 ? both : [both[1], both[0]];
    expect(lost?.json()).toEqual({ code: 'CONFLICT', message: STALE_REVISION_MESSAGE });
    const now = (await call(room.teacher, 'GET', url)).json();
    // Only the winner's change is there: the loser's left no trace.
    expect(now).toMatchObject({
      title: won?.json().title,
      points: won?.json().points,
      revision: 2,
    });
    expect([now.title === 'Splice log A', now.points === 30].filter(Boolean)).toHaveLength(1);
    const missing = await call(room.teacher, 'PATCH', '/api/assignments/nope', {
      title: 'x',
      revision: 1,
    });
    expect(missing.statusCode).toBe(404);
  });

  it('shows a course’s assignments to participants only, and a draft course to nobody else', async () => {
    const id = (await create(room.teacher, { title: 'Hidden?' })).json().id as string;
    const outsider = await call(room.outsider, 'GET', `/api/courses/${room.courseId}/assignments`);
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'Only the participants of this course can open its assignments.',
    });
    await setCourseState(ctx, room.courseId, 'draft');
    expect((await call(room.alice, 'GET', `/api/assignments/${id}`)).statusCode).toBe(404);
    expect(
      (await call(room.alice, 'GET', `/api/courses/${room.courseId}/assignments`)).statusCode,
    ).toBe(404);
    // The instructor still edits it.
    expect((await call(room.teacher, 'GET', `/api/assignments/${id}`)).statusCode).toBe(200);
  });

  it('attaches files and inline images, signs them per viewer, and sanitises the instructions', async () => {
    const pdf = await upload(ctx, room.teacher, 'guide.pdf', PDF_HEAD);
    const image = await upload(ctx, room.teacher, 'rig.png', PNG_1X1);
    const created = await create(room.teacher, {
      title: 'With files',
      instructionsHtml:
        `<p>See the rig:</p><img src="/api/files/${image}?exp=1&sid=x&sig=y" onerror="alert(1)">` +
        '<script>alert(2)</script><a href="javascript:alert(3)">click</a>',
      attachmentFileIds: [pdf],
    });
    expect(created.statusCode, created.body).toBe(201);
    const detail = created.json();
    expect(detail.attachments.map((f: { id: string }) => f.id)).toEqual([pdf]);
    expect(detail.instructionsHtml).not.toMatch(/onerror|script|javascript/);
    const stored = await ctx.database.db
      .selectFrom('assignments')
      .select('instructions_html')
      .where('id', '=', detail.id)
      .executeTakeFirstOrThrow();
    // Stored without any signature; served signed.
    expect(stored.instructions_html).toContain(`src="/api/files/${image}"`);
    expect(detail.instructionsHtml).toMatch(new RegExp(`/api/files/${image}\\?exp=\\d+&amp;sid=`));

    // Alice reads both through the URLs she is served; the outsider cannot open them.
    const seen = (await call(room.alice, 'GET', `/api/assignments/${detail.id}`)).json();
    const pdfUrl = seen.attachments[0].url as string;
    expect((await ctx.app.inject({ method: 'GET', url: pdfUrl })).statusCode).toBe(200);
    const imgUrl = /src="([^"]+)"/.exec(seen.instructionsHtml)?.[1]?.replace(/&amp;/g, '&');
    expect((await ctx.app.inject({ method: 'GET', url: imgUrl as string })).statusCode).toBe(200);
    expect((await call(room.outsider, 'GET', `/api/files/${pdf}`)).statusCode).toBe(403);

    // Someone else's upload is not an attachment of mine.
    const foreign = await upload(ctx, room.alice, 'alice.pdf', PDF_HEAD);
    const refused = await call(room.teacher, 'PATCH', `/api/assignments/${detail.id}`, {
      attachmentFileIds: [pdf, foreign],
      revision: detail.revision,
    });
    expect(refused.statusCode).toBe(400);
    // Replacing the list removes the attachment left out (and its file).
    const emptied = await call(room.teacher, 'PATCH', `/api/assignments/${detail.id}`, {
      attachmentFileIds: [],
      revision: detail.revision,
    });
    expect(emptied.json().attachments).toEqual([]);
    expect((await call(room.teacher, 'GET', `/api/files/${pdf}`)).statusCode).toBe(404);
    // The inline image stays.
    expect((await call(room.alice, 'GET', `/api/files/${image}`)).statusCode).toBe(200);
  });

  it('keeps an archived course read-only', async () => {
    const id = (await create(room.teacher, { title: 'Before archiving' })).json().id as string;
    const work = await call(room.alice, 'POST', `/api/assignments/${id}/submissions`, {
      textHtml: '<p>Done</p>',
      submit: true,
    });
    expect(work.statusCode).toBe(201);
    await setCourseState(ctx, room.courseId, 'archived');
    const refusals = [
      await create(room.teacher, { title: 'After' }),
      await call(room.teacher, 'PATCH', `/api/assignments/${id}`, { title: 'x', revision: 1 }),
      await call(room.alice, 'POST', `/api/assignments/${id}/submissions`, {
        textHtml: '<p>Again</p>',
      }),
      await call(room.assistant, 'PUT', `/api/submissions/${work.json().id}/grade`, { points: 1 }),
      await call(
        room.teacher,
        'PUT',
        `/api/courses/${room.courseId}/grades/${id}/${room.alice.id}`,
        {
          points: 1,
        },
      ),
    ];
    for (const r of refusals) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().message).toBe('This course is archived.');
    }
    // Reading goes on.
    expect((await call(room.alice, 'GET', `/api/assignments/${id}`)).statusCode).toBe(200);
    expect(
      (await call(room.assistant, 'GET', `/api/submissions/${work.json().id}`)).statusCode,
    ).toBe(200);
  });

  it('deletes only an assignment nobody handed work in for, with its files', async () => {
    const admin = await person(ctx, 'ada', { role: 'admin' });
    const pdf = await upload(ctx, room.teacher, 'guide.pdf', PDF_HEAD);
    const untouched = (
      await create(room.teacher, { title: 'Spare', attachmentFileIds: [pdf] })
    ).json().id as string;
    const worked = (await create(room.teacher, { title: 'Worked' })).json().id as string;
    const draftFile = await upload(ctx, room.bob, 'draft.pdf', PDF_HEAD);
    await call(room.bob, 'POST', `/api/assignments/${untouched}/submissions`, {
      fileIds: [draftFile],
    });
    await call(room.alice, 'POST', `/api/assignments/${worked}/submissions`, {
      textHtml: '<p>x</p>',
      submit: true,
    });
    // course-instructor holds no assignment.delete; an admin (or a system instructor) does.
    const byTeacher = await call(room.teacher, 'DELETE', `/api/assignments/${untouched}`);
    expect(byTeacher.statusCode).toBe(403);
    const blocked = await call(admin, 'DELETE', `/api/assignments/${worked}`);
    expect(blocked.statusCode).toBe(409);
    expect(blocked.json().message).toBe(
      'This assignment has submissions or grades; it cannot be deleted.',
    );
    const deleted = await call(admin, 'DELETE', `/api/assignments/${untouched}`);
    expect(deleted.statusCode).toBe(204);
    expect((await call(admin, 'GET', `/api/assignments/${untouched}`)).statusCode).toBe(404);
    const left = await ctx.database.db
      .selectFrom('files')
      .select('id')
      .where('id', 'in', [pdf, draftFile])
      .execute();
    expect(left).toEqual([]);
  });

  it('lets an assistant of one course grade there and nowhere else', async () => {
    await insertTestCourse(ctx, { id: 'otdr-101', code: 'OTDR-101' });
    const otherTeacher = await person(ctx, 'other-teacher');
    await giveCourseRoles(ctx, otherTeacher.id, 'otdr-101', ['course-instructor']);
    await giveCourseRoles(ctx, room.alice.id, 'otdr-101', ['course-student']);
    const there = await call(otherTeacher, 'POST', '/api/courses/otdr-101/assignments', {
      title: 'Trace reading',
    });
    expect(there.statusCode).toBe(201);
    const work = await call(room.alice, 'POST', `/api/assignments/${there.json().id}/submissions`, {
      textHtml: '<p>trace</p>',
      submit: true,
    });
    const grade = await call(room.assistant, 'PUT', `/api/submissions/${work.json().id}/grade`, {
      points: 5,
    });
    expect(grade.statusCode).toBe(403);
    expect(grade.json().message).toBe('Missing required permission: assignment.grade');
    const list = await call(
      room.assistant,
      'GET',
      `/api/assignments/${there.json().id}/submissions`,
    );
    expect(list.statusCode).toBe(403);
    // Nor its gradebook, which lists its assignments.
    const book = await call(room.assistant, 'GET', '/api/courses/otdr-101/grades');
    expect(book.statusCode).toBe(403);
    // And the teacher of one course builds nothing in the other.
    const create = await call(room.teacher, 'POST', '/api/courses/otdr-101/assignments', {
      title: 'x',
    });
    expect(create.statusCode).toBe(403);
  });
});
