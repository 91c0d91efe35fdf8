/**
 * The API's description: `GET /api/openapi.json`, an OpenAPI 3.1 document generated from the same
 * zod schemas that validate each route's parameters, query, body and answers, so it cannot drift
 * from what the server does. Each operation also says who may call it (its `config.access`):
 * `x-access` holds the requirement as data and the description says it in words.
 *
 * Every answer an operation can give is listed (`answersOf`): its success answers (the JSON of
 * `schema.response`, or what `config.responses` says: 204, a redirect, a CSV file), and its error
 * answers with the shared error shape (`#/components/schemas/Error`). The errors the platform
 * gives are derived from the route itself — 400 when it validates input, 401 and 403 from its
 * access, 404 when its path names something, 413/415 when it takes a body, 429 when it is
 * rate-limited, 500 always — and a route adds the refusals of its own rules in `config.responses`
 * (`409: ['Add at least one lesson before publishing']`). The server tests check every answer they
 * get against this list (test/helpers.ts).
 *
 * Headers are documented the same way: those a route reads in `config.requestHeaders` (header
 * parameters), those an answer carries beside it in `config.responses`, and the platform's derived
 * (`Retry-After` on every 429, `WWW-Authenticate` on 401, the rate-limit headers, `Location` on a
 * redirect, `X-Request-Id` on every operation and answer). The document passes Redocly's
 * `recommended` rules without an error (openapi.test.ts).
 *
 * Every operation has the `operationId` and the tag its route declares (`API_TAGS` lists the
 * tags), and the contract schemas are named components (core/src/contracts/schema-names.ts),
 * each written once (`namedSchemasOnce`): docs/architecture.md, "The API description".
 *
 * Register this before the routes: @fastify/swagger collects routes as they are added.
 * How an area's routes appear here: docs/adding-an-area.md (OpenAPI).
 */
import { STATUS_CODES } from 'node:http';
import swagger from '@fastify/swagger';
import { ERROR_CODES, nameApiSchemas } from '@learning-hub/core';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { OpenAPIV3_1 } from 'openapi-types';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { RouteAccess } from './access';
import { registerApiReference } from './api-reference';

export const OPENAPI_PATH = '/api/openapi.json';

/**
 * An answer a route documents beyond its schema, in `config.responses`:
 * - for an error (4xx, 5xx): the message, or the messages, a client must expect (with the
 *   headers the answer carries: `{ messages, headers }`);
 * - for a success or a redirect: its description (then it has no body; a redirect gets its
 *   `Location`), or `{ description, content }` for a body that is not the schema's JSON (a CSV
 *   file: `content: 'text/csv'`; any stored file: `'*\/*'`).
 */
export type DocumentedAnswer =
  | string
  | readonly string[]
  | {
      description: string;
      /** The media types of the body (`text/csv`, `image/webp`, `*\/*`); none: no body. */
      content?: string | readonly string[];
      /** The headers a client reads in this answer: name → what it says. */
      headers?: DocumentedHeaders;
    }
  | { messages: readonly string[]; headers: DocumentedHeaders };

/**
 * A header of a request or an answer: what it says, or that with the JSON Schema of its value
 * (a string when none is given) and, for a request header, whether the route refuses without it.
 */
export type DocumentedHeader =
  string | { description: string; schema?: Record<string, unknown>; required?: boolean };

/** Header name (lower case) → what it is. */
export type DocumentedHeaders = Readonly<Record<string, DocumentedHeader>>;

/** Status → what the answer is, for the answers a route's schema does not show. */
export type RouteResponses = Readonly<Record<number, DocumentedAnswer | undefined>>;

/**
 * The 201 of a create (docs/architecture.md, "The API description"): its `Location` is the new
 * thing's URL, written with `<placeholders>` (`/api/courses/<id>`). The route sets the header
 * (`reply.code(201).header('location', …)`); the body, when there is one, is its schema's.
 */
export function createdAnswer(location: string, description = 'Created.'): DocumentedAnswer {
  return {
    description: `${description} \`Location\` is its URL.`,
    headers: { location: `The new thing’s URL: \`${location}\`.` },
  };
}

/** A body the route reads itself (an upload), for the description only. */
export interface DocumentedRequestBody {
  contentType: string;
  description?: string;
  /** JSON Schema of the body (for multipart/form-data: its parts). */
  schema: Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Answers the schema does not show (docs/adding-an-area.md, OpenAPI): the refusals of the
     * route's own rules, and a success that is not `schema.response`'s JSON (204, redirects,
     * files). Documentation only: what the route does is unchanged.
     */
    responses?: RouteResponses;
    /** A body the route parses itself (multipart uploads): documentation only. */
    requestBody?: DocumentedRequestBody;
    /**
     * The request headers the route reads (`Range`, `Upload-Offset`…), as `in: header`
     * parameters of its operation. Documentation only: the route still checks them itself.
     * (`Authorization` is the security scheme; `X-Request-Id` is documented on every operation.)
     */
    requestHeaders?: DocumentedHeaders;
  }
}

/** One answer of an operation, as the description and the tests' check see it. */
export interface Answer {
  description: string;
  /** Media types of the body; empty: no body. */
  content: readonly string[];
  /** Where the body's schema comes from. */
  body: 'schema' | 'error' | 'text' | 'binary' | 'none';
  headers: DocumentedHeaders;
}

/** What `answersOf` reads of a route: Fastify's route options, or a request's `routeOptions`. */
export interface DocumentedRoute {
  url?: string;
  method?: string | readonly string[];
  schema?: FastifySchema;
  config?: {
    access?: RouteAccess;
    responses?: RouteResponses;
    requestBody?: DocumentedRequestBody;
    requestHeaders?: DocumentedHeaders;
    rateLimit?: unknown;
  };
}

const JSON_TYPE = 'application/json';

/** Methods whose body Fastify parses (as JSON: the API takes no other type, plugins/errors.ts). */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** The access requirement of a route in words, for the operation's description. */
export function describeAccess(access: RouteAccess | undefined): string {
  if (!access || access.public) return 'Public: no sign-in needed.';
  const parts: string[] = ['Needs a signed-in user'];
  const permissions = access.permissions ?? [];
  if (permissions.length > 0) {
    const joiner = access.mode === 'any' ? ' or ' : ' and ';
    parts.push(
      `with the permission${permissions.length > 1 ? 's' : ''} ${permissions.join(joiner)}`,
    );
  }
  if ((access.roles ?? []).length > 0) {
    parts.push(
      `${permissions.length > 0 ? 'or ' : 'with '}the role ${(access.roles ?? []).join(' or ')}`,
    );
  }
  const scope = access.scope;
  if (scope && scope !== 'any') parts.push(`in the ${scope.type} given by {${scope.param}}`);
  else if (scope === 'any') parts.push('in any context');
  return `${parts.join(' ')}.`;
}

const list = (lines: readonly string[]) => lines.map((line) => `- ${line}`).join('\n');
const code = (name: keyof typeof ERROR_CODES) => `\`${name}\``;

/** The error answers every route of its kind can give, derived from its schema and access. */
function platformErrors(route: DocumentedRoute): Map<number, string[]> {
  const errors = new Map<number, string[]>();
  const add = (status: number, line: string) =>
    errors.set(status, [...(errors.get(status) ?? []), line]);
  const schema = route.schema ?? {};
  const config = route.config ?? {};
  const access = config.access;
  const pathParams = [...(route.url ?? '').matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]);
  const hasJsonBody = schema.body !== undefined;
  // Fastify reads the body of these methods whether or not the route wants one.
  const takesBody =
    hasJsonBody ||
    config.requestBody !== undefined ||
    [route.method ?? []].flat().some((method) => BODY_METHODS.has(method.toUpperCase()));

  const validated = [
    schema.params || pathParams.length > 0 ? 'a path parameter' : null,
    schema.querystring ? 'a query parameter' : null,
    hasJsonBody ? 'the body' : null,
  ].filter((part): part is string => part !== null);
  if (schema.params || schema.querystring || hasJsonBody) {
    add(
      400,
      `${code('VALIDATION_ERROR')}: ${validated.join(', ')} is not valid; \`details.issues\` lists each field (\`{ path, message }\`).`,
    );
  }
  if (takesBody) {
    add(
      400,
      `${code('INVALID_JSON')}: the body is not valid JSON${hasJsonBody ? '' : ' (when one is sent)'}.`,
    );
  }

  if (access && !access.public) {
    add(
      401,
      `${code('UNAUTHENTICATED')} or ${code('SESSION_EXPIRED')}: no valid \`Authorization: Bearer\` token${
        access.allowSignedUrl ? ' nor a valid signed URL (`exp`, `sid`, `sig`)' : ''
      }, or its session has ended (signed out, expired, revoked) or the account is deactivated.`,
    );
    if ((access.permissions?.length ?? 0) > 0 || (access.roles?.length ?? 0) > 0) {
      add(
        403,
        `${code('FORBIDDEN')}: the user does not meet the requirement above; the message gives the exact reason.`,
      );
    }
    if (!access.allowDuringPasswordChange) {
      add(
        403,
        `${code('PASSWORD_CHANGE_REQUIRED')}: the user must change their password before anything else.`,
      );
    }
  }
  if (pathParams.length > 0) {
    add(
      404,
      `${code('NOT_FOUND')}: ${pathParams.map((p) => `{${p}}`).join(', ')} names nothing that exists.`,
    );
  }
  if (takesBody) {
    add(
      413,
      `${code('PAYLOAD_TOO_LARGE')}: the body is over the server's limit (BODY_LIMIT_BYTES).`,
    );
    add(
      415,
      `${code('UNSUPPORTED_MEDIA_TYPE')}: the body is not \`${config.requestBody?.contentType ?? JSON_TYPE}\`.`,
    );
  }
  if (config.rateLimit) {
    add(
      429,
      `${code('RATE_LIMITED')}: too many requests from this address (or person); \`Retry-After\` says in how many seconds to try again.`,
    );
  }
  add(
    500,
    `${code('INTERNAL_ERROR')}: an unexpected failure; \`details.requestId\` is the reference in the server's log.`,
  );
  if (takesBody) {
    add(
      507,
      `${code('INSUFFICIENT_STORAGE')}: the server's disk or database is full; nothing of the request was kept. Try again later.`,
    );
  }
  add(
    503,
    `${code('SERVICE_UNAVAILABLE')}: the database is not reachable right now (down, restarting, or its connection broke), or the server is shutting down (\`Connection: close\`); try again after \`Retry-After\` seconds.`,
  );
  return errors;
}

/** `Retry-After` on every 429 (@fastify/rate-limit's and the routes' own) and 503. */
const RETRY_AFTER: DocumentedHeader = {
  description: 'How many seconds to wait before trying again.',
  schema: { type: 'integer', minimum: 0 },
};

/** The rate limit @fastify/rate-limit reports on every answer of a route with `config.rateLimit`. */
const RATE_LIMIT_HEADERS: DocumentedHeaders = {
  'x-ratelimit-limit': {
    description: 'Requests allowed in the window.',
    schema: { type: 'integer' },
  },
  'x-ratelimit-remaining': {
    description: 'Requests left in the window.',
    schema: { type: 'integer' },
  },
  'x-ratelimit-reset': {
    description: 'Seconds until the window starts again.',
    schema: { type: 'integer' },
  },
};

/** The headers the platform adds to an answer of a status (plugins/errors.ts, the rate limit). */
function platformHeaders(route: DocumentedRoute, status: number): DocumentedHeaders {
  return {
    ...(route.config?.rateLimit ? RATE_LIMIT_HEADERS : {}),
    ...(status === 401 ? { 'www-authenticate': '`Bearer`: sign in and send the token.' } : {}),
    // Every 429 and 503 says when to come back (plugins/errors.ts, sendError; the rate limit).
    ...(status === 429 || status === 503 ? { 'retry-after': RETRY_AFTER } : {}),
  };
}

const statusText = (status: number) => STATUS_CODES[status] ?? `Status ${status}`;

/** Media types of a `schema.response` entry: a zod schema is JSON; `{ content }` names its own. */
function schemaContent(entry: unknown): string[] {
  if (entry && typeof entry === 'object' && 'content' in entry) {
    const content = (entry as { content?: unknown }).content;
    if (content && typeof content === 'object') return Object.keys(content);
  }
  return [JSON_TYPE];
}

/**
 * Every answer a route documents, by status: its schema's, its `config.responses`, and the
 * errors of its kind (see `platformErrors`). The description is built from this, and the server
 * tests hold every answer they get to it.
 */
export function answersOf(route: DocumentedRoute): Map<number, Answer> {
  const answers = new Map<number, Answer>();
  const errors = platformErrors(route);
  const declared = route.config?.responses ?? {};
  const fromSchema = (route.schema?.response ?? {}) as Record<string, unknown>;

  const errorHeaders = new Map<number, DocumentedHeaders>();
  for (const [key, declaredAnswer] of Object.entries(declared)) {
    if (declaredAnswer === undefined) continue;
    const status = Number(key);
    if (typeof declaredAnswer === 'object' && 'messages' in declaredAnswer) {
      errors.set(status, [...(errors.get(status) ?? []), ...declaredAnswer.messages]);
      errorHeaders.set(status, declaredAnswer.headers);
      continue;
    }
    if (status >= 400) {
      const messages = typeof declaredAnswer === 'string' ? [declaredAnswer] : declaredAnswer;
      if (Array.isArray(messages)) {
        errors.set(status, [...(errors.get(status) ?? []), ...messages]);
        continue;
      }
    }
    const answer =
      typeof declaredAnswer === 'object' && !Array.isArray(declaredAnswer)
        ? (declaredAnswer as {
            description: string;
            content?: string | readonly string[];
            headers?: DocumentedHeaders;
          })
        : { description: [declaredAnswer].flat().join(' ') };
    const content = answer.content === undefined ? [] : [answer.content].flat();
    const headers: Record<string, DocumentedHeader> = { ...answer.headers };
    if (status >= 300 && status < 400 && status !== 304) {
      headers.location ??= 'Where to go next.';
    }
    answers.set(status, {
      description: answer.description,
      content,
      body:
        content.length === 0
          ? 'none'
          : content.every((type) => type.startsWith('text/'))
            ? 'text'
            : 'binary',
      headers,
    });
  }

  for (const [key, entry] of Object.entries(fromSchema)) {
    const status = Number(key);
    const messages = errors.get(status);
    answers.set(status, {
      description:
        messages && status >= 400
          ? `${statusText(status)}:\n\n${list(messages)}`
          : (answers.get(status)?.description ?? statusText(status)),
      content: schemaContent(entry),
      body: 'schema',
      headers: answers.get(status)?.headers ?? errorHeaders.get(status) ?? {},
    });
    errors.delete(status);
  }

  for (const [status, messages] of errors) {
    answers.set(status, {
      description: `${statusText(status)}:\n\n${list(messages)}`,
      content: [JSON_TYPE],
      body: 'error',
      headers: errorHeaders.get(status) ?? {},
    });
  }

  // A route that says nothing of its success answers 200 with JSON (Fastify's default).
  if (![...answers.keys()].some((status) => status < 400)) {
    answers.set(200, { description: 'OK', content: [JSON_TYPE], body: 'schema', headers: {} });
  }
  for (const [status, answer] of answers) {
    const headers = { ...platformHeaders(route, status), ...answer.headers };
    answers.set(status, { ...answer, headers });
  }
  return new Map([...answers].sort(([a], [b]) => a - b));
}

/** The body of every error answer (plugins/errors.ts). */
const ERROR_SCHEMA: OpenAPIV3_1.SchemaObject = {
  type: 'object',
  description:
    'Every error answer. Sign-in routes add the spec’s `success: false` and `error` (the message).',
  required: ['code', 'message'],
  properties: {
    code: {
      type: 'string',
      enum: Object.keys(ERROR_CODES).filter((name) => name !== 'NETWORK_ERROR'),
      description: 'What went wrong, for programs (core/src/errors.ts).',
    },
    message: { type: 'string', description: 'What went wrong, for people.' },
    details: {
      description:
        'More about it where there is more: `issues` (`[{ path, message }]`) for invalid input, ' +
        '`requestId` for an unexpected failure, `retryAfter` (seconds) when throttled.',
    },
  },
};

const ERROR_REF = { $ref: '#/components/schemas/Error' } as const;

type JsonSchema = Record<string, unknown>;

/** A documented header as a JSON Schema with its description. */
function headerSchema(header: DocumentedHeader): JsonSchema {
  return typeof header === 'string'
    ? { type: 'string', description: header }
    : { type: 'string', ...header.schema, description: header.description };
}

/** An answer in the form @fastify/swagger turns into a Response Object. */
function responseSchema(answer: Answer, fromSchema: unknown): JsonSchema {
  const headers = Object.fromEntries(
    Object.entries(answer.headers).map(([name, header]) => [name, headerSchema(header)]),
  );
  const withHeaders = Object.keys(headers).length > 0 ? { headers } : {};
  switch (answer.body) {
    case 'schema': {
      const schema = (fromSchema ?? {}) as JsonSchema;
      if ('content' in schema)
        return { ...schema, description: answer.description, ...withHeaders };
      // The body's own schema keeps its description; the answer's goes beside it (beside a
      // named schema's `$ref`, @fastify/swagger reads only `description`).
      return {
        ...schema,
        'x-response-description': answer.description,
        ...('$ref' in schema ? { description: answer.description } : {}),
        ...withHeaders,
      };
    }
    case 'error':
      return {
        description: answer.description,
        content: { [JSON_TYPE]: { schema: ERROR_REF } },
        ...withHeaders,
      };
    case 'none':
      return { type: 'null', description: answer.description, ...withHeaders };
    default:
      return {
        description: answer.description,
        content: Object.fromEntries(
          answer.content.map((type) => [
            type,
            {
              schema:
                answer.body === 'text' ? { type: 'string' } : { type: 'string', format: 'binary' },
            },
          ]),
        ),
        ...withHeaders,
      };
  }
}

/**
 * Query (and header) schemas as @fastify/swagger reads them: an object's properties become one
 * parameter each. Anything else — a record of any keys, a union — would have its keywords taken
 * for parameter names, so it becomes one `form`-style object parameter instead (each key is then
 * a query parameter of its own).
 */
/**
 * A body a route takes or leaves out (its schema admits null, as `.nullish()` makes it) is
 * documented as an optional request body of the object alone: @fastify/swagger marks every body
 * required.
 */
function optionalBodies<T>(document: T): T {
  const paths = (document as { paths?: Record<string, Record<string, unknown>> }).paths ?? {};
  for (const operation of Object.values(paths).flatMap((ops) => Object.values(ops))) {
    const body = (operation as { requestBody?: OpenAPIV3_1.RequestBodyObject }).requestBody;
    for (const media of Object.values(body?.content ?? {})) {
      const anyOf = (media.schema as OpenAPIV3_1.SchemaObject | undefined)?.anyOf;
      const rest = anyOf?.filter((s) => (s as OpenAPIV3_1.SchemaObject).type !== 'null');
      if (!body || !anyOf || !rest || rest.length === anyOf.length) continue;
      body.required = false;
      media.schema = rest.length === 1 ? rest[0] : { anyOf: rest };
    }
  }
  return document;
}

function asParameters(schema: unknown, name: string): unknown {
  if (!schema || typeof schema !== 'object') return schema;
  const object = schema as JsonSchema;
  if (object.properties && typeof object.properties === 'object') return schema;
  return { type: 'object', properties: { [name]: object } };
}

/**
 * The header parameters of an operation: those of its `schema.headers` (validated) and those its
 * `config.requestHeaders` documents, as one object schema @fastify/swagger turns into
 * `in: header` parameters.
 */
function withRequestHeaders(
  validated: unknown,
  documented: DocumentedHeaders | undefined,
): JsonSchema | undefined {
  if (!documented || Object.keys(documented).length === 0) return validated as JsonSchema;
  const base = (validated ?? { type: 'object', properties: {} }) as JsonSchema;
  const required = new Set((base.required as string[] | undefined) ?? []);
  const properties: JsonSchema = { ...(base.properties as JsonSchema | undefined) };
  for (const [name, header] of Object.entries(documented)) {
    properties[name] = headerSchema(header);
    if (typeof header === 'object' && header.required) required.add(name);
  }
  return { ...base, type: 'object', properties, required: [...required] };
}

/** `X-Request-Id`: every answer carries it, and a client may give its own (app.ts). */
const REQUEST_ID_HEADER: OpenAPIV3_1.HeaderObject = {
  description:
    'The request’s id, as in the server’s log: the one the client sent (8–64 letters, digits, ' +
    '`_`, `.`, `-`), else a new UUID. Quote it when reporting a problem.',
  schema: { type: 'string' },
};
const REQUEST_ID_PARAMETER: OpenAPIV3_1.ParameterObject = {
  name: 'x-request-id',
  in: 'header',
  required: false,
  description:
    'An id of the client’s own for this request (8–64 letters, digits, `_`, `.`, `-`), used ' +
    'in the server’s log and answered back in `X-Request-Id`; anything else is replaced.',
  schema: { type: 'string', pattern: '^[\\w.-]{8,64}$' },
};

/** The document with `X-Request-Id` on every operation and every answer, by reference. */
function withRequestId<T>(document: T): T {
  const doc = document as unknown as OpenAPIV3_1.Document;
  doc.components = {
    ...doc.components,
    headers: { ...doc.components?.headers, RequestId: REQUEST_ID_HEADER },
    parameters: { ...doc.components?.parameters, RequestId: REQUEST_ID_PARAMETER },
  };
  for (const pathItem of Object.values(doc.paths ?? {})) {
    for (const [method, operation] of Object.entries(pathItem ?? {})) {
      if (!HTTP_METHODS.has(method) || !operation || typeof operation !== 'object') continue;
      const op = operation as OpenAPIV3_1.OperationObject;
      op.parameters = [...(op.parameters ?? []), { $ref: '#/components/parameters/RequestId' }];
      for (const response of Object.values(op.responses ?? {})) {
        const answer = response as OpenAPIV3_1.ResponseObject;
        answer.headers = {
          ...answer.headers,
          'x-request-id': { $ref: '#/components/headers/RequestId' },
        };
      }
    }
  }
  return document;
}

const SCHEMA_REF = '#/components/schemas/';

/** Every `$ref` to a schema under `node`, by name. */
function schemaRefs(node: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) schemaRefs(item, into);
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF)) {
        into.add(value.slice(SCHEMA_REF.length));
      } else schemaRefs(value, into);
    }
  }
  return into;
}

/**
 * A copy of `node` with its schema `$ref`s renamed (those `names` has); `open`: without
 * `additionalProperties: false`.
 */
function renameRefs<T>(node: T, names: ReadonlyMap<string, string>, open = false): T {
  if ((names.size === 0 && !open) || !node || typeof node !== 'object') return node;
  if (Array.isArray(node)) return node.map((item: unknown) => renameRefs(item, names, open)) as T;
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (open && key === 'additionalProperties' && value === false) continue;
    if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF)) {
      const name = value.slice(SCHEMA_REF.length);
      copy[key] = `${SCHEMA_REF}${names.get(name) ?? name}`;
    } else copy[key] = renameRefs(value, names, open);
  }
  return copy as T;
}

/** Renames the schema `$ref`s under `node` in place (those `names` has). */
function renameRefsOf(node: unknown, names: ReadonlyMap<string, string>): void {
  if (Array.isArray(node)) for (const item of node) renameRefsOf(item, names);
  else if (node && typeof node === 'object') {
    const object = node as Record<string, unknown>;
    for (const [key, value] of Object.entries(object)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith(SCHEMA_REF)) {
        const name = value.slice(SCHEMA_REF.length);
        object[key] = `${SCHEMA_REF}${names.get(name) ?? name}`;
      } else renameRefsOf(value, names);
    }
  }
}

/**
 * The named schemas (core/src/contracts/schema-names.ts) once each. The generator writes every
 * name twice, as an answer (`LibraryItem`) and as a request (`LibraryItemInput`), used or not:
 * a request form that is the answer's shape is the answer's schema; one used alone takes the
 * plain name; `…Input` stays only where a request really differs (a default makes a field
 * optional in it); and a name no operation reaches is left out.
 */
function namedSchemasOnce<T>(document: T): T {
  const doc = document as unknown as OpenAPIV3_1.Document;
  const schemas = { ...doc.components?.schemas };
  const input = (name: string) => `${name}Input`;
  const pairs = Object.keys(schemas).filter((name) => schemas[input(name)] !== undefined);

  // A request form of its answer's shape is merged into it: compared with every other pair taken
  // as merged, and a pair found to differ given up until none does. An answer's objects are
  // closed (`additionalProperties: false`), a request's are not (unknown fields are dropped):
  // where that is the only difference, the request form, true of both, stays.
  const shape = (schema: unknown, names: ReadonlyMap<string, string>) =>
    JSON.stringify(renameRefs(schema, names, true));
  const answers = new Map(pairs.map((name) => [name, shape(schemas[name], new Map())]));
  const merged = new Map(pairs.map((name) => [input(name), name]));
  for (let changed = true; changed;) {
    changed = false;
    for (const [from, name] of merged) {
      if (shape(schemas[from], merged) === answers.get(name)) continue;
      merged.delete(from);
      changed = true;
    }
  }
  for (const [from, name] of merged) {
    if (JSON.stringify(schemas[from]) !== JSON.stringify(schemas[name])) {
      schemas[name] = schemas[from] as OpenAPIV3_1.SchemaObject;
    }
  }
  for (const from of merged.keys()) delete schemas[from];
  const renamed = (name: string) => merged.get(name) ?? name;

  // The names the operations reach, through the schemas that name others.
  const seen = new Set([...schemaRefs(doc.paths)].map(renamed));
  for (const pending = [...seen]; pending.length > 0;) {
    for (const ref of schemaRefs(schemas[pending.pop() ?? ''])) {
      if (seen.has(renamed(ref))) continue;
      seen.add(renamed(ref));
      pending.push(renamed(ref));
    }
  }
  // A request form whose answer is not used takes the plain name.
  const names = new Map(merged);
  for (const name of pairs) {
    if (merged.has(input(name)) || !seen.has(input(name)) || seen.has(name)) continue;
    names.set(input(name), name);
    schemas[name] = schemas[input(name)] as OpenAPIV3_1.SchemaObject;
    seen.add(name);
  }
  renameRefsOf(doc.paths, names);
  doc.components = {
    ...doc.components,
    schemas: Object.fromEntries(
      Object.entries(schemas)
        .filter(([name]) => !names.has(name) && (seen.has(name) || name === 'Error'))
        .map(([name, schema]) => [name, renameRefs(schema, names)] as const)
        .sort(([a], [b]) => a.localeCompare(b)),
    ),
  };
  return document;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']);

/**
 * The areas of the API, in the order the reference shows them: every operation names one (or
 * more) of these in `schema.tags` beside its `operationId` (docs/architecture.md, "The API
 * description"). A tag not listed here fails openapi.test.ts.
 */
export const API_TAGS = [
  { name: 'health', description: 'Whether the server and its database answer (for probes).' },
  {
    name: 'auth',
    description:
      'Signing in (each method) and out, and one’s own account: profile, password, sessions.',
  },
  { name: 'courses', description: 'Courses, their outline, lessons, enrolment and participants.' },
  {
    name: 'assignments',
    description: 'Assignments of a course, submissions, grading and the gradebook.',
  },
  { name: 'departments', description: 'Departments, their members and managers.' },
  { name: 'library', description: 'The library: items and their versions, categories, trash.' },
  { name: 'wiki', description: 'The wiki: spaces, pages, revisions, trash, following.' },
  {
    name: 'settings',
    description: 'One’s own settings: notifications, colour scheme, dates, start page, motion.',
  },
  {
    name: 'search',
    description: 'One search over courses, lessons, library items and wiki pages.',
  },
  {
    name: 'notifications',
    description:
      'One’s notifications: the list, catching up after a dropped live connection, marking read; a test notification.',
  },
  {
    name: 'announcements',
    description:
      'Announcements to everyone, roles, departments, courses or people: composing, scheduling, acknowledging, counts, reminders.',
  },
  { name: 'files', description: 'Stored files: upload in one request, download, thumbnails.' },
  { name: 'uploads', description: 'Resumable uploads (the tus protocol).' },
  { name: 'users', description: 'Administration of users: accounts, roles, permissions.' },
  { name: 'roles', description: 'Administration of the custom roles.' },
  { name: 'access', description: 'The access checks, their audit log and a simulator.' },
  {
    name: 'sign-in-settings',
    description: 'Administration of sign-in: methods, providers, tests, recent failures.',
  },
  {
    name: 'system',
    description: 'Administration of the server: runtime, storage, settings, background jobs.',
  },
] as const satisfies readonly OpenAPIV3_1.TagObject[];

/** Only the API is described: the web app's pages and static files are not operations. */
const isApiUrl = (url: string) =>
  url === '/healthz' || url === '/readyz' || url.startsWith('/api/');

/** Whether a route is an operation of the description (not a page, a file or hidden). */
export function isDescribed(route: DocumentedRoute): boolean {
  return isApiUrl(route.url ?? '') && !(route.schema as { hide?: boolean } | undefined)?.hide;
}

export async function registerOpenApi(app: FastifyInstance, options: { version: string }) {
  // The contract schemas the description names (core/src/contracts/schema-names.ts).
  nameApiSchemas();
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Learning Hub API',
        version: options.version,
        description:
          'The API of Learning Hub. Sign in with POST /api/auth/local (or another method) and send ' +
          'the token as `Authorization: Bearer <token>`. Errors answer `{ code, message, details? }` ' +
          '(the `Error` schema); a denied check answers 403 with the exact reason. Each operation ' +
          'lists the answers it can give, the refusals of its own rules included.',
      },
      tags: [...API_TAGS],
      // Relative: the API is served by whichever host serves the app.
      servers: [{ url: '/', description: 'This server' }],
      components: {
        securitySchemes: {
          bearer: {
            type: 'http',
            scheme: 'bearer',
            description:
              '`Authorization: Bearer <token>`, the token of a sign-in (POST /api/auth/local or ' +
              'another method).',
          },
          signedUrl: {
            type: 'apiKey',
            in: 'query',
            name: 'sig',
            description:
              'A signed URL the server handed out (a file’s link for an <img>, <video> or ' +
              'download): its `sig`, with `exp` and `sid` beside it, stands for the token until ' +
              '`exp`, for the session `sid` while it lasts.',
          },
        },
        schemas: { Error: ERROR_SCHEMA },
      },
    },
    transform: (input) => {
      const { url, route } = input;
      if (!isDescribed(route)) {
        return { schema: { ...input.schema, hide: true }, url };
      }
      // A route without any schema (e.g. /healthz) is still an operation.
      const transformed = jsonSchemaTransform({ ...input, schema: input.schema ?? {} });
      const schema = (transformed.schema ?? {}) as Record<string, unknown>;
      const access = route.config?.access;
      const isPublic = !access || access.public === true;
      const fromSchema = (schema.response ?? {}) as Record<string, unknown>;
      const requestBody = route.config?.requestBody;
      const response = Object.fromEntries(
        [...answersOf(route)].map(([status, answer]) => [
          String(status),
          responseSchema(answer, fromSchema[String(status)]),
        ]),
      );
      const headers = withRequestHeaders(
        schema.headers ? asParameters(schema.headers, 'headers') : undefined,
        route.config?.requestHeaders,
      );
      const documented: FastifySchema & Record<string, unknown> = {
        ...schema,
        ...(schema.querystring ? { querystring: asParameters(schema.querystring, 'query') } : {}),
        ...(headers ? { headers } : {}),
        ...(requestBody && !schema.body
          ? {
              body: { ...requestBody.schema, description: requestBody.description },
              consumes: [requestBody.contentType],
            }
          : {}),
        response,
        description: [schema.description, describeAccess(access)].filter(Boolean).join('\n\n'),
        // Each route names its operation and its area (`operationId`, `tags`) in its schema.
        // (@fastify/swagger suffixes a HEAD's with `-head`, for a HEAD beside its GET: only an
        // operation of its own is described here, under its own name.)
        ...(typeof schema.operationId === 'string'
          ? { operationId: schema.operationId.replace(/-head$/, '') }
          : {}),
        tags: schema.tags as readonly string[] | undefined,
        // A public operation says so (`security: []`) rather than saying nothing; a download
        // also opens by its signed URL, without the token.
        security: isPublic
          ? []
          : access.allowSignedUrl
            ? [{ bearer: [] }, { signedUrl: [] }]
            : [{ bearer: [] }],
        'x-access': access ?? { public: true },
      };
      return { ...transformed, schema: documented };
    },
    transformObject: (input) =>
      namedSchemasOnce(optionalBodies(withRequestId(jsonSchemaTransformObject(input)))),
  });

  app.get(
    OPENAPI_PATH,
    { config: { access: { public: true } }, schema: { hide: true } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache');
      return app.swagger();
    },
  );
  // The page that shows it, for admins: GET /api/docs (plugins/api-reference.ts).
  await registerApiReference(app, OPENAPI_PATH);
}
