/**
 * Test fixture of the assignment tests: courses and course roles written straight into the
 * database (the courses area has its own routes and tests), people signed in, uploads.
 */
import { randomBytes } from 'node:crypto';
import type { ContextAssignment, CourseRole } from '@learning-hub/core';
import { upsertAssignment } from '../../platform/access/access-repository';
import { bearer, createTestUser, signIn, type TestContext } from '../../test/helpers';

export async function insertTestCourse(
  ctx: TestContext,
  course: { id: string; code?: string; title?: string; state?: 'draft' | 'published' | 'archived' },
): Promise<string> {
  const at = new Date(ctx.clock.now()).toISOString();
  await ctx.database.db
    .insertInto('courses')
    .values({
      id: course.id,
      code: course.code ?? course.id.toUpperCase(),
      title: course.title ?? `Course ${course.id}`,
      description: '',
      department_id: null,
      created_at: at,
      updated_at: at,
      state: course.state ?? 'published',
    })
    .execute();
  return course.id;
}

export async function setCourseState(
  ctx: TestContext,
  courseId: string,
  state: 'draft' | 'published' | 'archived',
): Promise<void> {
  await ctx.database.db.updateTable('courses').set({ state }).where('id', '=', courseId).execute();
}

/** Gives a user course roles (enrolment is `course-student`), as the courses area does. */
export async function giveCourseRoles(
  ctx: TestContext,
  userId: string,
  courseId: string,
  roles: CourseRole[],
  expiresAt: string | null = null,
): Promise<void> {
  const assignment: ContextAssignment = {
    userId,
    context: { type: 'course', courseId },
    roles,
    directPermissions: [],
    assignedBy: 'test',
    assignedAt: new Date(ctx.clock.now()).toISOString(),
    expiresAt,
    isActive: true,
  };
  await upsertAssignment(ctx.database.db, assignment);
}

export interface Person {
  id: string;
  username: string;
  token: string;
  headers: Record<string, string>;
}

export async function person(
  ctx: TestContext,
  username: string,
  options: { role?: string; firstname?: string; lastname?: string } = {},
): Promise<Person> {
  const { user, password } = await createTestUser(ctx, {
    username,
    role: options.role ?? 'student',
    ...(options.firstname ? { firstname: options.firstname } : {}),
    ...(options.lastname ? { lastname: options.lastname } : {}),
  });
  const token = await signIn(ctx.app, username, password);
  return { id: user.id, username, token, headers: bearer(token) };
}

/** A multipart/form-data body with one file part, as a browser sends it. */
export function multipart(filename: string, content: Buffer | string) {
  const boundary = `----lh${randomBytes(8).toString('hex')}`;
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Uploads a file as `who` and returns its id. */
export async function upload(
  ctx: TestContext,
  who: Person,
  name: string,
  content: Buffer | string,
): Promise<string> {
  const body = multipart(name, content);
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/files',
    headers: { ...who.headers, ...body.headers },
    payload: body.payload,
  });
  if (response.statusCode !== 201) {
    throw new Error(`upload failed: ${response.statusCode} ${response.body}`);
  }
  return (response.json() as { id: string }).id;
}

/**
 * A course with an instructor and an assistant (course roles, system role student), two
 * enrolled learners, and an outsider who may view courses but is not enrolled.
 */
export async function classroom(ctx: TestContext, courseId = 'fiber-201') {
  await insertTestCourse(ctx, { id: courseId, code: 'FO-201', title: 'Fusion splicing' });
  const [teacher, assistant, alice, bob, outsider] = [
    await person(ctx, `${courseId}-teacher`, { firstname: 'Tess', lastname: 'Teacher' }),
    await person(ctx, `${courseId}-assistant`, { firstname: 'Asa', lastname: 'Assistant' }),
    await person(ctx, `${courseId}-alice`, { firstname: 'Alice', lastname: 'Archer' }),
    await person(ctx, `${courseId}-bob`, { firstname: 'Bob', lastname: 'Baker' }),
    await person(ctx, `${courseId}-outsider`, { firstname: 'Otto', lastname: 'Outsider' }),
  ];
  await giveCourseRoles(ctx, teacher.id, courseId, ['course-instructor']);
  await giveCourseRoles(ctx, assistant.id, courseId, ['course-assistant']);
  await giveCourseRoles(ctx, alice.id, courseId, ['course-student']);
  await giveCourseRoles(ctx, bob.id, courseId, ['course-student']);
  return { courseId, teacher, assistant, alice, bob, outsider };
}
