/**
 * The whole path of a piece of work: an instructor creates an assignment, a learner drafts and
 * hands in a PDF, the grader lists and grades it, the learner sees the grade only once released,
 * and a regrade keeps the history.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PDF_HEAD, PNG_1X1 } from '../../platform/storage/test-files';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { classroom, upload, type Person } from './test-fixture';

const available = await testDatabaseAvailable();
/** Setting up signs several people in (password hashing) on a loaded machine. */
const SETUP_TIMEOUT_MS = 60_000;

describe.skipIf(!available)(`assignments: the whole flow (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  beforeEach(async () => {
    ctx = await createTestApp();
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

  it('creates, drafts, hands in a PDF, grades, releases and regrades with history', async () => {
    const { courseId, teacher, assistant, alice, bob } = await classroom(ctx);

    const created = await call(teacher, 'POST', `/api/courses/${courseId}/assignments`, {
      title: 'Splice log',
      instructionsHtml: '<p>Hand in your <strong>splice log</strong>.</p>',
      fileKinds: ['pdf'],
      dueAt: new Date(ctx.clock.now() + 86_400_000).toISOString(),
    });
    expect(created.statusCode, created.body).toBe(201);
    const assignment = created.json();
    expect(assignment).toMatchObject({
      courseId,
      title: 'Splice log',
      points: 100,
      submissionKinds: ['text', 'file'],
      fileKinds: ['pdf'],
      latePolicy: 'mark_late',
      maxAttempts: null,
      gradesReleased: false,
      position: 0,
      courseTitle: 'Fusion splicing',
      attachments: [],
      mine: null,
      toGrade: 0,
    });
    expect(assignment.maxFileBytes).toBeGreaterThan(0);

    // Alice sees it with her state; she drafts text, then a PDF.
    const listed = await call(alice, 'GET', `/api/courses/${courseId}/assignments`);
    expect(listed.statusCode).toBe(200);
    expect(listed.json().items).toEqual([
      expect.objectContaining({
        id: assignment.id,
        mine: { status: 'none', attemptsUsed: 0, points: null, late: false },
        toGrade: null,
      }),
    ]);
    const draft = await call(alice, 'POST', `/api/assignments/${assignment.id}/submissions`, {
      textHtml: '<p>Twelve splices, all under 0.05 dB.</p>',
    });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json()).toMatchObject({ status: 'draft', attempt: 1, submittedAt: null });

    // A PNG is not a PDF: refused by its detected type.
    const png = await upload(ctx, alice, 'photo.png', PNG_1X1);
    const wrongType = await call(alice, 'POST', `/api/assignments/${assignment.id}/submissions`, {
      fileIds: [png],
    });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().message).toBe(
      'photo.png is not an allowed file type for this assignment.',
    );
    // Bob cannot put Alice's upload in his work.
    const pdf = await upload(ctx, alice, 'log.pdf', PDF_HEAD);
    const stolen = await call(bob, 'POST', `/api/assignments/${assignment.id}/submissions`, {
      fileIds: [pdf],
    });
    expect(stolen.statusCode).toBe(400);

    const handedIn = await call(alice, 'POST', `/api/assignments/${assignment.id}/submissions`, {
      fileIds: [pdf],
      submit: true,
    });
    expect(handedIn.statusCode, handedIn.body).toBe(201);
    const submission = handedIn.json();
    expect(submission).toMatchObject({
      status: 'submitted',
      attempt: 1,
      late: false,
      userId: alice.id,
      textHtml: '<p>Twelve splices, all under 0.05 dB.</p>',
      files: [expect.objectContaining({ id: pdf, name: 'log.pdf', mime: 'application/pdf' })],
      grade: null,
    });
    expect(submission.files[0].url).toMatch(new RegExp(`^/api/files/${pdf}\\?exp=\\d+&sid=`));
    // The signed URL opens the file for Alice, and the assistant can open it too.
    const viaUrl = await ctx.app.inject({ method: 'GET', url: submission.files[0].url });
    expect(viaUrl.statusCode).toBe(200);
    expect(viaUrl.headers['content-type']).toBe('application/pdf');
    const asAssistant = await call(assistant, 'GET', `/api/files/${pdf}`);
    expect(asAssistant.statusCode).toBe(200);
    // Bob cannot.
    expect((await call(bob, 'GET', `/api/files/${pdf}`)).statusCode).toBe(403);

    // The grader's view: one to grade, Alice's attempt (never Bob's nonexistent draft).
    const queue = await call(assistant, 'GET', `/api/assignments/${assignment.id}`);
    expect(queue.json().toGrade).toBe(1);
    const graderList = await call(
      assistant,
      'GET',
      `/api/assignments/${assignment.id}/submissions?latest=true`,
    );
    expect(graderList.statusCode).toBe(200);
    expect(graderList.json().items).toHaveLength(1);
    expect(graderList.json().items[0]).toMatchObject({
      id: submission.id,
      userName: 'Alice Archer',
    });

    const graded = await call(assistant, 'PUT', `/api/submissions/${submission.id}/grade`, {
      points: 88,
      feedbackHtml: '<p>Tidy work.</p><script>alert(1)</script>',
    });
    expect(graded.statusCode, graded.body).toBe(200);
    expect(graded.json()).toMatchObject({
      points: 88,
      maxPoints: 100,
      feedbackHtml: '<p>Tidy work.</p>',
      gradedBy: assistant.id,
      gradedByName: 'Asa Assistant',
      override: false,
      released: false,
      revision: 1,
      submissionId: submission.id,
    });
    const tooMany = await call(assistant, 'PUT', `/api/submissions/${submission.id}/grade`, {
      points: 101,
    });
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().message).toBe('Points cannot be more than 100.');
    expect((await call(assistant, 'GET', `/api/assignments/${assignment.id}`)).json().toGrade).toBe(
      0,
    );

    // Not released: Alice sees no grade anywhere.
    const own = await call(alice, 'GET', `/api/submissions/${submission.id}`);
    expect(own.json().grade).toBeNull();
    const ownList = await call(alice, 'GET', `/api/assignments/${assignment.id}/submissions`);
    expect(ownList.json().items.map((s: { grade: unknown }) => s.grade)).toEqual([null]);
    const ownState = await call(alice, 'GET', `/api/assignments/${assignment.id}`);
    expect(ownState.json().mine).toEqual({
      status: 'submitted',
      attemptsUsed: 1,
      points: null,
      late: false,
    });
    const ownBook = await call(alice, 'GET', `/api/courses/${courseId}/grades`);
    expect(ownBook.statusCode).toBe(200);
    expect(ownBook.json().items).toEqual([
      expect.objectContaining({ userId: alice.id, totalPoints: null, percent: null }),
    ]);
    expect(ownBook.json().items[0].grades[assignment.id]).toBeNull();
    const hiddenHistory = await call(
      alice,
      'GET',
      `/api/assignments/${assignment.id}/grades/${alice.id}/history`,
    );
    expect(hiddenHistory.json()).toEqual({ items: [], total: 0, page: 1, pageSize: 25 });

    // Released: now she does.
    const release = await call(teacher, 'PATCH', `/api/assignments/${assignment.id}`, {
      gradesReleased: true,
      revision: assignment.revision,
    });
    expect(release.statusCode, release.body).toBe(200);
    const seen = await call(alice, 'GET', `/api/submissions/${submission.id}`);
    expect(seen.json().grade).toMatchObject({ points: 88, released: true });
    expect((await call(alice, 'GET', `/api/assignments/${assignment.id}`)).json().mine).toEqual({
      status: 'graded',
      attemptsUsed: 1,
      points: 88,
      late: false,
    });

    // A regrade: revision 2, and the history keeps both, newest first.
    const regraded = await call(teacher, 'PUT', `/api/submissions/${submission.id}/grade`, {
      points: 92,
    });
    expect(regraded.json()).toMatchObject({ points: 92, revision: 2, released: true });
    const history = await call(
      alice,
      'GET',
      `/api/assignments/${assignment.id}/grades/${alice.id}/history`,
    );
    expect(history.statusCode).toBe(200);
    expect(history.json().items.map((g: { points: number }) => g.points)).toEqual([92, 88]);
    // Paged like every list: the second page of one holds the first grade.
    const older = await call(
      alice,
      'GET',
      `/api/assignments/${assignment.id}/grades/${alice.id}/history?page=2&pageSize=1`,
    );
    expect(older.json()).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(older.json().items.map((g: { points: number }) => g.points)).toEqual([88]);
    expect(older.headers.link).toContain('rel="prev"');
    const book = await call(teacher, 'GET', `/api/courses/${courseId}/grades`);
    expect(book.statusCode).toBe(200);
    expect(book.json()).toMatchObject({ courseId, total: 2 });
    const rows = book.json().items as { userId: string; percent: number | null }[];
    expect(rows.map((r) => [r.userId, r.percent])).toEqual([
      [alice.id, 92],
      [bob.id, null],
    ]);
  }, 60_000);
});
