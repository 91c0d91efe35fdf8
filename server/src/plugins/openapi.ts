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
 * Register this before the routes: @fastify/swagger collects routes as they are added.
 * How an area's routes appear here: docs/adding-an-area.md (OpenAPI).
 */
import { STATUS_CODES } from 'node:http';
import swagger from '@fastify/swagger';
import { ERROR_CODES } from '@learning-hub/core';
import type { FastifyInstance, FastifySchema } from 'fastify';
import type { OpenAPIV3_1 } from 'openapi-types';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { RouteAccess } from './access';
import { registerApiReference } from './api-reference';

export const OPENAPI_PATH = '/api/openapi.json';

/**
 * An answer a route documents beyond its schema, in `config.responses`:
 * - for an error (4xx, 5xx): the message, or the messages, a client must expect;
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
      /** Response headers worth knowing: name → what it says. */
      headers?: Readonly<Record<string, string>>;
    };

/** Status → what the answer is, for the answers a route's schema does not show. */
export type RouteResponses = Readonly<Record<number, DocumentedAnswer | undefined>>;

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
  }
}

/** One answer of an operation, as the description and the tests' check see it. */
export interface Answer {
  description: string;
  /** Media types of the body; empty: no body. */
  content: readonly string[];
  /** Where the body's schema comes from. */
  body: 'schema' | 'error' | 'text' | 'binary' | 'none';
  headers: Readonly<Record<string, string>>;
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
      `${code('RATE_LIMITED')}: too many requests from this address; the message says when to try again.`,
    );
  }
  add(
    500,
    `${code('INTERNAL_ERROR')}: an unexpected failure; \`details.requestId\` is the reference in the server's log.`,
  );
  add(
    503,
    `${code('SERVICE_UNAVAILABLE')}: the database is not reachable right now (down, restarting, or its connection broke), or the server is shutting down (\`Connection: close\`); try again after \`Retry-After\` seconds.`,
  );
  return errors;
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

  for (const [key, declaredAnswer] of Object.entries(declared)) {
    if (declaredAnswer === undefined) continue;
    const status = Number(key);
    if (status >= 400) {
      const messages = typeof declaredAnswer === 'string' ? [declaredAnswer] : declaredAnswer;
      if (Array.isArray(messages)) {
        errors.set(status, [...(errors.get(status) ?? []), ...messages]);
        continue;
      }
    }
    const answer =
      typeof declaredAnswer === 'object' && !Array.isArray(declaredAnswer)
        ? (declaredAnswer as Exclude<DocumentedAnswer, string | readonly string[]>)
        : { description: [declaredAnswer].flat().join(' ') };
    const content = answer.content === undefined ? [] : [answer.content].flat();
    const headers: Record<string, string> = { ...answer.headers };
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
      headers: answers.get(status)?.headers ?? {},
    });
    errors.delete(status);
  }

  for (const [status, messages] of errors) {
    answers.set(status, {
      description: `${statusText(status)}:\n\n${list(messages)}`,
      content: [JSON_TYPE],
      body: 'error',
      // Every 503 says when to try again (plugins/errors.ts, sendError).
      headers: status === 503 ? { 'retry-after': 'Seconds to wait before trying again.' } : {},
    });
  }

  // A route that says nothing of its success answers 200 with JSON (Fastify's default).
  if (![...answers.keys()].some((status) => status < 400)) {
    answers.set(200, { description: 'OK', content: [JSON_TYPE], body: 'schema', headers: {} });
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

/** An answer in the form @fastify/swagger turns into a Response Object. */
function responseSchema(answer: Answer, fromSchema: unknown): JsonSchema {
  const headers = Object.fromEntries(
    Object.entries(answer.headers).map(([name, description]) => [
      name,
      { type: 'string', description },
    ]),
  );
  const withHeaders = Object.keys(headers).length > 0 ? { headers } : {};
  switch (answer.body) {
    case 'schema': {
      const schema = (fromSchema ?? {}) as JsonSchema;
      if ('content' in schema)
        return { ...schema, description: answer.description, ...withHeaders };
      // The body's own schema keeps its description; the answer's goes beside it.
      return { ...schema, 'x-response-description': answer.description, ...withHeaders };
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
function asParameters(schema: unknown, name: string): unknown {
  if (!schema || typeof schema !== 'object') return schema;
  const object = schema as JsonSchema;
  if (object.properties && typeof object.properties === 'object') return schema;
  return { type: 'object', properties: { [name]: object } };
}

/** Only the API is described: the web app's pages and static files are not operations. */
const isApiUrl = (url: string) =>
  url === '/healthz' || url === '/readyz' || url.startsWith('/api/');

/** Whether a route is an operation of the description (not a page, a file or hidden). */
export function isDescribed(route: DocumentedRoute): boolean {
  return isApiUrl(route.url ?? '') && !(route.schema as { hide?: boolean } | undefined)?.hide;
}

export async function registerOpenApi(app: FastifyInstance, options: { version: string }) {
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
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
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
      const documented: FastifySchema & Record<string, unknown> = {
        ...schema,
        ...(schema.querystring ? { querystring: asParameters(schema.querystring, 'query') } : {}),
        ...(schema.headers ? { headers: asParameters(schema.headers, 'headers') } : {}),
        ...(requestBody && !schema.body
          ? {
              body: { ...requestBody.schema, description: requestBody.description },
              consumes: [requestBody.contentType],
            }
          : {}),
        response,
        description: [schema.description, describeAccess(access)].filter(Boolean).join('\n\n'),
        // Grouped by area: /api/admin/… under "admin", /api/courses/… under "courses".
        tags: (schema.tags as readonly string[] | undefined) ?? [
          url.startsWith('/api/') ? (url.split('/')[2] ?? 'api') : 'health',
        ],
        ...(isPublic ? {} : { security: [{ bearer: [] }] }),
        'x-access': access ?? { public: true },
      };
      return { ...transformed, schema: documented };
    },
    transformObject: jsonSchemaTransformObject,
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
