/**
 * GET /api/openapi.json: the API's description, generated from the routes' zod schemas. Checked
 * against the app's own route table, so a route added without a description fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../test/helpers';

type Operation = {
  description?: string;
  security?: unknown[];
  'x-access'?: { public?: boolean; permissions?: string[] };
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses?: Record<string, unknown>;
  parameters?: { name: string; in: string }[];
};
type Document = {
  openapi: string;
  info: { title: string };
  paths: Record<string, Record<string, Operation>>;
};

let ctx: TestContext;
let doc: Document;
beforeAll(async () => {
  ctx = await createTestApp();
  const res = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/json');
  doc = res.json() as Document;
});
afterAll(() => ctx.close());

/** `/api/courses/:courseId` as OpenAPI writes it: `/api/courses/{courseId}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document of the Learning Hub API, readable without signing in', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Learning Hub API');
  });

  it('describes every API route the server declares, and nothing else', () => {
    const declared = [...ctx.app.routeAccess.keys()]
      .map((key) => key.split(' ') as [string, string])
      .filter(
        ([method, url]) => method !== 'HEAD' && (url.startsWith('/api/') || url.endsWith('z')),
      )
      .filter(([, url]) => url !== '/api/openapi.json')
      .map(([method, url]) => `${method.toLowerCase()} ${openApiPath(url)}`)
      .sort();
    const described = Object.entries(doc.paths)
      .flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`))
      .sort();
    expect(described).toEqual(declared);
    expect(described.length).toBeGreaterThan(30);
  });

  it('says who may call each operation, and asks for the bearer token where sign-in is needed', () => {
    const signIn = doc.paths['/api/auth/local']?.post;
    expect(signIn?.['x-access']).toEqual({ public: true });
    expect(signIn?.description).toContain('Public: no sign-in needed.');
    expect(signIn?.security).toBeUndefined();

    const users = doc.paths['/api/admin/users']?.get;
    expect(users?.['x-access']?.permissions).toContain('user.view');
    expect(users?.description).toMatch(/^Needs a signed-in user with the permission/m);
    expect(users?.security).toEqual([{ bearer: [] }]);
  });

  it('takes the request and answer shapes from the zod contracts', () => {
    const signIn = doc.paths['/api/auth/local']?.post;
    const body = signIn?.requestBody?.content['application/json']?.schema as {
      properties?: Record<string, unknown>;
      required?: string[];
    };
    expect(Object.keys(body.properties ?? {})).toEqual(
      expect.arrayContaining(['username', 'password']),
    );
    expect(body.required).toEqual(expect.arrayContaining(['username', 'password']));
    const user = doc.paths['/api/admin/users/{userId}']?.get;
    expect(user?.parameters?.some((p) => p.name === 'userId' && p.in === 'path')).toBe(true);
    expect(Object.keys(user?.responses ?? {})).toContain('200');
  });
});
