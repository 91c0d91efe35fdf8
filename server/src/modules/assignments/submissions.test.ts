/**
 * Submissions: late policies by the clock, the attempts limit under concurrent hand-ins, what a
 * learner may never see of another's work, an enrolment that expires between two requests, and
 * the kinds of answer an assignment takes.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PDF_HEAD, PNG_1X1 } from '../../platform/storage/test-files';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { classroom, giveCourseRoles, upload, type Person } from './test-fixture';

const available = await testDatabaseAvailable();
/** Setting up signs several people in (password hashing) on a loaded machine. */
const SETUP_TIMEOUT_MS = 60_000;
const HOUR = 3_600_000;

describe.skipIf(!available)(`assignments: submissions (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let room: Awaited<ReturnType<typeof classroom>>;
  beforeEach(async () => {
    ctx = await createTestApp();
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

  async function assignment(fields: Record<string, unknown> = {}): Promise<string> {
    const created = await call(room.teacher, 'POST', `/api/courses/${room.courseId}/assignments`, {
      title: 'Loss budget',
      ...fields,
    });
    expect(created.statusCode, created.body).toBe(201);
    return (created.json() as { id: string }).id;
  }

  const handIn = (who: Person, id: string, body: object = { textHtml: '<p>Done.</p>' }) =>
    call(who, 'POST', `/api/assignments/${id}/submissions`, { ...body, submit: true });

  it('applies the late policies by the due date and the clock', async () => {
    const due = new Date(ctx.clock.now() + HOUR).toISOString();
    const marked = await assignment({ dueAt: due });
    const accepted = await assignment({ dueAt: due, latePolicy: 'accept' });
    const refused = await assignment({ dueAt: due, latePolicy: 'refuse' });

    // In time: nothing is late. Bob starts a draft of the one that refuses late work.
    const started = await call(room.bob, 'POST', `/api/assignments/${refused}/submissions`, {
      textHtml: '<p>Half done.</p>',
    });
    expect(started.statusCode).toBe(200);
    const early = await handIn(room.alice, marked);
    expect(early.statusCode, early.body).toBe(201);
    expect(early.json().late).toBe(false);

    ctx.clock.advance(2 * HOUR);
    const late = await handIn(room.bob, marked);
    expect(late.statusCode).toBe(201);
    expect(late.json().late).toBe(true);
    const lateOk = await handIn(room.bob, accepted);
    expect(lateOk.statusCode).toBe(201);
    expect(lateOk.json().late).toBe(false);
    const tooLate = await handIn(room.bob, refused);
    expect(tooLate.statusCode).toBe(409);
    expect(tooLate.json()).toEqual({
      code: 'CONFLICT',
      message: 'The due date has passed; this assignment no longer accepts submissions.',
    });
    // Nor does it take a draft any more: saving one is refused in the same words.
    const draftAfter = await call(room.bob, 'POST', `/api/assignments/${refused}/submissions`, {
      textHtml: '<p>Still working on it.</p>',
    });
    expect(draftAfter.statusCode).toBe(409);
    expect(draftAfter.json().message).toBe(
      'The due date has passed; this assignment no longer accepts submissions.',
    );
    // A refused hand-in leaves the draft as it was, not an attempt.
    const mine = await call(room.bob, 'GET', `/api/assignments/${refused}/submissions`);
    expect(mine.json().items).toEqual([
      expect.objectContaining({ status: 'draft', attempt: 1, textHtml: '<p>Half done.</p>' }),
    ]);
    expect((await call(room.bob, 'GET', `/api/assignments/${marked}`)).json().mine).toEqual({
      status: 'submitted',
      attemptsUsed: 1,
      points: null,
      late: true,
    });
  });

  it('counts attempts, and two hand-ins at once of the last one make exactly one', async () => {
    const two = await assignment({ maxAttempts: 2 });
    expect((await handIn(room.alice, two)).json().attempt).toBe(1);
    const second = await handIn(room.alice, two, { textHtml: '<p>Better.</p>' });
    expect(second.statusCode).toBe(201);
    expect(second.json().attempt).toBe(2);
    const third = await handIn(room.alice, two, { textHtml: '<p>Best.</p>' });
    expect(third.statusCode).toBe(409);
    expect(third.json().message).toBe('You have used all 2 attempts for this assignment.');

    const one = await assignment({ maxAttempts: 1 });
    const draft = await call(room.bob, 'POST', `/api/assignments/${one}/submissions`, {
      textHtml: '<p>Mine.</p>',
    });
    expect(draft.statusCode).toBe(200);
    const results = await Promise.all([
      call(room.bob, 'POST', `/api/assignments/${one}/submissions`, { submit: true }),
      call(room.bob, 'POST', `/api/assignments/${one}/submissions`, { submit: true }),
      call(room.bob, 'POST', `/api/assignments/${one}/submissions`, { submit: true }),
    ]);
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses, results.map((r) => r.body).join('\n')).toEqual([201, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409)) {
      expect(r.json().code).toBe('CONFLICT');
    }
    const rows = await ctx.database.db
      .selectFrom('submissions')
      .select(['attempt', 'status'])
      .where('assignment_id', '=', one)
      .where('user_id', '=', room.bob.id)
      .execute();
    expect(rows.map((r) => [Number(r.attempt), r.status])).toEqual([[1, 'submitted']]);
  });

  it('never shows a learner another learner’s work or grade', async () => {
    const id = await assignment();
    const alicePdf = await upload(ctx, room.alice, 'alice.pdf', PDF_HEAD);
    const aliceWork = (await handIn(room.alice, id, { fileIds: [alicePdf] })).json();
    await call(room.bob, 'POST', `/api/assignments/${id}/submissions`, {
      textHtml: '<p>Bob’s draft</p>',
    });
    const graded = await call(room.assistant, 'PUT', `/api/submissions/${aliceWork.id}/grade`, {
      points: 70,
    });
    expect(graded.statusCode).toBe(200);
    await call(room.teacher, 'PATCH', `/api/assignments/${id}`, {
      gradesReleased: true,
      revision: 1,
    });

    // Bob: 403 on Alice's submission, her file, her history; absent from his lists.
    const direct = await call(room.bob, 'GET', `/api/submissions/${aliceWork.id}`);
    expect(direct.statusCode).toBe(403);
    expect(direct.json().message).toBe('You can only see your own submissions.');
    expect((await call(room.bob, 'GET', `/api/files/${alicePdf}`)).statusCode).toBe(403);
    const named = await call(
      room.bob,
      'GET',
      `/api/assignments/${id}/submissions?userId=${room.alice.id}`,
    );
    expect(named.statusCode).toBe(403);
    const list = await call(room.bob, 'GET', `/api/assignments/${id}/submissions`);
    expect(list.json().items.map((s: { userId: string }) => s.userId)).toEqual([room.bob.id]);
    const history = await call(
      room.bob,
      'GET',
      `/api/assignments/${id}/grades/${room.alice.id}/history`,
    );
    expect(history.statusCode).toBe(403);
    expect(history.json().message).toBe('You can only see your own grades.');
    const book = await call(room.bob, 'GET', `/api/courses/${room.courseId}/grades`);
    expect(book.json().items.map((r: { userId: string }) => r.userId)).toEqual([room.bob.id]);
    expect(book.json().total).toBe(1);
    expect(JSON.stringify(book.json())).not.toContain(room.alice.id);
    // Grading is not his either.
    const grade = await call(room.bob, 'PUT', `/api/submissions/${aliceWork.id}/grade`, {
      points: 1,
    });
    expect(grade.statusCode).toBe(403);

    // Graders never see drafts: Bob's is neither listed nor readable.
    const graderList = await call(room.assistant, 'GET', `/api/assignments/${id}/submissions`);
    expect(graderList.json().items.map((s: { userId: string }) => s.userId)).toEqual([
      room.alice.id,
    ]);
    const bobDraft = (await call(room.bob, 'GET', `/api/assignments/${id}/submissions`)).json()
      .items[0] as { id: string; status: string };
    expect(bobDraft.status).toBe('draft');
    expect((await call(room.assistant, 'GET', `/api/submissions/${bobDraft.id}`)).statusCode).toBe(
      404,
    );

    // Someone outside the course: not a participant.
    const outside = await call(room.outsider, 'GET', `/api/submissions/${aliceWork.id}`);
    expect(outside.statusCode).toBe(403);
    expect(outside.json().message).toBe(
      'Only the participants of this course can open its assignments.',
    );
    expect((await call(room.outsider, 'GET', `/api/assignments/${id}`)).statusCode).toBe(403);
    const outsideSubmit = await handIn(room.outsider, id);
    expect(outsideSubmit.statusCode).toBe(403);
    expect(outsideSubmit.json().message).toBe('Only enrolled learners can submit work.');
  });

  it('closes the course at the next request once the enrolment has expired', async () => {
    const id = await assignment();
    await giveCourseRoles(
      ctx,
      room.bob.id,
      room.courseId,
      ['course-student'],
      new Date(ctx.clock.now() + HOUR).toISOString(),
    );
    const draft = await call(room.bob, 'POST', `/api/assignments/${id}/submissions`, {
      textHtml: '<p>Almost.</p>',
    });
    expect(draft.statusCode).toBe(200);
    ctx.clock.advance(HOUR + 1);
    const refused = await handIn(room.bob, id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe('Only enrolled learners can submit work.');
    expect((await call(room.bob, 'GET', `/api/assignments/${id}`)).statusCode).toBe(403);
    expect(
      (await call(room.bob, 'GET', `/api/courses/${room.courseId}/assignments`)).statusCode,
    ).toBe(403);
  });

  it('takes only the kinds of answer, file types and sizes the assignment allows', async () => {
    const textOnly = await assignment({ submissionKinds: ['text'] });
    const filesOnly = await assignment({
      submissionKinds: ['file'],
      fileKinds: ['image'],
      maxFileBytes: 2048,
    });
    const pdf = await upload(ctx, room.alice, 'report.pdf', PDF_HEAD);
    const noFiles = await call(room.alice, 'POST', `/api/assignments/${textOnly}/submissions`, {
      fileIds: [pdf],
    });
    expect(noFiles.statusCode).toBe(400);
    expect(noFiles.json().message).toBe(
      'This assignment does not take files; write your answer instead.',
    );
    const noText = await call(room.alice, 'POST', `/api/assignments/${filesOnly}/submissions`, {
      textHtml: '<p>words</p>',
    });
    expect(noText.statusCode).toBe(400);
    expect(noText.json().message).toBe(
      'This assignment does not take a written answer; attach a file instead.',
    );
    // Markup that sanitises to nothing is no text at all.
    const blank = await handIn(room.alice, filesOnly, { textHtml: '<script>x</script>' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().message).toBe('Add an answer or a file before submitting.');
    const wrongType = await call(room.alice, 'POST', `/api/assignments/${filesOnly}/submissions`, {
      fileIds: [pdf],
    });
    expect(wrongType.json().message).toBe(
      'report.pdf is not an allowed file type for this assignment.',
    );
    const big = await upload(
      ctx,
      room.alice,
      'big.png',
      Buffer.concat([PNG_1X1, Buffer.alloc(4096)]),
    );
    const tooBig = await call(room.alice, 'POST', `/api/assignments/${filesOnly}/submissions`, {
      fileIds: [big],
    });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toMatch(
      /^big\.png is larger than the .* this assignment accepts\.$/,
    );
    const small = await upload(ctx, room.alice, 'small.png', PNG_1X1);
    const ok = await handIn(room.alice, filesOnly, { fileIds: [small] });
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().files.map((f: { name: string }) => f.name)).toEqual(['small.png']);
    expect(ok.json().files[0].thumbnailUrl).toMatch(/\/thumbnail\?exp=/);

    // A learner's answer is sanitised like all rich text.
    const xss = await handIn(room.bob, textOnly, {
      textHtml:
        '<p onclick="steal()">Hi<img src="https://evil.example/x.png"><a href="javascript:alert(1)">x</a></p>',
    });
    expect(xss.statusCode).toBe(201);
    expect(xss.json().textHtml).not.toMatch(/onclick|evil|javascript/);

    // A second attempt starts a new draft; files of the handed-in attempt stay with it.
    const next = await call(room.alice, 'POST', `/api/assignments/${filesOnly}/submissions`, {
      fileIds: [small],
    });
    expect(next.statusCode).toBe(400);
  });
});
