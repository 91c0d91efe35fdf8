/**
 * Set-up for the classroom browser tests (docs/classroom.md): everything that is not the thing a
 * test is about is made through the HTTP API (courses, sections, lessons, assignments,
 * enrolments, submissions, grades), as the signed-in user it belongs to.
 */
import type {
  AssignmentCreate,
  AssignmentDetail,
  CourseCreate,
  CourseDetail,
  Grade,
  Lesson,
  Section,
  StoredFile,
  Submission,
} from '@learning-hub/core';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, createAccount, roleSession, uniqueName } from '../support/fixtures';

/** A signed-in API client: the request context and the user's bearer token. */
export class Api {
  constructor(
    readonly request: APIRequestContext,
    readonly token: string,
  ) {}

  private async call<T>(method: string, url: string, data?: unknown): Promise<T> {
    const response = await this.request.fetch(url, {
      method,
      headers: { authorization: `Bearer ${this.token}` },
      ...(data === undefined ? {} : { data }),
    });
    const text = await response.text();
    expect(response.ok(), `${method} ${url} → ${response.status()} ${text}`).toBe(true);
    return (text ? JSON.parse(text) : undefined) as T;
  }

  get = <T>(url: string) => this.call<T>('GET', url);
  post = <T>(url: string, data: unknown = {}) => this.call<T>('POST', url, data);
  put = <T>(url: string, data: unknown) => this.call<T>('PUT', url, data);
  patch = <T>(url: string, data: unknown) => this.call<T>('PATCH', url, data);

  /** POST /api/files (multipart, one file part). */
  async upload(name: string, mimeType: string, buffer: Buffer): Promise<StoredFile> {
    const response = await this.request.post('/api/files', {
      headers: { authorization: `Bearer ${this.token}` },
      multipart: { file: { name, mimeType, buffer } },
    });
    expect(response.status(), await response.text()).toBe(201);
    return (await response.json()) as StoredFile;
  }
}

export async function apiAs(
  request: APIRequestContext,
  username: string,
  password: string,
): Promise<Api> {
  const login = await apiSignIn(request, username, password);
  return new Api(request, login.token);
}

/** The demo instructor, on the worker's shared session (support/fixtures.ts, roleSession). */
export const instructorApi = async (request: APIRequestContext) =>
  new Api(request, (await roleSession(request, 'instructor')).token);

/** A fresh student account (the real admin CLI), so every test has its own learner. */
export function newStudent(prefix = 'learner'): {
  username: string;
  password: string;
  name: string;
} {
  const account = createAccount({ username: uniqueName(prefix), password: 'learning-fibre-42' });
  // createAccount names everyone Erin Test.
  return { ...account, name: 'Erin Test' };
}

/** A small valid PDF (one page, one line of text), made here so no fixture file is needed. */
export function minimalPdf(text = 'Splice report'): Buffer {
  const stream = `BT /F1 18 Tf 40 100 Td (${text}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 144] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export interface BuiltCourse {
  course: CourseDetail;
  sections: Section[];
  lessons: Lesson[];
  assignment: AssignmentDetail | null;
}

/**
 * A course through the API as the given editor: two sections with the given lessons, an optional
 * assignment, published unless `draft`.
 */
export async function buildCourse(
  api: Api,
  options: {
    title?: string;
    create?: Partial<CourseCreate>;
    lessons?: { section: 0 | 1; title: string; bodyHtml: string }[];
    assignment?: AssignmentCreate | null;
    draft?: boolean;
  } = {},
): Promise<BuiltCourse> {
  const code = uniqueName('E2E')
    .replace(/[^A-Za-z0-9-]/g, '')
    .slice(-40);
  const created = await api.post<CourseDetail>('/api/courses', {
    code,
    title: options.title ?? `Course ${code}`,
    summaryHtml: '<p>Set up by the browser tests.</p>',
    ...options.create,
  });
  const sections = [
    await api.post<Section>(`/api/courses/${created.id}/sections`, { title: 'Getting started' }),
    await api.post<Section>(`/api/courses/${created.id}/sections`, { title: 'In the field' }),
  ];
  const lessons: Lesson[] = [];
  for (const l of options.lessons ?? [
    { section: 0, title: 'Cleaving the fibre', bodyHtml: '<p>Score and break the fibre.</p>' },
    { section: 1, title: 'Fusing the splice', bodyHtml: '<p>Align the cores and fuse.</p>' },
  ]) {
    lessons.push(
      await api.post<Lesson>(`/api/courses/${created.id}/lessons`, {
        sectionId: sections[l.section]!.id,
        title: l.title,
        bodyHtml: l.bodyHtml,
      }),
    );
  }
  const assignment =
    options.assignment === null
      ? null
      : await api.post<AssignmentDetail>(
          `/api/courses/${created.id}/assignments`,
          options.assignment ?? {
            title: 'Splice report',
            instructionsHtml: '<p>Hand in your splice report as a PDF.</p>',
            points: 20,
            submissionKinds: ['file'],
            fileKinds: ['pdf'],
          },
        );
  const course = options.draft
    ? await api.get<CourseDetail>(`/api/courses/${created.id}`)
    : await api.patch<CourseDetail>(`/api/courses/${created.id}`, { state: 'published' });
  return { course, sections, lessons, assignment };
}

/** The learner hands in the assignment through the API (a PDF and/or a text answer). */
export async function handIn(
  api: Api,
  assignmentId: string,
  answer: { pdfName?: string; textHtml?: string },
): Promise<Submission> {
  const fileIds = answer.pdfName
    ? [(await api.upload(answer.pdfName, 'application/pdf', minimalPdf())).id]
    : undefined;
  return api.post<Submission>(`/api/assignments/${assignmentId}/submissions`, {
    ...(answer.textHtml === undefined ? {} : { textHtml: answer.textHtml }),
    ...(fileIds ? { fileIds } : {}),
    submit: true,
  });
}

export const grade = (api: Api, submissionId: string, points: number, feedbackHtml: string) =>
  api.put<Grade>(`/api/submissions/${submissionId}/grade`, { points, feedbackHtml });

/** Fails when the page body scrolls sideways at the current viewport. */
export async function expectNoHorizontalScroll(page: Page): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    innerWidth: window.innerWidth,
  }));
  expect(scrollWidth, `page is ${scrollWidth}px wide at ${innerWidth}px`).toBeLessThanOrEqual(
    innerWidth,
  );
}

/** A screenshot for a person to look at (never compared): /tmp/shots/<name>.png. */
export async function shot(page: Page, name: string): Promise<void> {
  if (!process.env.E2E_SHOTS) return;
  await page.screenshot({ path: `/tmp/shots/${name}.png`, fullPage: true });
}
