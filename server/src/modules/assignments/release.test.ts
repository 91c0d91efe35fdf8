/**
 * Releasing grades: what the graders are told (grades learners cannot see yet, who may release),
 * an assignment that releases its grades as they are saved (atomically with the grade), and that
 * a learner sees no unreleased grade through any route.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findAssignment } from './assignment-repository';
import { setGrade } from './grade-repository';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { classroom, type Person } from './test-fixture';

const available = await testDatabaseAvailable();
/** Setting up signs several people in (password hashing) on a loaded machine. */
const SETUP_TIMEOUT_MS = 60_000;

describe.skipIf(!available)(`assignments: releasing grades (${TEST_DB_KIND})`, () => {
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
    method: 'GET' | 'POST' | 'PUT' | 'PATCH',
    url: string,
    payload?: object,
  ) => ctx.app.inject({ method, url, headers: who.headers, ...(payload ? { payload } : {}) });

  async function assignment(fields: Record<string, unknown> = {}): Promise<string> {
    const created = await call(room.teacher, 'POST', `/api/courses/${room.courseId}/assignments`, {
      title: 'Splice log',
      points: 20,
      ...fields,
    });
    expect(created.statusCode, created.body).toBe(201);
    return (created.json() as { id: string }).id;
  }

  async function handIn(who: Person, assignmentId: string): Promise<string> {
    const work = await call(who, 'POST', `/api/assignments/${assignmentId}/submissions`, {
      textHtml: '<p>Twelve splices.</p>',
      submit: true,
    });
    expect(work.statusCode, work.body).toBe(201);
    return (work.json() as { id: string }).id;
  }

  /** Every route a learner could read a grade through, for one assignment. */
  async function whatAliceSees(assignmentId: string, submissionId: string) {
    const alice = room.alice;
    const [list, one, detail, courseList, book, history, overview] = await Promise.all([
      call(alice, 'GET', `/api/assignments/${assignmentId}/submissions`),
      call(alice, 'GET', `/api/submissions/${submissionId}`),
      call(alice, 'GET', `/api/assignments/${assignmentId}`),
      call(alice, 'GET', `/api/courses/${room.courseId}/assignments`),
      call(alice, 'GET', `/api/courses/${room.courseId}/grades`),
      call(alice, 'GET', `/api/assignments/${assignmentId}/grades/${alice.id}/history`),
      call(alice, 'GET', '/api/me/learning'),
    ]);
    for (const r of [list, one, detail, courseList, book, history, overview]) {
      expect(r.statusCode, r.body).toBe(200);
    }
    const listed = (courseList.json().items as { id: string; mine: { points: unknown } }[])
      .filter((a) => a.id === assignmentId)
      .map((a) => a.mine.points);
    return {
      submissions: (list.json().items as { grade: { points: number } | null }[]).map(
        (s) => s.grade?.points ?? null,
      ),
      submission: (one.json().grade as { points: number } | null)?.points ?? null,
      mine: detail.json().mine.points as number | null,
      listed: listed[0] ?? null,
      gradebook:
        (book.json().items[0].grades[assignmentId] as { points: number } | null)?.points ?? null,
      history: (history.json().items as { points: number }[]).map((g) => g.points),
      recent: (overview.json().recentGrades as { assignmentId: string; points: number }[])
        .filter((g) => g.assignmentId === assignmentId)
        .map((g) => g.points),
      // Learners are not told how many grades wait, nor offered to release them.
      unreleased: detail.json().unreleasedGrades as number | null,
      canRelease: detail.json().canReleaseGrades as boolean,
      bookUnreleased: book.json().assignments[0].unreleasedGrades as number | null,
    };
  }

  const NOTHING = {
    submissions: [null],
    submission: null,
    mine: null,
    listed: null,
    gradebook: null,
    history: [],
    recent: [],
    unreleased: null,
    canRelease: false,
    bookUnreleased: null,
  };

  it('keeps a saved grade from learners until released, and tells the graders so', async () => {
    const id = await assignment();
    const created = await call(room.teacher, 'GET', `/api/assignments/${id}`);
    expect(created.json()).toMatchObject({
      releaseOnSave: false,
      gradesReleased: false,
      unreleasedGrades: 0,
      canReleaseGrades: true,
    });
    const work = await handIn(room.alice, id);
    const graded = await call(room.assistant, 'PUT', `/api/submissions/${work}/grade`, {
      points: 17,
    });
    expect(graded.statusCode, graded.body).toBe(200);
    expect(graded.json()).toMatchObject({ points: 17, released: false });

    expect(await whatAliceSees(id, work)).toEqual(NOTHING);

    // The graders: one grade learners cannot see; only those who may edit it release it.
    const teacherView = (await call(room.teacher, 'GET', `/api/assignments/${id}`)).json();
    expect(teacherView).toMatchObject({ unreleasedGrades: 1, canReleaseGrades: true });
    const assistantView = (await call(room.assistant, 'GET', `/api/assignments/${id}`)).json();
    expect(assistantView).toMatchObject({ unreleasedGrades: 1, canReleaseGrades: false });
    const listed = (await call(room.teacher, 'GET', `/api/courses/${room.courseId}/assignments`))
      .json()
      .items.find((a: { id: string }) => a.id === id);
    expect(listed).toMatchObject({ unreleasedGrades: 1, canReleaseGrades: true });
    const book = await call(room.assistant, 'GET', `/api/courses/${room.courseId}/grades`);
    expect(book.json().assignments[0]).toMatchObject({
      gradesReleased: false,
      unreleasedGrades: 1,
    });
    const refused = await call(room.assistant, 'PATCH', `/api/assignments/${id}`, {
      gradesReleased: true,
      revision: 1,
    });
    expect(refused.statusCode).toBe(403);

    const release = await call(room.teacher, 'PATCH', `/api/assignments/${id}`, {
      gradesReleased: true,
      revision: 1,
    });
    expect(release.json()).toMatchObject({ gradesReleased: true, unreleasedGrades: 0 });
    expect(await whatAliceSees(id, work)).toMatchObject({
      submissions: [17],
      submission: 17,
      mine: 17,
      listed: 17,
      gradebook: 17,
      history: [17],
      recent: [17],
    });
  });

  it('releases the grades with the grade saved when the assignment releases on save', async () => {
    const id = await assignment({ releaseOnSave: true });
    expect((await call(room.teacher, 'GET', `/api/assignments/${id}`)).json()).toMatchObject({
      releaseOnSave: true,
      gradesReleased: false,
    });
    const work = await handIn(room.alice, id);
    const graded = await call(room.assistant, 'PUT', `/api/submissions/${work}/grade`, {
      points: 18,
    });
    expect(graded.statusCode, graded.body).toBe(200);
    expect(graded.json()).toMatchObject({ points: 18, released: true });
    // Released by the grade: a change like any other, so the assignment's revision moved on.
    expect((await call(room.teacher, 'GET', `/api/assignments/${id}`)).json()).toMatchObject({
      gradesReleased: true,
      unreleasedGrades: 0,
      revision: 2,
    });
    expect(await whatAliceSees(id, work)).toMatchObject({
      submissions: [18],
      submission: 18,
      mine: 18,
      gradebook: 18,
      history: [18],
      recent: [18],
    });

    // Hidden again by hand, the next grade saved (a gradebook override too) releases them again.
    const staleHide = await call(room.teacher, 'PATCH', `/api/assignments/${id}`, {
      gradesReleased: false,
      revision: 1,
    });
    expect(staleHide.statusCode).toBe(409);
    const hidden = await call(room.teacher, 'PATCH', `/api/assignments/${id}`, {
      gradesReleased: false,
      revision: 2,
    });
    expect(hidden.statusCode, hidden.body).toBe(200);
    expect(await whatAliceSees(id, work)).toMatchObject({ submission: null, gradebook: null });
    const override = await call(
      room.teacher,
      'PUT',
      `/api/courses/${room.courseId}/grades/${id}/${room.bob.id}`,
      { points: 11 },
    );
    expect(override.json()).toMatchObject({ override: true, released: true });
    expect(await whatAliceSees(id, work)).toMatchObject({ submission: 18, gradebook: 18 });
  });

  it('turns releasing on save on and off per assignment', async () => {
    const id = await assignment();
    const other = await assignment({ title: 'Trace' });
    const on = await call(room.teacher, 'PATCH', `/api/assignments/${id}`, {
      releaseOnSave: true,
      revision: 1,
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ releaseOnSave: true, gradesReleased: false });
    expect(
      (await call(room.teacher, 'GET', `/api/assignments/${other}`)).json().releaseOnSave,
    ).toBe(false);
    const work = await handIn(room.alice, other);
    const graded = await call(room.teacher, 'PUT', `/api/submissions/${work}/grade`, {
      points: 5,
    });
    expect(graded.json().released).toBe(false);
    const refused = await call(room.assistant, 'PATCH', `/api/assignments/${id}`, {
      releaseOnSave: false,
      revision: 2,
    });
    expect(refused.statusCode).toBe(403);
  });

  it('releases nothing when the grade fails to save (one transaction)', async () => {
    const id = await assignment({ releaseOnSave: true });
    const at = new Date(ctx.clock.now()).toISOString();
    // A grade for someone who is not a user breaks a foreign key after the release was written.
    await expect(
      setGrade(
        ctx.database.db,
        {
          assignmentId: id,
          courseId: room.courseId,
          userId: 'nobody',
          submissionId: null,
          points: 3,
          feedbackHtml: '',
          gradedBy: room.teacher.id,
          override: true,
        },
        at,
      ),
    ).rejects.toThrow();
    expect((await findAssignment(ctx.database.db, id))?.gradesReleased).toBe(false);
  });
});
