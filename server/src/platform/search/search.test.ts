/**
 * GET /api/search (docs/search.md): prefixes and stems, ranking and highlights, the index kept
 * in step with every write of courses and lessons, results only of what the caller may open
 * (filtered in SQL), paging, and any text answered cleanly on both databases.
 */
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { as, people, publishedCourse } from '../../modules/courses/test-support';
import { searchTerms, toHighlighted } from './terms';

const available = await testDatabaseAvailable();

interface Result {
  type: string;
  id: string;
  title: { text: string; highlights: [number, number][] };
  snippet: { text: string; highlights: [number, number][] };
  courseId: string | null;
  lessonId: string | null;
  courseTitle: string | null;
  rank: number;
}

const marked = (h: { text: string; highlights: [number, number][] }) =>
  h.highlights.map(([a, b]) => h.text.slice(a, b).toLowerCase());

describe('search terms', () => {
  it('keeps only words, never query syntax', () => {
    expect(searchTerms('"splice" NEAR(-fiber* OR x) : ^a')).toEqual([
      'splice',
      'near',
      'fiber',
      'or',
      'x',
      'a',
    ]);
    expect(searchTerms('  ** "" -- () ')).toEqual([]);
    expect(searchTerms('Éclair ÉCLAIR')).toEqual(['éclair']);
    expect(toHighlighted('a \uE000b\uE001 c')).toEqual({ text: 'a b c', highlights: [[2, 3]] });
  });
});

describe.skipIf(!available)(`search (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let p: Awaited<ReturnType<typeof people>>;
  beforeEach(async () => {
    // The property test below searches hundreds of times in a few seconds as one person.
    ctx = await createTestApp({ env: { SEARCH_RATE_LIMIT_PER_MINUTE: '100000' } });
    p = await people(ctx);
  });
  afterEach(async () => {
    await ctx.close();
  });

  const search = async (who: keyof typeof p, query: string) => {
    const response = await as(ctx, p[who]).get(`/api/search?${query}`);
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { items: Result[]; total: number; page: number; pageSize: number };
  };

  it('finds courses and lessons by prefix and stem, ranked, with highlights', async () => {
    const priya = as(ctx, p.priya);
    const { courseId, sectionId } = await publishedCourse(ctx, p.priya, {
      code: 'FO-150',
      title: 'Fusion splicing',
      summaryHtml: '<p>Joining <b>optical</b> fibres with an arc.</p>',
    });
    const lesson = (
      await priya.post(`/api/courses/${courseId}/lessons`, {
        sectionId,
        title: 'Cleaving',
        bodyHtml:
          '<p>Before splicing, the fibre is <strong>cleaved</strong> at a right angle. <script>x</script></p>',
      })
    ).json() as { id: string };

    // Stem: "splices" finds "splicing"; prefix: "fusi" finds "fusion".
    const stems = await search('ada', 'q=splices');
    expect(stems.items.map((r) => r.type)).toEqual(['course', 'lesson']);
    expect(stems.items[0]).toMatchObject({ id: courseId, courseId, lessonId: null });
    expect(marked(stems.items[0]!.title)).toEqual(['splicing']);
    expect(stems.items[1]).toMatchObject({
      id: lesson.id,
      courseId,
      lessonId: lesson.id,
      courseTitle: 'Fusion splicing',
    });
    expect(stems.items[1]!.snippet.text).toContain('the fibre is cleaved');
    expect(stems.items[1]!.snippet.text).not.toMatch(/<|strong/);
    expect(marked(stems.items[1]!.snippet)).toEqual(['splicing']);
    expect(stems.items[0]!.rank).toBeGreaterThanOrEqual(stems.items[1]!.rank);

    expect((await search('ada', 'q=fusi')).items.map((r) => r.id)).toEqual([courseId]);
    expect((await search('ada', 'q=fo-150')).items.map((r) => r.id)).toEqual([courseId]);
    expect((await search('ada', 'q=optic%20arc')).total).toBe(1);
    expect((await search('ada', 'q=cleav&type=lesson')).items.map((r) => r.id)).toEqual([
      lesson.id,
    ]);
    expect((await search('ada', 'q=cleav&type=course')).total).toBe(0);
    expect((await search('ada', 'q=script')).total).toBe(0);
  });

  it('follows every write in the same transaction: edits, deletes, copies', async () => {
    const priya = as(ctx, p.priya);
    const { courseId, sectionId, lessonIds } = await publishedCourse(ctx, p.priya, {
      title: 'Trenching',
    });
    const lessonUrl = `/api/courses/${courseId}/lessons/${lessonIds[0]}`;
    expect(
      (await priya.patch(lessonUrl, { title: 'Backfill', bodyHtml: '<p>Gravel</p>', revision: 1 }))
        .statusCode,
    ).toBe(200);
    expect((await search('priya', 'q=gravel')).items.map((r) => r.id)).toEqual([lessonIds[0]]);
    expect((await search('priya', 'q=part')).total).toBe(0);

    const course = (await priya.get(`/api/courses/${courseId}`)).json() as { revision: number };
    await priya.patch(`/api/courses/${courseId}`, { title: 'Ducting', revision: course.revision });
    expect((await search('priya', 'q=trench')).total).toBe(0);
    expect((await search('priya', 'q=duct')).total).toBe(1);

    const copy = (
      await priya.post(`/api/courses/${courseId}/copy`, { code: 'CP-1', title: 'Ducting copied' })
    ).json() as { id: string };
    expect((await search('priya', 'q=gravel')).total).toBe(2);
    expect((await search('priya', 'q=copied')).items.map((r) => r.id)).toEqual([copy.id]);

    const extra = (
      await priya.post(`/api/courses/${courseId}/lessons`, { sectionId, title: 'Gravel two' })
    ).json() as { id: string };
    expect((await priya.delete(`/api/courses/${courseId}/lessons/${extra.id}`)).statusCode).toBe(
      204,
    );
    expect((await priya.delete(`/api/courses/${courseId}/sections/${sectionId}`)).statusCode).toBe(
      204,
    );
    expect((await search('priya', 'q=gravel')).items.map((r) => r.courseId)).toEqual([copy.id]);
    expect((await as(ctx, p.ada).delete(`/api/courses/${copy.id}`)).statusCode).toBe(204);
    expect((await search('priya', 'q=gravel')).total).toBe(0);
    const { rows } = await ctx.database.db
      .selectFrom('search_documents')
      .select('doc_id')
      .where('course_id', '=', copy.id)
      .execute()
      .then((r) => ({ rows: r }));
    expect(rows).toEqual([]);
  });

  it('shows only what the caller may open: drafts to editors, lessons to participants', async () => {
    const priya = as(ctx, p.priya);
    const open = await publishedCourse(ctx, p.priya, {
      title: 'Splicing open',
      enrolmentMode: 'open',
    });
    const other = await publishedCourse(ctx, p.priya, {
      title: 'Splicing other',
      enrolmentMode: 'open',
    });
    const draft = (
      await priya.post('/api/courses', { code: 'DR-1', title: 'Splicing draft' })
    ).json() as { id: string };
    const section = (
      await priya.post(`/api/courses/${draft.id}/sections`, { title: 'S' })
    ).json() as { id: string };
    await priya.post(`/api/courses/${draft.id}/lessons`, {
      sectionId: section.id,
      title: 'Lesson 9',
    });
    expect(
      (await as(ctx, p.sam).post(`/api/courses/${open.courseId}/enrolment`, {})).statusCode,
    ).toBe(201);

    // Sam (a learner of `open`): both published courses, only the lessons of his course.
    const sam = await search('sam', 'q=splicing');
    expect(sam.items.map((r) => r.id).sort()).toEqual([open.courseId, other.courseId].sort());
    const samLessons = await search('sam', 'q=lesson&type=lesson');
    expect(samLessons.items.map((r) => r.courseId)).toEqual([open.courseId]);
    // Kim (enrolled nowhere): the published courses, no lessons; nobody but editors the draft.
    expect((await search('kim', 'q=lesson')).total).toBe(0);
    expect((await search('kim', 'q=draft')).total).toBe(0);
    expect((await search('kim', 'q=splicing')).total).toBe(2);
    // Priya teaches all three; ada (admin) sees everything.
    expect((await search('priya', 'q=splicing')).total).toBe(3);
    expect((await search('priya', 'q=lesson&type=lesson')).total).toBe(3);
    expect((await search('ada', 'q=draft')).items.map((r) => r.id)).toEqual([draft.id]);
  });

  it('pages, and answers empty, symbol-only, operator and arbitrary queries cleanly', async () => {
    for (let i = 0; i < 3; i += 1) {
      await publishedCourse(ctx, p.priya, { title: `Splicing ${i}` });
    }
    const first = await search('ada', 'q=splicing&pageSize=2');
    expect(first).toMatchObject({ total: 3, page: 1, pageSize: 2 });
    expect(first.items).toHaveLength(2);
    const second = await search('ada', 'q=splicing&pageSize=2&page=2');
    expect(second.items).toHaveLength(1);
    expect(second.total).toBe(3);
    expect((await search('ada', 'q=splicing&pageSize=2&page=9')).total).toBe(3);
    for (const q of [
      '',
      '%22',
      '*',
      'NEAR',
      '-',
      '%22%22*',
      'NEAR(a%20b)',
      'a%20OR%20b',
      ':*',
      "'",
      '(',
    ]) {
      const answer = await search('ada', `q=${q}`);
      expect(answer.total).toBeGreaterThanOrEqual(0);
    }
    expect((await search('ada', 'q=%22splicing%22*%20-')).total).toBe(3);
    const long = await as(ctx, p.ada).get(`/api/search?q=${'a'.repeat(201)}`);
    expect(long.statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/search?q=x' })).statusCode).toBe(401);

    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 60, unit: 'grapheme' }), async (q) => {
        const response = await as(ctx, p.ada).get(`/api/search?q=${encodeURIComponent(q)}`);
        expect(response.statusCode, `${JSON.stringify(q)}: ${response.body}`).toBe(200);
      }),
      { numRuns: 150 },
    );
  });
});

describe.skipIf(!available)(`search limits per person (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  afterEach(async () => {
    await ctx.close();
  });

  it('answers 429 with Retry-After beyond the searches one person may run at once, never to another person', async () => {
    ctx = await createTestApp({ env: { SEARCH_MAX_CONCURRENT_PER_USER: '1' } });
    const p = await people(ctx);
    await publishedCourse(ctx, p.priya, { code: 'FO-151', title: 'Splicing basics' });
    const answers = await Promise.all([
      ...Array.from({ length: 6 }, () => as(ctx, p.sam).get('/api/search?q=splicing')),
      as(ctx, p.priya).get('/api/search?q=splicing'),
    ]);
    const sams = answers.slice(0, 6);
    const priyas = answers[6];
    // Whichever got in first ran; the others that came while it ran were refused.
    expect(sams.some((r) => r?.statusCode === 200)).toBe(true);
    const refused = sams.filter((r) => r?.statusCode === 429);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(r?.headers['retry-after']).toBe('1');
      expect(r?.json()).toMatchObject({
        code: 'RATE_LIMITED',
        message: 'A search of yours is still running. Try again in a moment.',
      });
    }
    expect(sams.every((r) => r?.statusCode === 200 || r?.statusCode === 429)).toBe(true);
    expect(priyas?.statusCode).toBe(200);
    // Once the first ones are done, the same person searches again.
    expect((await as(ctx, p.sam).get('/api/search?q=splicing')).statusCode).toBe(200);
  });

  it('answers 429 with Retry-After past the searches one person may start in a minute', async () => {
    ctx = await createTestApp({ env: { SEARCH_RATE_LIMIT_PER_MINUTE: '3' } });
    const p = await people(ctx);
    for (let i = 0; i < 3; i += 1) {
      expect((await as(ctx, p.sam).get('/api/search?q=fiber')).statusCode).toBe(200);
    }
    const refused = await as(ctx, p.sam).get('/api/search?q=fiber');
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json()).toMatchObject({ code: 'RATE_LIMITED' });
    // Counted per person, not per address: another person from the same address is not refused.
    expect((await as(ctx, p.priya).get('/api/search?q=fiber')).statusCode).toBe(200);
  });
});
