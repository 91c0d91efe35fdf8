import { SECTION_LESSONS_MAX, STALE_REVISION_MESSAGE } from '@learning-hub/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertCourse } from './course-repository';
import { PNG_1X1 } from '../../platform/storage/test-files';
import {
  createTestApp,
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
  upload,
} from './test-support';

const available = await testDatabaseAvailable();
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe.skipIf(!available)(`courses (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let p: Awaited<ReturnType<typeof people>>;
  beforeEach(async () => {
    ctx = await createTestApp();
    p = await people(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  it('creates a draft the creator teaches; the code is unique; students may not create', async () => {
    const priya = as(ctx, p.priya);
    const created = await priya.post('/api/courses', {
      code: 'OTDR-101',
      title: 'OTDR basics',
      summaryHtml: '<p>Traces <script>alert(1)</script><img src="x" onerror="alert(2)"></p>',
      enrolmentMode: 'open',
    });
    expect(created.statusCode).toBe(201);
    const course = created.json();
    expect(course).toMatchObject({
      code: 'OTDR-101',
      state: 'draft',
      revision: 0,
      enrolledCount: 0,
      lessonCount: 0,
      description: 'Traces',
      viewer: { canEdit: true, roles: ['course-instructor'] },
    });
    expect(course.summaryHtml).not.toMatch(/script|onerror|alert/);

    const participants = await priya.get(`/api/courses/${course.id}/participants`);
    expect(participants.json().items).toMatchObject([
      { id: p.priya.id, roles: ['course-instructor'], expiresAt: null },
    ]);

    const again = await priya.post('/api/courses', { code: 'OTDR-101', title: 'Again' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'CONFLICT',
      message: 'A course with this code already exists.',
    });
    // Whatever its case.
    const lower = await priya.post('/api/courses', { code: 'otdr-101', title: 'Again' });
    expect(lower.statusCode).toBe(409);
    expect(lower.json().message).toBe('A course with this code already exists.');

    const bad = await priya.post('/api/courses', {
      code: 'X-1',
      title: 'Dates',
      startsAt: '2026-12-10T00:00:00.000Z',
      endsAt: '2026-12-01T00:00:00.000Z',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 'VALIDATION_ERROR',
      message: 'The end date must be after the start date.',
    });
    const noKey = await priya.post('/api/courses', {
      code: 'X-2',
      title: 'K',
      enrolmentMode: 'key',
    });
    expect(noKey.statusCode).toBe(400);

    const student = await as(ctx, p.sam).post('/api/courses', { code: 'S-1', title: 'Mine' });
    expect(student.statusCode).toBe(403);
    expect(student.json().message).toBe('Missing required permission: course.create');
  });

  it('gives a new course a readable id from its code, with the first free suffix on a clash', async () => {
    const priya = as(ctx, p.priya);
    const first = (await priya.post('/api/courses', { code: 'OSP-150', title: 'Splicing' })).json();
    expect(first.id).toBe('osp-150');
    expect((await priya.get('/api/courses/osp-150')).json()).toMatchObject({ code: 'OSP-150' });
    // Another code with the same slug (codes differ whatever their case; slugs need not).
    const second = (await priya.post('/api/courses', { code: 'OSP_150', title: 'Again' })).json();
    expect(second.id).toBe('osp-150-2');
    // A code whose own slug is a taken suffix goes on to the next free one.
    const third = (await priya.post('/api/courses', { code: 'osp.150-2', title: 'Third' })).json();
    expect(third.id).toBe('osp-150-2-2');
    // The id stays when the code changes, and a new course with the old code takes the next one.
    const renamed = await priya.patch('/api/courses/osp-150', { code: 'OSP-151' });
    expect(renamed.json()).toMatchObject({ id: 'osp-150', code: 'OSP-151' });
    const reused = (await priya.post('/api/courses', { code: 'OSP-150', title: 'New' })).json();
    expect(reused.id).toBe('osp-150-3');
    // A copy is named after its own code.
    const copy = await priya.post('/api/courses/osp-150/copy', { code: 'OSP-150.B', title: 'B' });
    expect(copy.statusCode).toBe(201);
    expect(copy.json().id).toBe('osp-150-b');
    // Courses made before keep their ids (and so their links).
    await insertCourse(
      ctx.database.db,
      {
        id: '0190a1b2c3d4000000abcdef0123456789',
        code: 'OLD-1',
        title: 'Old',
        description: '',
        departmentId: null,
      },
      new Date(ctx.clock.now()).toISOString(),
    );
    const old = await priya.get('/api/courses/0190a1b2c3d4000000abcdef0123456789');
    expect(old.json()).toMatchObject({ code: 'OLD-1' });
  });

  it('gives concurrent creates of one slug distinct readable ids', async () => {
    const priya = as(ctx, p.priya);
    const codes = ['NET-1', 'NET_1', 'NET.1', 'NET-1.', 'NET__1', 'NET-_1'];
    const made = await Promise.all(
      codes.map((code) => priya.post('/api/courses', { code, title: `Course ${code}` })),
    );
    expect(made.map((r) => r.statusCode)).toEqual(codes.map(() => 201));
    const ids = made.map((r) => r.json().id as string);
    expect([...ids].sort()).toEqual([
      'net-1',
      'net-1-2',
      'net-1-3',
      'net-1-4',
      'net-1-5',
      'net-1-6',
    ]);
    // Each id is the course of its own code, and its creator teaches it.
    for (const [index, id] of ids.entries()) {
      const course = (await priya.get(`/api/courses/${id}`)).json();
      expect(course).toMatchObject({
        code: codes[index],
        viewer: { roles: ['course-instructor'] },
      });
    }
  });

  it('shows drafts only to editors and published courses to everyone who may view', async () => {
    const priya = as(ctx, p.priya);
    const sam = as(ctx, p.sam);
    const draft = (await priya.post('/api/courses', { code: 'D-1', title: 'Draft one' })).json();
    const { courseId } = await publishedCourse(ctx, p.priya, { title: 'Alpha published' });

    const catalogue = (await sam.get('/api/courses')).json();
    expect(catalogue.items.map((c: { id: string }) => c.id)).toEqual([courseId]);
    expect(catalogue.items[0]).toMatchObject({ lessonCount: 1, enrolled: false, progress: null });
    expect((await sam.get('/api/courses?state=draft')).json().total).toBe(0);
    expect((await sam.get('/api/courses?state=any')).json().total).toBe(1);
    // A course one may not see is not there: the same answer as a course that does not exist.
    const hidden = await sam.get(`/api/courses/${draft.id}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ code: 'NOT_FOUND', message: 'Course not found' });
    const none = await sam.get('/api/courses/no-such-course');
    expect(none.json()).toEqual(hidden.json());

    expect((await priya.get('/api/courses?state=draft')).json().items).toMatchObject([
      { id: draft.id, state: 'draft' },
    ]);
    const any = (await as(ctx, p.ada).get('/api/courses?state=any')).json();
    expect(any.total).toBe(2);
    expect(any.items.map((c: { title: string }) => c.title)).toEqual([
      'Alpha published',
      'Draft one',
    ]);
    // The total comes with the page, and is still right for a page past the end.
    const second = (await as(ctx, p.ada).get('/api/courses?state=any&pageSize=1&page=2')).json();
    expect(second).toMatchObject({ total: 2, items: [{ title: 'Draft one' }] });
    const beyond = (await as(ctx, p.ada).get('/api/courses?state=any&pageSize=1&page=9')).json();
    expect(beyond).toMatchObject({ total: 2, items: [] });
    // The admin pickers' shape is still there.
    expect(any.items[0]).toMatchObject({ code: expect.any(String), departmentName: null });

    // Search escapes LIKE wildcards and looks at code, title and summary.
    expect((await sam.get('/api/courses?search=%25')).json().total).toBe(0);
    expect((await sam.get('/api/courses?search=alpha')).json().total).toBe(1);

    // Courses made before the classroom (insertCourse) are published and listed.
    await insertCourse(
      ctx.database.db,
      { id: 'legacy', code: 'L-1', title: 'Legacy', description: 'old', departmentId: null },
      new Date(ctx.clock.now()).toISOString(),
    );
    expect((await sam.get('/api/courses?search=legacy')).json().items).toMatchObject([
      { id: 'legacy', state: 'published' },
    ]);
    // scope=mine: only courses with a course role.
    expect((await priya.get('/api/courses?scope=mine&state=any')).json().total).toBe(2);
    expect((await sam.get('/api/courses?scope=mine')).json().total).toBe(0);
  });

  it('publishes only with a lesson, refuses stale revisions, and keeps archived courses read-only', async () => {
    const priya = as(ctx, p.priya);
    const course = (await priya.post('/api/courses', { code: 'P-1', title: 'Publish me' })).json();
    const url = `/api/courses/${course.id}`;
    const early = await priya.patch(url, { state: 'published' });
    expect(early.statusCode).toBe(409);
    expect(early.json().message).toBe('Add at least one lesson before publishing.');

    const section = (await priya.post(`${url}/sections`, { title: 'One' })).json();
    await priya.post(`${url}/lessons`, { sectionId: section.id, title: 'First' });
    const renamed = await priya.patch(url, { title: 'Published', revision: 0 });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ title: 'Published', revision: 1 });
    const stale = await priya.patch(url, { title: 'Mine instead', revision: 0 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({ code: 'CONFLICT', message: STALE_REVISION_MESSAGE });

    // A draft is published (or deleted), never archived.
    const draftArchived = await priya.patch(url, { state: 'archived' });
    expect(draftArchived.statusCode).toBe(409);
    expect(draftArchived.json().message).toBe(
      'Only a published course can be archived: publish it first, or delete the draft.',
    );

    const published = (await priya.patch(url, { state: 'published' })).json();
    expect(published).toMatchObject({ state: 'published', revision: 2 });
    expect(published.publishedAt).toBe(new Date(ctx.clock.now()).toISOString());

    expect(published.viewer).toMatchObject({ canEdit: true, canRestore: false });
    const archived = await priya.patch(url, { state: 'archived' });
    // Read-only now, but its editors may restore it (the creator offers Restore).
    expect(archived.json()).toMatchObject({
      state: 'archived',
      viewer: { canEdit: false, canRestore: true },
    });
    const locked = await priya.patch(url, { title: 'Changed' });
    expect(locked.statusCode).toBe(409);
    expect(locked.json().message).toBe('This course is archived; restore it to make changes.');
    const lesson = await priya.post(`${url}/lessons`, { sectionId: section.id, title: 'More' });
    expect(lesson.statusCode).toBe(409);
    // Archived courses leave the catalogue.
    expect((await as(ctx, p.sam).get('/api/courses')).json().total).toBe(0);
    const restored = await priya.patch(url, { state: 'published' });
    expect(restored.json()).toMatchObject({
      state: 'published',
      publishedAt: published.publishedAt,
    });

    const student = await as(ctx, p.sam).patch(url, { title: 'Hacked' });
    expect(student.statusCode).toBe(403);
  });

  it('reorders the outline, moving a lesson between sections, and checks the order', async () => {
    const priya = as(ctx, p.priya);
    const { courseId, sectionId, lessonIds } = await publishedCourse(ctx, p.priya, {}, 3);
    const url = `/api/courses/${courseId}`;
    const second = (await priya.post(`${url}/sections`, { title: 'Advanced' })).json();
    expect(second.position).toBe(1);
    const [a, b, c] = lessonIds as [string, string, string];

    const moved = await priya.put(`${url}/outline`, {
      sections: [
        { id: second.id, lessonIds: [c, a] },
        { id: sectionId, lessonIds: [b] },
      ],
    });
    expect(moved.statusCode).toBe(200);
    const outline = moved
      .json()
      .sections.map(
        (s: { id: string; position: number; lessons: { id: string; position: number }[] }) => [
          s.id,
          s.position,
          s.lessons.map((l) => [l.id, l.position]),
        ],
      );
    expect(outline).toEqual([
      [
        second.id,
        0,
        [
          [c, 0],
          [a, 1],
        ],
      ],
      [sectionId, 1, [[b, 0]]],
    ]);
    const lesson = (await priya.get(`${url}/lessons/${a}`)).json();
    expect(lesson).toMatchObject({ sectionId: second.id, previousLessonId: c, nextLessonId: b });

    const missing = await priya.put(`${url}/outline`, {
      sections: [
        { id: second.id, lessonIds: [c] },
        { id: sectionId, lessonIds: [b] },
      ],
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe(
      'The order must name each lesson of the course exactly once.',
    );
    const twice = await priya.put(`${url}/outline`, {
      sections: [{ id: second.id, lessonIds: [a, b, c] }],
    });
    expect(twice.json().message).toBe(
      'The order must name each section of the course exactly once.',
    );

    // Deleting a section takes its lessons and closes the gap.
    expect((await priya.delete(`${url}/sections/${second.id}`)).statusCode).toBe(204);
    const after = (await priya.get(url)).json();
    expect(after.sections).toMatchObject([{ id: sectionId, position: 0, lessons: [{ id: b }] }]);
    expect(after.lessonCount).toBe(1);
    expect((await priya.delete(`${url}/lessons/${b}`)).statusCode).toBe(204);
    expect((await priya.get(`${url}/lessons/${b}`)).statusCode).toBe(404);
    const renamed = await priya.patch(`${url}/sections/${sectionId}`, { title: 'Renamed' });
    expect(renamed.json()).toMatchObject({ title: 'Renamed', lessons: [] });
  });

  it('changes a lesson only at the revision read: of two at once, exactly one lands', async () => {
    const priya = as(ctx, p.priya);
    const { courseId, lessonIds } = await publishedCourse(ctx, p.priya);
    const url = `/api/courses/${courseId}/lessons/${lessonIds[0]}`;
    const read = (await priya.get(url)).json();
    expect(read.revision).toBe(1);
    // The outline carries each lesson's revision too (the creator renames from it).
    const outline = (await priya.get(`/api/courses/${courseId}`)).json();
    expect(outline.sections[0].lessons[0]).toMatchObject({ id: lessonIds[0], revision: 1 });
    const both = await Promise.all([
      priya.patch(url, { bodyHtml: '<p>First editor</p>', revision: read.revision }),
      priya.patch(url, { bodyHtml: '<p>Second editor</p>', revision: read.revision }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const [won, lost] = both[0]?.statusCode === 200 ? both : [both[1], both[0]];
    expect(lost?.json()).toEqual({ code: 'CONFLICT', message: STALE_REVISION_MESSAGE });
    expect((await priya.get(url)).json()).toMatchObject({
      bodyHtml: won?.json().bodyHtml,
      revision: 2,
    });
    // Saving on from the answer goes through; a lesson that is not there is 404.
    expect((await priya.patch(url, { title: 'Renamed', revision: 2 })).json()).toMatchObject({
      title: 'Renamed',
      revision: 3,
    });
    const gone = await priya.patch(`/api/courses/${courseId}/lessons/nope`, {
      title: 'x',
      revision: 1,
    });
    expect(gone.statusCode).toBe(404);
  });

  it('stops at the most lessons a section holds', async () => {
    const { courseId, sectionId } = await publishedCourse(ctx, p.priya);
    const at = new Date(ctx.clock.now()).toISOString();
    await ctx.database.db
      .insertInto('lessons')
      .values(
        Array.from({ length: SECTION_LESSONS_MAX - 1 }, (_, i) => ({
          id: `bulk-${i}`,
          course_id: courseId,
          section_id: sectionId,
          title: `Bulk ${i}`,
          body_html: '',
          duration_minutes: null,
          position: i + 1,
          created_at: at,
          updated_at: at,
        })),
      )
      .execute();
    const refused = await as(ctx, p.priya).post(`/api/courses/${courseId}/lessons`, {
      sectionId,
      title: 'One too many',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(`A section has at most ${SECTION_LESSONS_MAX} lessons.`);
  });

  it('sanitises lesson bodies and serves their media with URLs the viewer can load', async () => {
    const priya = as(ctx, p.priya);
    const { courseId, sectionId } = await publishedCourse(ctx, p.priya);
    const fileId = await upload(ctx, p.priya, 'splice.png', PNG_1X1);
    const created = await priya.post(`/api/courses/${courseId}/lessons`, {
      sectionId,
      title: 'With a picture',
      bodyHtml: `<p onclick="x()">Look</p><script>alert(1)</script><img src="/api/files/${fileId}?sig=old" alt="splice"><a href="javascript:alert(1)">x</a>`,
    });
    expect(created.statusCode).toBe(201);
    const lessonId = created.json().id;
    const stored = await ctx.database.db
      .selectFrom('lessons')
      .select('body_html')
      .where('id', '=', lessonId)
      .executeTakeFirstOrThrow();
    expect(stored.body_html).toBe(
      `<p>Look</p><img src="/api/files/${fileId}" alt="splice" /><a>x</a>`,
    );
    const file = await ctx.database.db
      .selectFrom('files')
      .select(['owner_type', 'owner_id'])
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow();
    expect(file).toEqual({ owner_type: 'lesson', owner_id: lessonId });

    const sam = as(ctx, p.sam);
    const closed = await sam.get(`/api/courses/${courseId}/lessons/${lessonId}`);
    expect(closed.statusCode).toBe(403);
    expect(closed.json().message).toBe('Enrol in this course to open its lessons.');
    // The file itself is closed to a non-participant too.
    expect((await sam.get(`/api/files/${fileId}`)).statusCode).toBe(403);

    expect((await sam.post(`/api/courses/${courseId}/enrolment`, {})).statusCode).toBe(201);
    const lesson = (await sam.get(`/api/courses/${courseId}/lessons/${lessonId}`)).json();
    const src = /src="([^"]+)"/.exec(lesson.bodyHtml)?.[1]?.replace(/&amp;/g, '&') ?? '';
    expect(src).toMatch(new RegExp(`^/api/files/${fileId}\\?exp=\\d+&sid=.+&sig=`));
    const image = await ctx.app.inject({ method: 'GET', url: src });
    expect(image.statusCode).toBe(200);
    expect(image.rawPayload.equals(PNG_1X1)).toBe(true);
  });

  it('enrols learners by the rules, harmlessly twice, and closes lessons when the enrolment ends', async () => {
    const sam = as(ctx, p.sam);
    const endsAt = new Date(ctx.clock.now() + 2 * HOUR).toISOString();
    const { courseId, lessonIds } = await publishedCourse(ctx, p.priya, { endsAt });
    const url = `/api/courses/${courseId}`;
    const before = (await sam.get(url)).json();
    expect(before.viewer).toMatchObject({ enrolled: false, canEnrol: true, canLearn: false });

    const first = await sam.post(`${url}/enrolment`, {});
    expect(first.statusCode).toBe(201);
    expect(first.headers.location).toBe(`${url}/enrolment`);
    expect(first.json()).toEqual({ courseId, userId: p.sam.id, enrolled: true, endsAt });
    // Enrolling again creates nothing: 200 with the same enrolment.
    const second = await sam.post(`${url}/enrolment`, {});
    expect(second.statusCode).toBe(200);
    expect(second.headers.location).toBeUndefined();
    expect(second.json()).toEqual(first.json());
    const detail = (await sam.get(url)).json();
    expect(detail).toMatchObject({
      enrolledCount: 1,
      viewer: { enrolled: true, enrolmentEndsAt: endsAt, canLearn: true, canUnenrol: true },
      progress: { completedLessons: 0, totalLessons: 1, percent: 0 },
    });
    const audit = await ctx.database.db
      .selectFrom('access_audit')
      .select(['action', 'target_user_id', 'context_key'])
      .where('action', '=', 'enrolment.self')
      .execute();
    expect(audit).toEqual([
      { action: 'enrolment.self', target_user_id: p.sam.id, context_key: `course:${courseId}` },
    ]);

    const lessonUrl = `${url}/lessons/${lessonIds[0]}`;
    expect((await sam.get(lessonUrl)).statusCode).toBe(200);
    const done = await sam.put(`${lessonUrl}/progress`, { completed: true });
    expect(done.json()).toEqual({
      lessonId: lessonIds[0],
      completed: true,
      progress: { completedLessons: 1, totalLessons: 1, percent: 100 },
    });
    const card = (await sam.get('/api/courses')).json().items[0];
    expect(card).toMatchObject({ enrolled: true, progress: { percent: 100 } });
    expect((await sam.get(url)).json().lastLessonId).toBe(lessonIds[0]);

    // Only enrolled learners record progress.
    const teacher = await as(ctx, p.priya).put(`${lessonUrl}/progress`, { completed: true });
    expect(teacher.statusCode).toBe(403);
    expect(teacher.json().message).toBe('Only enrolled learners record progress.');

    // The enrolment ends with the course: lessons close at the next request.
    ctx.clock.advance(3 * HOUR);
    const closed = await sam.get(lessonUrl);
    expect(closed.statusCode).toBe(403);
    expect(closed.json().message).toBe('Enrol in this course to open its lessons.');
    const late = await as(ctx, p.kim).post(`${url}/enrolment`, {});
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('Enrolment for this course has closed.');

    // Unenrolling removes the course-student role only.
    ctx.clock.advance(-3 * HOUR);
    expect((await sam.delete(`${url}/enrolment`)).statusCode).toBe(204);
    expect((await sam.get(url)).json().viewer.enrolled).toBe(false);
  });

  it('throttles wrong enrolment keys per learner and course, and takes a key in any case', async () => {
    const sam = as(ctx, p.sam);
    const { courseId } = await publishedCourse(ctx, p.priya, {
      enrolmentMode: 'key',
      enrolmentKey: 'Splice-42',
    });
    const enrol = (key: string) => sam.post(`/api/courses/${courseId}/enrolment`, { key });
    // Five wrong keys at once: each is counted before it is checked, none gets past the limit.
    const wrong = await Promise.all([1, 2, 3, 4, 5].map((n) => enrol(`guess-${n}`)));
    expect(wrong.map((r) => r.statusCode)).toEqual([403, 403, 403, 403, 403]);
    // Then even the right key waits: a guesser is slowed down whatever they try next.
    const held = await enrol('Splice-42');
    expect(held.statusCode).toBe(429);
    expect(held.json()).toEqual({
      code: 'RATE_LIMITED',
      message: 'Too many wrong enrolment keys. Try again in 1 second.',
    });
    expect(held.headers['retry-after']).toBe('1');
    // Another learner of the course is not held back by Sam's guesses.
    const other = await as(ctx, p.kim).post(`/api/courses/${courseId}/enrolment`, {
      key: '  splice-42 ',
    });
    expect(other.statusCode).toBe(201);
    ctx.clock.advance(1_000);
    expect((await enrol('SPLICE-42')).statusCode).toBe(201);
  });

  it('answers each refusal of self-enrolment in its words', async () => {
    const priya = as(ctx, p.priya);
    const sam = as(ctx, p.sam);
    const enrol = async (fields: Record<string, unknown>, key?: string) => {
      const { courseId } = await publishedCourse(ctx, p.priya, fields);
      return sam.post(`/api/courses/${courseId}/enrolment`, key === undefined ? {} : { key });
    };
    const manual = await enrol({ enrolmentMode: 'manual' });
    expect(manual.statusCode).toBe(403);
    expect(manual.json().message).toBe(
      "Only the course's instructors can enrol people in this course.",
    );
    const wrong = await enrol({ enrolmentMode: 'key', enrolmentKey: 'splice-42' }, 'splice-41');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().message).toBe('The enrolment key is not correct.');
    expect(
      (await enrol({ enrolmentMode: 'key', enrolmentKey: 'splice-42' }, 'splice-42')).statusCode,
    ).toBe(201);
    const soon = await enrol({ startsAt: new Date(ctx.clock.now() + DAY).toISOString() });
    expect(soon.statusCode).toBe(409);
    expect(soon.json().message).toBe('Enrolment for this course has not started yet.');
    const full = await enrol({ capacity: 1 });
    expect(full.statusCode).toBe(201);
    const draft = (await priya.post('/api/courses', { code: 'DR-1', title: 'Draft' })).json();
    // A draft is not there for a learner, who may not see it; one who sees it may not enrol.
    const hidden = await sam.post(`/api/courses/${draft.id}/enrolment`, {});
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ code: 'NOT_FOUND', message: 'Course not found' });
    const notOpen = await as(ctx, p.ada).post(`/api/courses/${draft.id}/enrolment`, {});
    expect(notOpen.statusCode).toBe(409);
    expect(notOpen.json().message).toBe('This course is not open for enrolment.');

    const { courseId } = await publishedCourse(ctx, p.priya, { capacity: 1 });
    expect((await as(ctx, p.kim).post(`/api/courses/${courseId}/enrolment`, {})).statusCode).toBe(
      201,
    );
    const noSeat = await sam.post(`/api/courses/${courseId}/enrolment`, {});
    expect(noSeat.statusCode).toBe(409);
    expect(noSeat.json().message).toBe('This course is full.');
    expect((await sam.get(`/api/courses/${courseId}`)).json().viewer).toMatchObject({
      canEnrol: false,
      enrolBlockedReason: 'This course is full.',
    });

    // The course's own instructor is not offered a learner's place, and cannot take one.
    const open = await publishedCourse(ctx, p.priya, {});
    expect((await priya.get(`/api/courses/${open.courseId}`)).json().viewer).toMatchObject({
      canEnrol: false,
      enrolBlockedReason: 'You teach this course, so you cannot enrol in it as a learner.',
    });
    const teacher = await priya.post(`/api/courses/${open.courseId}/enrolment`, {});
    expect(teacher.statusCode).toBe(409);
    expect(teacher.json().message).toBe(
      'You teach this course, so you cannot enrol in it as a learner.',
    );
  });

  it('gives the last seat to exactly one of two learners enrolling at once', async () => {
    const { courseId } = await publishedCourse(ctx, p.priya, { capacity: 2 });
    const url = `/api/courses/${courseId}/enrolment`;
    expect((await as(ctx, p.lee).post(url, {})).statusCode).toBe(201);
    const answers = await Promise.all([as(ctx, p.sam).post(url, {}), as(ctx, p.kim).post(url, {})]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    const members = (await as(ctx, p.priya).get(`/api/courses/${courseId}/participants`)).json()
      .items;
    expect(
      members.filter((m: { roles: string[] }) => m.roles.includes('course-student')),
    ).toHaveLength(2);
    expect((await as(ctx, p.priya).get(`/api/courses/${courseId}`)).json().enrolledCount).toBe(2);
  });

  it('manages participants under the grant rules, and finds candidates', async () => {
    const { courseId } = await publishedCourse(ctx, p.priya, { enrolmentMode: 'manual' });
    const priya = as(ctx, p.priya);
    const url = `/api/courses/${courseId}`;
    const candidates = (await priya.get(`${url}/candidates?search=k`)).json().items;
    expect(candidates.map((u: { username: string }) => u.username)).toEqual(['kim']);

    const added = await priya.put(`${url}/participants/${p.kim.id}`, {
      roles: ['course-student'],
      endsAt: new Date(ctx.clock.now() + DAY).toISOString(),
    });
    // Kim was no participant: the PUT made her one (201, with her participant's URL).
    expect(added.statusCode).toBe(201);
    expect(added.headers.location).toBe(`${url}/participants/${p.kim.id}`);
    expect(added.json()).toMatchObject({
      id: p.kim.id,
      roles: ['course-student'],
      progress: { completedLessons: 0, totalLessons: 1 },
    });
    expect((await priya.get(`${url}/candidates?search=k`)).json().items).toEqual([]);
    expect((await as(ctx, p.kim).get(url)).json().viewer.enrolled).toBe(true);
    // Changing her roles or end changes a participant: 200.
    const changed = await priya.put(`${url}/participants/${p.kim.id}`, {
      roles: ['course-student'],
      endsAt: new Date(ctx.clock.now() + 2 * DAY).toISOString(),
    });
    expect(changed.statusCode).toBe(200);

    const own = await priya.put(`${url}/participants/${p.priya.id}`, { roles: ['course-student'] });
    expect(own.statusCode).toBe(403);
    expect(own.json().message).toBe('Cannot change your own context assignments');
    const admin = await priya.put(`${url}/participants/${p.ada.id}`, { roles: ['course-student'] });
    expect(admin.json().message).toBe('Only an admin can change an admin');
    const past = await priya.put(`${url}/participants/${p.lee.id}`, {
      roles: ['course-student'],
      endsAt: new Date(ctx.clock.now() - DAY).toISOString(),
    });
    expect(past.statusCode).toBe(400);
    const student = await as(ctx, p.sam).put(`${url}/participants/${p.lee.id}`, {
      roles: ['course-student'],
    });
    expect(student.statusCode).toBe(403);
    expect((await as(ctx, p.sam).get(`${url}/participants`)).statusCode).toBe(403);

    expect((await priya.delete(`${url}/participants/${p.kim.id}`)).statusCode).toBe(204);
    expect((await priya.delete(`${url}/participants/${p.kim.id}`)).statusCode).toBe(404);
    expect((await as(ctx, p.kim).get(url)).json().viewer.enrolled).toBe(false);
    const actions = await ctx.database.db
      .selectFrom('access_audit')
      .select('action')
      .where('target_user_id', '=', p.kim.id)
      .orderBy('occurred_at')
      .orderBy('id')
      .execute();
    expect(actions.map((a) => a.action)).toEqual([
      'assignment.create',
      'assignment.replace',
      'assignment.remove',
    ]);
  });

  it('keeps a learner the staff removed or ended from enrolling themselves again', async () => {
    const { courseId } = await publishedCourse(ctx, p.priya, {});
    const priya = as(ctx, p.priya);
    const sam = as(ctx, p.sam);
    const url = `/api/courses/${courseId}`;
    const blocked =
      "The course's staff ended your enrolment, so you cannot enrol yourself again. Ask an instructor of the course.";

    // Leaving of one's own accord closes nothing.
    expect((await sam.post(`${url}/enrolment`, {})).statusCode).toBe(201);
    expect((await sam.delete(`${url}/enrolment`)).statusCode).toBe(204);
    expect((await sam.post(`${url}/enrolment`, {})).statusCode).toBe(201);

    // Removed by an instructor: the course says why, and enrolling is refused in those words.
    expect((await priya.delete(`${url}/participants/${p.sam.id}`)).statusCode).toBe(204);
    expect((await sam.get(url)).json().viewer).toMatchObject({
      enrolled: false,
      canEnrol: false,
      enrolBlockedReason: blocked,
    });
    const again = await sam.post(`${url}/enrolment`, {});
    expect(again.statusCode).toBe(403);
    expect(again.json()).toEqual({ code: 'FORBIDDEN', message: blocked });

    // Enrolled again by the staff with no end: the block is lifted.
    await priya.put(`${url}/participants/${p.sam.id}`, { roles: ['course-student'] });
    expect((await sam.delete(`${url}/enrolment`)).statusCode).toBe(204);
    expect((await sam.post(`${url}/enrolment`, {})).statusCode).toBe(201);

    // Given an end by the staff: once it has passed, the learner cannot start over alone.
    await priya.put(`${url}/participants/${p.sam.id}`, {
      roles: ['course-student'],
      endsAt: new Date(ctx.clock.now() + HOUR).toISOString(),
    });
    ctx.clock.advance(2 * HOUR);
    expect((await sam.get(url)).json().viewer.enrolled).toBe(false);
    expect((await sam.post(`${url}/enrolment`, {})).json().message).toBe(blocked);
  });

  it('applies the same block when an admin changes course roles in the admin area', async () => {
    const { courseId } = await publishedCourse(ctx, p.priya, {});
    const ada = as(ctx, p.ada);
    const sam = as(ctx, p.sam);
    const url = `/api/courses/${courseId}`;
    const admin = `/api/admin/users/${p.sam.id}/assignments`;
    const contextKey = encodeURIComponent(`course:${courseId}`);
    expect((await sam.post(`${url}/enrolment`, {})).statusCode).toBe(201);

    // Removed in the admin area: the learner cannot enrol themselves again.
    expect((await ada.delete(`${admin}/${contextKey}`)).statusCode).toBe(204);
    expect((await sam.post(`${url}/enrolment`, {})).statusCode).toBe(403);

    // Made a learner again with no end there: the block is lifted.
    const put = await ada.put(admin, {
      context: { type: 'course', courseId },
      roles: ['course-student'],
      directPermissions: [],
      expiresAt: null,
    });
    expect(put.statusCode).toBe(200);
    expect((await sam.delete(`${url}/enrolment`)).statusCode).toBe(204);
    expect((await sam.post(`${url}/enrolment`, {})).statusCode).toBe(201);

    // Given another role instead of learner there: blocked again.
    await ada.put(admin, {
      context: { type: 'course', courseId },
      roles: ['course-assistant'],
      directPermissions: [],
      expiresAt: null,
    });
    await ada.delete(`${admin}/${contextKey}`);
    expect((await sam.post(`${url}/enrolment`, {})).statusCode).toBe(403);
  });

  it('copies a course with its structure, media and assignments into a new draft', async () => {
    const priya = as(ctx, p.priya);
    const { courseId, sectionId } = await publishedCourse(ctx, p.priya);
    const fileId = await upload(ctx, p.priya, 'splice.png', PNG_1X1);
    await priya.post(`/api/courses/${courseId}/lessons`, {
      sectionId,
      title: 'Pictured',
      bodyHtml: `<p><img src="/api/files/${fileId}"></p>`,
    });
    await insertAssignmentRow(ctx, { id: 'a-source', courseId });

    const copied = await priya.post(`/api/courses/${courseId}/copy`, {
      code: 'COPY-1',
      title: 'The copy',
    });
    expect(copied.statusCode).toBe(201);
    const copy = copied.json();
    expect(copy).toMatchObject({
      code: 'COPY-1',
      title: 'The copy',
      state: 'draft',
      lessonCount: 2,
      viewer: { roles: ['course-instructor'] },
    });
    expect(copy.sections[0].lessons.map((l: { title: string }) => l.title)).toEqual([
      'Lesson 1',
      'Pictured',
    ]);
    const assignments = await ctx.database.db
      .selectFrom('assignments')
      .select(['course_id', 'title', 'grades_released'])
      .where('course_id', '=', copy.id)
      .execute();
    expect(assignments).toEqual([
      { course_id: copy.id, title: 'Splice report', grades_released: 0 },
    ]);

    const team = (await priya.get(`/api/courses/${copy.id}/participants`)).json().items;
    expect(team).toMatchObject([{ id: p.priya.id, roles: ['course-instructor'] }]);
    const pictured = copy.sections[0].lessons[1].id;
    const lesson = (await priya.get(`/api/courses/${copy.id}/lessons/${pictured}`)).json();
    const copyFile = /\/api\/files\/([A-Za-z0-9_-]+)/.exec(lesson.bodyHtml)?.[1];
    expect(copyFile).toBeDefined();
    expect(copyFile).not.toBe(fileId);

    const taken = await priya.post(`/api/courses/${courseId}/copy`, { code: 'COPY-1', title: 'x' });
    expect(taken.statusCode).toBe(409);

    // The source can go; the copy's media stay.
    expect((await priya.delete(`/api/courses/${courseId}`)).statusCode).toBe(403);
    expect((await as(ctx, p.ada).delete(`/api/courses/${courseId}`)).statusCode).toBe(204);
    const src = /src="([^"]+)"/.exec(lesson.bodyHtml)?.[1]?.replace(/&amp;/g, '&') ?? '';
    const image = await ctx.app.inject({ method: 'GET', url: src });
    expect(image.statusCode).toBe(200);
    expect((await priya.get(`/api/files/${fileId}`)).statusCode).toBe(404);
  });

  it('deletes a course only without submissions or grades', async () => {
    const ada = as(ctx, p.ada);
    const { courseId } = await publishedCourse(ctx, p.priya);
    await as(ctx, p.sam).post(`/api/courses/${courseId}/enrolment`, {});
    await insertAssignmentRow(ctx, { id: 'a-1', courseId });
    await insertSubmissionRow(ctx, {
      id: 's-1',
      assignmentId: 'a-1',
      courseId,
      userId: p.sam.id,
    });
    const refused = await ada.delete(`/api/courses/${courseId}`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(
      'This course has submissions or grades; archive it instead.',
    );
    await ctx.database.db.deleteFrom('submissions').execute();
    expect((await ada.delete(`/api/courses/${courseId}`)).statusCode).toBe(204);
    expect((await ada.get(`/api/courses/${courseId}`)).statusCode).toBe(404);
    const left = await ctx.database.db
      .selectFrom('context_assignments')
      .select('user_id')
      .where('context_key', '=', `course:${courseId}`)
      .execute();
    expect(left).toEqual([]);
    expect((await ada.delete(`/api/courses/${courseId}`)).statusCode).toBe(404);
  });

  it("gives the learner's overview: courses, where to continue, work due, grades, teaching", async () => {
    const sam = as(ctx, p.sam);
    const { courseId, lessonIds } = await publishedCourse(ctx, p.priya, { title: 'Splicing' });
    await sam.post(`/api/courses/${courseId}/enrolment`, {});
    await sam.get(`/api/courses/${courseId}/lessons/${lessonIds[0]}`);
    const now = ctx.clock.now();
    await insertAssignmentRow(ctx, {
      id: 'soon',
      courseId,
      title: 'Soon',
      dueAt: new Date(now + 3 * DAY).toISOString(),
    });
    await insertAssignmentRow(ctx, {
      id: 'late',
      courseId,
      title: 'Late',
      dueAt: new Date(now - DAY).toISOString(),
    });
    await insertAssignmentRow(ctx, {
      id: 'gone',
      courseId,
      title: 'Gone',
      dueAt: new Date(now - DAY).toISOString(),
      latePolicy: 'refuse',
    });
    await insertAssignmentRow(ctx, {
      id: 'done',
      courseId,
      title: 'Done',
      dueAt: new Date(now + DAY).toISOString(),
    });
    await insertSubmissionRow(ctx, {
      id: 'sub-done',
      assignmentId: 'done',
      courseId,
      userId: p.sam.id,
    });
    await ctx.database.db
      .insertInto('grades')
      .values({
        assignment_id: 'done',
        course_id: courseId,
        user_id: p.sam.id,
        submission_id: 'sub-done',
        points: 8,
        feedback_html: '',
        graded_by: p.priya.id,
        graded_at: new Date(now).toISOString(),
        is_override: 0,
        revision: 1,
      })
      .execute();

    const overview = (await sam.get('/api/me/learning')).json();
    expect(overview.courses).toMatchObject([{ id: courseId, enrolled: true }]);
    expect(overview.continueLesson).toMatchObject({
      courseId,
      lessonId: lessonIds[0],
      courseTitle: 'Splicing',
    });
    expect(overview.dueSoon.map((d: { assignmentId: string }) => d.assignmentId)).toEqual(['soon']);
    expect(overview.overdue).toMatchObject([{ assignmentId: 'late', overdue: true }]);
    expect(overview.recentGrades).toMatchObject([
      { assignmentId: 'done', points: 8, maxPoints: 10 },
    ]);
    expect(overview.teaching).toEqual([]);

    await insertSubmissionRow(ctx, {
      id: 'sub-soon',
      assignmentId: 'soon',
      courseId,
      userId: p.sam.id,
    });
    const teacher = (await as(ctx, p.priya).get('/api/me/learning')).json();
    expect(teacher.teaching).toEqual([
      {
        courseId,
        courseTitle: 'Splicing',
        code: expect.any(String),
        state: 'published',
        learners: 1,
        toGrade: 1,
      },
    ]);
    expect(teacher.courses).toEqual([]);
  });

  it('takes a cover image and signs its URL on the cards', async () => {
    const priya = as(ctx, p.priya);
    const cover = await upload(ctx, p.priya, 'cover.png', PNG_1X1);
    const created = await priya.post('/api/courses', {
      code: 'CV-1',
      title: 'Covered',
      coverFileId: cover,
    });
    expect(created.statusCode).toBe(201);
    const course = created.json();
    expect(course.coverFileId).toBe(cover);
    expect(course.coverUrl).toMatch(new RegExp(`^/api/files/${cover}(/thumbnail)?\\?exp=`));
    const image = await ctx.app.inject({ method: 'GET', url: course.coverUrl });
    expect(image.statusCode).toBe(200);
    // Someone else's upload cannot become the cover.
    const other = await upload(ctx, p.ada, 'other.png', PNG_1X1);
    const refused = await priya.patch(`/api/courses/${course.id}`, { coverFileId: other });
    expect(refused.statusCode).toBe(404);
    // Replacing the cover removes the old one.
    const next = await upload(ctx, p.priya, 'next.png', PNG_1X1);
    const replaced = await priya.patch(`/api/courses/${course.id}`, { coverFileId: next });
    expect(replaced.json().coverFileId).toBe(next);
    expect((await priya.get(`/api/files/${cover}`)).statusCode).toBe(404);
  });
});
