/**
 * GET /api/openapi.json: the API's description, generated from the routes' zod schemas. Checked
 * against the app's own route table, so a route added without a description fails here, and
 * against the OpenAPI 3.1 schema itself. (That each answer a test gets is listed is checked in
 * every server test: test/helpers.ts.)
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COURSE_MESSAGES } from '../../modules/courses/course-service';
import { createTestApp, testDatabaseAvailable, type TestContext } from '../../test/helpers';

const available = await testDatabaseAvailable();

type Response = {
  description: string;
  content?: Record<string, { schema: Record<string, unknown> }>;
  headers?: Record<string, unknown>;
};
type Operation = {
  operationId?: string;
  tags?: string[];
  summary?: string;
  description?: string;
  security?: unknown[];
  'x-access'?: { public?: boolean; permissions?: string[] };
  requestBody?: { content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, Response>;
  parameters?: {
    name?: string;
    in?: string;
    required?: boolean;
    schema?: unknown;
    $ref?: string;
  }[];
};
type Document = {
  openapi: string;
  info: { title: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Record<string, unknown>> };
};

let ctx: TestContext;
let doc: Document;
beforeAll(async () => {
  if (!available) return;
  ctx = await createTestApp();
  const res = await ctx.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toContain('application/json');
  doc = res.json() as Document;
  // An app and the whole description: as long as a test may take (vitest.config.ts).
}, 20_000);
afterAll(() => ctx?.close());

/** A schema, or the named schema its `$ref` points to. */
const resolved = (schema: Record<string, unknown> | undefined) => {
  const ref = schema?.$ref;
  return typeof ref === 'string'
    ? doc.components.schemas[ref.replace('#/components/schemas/', '')]
    : schema;
};

/** `/api/courses/:courseId` as OpenAPI writes it: `/api/courses/{courseId}`. */
const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

describe.skipIf(!available)('GET /api/openapi.json', () => {
  it('is an OpenAPI 3.1 document of the Learning Hub API, readable without signing in', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBe('Learning Hub API');
  });

  it('describes every API route the server declares, and nothing else', () => {
    const declared = [...ctx.app.routeAccess.keys()]
      .map((key) => key.split(' ') as [string, string])
      .filter(([, url]) => url.startsWith('/api/') || url.endsWith('z'))
      // The HEAD Fastify adds to every GET is the GET without its body; a HEAD of its own is
      // an operation (the tus offset of an upload).
      .filter(
        ([method, url], _, all) =>
          method !== 'HEAD' || !all.some(([other, path]) => other === 'GET' && path === url),
      )
      // The description and its reference page are not operations of the API.
      .filter(([, url]) => url !== '/api/openapi.json' && !url.startsWith('/api/docs'))
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
    // Public: no security requirement, said explicitly.
    expect(signIn?.security).toEqual([]);

    const users = doc.paths['/api/admin/users']?.get;
    expect(users?.['x-access']?.permissions).toContain('user.view');
    expect(users?.description).toMatch(/^Needs a signed-in user with the permission/m);
    expect(users?.security).toEqual([{ bearer: [] }]);
    // A download opens with the token or by its signed URL.
    expect(doc.paths['/api/files/{fileId}']?.get?.security).toEqual([
      { bearer: [] },
      { signedUrl: [] },
    ]);
  });

  it('takes the request and answer shapes from the zod contracts', () => {
    const signIn = doc.paths['/api/auth/local']?.post;
    const body = resolved(signIn?.requestBody?.content['application/json']?.schema) as {
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

  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(doc);
    expect(validator.version).toBe('3.1');
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops).map(([method, op]) => ({ name: `${method} ${path}`, op })),
    );

  it('gives every operation a success answer and its errors in the shared error shape', () => {
    for (const { name, op } of operations()) {
      const statuses = Object.keys(op.responses).map(Number);
      expect(
        statuses.some((status) => status < 400),
        name,
      ).toBe(true);
      expect(statuses, name).toContain(500);
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.description, `${name} ${status}`).not.toBe('Default Response');
        if (Number(status) < 400 || op['x-access']?.public) continue;
        // Only the sign-in routes answer their refusals in a shape of their own (spec §7).
        expect(response.content?.['application/json']?.schema, `${name} ${status}`).toEqual({
          $ref: '#/components/schemas/Error',
        });
      }
    }
    const error = doc.components.schemas.Error as { required: string[] };
    expect(error.required).toEqual(['code', 'message']);
  });

  it('derives the errors of access, path and input from the route', () => {
    const course = doc.paths['/api/courses/{courseId}']?.patch;
    expect(Object.keys(course?.responses ?? {})).toEqual(
      expect.arrayContaining(['200', '400', '401', '403', '404', '413', '415', '500']),
    );
    expect(course?.responses['403']?.description).toContain('FORBIDDEN');
    // Any signed-in user may read their sessions, even before the forced password change (no
    // 403); a page out of range is a 400.
    const sessions = doc.paths['/api/auth/sessions']?.get;
    expect(Object.keys(sessions?.responses ?? {})).toEqual(['200', '400', '401', '500', '503']);
  });

  it('lists the refusals of a route’s own rules', () => {
    const course = doc.paths['/api/courses/{courseId}']?.patch;
    expect(course?.responses['409']?.description).toContain(COURSE_MESSAGES.needsLesson);
  });

  it('documents real success answers: 204 without a body, CSV files, redirects', () => {
    const unenrol = doc.paths['/api/courses/{courseId}/enrolment']?.delete;
    expect(Object.keys(unenrol?.responses ?? {})).toContain('204');
    expect(unenrol?.responses['200']).toBeUndefined();
    expect(unenrol?.responses['204']?.content).toBeUndefined();

    const csv = doc.paths['/api/courses/{courseId}/grades.csv']?.get;
    expect(Object.keys(csv?.responses['200']?.content ?? {})).toEqual(['text/csv']);

    const sso = doc.paths['/api/auth/sso/start']?.get;
    expect(sso?.responses['303']?.headers).toHaveProperty('location');
    expect(sso?.responses['200']).toBeUndefined();
  });

  it('follows the one convention: DELETE answers 204, a create 201 with Location, no wrappers', () => {
    const successes = (op: Operation) =>
      Object.entries(op.responses).filter(([status]) => Number(status) < 300);
    for (const { name, op } of operations()) {
      // Every DELETE answers 204 and nothing else on success, without a body.
      if (name.startsWith('delete ')) {
        expect(
          successes(op).map(([status]) => status),
          name,
        ).toEqual(['204']);
        expect(op.responses['204']?.content, name).toBeUndefined();
      }
      // Every 201 says where the new thing is.
      if (op.responses['201']) {
        expect(op.responses['201'].headers ?? {}, `${name} 201`).toHaveProperty('location');
      }
      // No answer wraps what it answers in `{ success: true, … }`, but the spec's sign-ins.
      if (/^post \/api\/auth\/(local|ldap|moodle|sso)$/.test(name)) continue;
      for (const [status, response] of successes(op)) {
        const body = resolved(response.content?.['application/json']?.schema) as
          { properties?: Record<string, unknown> } | undefined;
        expect(Object.keys(body?.properties ?? {}), `${name} ${status}`).not.toContain('success');
      }
    }
    expect(doc.components.schemas).not.toHaveProperty('Success');
  });

  it('passes Redocly’s recommended rules without an error, and warns only where the API means to', async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(doc),
      absoluteRef: 'openapi.json',
      config,
    });
    const described = (problem: (typeof problems)[number]) =>
      `${problem.ruleId} at ${problem.location[0]?.pointer ?? '?'}: ${problem.message}`;
    expect(problems.filter((problem) => problem.severity === 'error').map(described)).toEqual([]);
    // The warnings that remain say what the API is, not what its description lacks
    // (docs/architecture.md, "The API description"); any other kind fails here.
    const expected = new Set([
      // An internal application: it has no licence to state.
      'info-license',
      // /api/departments/lookup/{name} beside /api/departments/{departmentId}/members: the
      // literal segment wins, as in the router.
      'no-ambiguous-paths',
      // The probes and the sign-in page's configuration refuse nothing.
      'operation-4xx-response',
      // Redirects (single sign-on, a library download) answer 3xx only.
      'operation-2xx-response',
    ]);
    const unexpected = problems.filter((problem) => !expected.has(problem.ruleId));
    expect(unexpected.map(described)).toEqual([]);
  });

  it('names every operation (a unique operationId) and files it under a declared tag', () => {
    const ids = new Map<string, string>();
    const declared = new Set((doc.tags ?? []).map((tag) => tag.name));
    const used = new Set<string>();
    for (const { name, op } of operations()) {
      expect(op.operationId, name).toMatch(/^[a-z][A-Za-z]+$/);
      const id = op.operationId ?? '';
      expect(ids.get(id), `${name}: ${id} is also ${ids.get(id)}`).toBeUndefined();
      ids.set(id, name);
      expect(op.tags?.length, name).toBeGreaterThan(0);
      for (const tag of op.tags ?? []) {
        expect(declared, `${name}: tag ${tag}`).toContain(tag);
        used.add(tag);
      }
    }
    expect(ids.size).toBe(operations().length);
    expect(ids.get('listLibraryItems')).toBe('get /api/library/items');
    // Each tag once, with what it holds, and none without an operation.
    expect(doc.tags?.length).toBe(declared.size);
    for (const tag of doc.tags ?? []) expect(tag.description, tag.name).toEqual(expect.any(String));
    expect([...declared].sort()).toEqual([...used].sort());
  });

  it('writes each shape once: named schemas by $ref, no object schema repeated inline', () => {
    const names = Object.keys(doc.components.schemas);
    for (const name of names) expect(name).toMatch(/^[A-Z][A-Za-z0-9]*$/);
    // The same shape as request and as answer is one schema.
    for (const name of names.filter((n) => names.includes(`${n}Input`))) {
      expect(doc.components.schemas[`${name}Input`], name).not.toEqual(
        doc.components.schemas[name],
      );
    }
    // An object's shape as written, but for whether it is closed (answers are, requests not).
    const shape = (schema: unknown) =>
      JSON.stringify(schema, (key, value: unknown) =>
        key === 'additionalProperties' && value === false ? undefined : value,
      );
    const named = new Map(names.map((name) => [shape(doc.components.schemas[name]), name]));
    const inline = new Map<string, string[]>();
    const walk = (node: unknown, at: string, root = false): void => {
      if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`));
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if (!root && schema.type === 'object' && schema.properties) {
        inline.set(shape(schema), [...(inline.get(shape(schema)) ?? []), at]);
      }
      for (const [key, value] of Object.entries(schema)) walk(value, `${at}/${key}`);
    };
    walk(doc.paths, '#/paths');
    for (const name of names)
      walk(doc.components.schemas[name], `#/components/schemas/${name}`, true);
    const repeated = [...inline]
      .filter(([key, places]) => places.length > 1 || named.has(key))
      .map(([key, places]) => `${named.get(key) ?? 'unnamed'}: ${places.join(', ')}`);
    expect(repeated).toEqual([]);

    // Every JSON request body is a named schema, and so is what most operations answer.
    let answers = 0;
    let byName = 0;
    for (const { name, op } of operations()) {
      const body = op.requestBody?.content['application/json']?.schema;
      if (body) expect(body, name).toHaveProperty('$ref');
      for (const [status, response] of Object.entries(op.responses)) {
        const schema = response.content?.['application/json']?.schema;
        if (!schema || Number(status) >= 300) continue;
        answers += 1;
        if (schema.$ref) byName += 1;
      }
    }
    expect(byName / answers).toBeGreaterThan(0.9);
    // The wiki revision of a page: one schema, wherever a page is answered.
    expect(names).toEqual(
      expect.arrayContaining(['LibraryItem', 'WikiPage', 'WikiRevisionSummary']),
    );
  });

  it('documents the headers a client sends and reads on each operation', () => {
    const headerParams = (op: Operation | undefined) =>
      Object.fromEntries(
        (op?.parameters ?? [])
          .filter((p) => p.in === 'header')
          .map((p) => [p.name, p.required ?? false]),
      );
    // tus: the offset request is an operation, with the headers of the protocol.
    const offset = doc.paths['/api/uploads/{uploadId}']?.head;
    expect(offset?.summary).toEqual(expect.any(String));
    expect(headerParams(offset)).toMatchObject({ 'tus-resumable': true });
    expect(Object.keys(offset?.responses['200']?.headers ?? {})).toEqual(
      expect.arrayContaining([
        'upload-offset',
        'upload-length',
        'upload-metadata',
        'tus-resumable',
      ]),
    );
    expect(Object.keys(offset?.responses['412']?.headers ?? {})).toContain('tus-version');
    const create = doc.paths['/api/uploads']?.post;
    expect(headerParams(create)).toMatchObject({
      'tus-resumable': true,
      'upload-length': true,
      'upload-metadata': false,
    });
    expect(Object.keys(create?.responses['201']?.headers ?? {})).toEqual(
      expect.arrayContaining(['location', 'upload-expires', 'tus-resumable']),
    );
    const send = doc.paths['/api/uploads/{uploadId}']?.patch;
    expect(headerParams(send)).toMatchObject({
      'tus-resumable': true,
      'upload-offset': true,
    });
    // Its type is the body's: `application/offset+octet-stream`, not a header parameter.
    expect(Object.keys(send?.requestBody?.content ?? {})).toEqual([
      'application/offset+octet-stream',
    ]);
    expect(headerParams(doc.paths['/api/uploads/{uploadId}']?.post)).toMatchObject({
      'x-http-method-override': true,
    });

    // Downloads: ranges and revalidation.
    const download = doc.paths['/api/files/{fileId}']?.get;
    expect(headerParams(download)).toMatchObject({
      range: false,
      'if-range': false,
      'if-none-match': false,
    });
    expect(Object.keys(download?.responses['200']?.headers ?? {})).toEqual(
      expect.arrayContaining(['etag', 'accept-ranges']),
    );
    expect(Object.keys(download?.responses['206']?.headers ?? {})).toContain('content-range');
    expect(Object.keys(download?.responses['416']?.headers ?? {})).toContain('content-range');
    expect(Object.keys(download?.responses['304']?.headers ?? {})).toContain('etag');

    // Every 429 says when to try again; every 401 how to sign in; every answer its request id.
    let throttled = 0;
    for (const { name, op } of operations()) {
      expect(op.parameters ?? [], name).toContainEqual({
        $ref: '#/components/parameters/RequestId',
      });
      for (const [status, response] of Object.entries(op.responses)) {
        expect(response.headers?.['x-request-id'], `${name} ${status}`).toEqual({
          $ref: '#/components/headers/RequestId',
        });
      }
      if (op.responses['429']) {
        throttled += 1;
        expect(op.responses['429'].headers, name).toHaveProperty('retry-after');
      }
      if (op.responses['401']) {
        expect(op.responses['401'].headers, name).toHaveProperty('www-authenticate');
      }
    }
    expect(throttled).toBeGreaterThanOrEqual(5);
  });

  it('turns a query of any keys into one object parameter, not parameters named after keywords', () => {
    const callback = doc.paths['/api/auth/sso/callback']?.get;
    expect(callback?.parameters?.filter((p) => p.in === 'query')).toEqual([
      expect.objectContaining({
        name: 'query',
        in: 'query',
        schema: expect.objectContaining({ type: 'object' }),
      }),
    ]);
  });
});

describe.skipIf(!available)(
  'the check of every answer against the description (test/helpers.ts)',
  () => {
    it('fails the test whose app answered a status its operation does not list', async () => {
      const probe = await createTestApp({
        beforeReady: (app) => {
          app.get(
            '/api/probe/teapot',
            { config: { access: { public: true } } },
            async (_request, reply) => reply.code(418).send({ code: 'BAD_REQUEST', message: 'no' }),
          );
        },
      });
      await probe.app.inject({ method: 'GET', url: '/api/probe/teapot' });
      await expect(probe.close()).rejects.toThrow(/GET \/api\/probe\/teapot answered 418/);
    });

    it('fails the test whose app answered a header a client reads that the answer does not list', async () => {
      const probe = await createTestApp({
        beforeReady: (app) => {
          app.get(
            '/api/probe/later',
            { config: { access: { public: true }, responses: { 202: 'Accepted.' } } },
            async (_request, reply) => reply.code(202).header('retry-after', '5').send(),
          );
          app.get(
            '/api/probe/listed',
            {
              config: {
                access: { public: true },
                responses: {
                  202: { description: 'Accepted.', headers: { 'retry-after': 'Wait.' } },
                },
              },
            },
            async (_request, reply) => reply.code(202).header('retry-after', '5').send(),
          );
        },
      });
      await probe.app.inject({ method: 'GET', url: '/api/probe/listed' });
      await probe.app.inject({ method: 'GET', url: '/api/probe/later' });
      await expect(probe.close()).rejects.toThrow(
        /^(?![\s\S]*listed)[\s\S]*GET \/api\/probe\/later answered 202 with retry-after/,
      );
    });
  },
);
