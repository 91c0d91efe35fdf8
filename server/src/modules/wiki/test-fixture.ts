/**
 * Test fixture of the wiki tests: people of two departments, a course of one of them with an
 * enrolled student, and small helpers to call the API (docs/testing.md).
 */
import type { WikiPage } from '@learning-hub/core';
import { expect } from 'vitest';
import { upsertAssignment } from '../../platform/access/access-repository';
import { insertCourse } from '../courses/course-repository';
import { multipartBody, PNG_1X1 } from '../../platform/storage/test-files';
import { bearer, createTestUser, signIn, type TestContext } from '../../test/helpers';

export const FIELD = 'field-operations';
export const SUPPORT = 'customer-support';
export const COURSE = 'splicing-101';
export const FIELD_SPACE = `department:${FIELD}`;
export const COURSE_SPACE = `course:${COURSE}`;

export interface Person {
  id: string;
  token: string;
}

export interface WikiPeople {
  /** Admin (Network Engineering). */
  ada: Person;
  /** Instructor in Field Operations. */
  priya: Person;
  /** Instructor in Customer Support. */
  omar: Person;
  /** Student in Field Operations, enrolled in COURSE. */
  sam: Person;
  /** Student in Customer Support: a user of another department, in no course. */
  kim: Person;
}

/** The people, the departments and the course. */
export async function wikiPeople(ctx: TestContext): Promise<WikiPeople> {
  const db = ctx.database.db;
  const at = new Date(ctx.clock.now()).toISOString();
  const make = async (username: string, role: string, department: string) => {
    const { user, password } = await createTestUser(ctx, {
      username,
      role,
      department,
      firstname: username[0]?.toUpperCase() + username.slice(1),
      lastname: 'Tester',
    });
    return { id: user.id, token: await signIn(ctx.app, username, password) };
  };
  const people = {
    ada: await make('ada', 'admin', 'Network Engineering'),
    priya: await make('priya', 'instructor', 'Field Operations'),
    omar: await make('omar', 'instructor', 'Customer Support'),
    sam: await make('sam', 'student', 'Field Operations'),
    kim: await make('kim', 'student', 'Customer Support'),
  };
  await insertCourse(
    db,
    { id: COURSE, code: 'SP-101', title: 'Splicing', description: '', departmentId: FIELD },
    at,
  );
  await upsertAssignment(db, {
    userId: people.sam.id,
    context: { type: 'course', courseId: COURSE },
    roles: ['course-student'],
    directPermissions: [],
    assignedBy: 'test',
    assignedAt: at,
    expiresAt: null,
    isActive: true,
  });
  return people;
}

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One API call as `who` (anonymous when null). */
export function call(
  ctx: TestContext,
  who: Person | null,
  method: Method,
  url: string,
  payload?: unknown,
) {
  return ctx.app.inject({
    method,
    url,
    headers: who ? bearer(who.token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

/** Creates a page (201 expected). */
export async function createPage(
  ctx: TestContext,
  who: Person,
  body: { title: string; space?: string; html?: string; parentId?: string | null } & Record<
    string,
    unknown
  >,
): Promise<WikiPage> {
  const response = await call(ctx, who, 'POST', '/api/wiki/pages', {
    space: 'company',
    html: '<p>Text.</p>',
    ...body,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as WikiPage;
}

/** Saves a page from a base revision (200 expected). */
export async function savePage(
  ctx: TestContext,
  who: Person,
  page: Pick<WikiPage, 'id' | 'title' | 'revision'>,
  body: { html: string; title?: string; summary?: string; status?: string },
): Promise<WikiPage> {
  const response = await call(ctx, who, 'PUT', `/api/wiki/pages/${page.id}`, {
    baseRevision: page.revision,
    title: page.title,
    ...body,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as WikiPage;
}

/** Uploads a 1×1 PNG as `who`; its file id. */
export async function uploadImage(ctx: TestContext, who: Person): Promise<string> {
  const body = multipartBody('trace.png', PNG_1X1, 'image/png');
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/files',
    headers: { ...bearer(who.token), ...body.headers },
    payload: body.payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}
