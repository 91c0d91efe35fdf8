/**
 * GET /api/me/learning beyond its basics (courses.test.ts): where "continue" leads, and the
 * teaching parts, which only ever hold the courses the viewer really teaches and may grade.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  createTestUser,
  signIn,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import {
  as,
  insertAssignmentRow,
  insertSubmissionRow,
  people,
  publishedCourse,
  type Person,
} from './test-support';

const available = await testDatabaseAvailable();
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

describe.skipIf(!available)(`learning overview (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let p: Awaited<ReturnType<typeof people>>;
  beforeEach(async () => {
    ctx = await createTestApp();
    p = await people(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  /** Opens a lesson and (unless `complete` is false) marks it complete, a minute later. */
  async function study(who: Person, courseId: string, lessonId: string, complete = true) {
    ctx.clock.advance(MINUTE);
    const url = `/api/courses/${courseId}/lessons/${lessonId}`;
    expect((await as(ctx, who).get(url)).statusCode).toBe(200);
    if (complete) {
      const done = await as(ctx, who).put(`${url}/progress`, { completed: true });
      expect(done.statusCode).toBe(200);
    }
  }

  const overviewOf = async (who: Person) => {
    const response = await as(ctx, who).get('/api/me/learning');
    expect(response.statusCode).toBe(200);
    return response.json();
  };

  it('continues at the next unfinished lesson of the latest unfinished course, or says the course is complete', async () => {
    const a = await publishedCourse(ctx, p.priya, { title: 'Splicing' }, 3);
    const b = await publishedCourse(ctx, p.priya, { title: 'OTDR' }, 2);
    const sam = as(ctx, p.sam);
    await sam.post(`/api/courses/${a.courseId}/enrolment`, {});
    await sam.post(`/api/courses/${b.courseId}/enrolment`, {});

    // Opened, not finished: continue there.
    await study(p.sam, b.courseId, b.lessonIds[0] as string, false);
    expect((await overviewOf(p.sam)).continueLesson).toMatchObject({
      courseId: b.courseId,
      lessonId: b.lessonIds[0],
      lessonTitle: 'Lesson 1',
    });

    // Two lessons of Splicing done: its third, not the second (the one opened last).
    await study(p.sam, a.courseId, a.lessonIds[0] as string);
    await study(p.sam, a.courseId, a.lessonIds[1] as string);
    let overview = await overviewOf(p.sam);
    expect(overview.continueLesson).toMatchObject({
      courseId: a.courseId,
      courseTitle: 'Splicing',
      lessonId: a.lessonIds[2],
      lessonTitle: 'Lesson 3',
    });
    expect(overview.courseComplete).toBeNull();
    expect((await sam.get(`/api/courses/${a.courseId}`)).json()).toMatchObject({
      lastLessonId: a.lessonIds[1],
      nextLessonId: a.lessonIds[2],
    });

    // Splicing complete: back to the unfinished OTDR course, though Splicing was opened last.
    await study(p.sam, a.courseId, a.lessonIds[2] as string);
    overview = await overviewOf(p.sam);
    expect(overview.continueLesson).toMatchObject({
      courseId: b.courseId,
      lessonId: b.lessonIds[0],
    });
    expect((await sam.get(`/api/courses/${a.courseId}`)).json()).toMatchObject({
      lastLessonId: a.lessonIds[2],
      nextLessonId: null,
      progress: { percent: 100 },
    });

    // A lesson skipped earlier is picked up from the start once the rest is done.
    await study(p.sam, b.courseId, b.lessonIds[1] as string);
    expect((await overviewOf(p.sam)).continueLesson).toMatchObject({
      courseId: b.courseId,
      lessonId: b.lessonIds[0],
    });

    // Everything complete: nothing to continue, and the latest course is named as complete.
    await study(p.sam, b.courseId, b.lessonIds[0] as string);
    overview = await overviewOf(p.sam);
    expect(overview.continueLesson).toBeNull();
    expect(overview.courseComplete).toEqual({ courseId: b.courseId, courseTitle: 'OTDR' });
  });

  it('starts a course not opened yet at its first lesson, before saying a course is complete', async () => {
    const a = await publishedCourse(ctx, p.priya, { title: 'Splicing' }, 2);
    await as(ctx, p.sam).post(`/api/courses/${a.courseId}/enrolment`, {});
    let overview = await overviewOf(p.sam);
    expect(overview.continueLesson).toEqual({
      courseId: a.courseId,
      courseTitle: 'Splicing',
      lessonId: a.lessonIds[0],
      lessonTitle: 'Lesson 1',
      viewedAt: null,
    });
    expect(overview.courseComplete).toBeNull();
    // The course page starts at the first lesson.
    const detail = (await as(ctx, p.sam).get(`/api/courses/${a.courseId}`)).json();
    expect(detail).toMatchObject({ lastLessonId: null, nextLessonId: a.lessonIds[0] });

    // One course finished and another not opened: start the other.
    await study(p.sam, a.courseId, a.lessonIds[0] as string);
    await study(p.sam, a.courseId, a.lessonIds[1] as string);
    const b = await publishedCourse(ctx, p.priya, { title: 'OTDR' }, 1);
    await as(ctx, p.sam).post(`/api/courses/${b.courseId}/enrolment`, {});
    overview = await overviewOf(p.sam);
    expect(overview.continueLesson).toMatchObject({ courseId: b.courseId, viewedAt: null });
    expect(overview.courseComplete).toBeNull();
  });

  it('gives a teacher the work of their courses only: what waits for a grade, hand-ins, due dates; a learner gets none', async () => {
    const now = ctx.clock.now();
    const omarAccount = await createTestUser(ctx, { username: 'omar', role: 'instructor' });
    const omar = {
      id: omarAccount.user.id,
      token: await signIn(ctx.app, 'omar', omarAccount.password),
    };
    const splicing = await publishedCourse(ctx, p.priya, { title: 'Splicing' });
    const otdr = await publishedCourse(ctx, omar, { title: 'OTDR' });
    for (const who of [p.sam, p.kim, p.lee]) {
      await as(ctx, who).post(`/api/courses/${splicing.courseId}/enrolment`, {});
    }
    await as(ctx, p.sam).post(`/api/courses/${otdr.courseId}/enrolment`, {});

    await insertAssignmentRow(ctx, {
      id: 'log',
      courseId: splicing.courseId,
      title: 'Splice log',
      dueAt: new Date(now + 2 * DAY).toISOString(),
    });
    await insertAssignmentRow(ctx, { id: 'budget', courseId: splicing.courseId, title: 'Budget' });
    await insertAssignmentRow(ctx, {
      id: 'trace',
      courseId: otdr.courseId,
      title: 'Find the fault',
      dueAt: new Date(now + DAY).toISOString(),
    });
    // Splice log: sam and kim hand in (kim twice); Budget: lee, then graded; OTDR: sam.
    await insertSubmissionRow(ctx, {
      id: 's-sam',
      assignmentId: 'log',
      courseId: splicing.courseId,
      userId: p.sam.id,
    });
    ctx.clock.advance(MINUTE);
    await insertSubmissionRow(ctx, {
      id: 's-kim-1',
      assignmentId: 'log',
      courseId: splicing.courseId,
      userId: p.kim.id,
    });
    ctx.clock.advance(MINUTE);
    await insertSubmissionRow(ctx, {
      id: 's-kim-2',
      assignmentId: 'log',
      courseId: splicing.courseId,
      userId: p.kim.id,
      attempt: 2,
    });
    ctx.clock.advance(MINUTE);
    await insertSubmissionRow(ctx, {
      id: 's-lee',
      assignmentId: 'budget',
      courseId: splicing.courseId,
      userId: p.lee.id,
    });
    ctx.clock.advance(MINUTE);
    await insertSubmissionRow(ctx, {
      id: 's-otdr',
      assignmentId: 'trace',
      courseId: otdr.courseId,
      userId: p.sam.id,
    });
    const graded = await as(ctx, p.priya).put(`/api/submissions/s-lee/grade`, {
      points: 9,
      feedbackHtml: '<p>Good.</p>',
    });
    expect(graded.statusCode).toBe(200);

    const priya = await overviewOf(p.priya);
    expect(priya.teaching).toMatchObject([
      { courseId: splicing.courseId, learners: 3, toGrade: 2 },
    ]);
    expect(priya.toGrade).toEqual([
      {
        assignmentId: 'log',
        assignmentTitle: 'Splice log',
        courseId: splicing.courseId,
        courseTitle: 'Splicing',
        count: 2,
        // Of the waiting attempts (Kim's second, Sam's), the lowest id: real ids sort by the time
        // they were made (sortableId); these made-up ones put Kim's first.
        firstSubmissionId: 's-kim-2',
      },
    ]);
    expect(priya.recentHandIns.map((h: { submissionId: string }) => h.submissionId)).toEqual([
      's-lee',
      's-kim-2',
      's-kim-1',
      's-sam',
    ]);
    expect(priya.recentHandIns[0]).toMatchObject({
      assignmentTitle: 'Budget',
      courseTitle: 'Splicing',
      learnerName: expect.stringMatching(/^Lee /),
      attempt: 1,
      graded: true,
    });
    expect(priya.recentHandIns[1]).toMatchObject({ attempt: 2, graded: false });
    expect(priya.teachingDue).toEqual([
      {
        assignmentId: 'log',
        assignmentTitle: 'Splice log',
        courseId: splicing.courseId,
        courseTitle: 'Splicing',
        dueAt: new Date(now + 2 * DAY).toISOString(),
        handedIn: 2,
        learners: 3,
      },
    ]);

    // Another course's teacher sees nothing of Splicing, though a system instructor may grade
    // everywhere: only the courses they teach.
    const other = await overviewOf(omar);
    expect(other.teaching.map((c: { courseId: string }) => c.courseId)).toEqual([otdr.courseId]);
    expect(other.toGrade).toMatchObject([{ assignmentId: 'trace', count: 1 }]);
    expect(other.recentHandIns.map((h: { submissionId: string }) => h.submissionId)).toEqual([
      's-otdr',
    ]);
    expect(other.teachingDue).toMatchObject([{ assignmentId: 'trace', handedIn: 1, learners: 1 }]);

    // A learner gets no teaching data at all.
    const sam = await overviewOf(p.sam);
    expect(sam).toMatchObject({ teaching: [], toGrade: [], recentHandIns: [], teachingDue: [] });
    expect(sam.courses).toHaveLength(2);
  });

  it("counts what waits for a grade by the grader page's rule, for an assistant in their one course", async () => {
    const splicing = await publishedCourse(ctx, p.priya, { title: 'Splicing' });
    const otdr = await publishedCourse(ctx, p.priya, { title: 'OTDR' });
    await as(ctx, p.sam).post(`/api/courses/${splicing.courseId}/enrolment`, {});
    await as(ctx, p.sam).post(`/api/courses/${otdr.courseId}/enrolment`, {});
    // Kim, a system student, assists in Splicing only.
    const assist = await as(ctx, p.priya).put(
      `/api/courses/${splicing.courseId}/participants/${p.kim.id}`,
      { roles: ['course-assistant'] },
    );
    expect(assist.statusCode).toBe(201);
    await insertAssignmentRow(ctx, { id: 'log', courseId: splicing.courseId, title: 'Splice log' });
    await insertAssignmentRow(ctx, { id: 'trace', courseId: otdr.courseId, title: 'Trace' });
    await insertSubmissionRow(ctx, {
      id: 's-log',
      assignmentId: 'log',
      courseId: splicing.courseId,
      userId: p.sam.id,
    });
    await insertSubmissionRow(ctx, {
      id: 's-trace',
      assignmentId: 'trace',
      courseId: otdr.courseId,
      userId: p.sam.id,
    });

    const kim = await overviewOf(p.kim);
    expect(kim.teaching).toMatchObject([{ courseId: splicing.courseId, toGrade: 1 }]);
    expect(kim.toGrade).toMatchObject([{ assignmentId: 'log', count: 1 }]);
    expect(kim.recentHandIns.map((h: { submissionId: string }) => h.submissionId)).toEqual([
      's-log',
    ]);

    // A gradebook override given after the hand-in settles it, as on the grader page.
    ctx.clock.advance(MINUTE);
    const override = await as(ctx, p.priya).put(
      `/api/courses/${splicing.courseId}/grades/log/${p.sam.id}`,
      { points: 7 },
    );
    expect(override.statusCode).toBe(200);
    const after = await overviewOf(p.kim);
    expect(after.toGrade).toEqual([]);
    expect(after.teaching).toMatchObject([{ courseId: splicing.courseId, toGrade: 0 }]);
    const list = (
      await as(ctx, p.priya).get(`/api/courses/${splicing.courseId}/assignments`)
    ).json();
    expect(list.items).toMatchObject([{ id: 'log', toGrade: 0 }]);
  });
});
