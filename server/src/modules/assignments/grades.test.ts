/**
 * Grades: overrides from the gradebook, the gradebook's rows, totals and what a learner sees of
 * it, concurrent grading, and the CSV export (formula injection neutralised, RFC 4180 quoting,
 * a course of 2,500 learners exported whole).
 */
import { randomUUID } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { classroom, giveCourseRoles, person, type Person } from './test-fixture';

const available = await testDatabaseAvailable();
/** Setting up signs several people in (password hashing) on a loaded machine. */
const SETUP_TIMEOUT_MS = 60_000;
const HOUR = 3_600_000;

/** RFC 4180 parsing (quoted cells, doubled quotes, CRLF), to read the export back. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += c;
  }
  if (cell !== '' || row.length > 0) throw new Error('the CSV does not end with CRLF');
  return rows;
}

describe.skipIf(!available)(`assignments: grades and the gradebook (${TEST_DB_KIND})`, () => {
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

  async function assignment(fields: Record<string, unknown>): Promise<string> {
    const created = await call(room.teacher, 'POST', `/api/courses/${room.courseId}/assignments`, {
      title: 'Work',
      ...fields,
    });
    expect(created.statusCode, created.body).toBe(201);
    return (created.json() as { id: string }).id;
  }

  it('overrides, totals over the graded work, and shows a learner only their released row', async () => {
    const a1 = await assignment({
      title: 'Splices',
      points: 10,
      dueAt: new Date(ctx.clock.now() + HOUR).toISOString(),
    });
    const a2 = await assignment({ title: 'Trace', points: 20 });
    ctx.clock.advance(2 * HOUR);
    const work = await call(room.alice, 'POST', `/api/assignments/${a1}/submissions`, {
      textHtml: '<p>late</p>',
      submit: true,
    });
    expect(work.json().late).toBe(true);
    await call(room.assistant, 'PUT', `/api/submissions/${work.json().id}/grade`, { points: 8 });

    const url = (assignmentId: string, userId: string) =>
      `/api/courses/${room.courseId}/grades/${assignmentId}/${userId}`;
    const override = await call(room.teacher, 'PUT', url(a2, room.bob.id), {
      points: 15,
      feedbackHtml: '<p>From the field check.</p><iframe src="https://x"></iframe>',
    });
    expect(override.statusCode, override.body).toBe(200);
    expect(override.json()).toMatchObject({
      override: true,
      submissionId: null,
      points: 15,
      maxPoints: 20,
      revision: 1,
      feedbackHtml: '<p>From the field check.</p>',
    });
    expect((await call(room.teacher, 'PUT', url(a2, room.bob.id), { points: 21 })).json()).toEqual({
      code: 'BAD_REQUEST',
      message: 'Points cannot be more than 20.',
    });
    // Points have at most two decimals, in the gradebook and in the grader alike.
    const precise = await call(room.teacher, 'PUT', url(a2, room.bob.id), { points: 12.345 });
    expect(precise.statusCode).toBe(400);
    expect(precise.json().message).toContain('Points can have at most two decimals');
    const regraded = await call(room.assistant, 'PUT', `/api/submissions/${work.json().id}/grade`, {
      points: 8.125,
    });
    expect(regraded.statusCode).toBe(400);
    expect(
      (await call(room.teacher, 'PUT', url(a2, room.bob.id), { points: 14.29 })).json(),
    ).toMatchObject({ points: 14.29 });
    await call(room.teacher, 'PUT', url(a2, room.bob.id), { points: 15 });
    const stranger = await call(room.teacher, 'PUT', url(a2, room.outsider.id), { points: 1 });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().message).toBe('This person is not a learner in this course.');
    expect(
      (await call(room.assistant, 'PUT', url(a2, room.bob.id), { points: 1 })).json().message,
    ).toBe('Missing required permission: grade.edit');

    const book = await call(room.teacher, 'GET', `/api/courses/${room.courseId}/grades`);
    expect(book.statusCode).toBe(200);
    expect(book.json().assignments.map((a: { title: string }) => a.title)).toEqual([
      'Splices',
      'Trace',
    ]);
    const rows = book.json().items as {
      username: string;
      name: string;
      grades: Record<string, unknown>;
      totalPoints: number | null;
      percent: number | null;
    }[];
    expect(rows).toEqual([
      {
        userId: room.alice.id,
        username: room.alice.username,
        name: 'Alice Archer',
        grades: {
          [a1]: { points: 8, override: false, late: true, submissionId: work.json().id },
          [a2]: null,
        },
        totalPoints: 8,
        percent: 80,
      },
      {
        userId: room.bob.id,
        username: room.bob.username,
        name: 'Bob Baker',
        grades: {
          [a1]: null,
          [a2]: { points: 15, override: true, late: false, submissionId: null },
        },
        totalPoints: 15,
        percent: 75,
      },
    ]);
    const searched = await call(
      room.teacher,
      'GET',
      `/api/courses/${room.courseId}/grades?search=bak`,
    );
    expect(searched.json().items.map((r: { name: string }) => r.name)).toEqual(['Bob Baker']);
    const paged = await call(
      room.teacher,
      'GET',
      `/api/courses/${room.courseId}/grades?page=2&pageSize=1`,
    );
    expect(paged.json()).toMatchObject({ total: 2, page: 2, pageSize: 1 });
    expect(paged.json().items.map((r: { name: string }) => r.name)).toEqual(['Bob Baker']);

    // Bob: his row only, nothing until released.
    const own = await call(room.bob, 'GET', `/api/courses/${room.courseId}/grades`);
    expect(own.json().items).toEqual([
      expect.objectContaining({ userId: room.bob.id, totalPoints: null, percent: null }),
    ]);
    await call(room.teacher, 'PATCH', `/api/assignments/${a2}`, {
      gradesReleased: true,
      revision: 1,
    });
    const released = await call(room.bob, 'GET', `/api/courses/${room.courseId}/grades`);
    expect(released.json().items[0]).toMatchObject({ totalPoints: 15, percent: 75 });

    // Someone outside the course sees no gradebook (its assignment list included), as with the
    // course's assignments.
    const outsider = await call(room.outsider, 'GET', `/api/courses/${room.courseId}/grades`);
    expect(outsider.statusCode).toBe(403);
    expect(outsider.json()).toEqual({
      code: 'FORBIDDEN',
      message: 'Only the participants of this course can open its assignments.',
    });

    // An override after the work was handed in settles it; work handed in after it waits again.
    expect((await call(room.teacher, 'GET', `/api/assignments/${a2}`)).json().toGrade).toBe(0);
    ctx.clock.advance(1000);
    await call(room.bob, 'POST', `/api/assignments/${a2}/submissions`, {
      textHtml: '<p>now properly</p>',
      submit: true,
    });
    expect((await call(room.teacher, 'GET', `/api/assignments/${a2}`)).json().toGrade).toBe(1);
    // Lowering the points below a grade given is refused.
    const lower = await call(room.teacher, 'PATCH', `/api/assignments/${a2}`, {
      points: 10,
      revision: 2,
    });
    expect(lower.statusCode).toBe(409);
  });

  it('keeps revisions unique when graders grade the same work at once', async () => {
    const id = await assignment({});
    const work = await call(room.alice, 'POST', `/api/assignments/${id}/submissions`, {
      textHtml: '<p>x</p>',
      submit: true,
    });
    const results = await Promise.all(
      [50, 60, 70, 80].map((points, i) =>
        call(
          i % 2 ? room.teacher : room.assistant,
          'PUT',
          `/api/submissions/${work.json().id}/grade`,
          {
            points,
          },
        ),
      ),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    for (const r of results.filter((x) => x.statusCode !== 200)) {
      expect(r.statusCode).toBe(409);
      expect(r.json().message).toBe(
        'Someone else graded this at the same moment. Reload and try again.',
      );
    }
    expect(ok.length).toBeGreaterThan(0);
    const history = await call(
      room.teacher,
      'GET',
      `/api/assignments/${id}/grades/${room.alice.id}/history`,
    );
    const revisions = history.json().items.map((g: { revision: number }) => g.revision);
    expect(revisions).toEqual(Array.from({ length: ok.length }, (_, i) => ok.length - i));
    const current = await ctx.database.db
      .selectFrom('grades')
      .select(['revision', 'points'])
      .where('assignment_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(current.revision)).toBe(ok.length);
    expect(Number(current.points)).toBe(history.json().items[0].points);
  });

  it('exports CSV with formulas neutralised and quoting by RFC 4180', async () => {
    const exporter = await person(ctx, 'grade-exporter', { role: 'instructor' });
    const id = await assignment({ title: '=cmd|" /C calc"!A0', points: 50 });
    const names: [string, string][] = [
      ['=HYPERLINK("http://evil")', 'Smith'],
      ['+1', '-2'],
      ['@SUM(A1)', '\tTab'],
      ['Comma, "quoted"', 'Multi\nLine'],
      ['Ann;=1+1', 'Lee,+2\n@x'],
    ];
    for (const [i, [firstname, lastname]] of names.entries()) {
      const learner = await person(ctx, `csv-learner-${i}`, { firstname, lastname });
      await giveCourseRoles(ctx, learner.id, room.courseId, ['course-student']);
    }
    const work = await call(room.alice, 'POST', `/api/assignments/${id}/submissions`, {
      textHtml: '<p>x</p>',
      submit: true,
    });
    await call(room.assistant, 'PUT', `/api/submissions/${work.json().id}/grade`, { points: 45 });

    // course-instructor holds no grade.export; a learner neither.
    expect(
      (await call(room.teacher, 'GET', `/api/courses/${room.courseId}/grades.csv`)).statusCode,
    ).toBe(403);
    expect(
      (await call(room.alice, 'GET', `/api/courses/${room.courseId}/grades.csv`)).statusCode,
    ).toBe(403);
    const response = await call(exporter, 'GET', `/api/courses/${room.courseId}/grades.csv`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="FO-201-grades.csv"',
    );
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const rows = parseCsv(response.rawPayload.subarray(3).toString('utf8'));
    expect(rows[0]).toEqual([
      'Username',
      'First name',
      'Last name',
      `'=cmd|" /C calc"!A0 (50)`,
      'Total',
      'Percent',
    ]);
    const byUser = new Map(rows.slice(1).map((r) => [r[0], r]));
    expect(byUser.get(room.alice.username)).toEqual([
      room.alice.username,
      'Alice',
      'Archer',
      '45',
      '45',
      '90',
    ]);
    expect(byUser.get(room.bob.username)?.slice(3)).toEqual(['', '', '']);
    expect(byUser.get('csv-learner-0')?.slice(1, 3)).toEqual([
      `'=HYPERLINK("http://evil")`,
      'Smith',
    ]);
    expect(byUser.get('csv-learner-1')?.slice(1, 3)).toEqual(["'+1", "'-2"]);
    expect(byUser.get('csv-learner-2')?.slice(1, 3)).toEqual(["'@SUM(A1)", "'\tTab"]);
    expect(byUser.get('csv-learner-3')?.slice(1, 3)).toEqual(['Comma, "quoted"', 'Multi\nLine']);
    // A cell a spreadsheet splitting on `;` (or on what follows a comma or line break) would
    // start is neutralised too.
    expect(byUser.get('csv-learner-4')?.slice(1, 3)).toEqual(["Ann;'=1+1", "Lee,'+2\n'@x"]);
    expect(rows).toHaveLength(1 + 7);
    // No cell, nor any part of one after a separator, that a spreadsheet would evaluate.
    for (const row of rows) {
      for (const cell of row) expect(cell).not.toMatch(/(^|[;,\t\r\n])[=+\-@]/);
    }
    // Every text cell is quoted; numbers are written as they are.
    const text = response.rawPayload.subarray(3).toString('utf8');
    expect(text.split('\r\n')[0]).toMatch(/^"Username","First name","Last name",/);
    expect(text).toContain(`"${room.alice.username}","Alice","Archer",45,45,90\r\n`);
  });

  it('streams a course of 2,500 learners whole', async () => {
    const admin = await person(ctx, 'export-admin', { role: 'admin' });
    const id = await assignment({ title: 'Bulk', points: 10 });
    const db = ctx.database.db;
    const at = new Date(ctx.clock.now()).toISOString();
    const total = 2500;
    const users = Array.from({ length: total }, (_, i) => ({
      id: randomUUID(),
      username: `bulk${String(i).padStart(5, '0')}`,
    }));
    for (let i = 0; i < users.length; i += 250) {
      const chunk = users.slice(i, i + 250);
      await db
        .insertInto('users')
        .values(
          chunk.map((u) => ({
            id: u.id,
            username: u.username,
            username_key: u.username,
            email: null,
            firstname: 'Bulk',
            lastname: u.username,
            role: 'student',
            department_id: null,
            avatar: null,
            password_hash: null,
            auth_method: 'local',
            last_login: null,
            is_active: 1,
            is_default_password: 0,
            must_change_password: 0,
            is_super_admin: 0,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
      await db
        .insertInto('context_assignments')
        .values(
          chunk.map((u) => ({
            user_id: u.id,
            context_key: `course:${room.courseId}`,
            context_type: 'course',
            roles: '["course-student"]',
            direct_permissions: '[]',
            assigned_by: 'test',
            assigned_at: at,
            expires_at: null,
            is_active: 1,
          })),
        )
        .execute();
      // Every tenth learner has a grade.
      const graded = chunk.filter((_, k) => k % 10 === 0);
      await db
        .insertInto('grades')
        .values(
          graded.map((u) => ({
            assignment_id: id,
            course_id: room.courseId,
            user_id: u.id,
            submission_id: null,
            points: 7,
            feedback_html: '',
            graded_by: room.teacher.id,
            graded_at: at,
            is_override: 1,
            revision: 1,
          })),
        )
        .execute();
    }
    // An ended enrolment is not in the export.
    await giveCourseRoles(ctx, room.bob.id, room.courseId, ['course-student'], at);
    ctx.clock.advance(1);

    const response = await call(admin, 'GET', `/api/courses/${room.courseId}/grades.csv`);
    expect(response.statusCode).toBe(200);
    const rows = parseCsv(response.rawPayload.subarray(3).toString('utf8'));
    expect(rows[0]).toEqual([
      'Username',
      'First name',
      'Last name',
      'Bulk (10)',
      'Total',
      'Percent',
    ]);
    const body = rows.slice(1);
    expect(body).toHaveLength(total + 1); // the bulk learners and Alice
    const usernames = body.map((r) => r[0] as string);
    expect(new Set(usernames).size).toBe(usernames.length);
    expect(usernames).toEqual([...usernames].sort());
    expect(usernames).not.toContain(room.bob.username);
    expect(body.filter((r) => r[3] === '7')).toHaveLength(total / 10);
    expect(body.find((r) => r[0] === 'bulk00010')?.slice(3)).toEqual(['7', '7', '70']);
    expect(body.find((r) => r[0] === 'bulk00011')?.slice(3)).toEqual(['', '', '']);
  }, 60_000);
});
