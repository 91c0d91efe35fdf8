/**
 * The API's description: `GET /api/openapi.json`, an OpenAPI 3.1 document generated from the same
 * zod schemas that validate each route's parameters, query, body and answers, so it cannot drift
 * from what the server does. Each operation also says who may call it (its `config.access`):
 * `x-access` holds the requirement as data and the description says it in words.
 *
 * Register this before the routes: @fastify/swagger collects routes as they are added.
 * How an area's routes appear here: docs/adding-an-area.md (OpenAPI).
 */
import swagger from '@fastify/swagger';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { RouteAccess } from './access';

export const OPENAPI_PATH = '/api/openapi.json';

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

/** Only the API is described: the web app's pages and static files are not operations. */
const isApiUrl = (url: string) =>
  url === '/healthz' || url === '/readyz' || url.startsWith('/api/');

export async function registerOpenApi(app: FastifyInstance, options: { version: string }) {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Learning Hub API',
        version: options.version,
        description:
          'The API of Learning Hub. Sign in with POST /api/auth/local (or another method) and send ' +
          'the token as `Authorization: Bearer <token>`. Errors answer `{ code, message }`; a ' +
          'denied check answers 403 with the exact reason.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      },
    },
    transform: (input) => {
      const { url, route } = input;
      if (!isApiUrl(url)) return { schema: { ...input.schema, hide: true }, url };
      // A route without any schema (e.g. /healthz) is still an operation.
      const transformed = jsonSchemaTransform({ ...input, schema: input.schema ?? {} });
      const schema = transformed.schema ?? {};
      const access = route.config?.access as RouteAccess | undefined;
      const isPublic = !access || access.public === true;
      return {
        ...transformed,
        schema: {
          ...schema,
          description: [schema.description, describeAccess(access)].filter(Boolean).join('\n\n'),
          // Grouped by area: /api/admin/… under "admin", /api/courses/… under "courses".
          tags: schema.tags ?? [url.startsWith('/api/') ? (url.split('/')[2] ?? 'api') : 'health'],
          ...(isPublic ? {} : { security: [{ bearer: [] }] }),
          'x-access': access ?? { public: true },
        },
      };
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
}
