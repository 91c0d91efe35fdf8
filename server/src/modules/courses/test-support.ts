/** Shared set-up of the classroom course tests: people, requests, uploads, a course to work on. */
import { randomBytes } from 'node:crypto';
import type { TestContext } from '../../test/helpers';
import { bearer, createTestUser, signIn } from '../../test/helpers';

export interface Person {
  id: string;
  token: string;
}

/** An admin (ada), an instructor (priya) and three students (sam, kim, lee). */
export async function people(ctx: TestContext) {
  const make = async (username: string, role: string) => {
    const { user, password } = await createTestUser(ctx, {
      username,
      role,
      firstname: username[0]?.toUpperCase() + username.slice(1),
    });
    return { id: user.id, token: await signIn(ctx.app, username, password) };
  };
  return {
    ada: await make('ada', 'admin'),
    priya: await make('priya', 'instructor'),
    sam: await make('sam', 'student'),
    kim: await make('kim', 'student'),
    lee: await make('lee', 'student'),
  };
}

/** Requests as one person. */
export function as(ctx: TestContext, who: Person) {
  const send = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: bearer(who.token),
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  return {
    get: (url: string) => send('GET', url),
    post: (url: string, payload: unknown = {}) => send('POST', url, payload),
    put: (url: string, payload: unknown) => send('PUT', url, payload),
    patch: (url: string, payload: unknown) => send('PATCH', url, payload),
    delete: (url: string) => send('DELETE', url),
  };
}

/** Uploads a file through POST /api/files as `who`; returns its id. */
export async function upload(ctx: TestContext, who: Person, name: string, content: Buffer) {
  const boundary = `----lh${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/files',
    headers: { ...bearer(who.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  if (response.statusCode !== 201) throw new Error(`upload failed: ${response.body}`);
  return (response.json() as { id: string }).id;
}

/**
 * A published course made through the API by `teacher`, with one section and `lessons` lessons;
 * returns the ids.
 */
export async function publishedCourse(
  ctx: TestContext,
  teacher: Person,
  fields: Record<string, unknown> = {},
  lessons = 1,
) {
  const api = as(ctx, teacher);
  const created = await api.post('/api/courses', {
    code: `C-${randomBytes(3).toString('hex')}`,
    title: 'Fusion splicing',
    ...fields,
  });
  if (created.statusCode !== 201) throw new Error(`create failed: ${created.body}`);
  const course = created.json() as { id: string; revision: number };
  const section = (
    await api.post(`/api/courses/${course.id}/sections`, { title: 'Basics' })
  ).json() as { id: string };
  const lessonIds: string[] = [];
  for (let i = 0; i < lessons; i += 1) {
    const lesson = await api.post(`/api/courses/${course.id}/lessons`, {
      sectionId: section.id,
      title: `Lesson ${i + 1}`,
      bodyHtml: `<p>Part ${i + 1}</p>`,
    });
    lessonIds.push((lesson.json() as { id: string }).id);
  }
  const published = await api.patch(`/api/courses/${course.id}`, { state: 'published' });
  if (published.statusCode !== 200) throw new Error(`publish failed: ${published.body}`);
  return { courseId: course.id, sectionId: section.id, lessonIds };
}

/** An assignment row written directly (the assignments area owns the table). */
export async function insertAssignmentRow(
  ctx: TestContext,
  row: { id: string; courseId: string; dueAt?: string | null; latePolicy?: string; title?: string },
) {
  const at = new Date(ctx.clock.now()).toISOString();
  await ctx.database.db
    .insertInto('assignments')
    .values({
      id: row.id,
      course_id: row.courseId,
      title: row.title ?? 'Splice report',
      instructions_html: '<p>Write it up.</p>',
      due_at: row.dueAt ?? null,
      points: 10,
      submission_kinds: '["text"]',
      file_kinds: '[]',
      max_file_bytes: 1_000_000,
      late_policy: row.latePolicy ?? 'accept',
      max_attempts: null,
      grades_released: 1,
      position: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

/** A handed-in submission row written directly. */
export async function insertSubmissionRow(
  ctx: TestContext,
  row: { id: string; assignmentId: string; courseId: string; userId: string; attempt?: number },
) {
  const at = new Date(ctx.clock.now()).toISOString();
  await ctx.database.db
    .insertInto('submissions')
    .values({
      id: row.id,
      assignment_id: row.assignmentId,
      course_id: row.courseId,
      user_id: row.userId,
      attempt: row.attempt ?? 1,
      status: 'submitted',
      text_html: '<p>Done.</p>',
      submitted_at: at,
      is_late: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
}
