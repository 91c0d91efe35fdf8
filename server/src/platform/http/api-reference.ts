/**
 * `GET /api/docs`: the API reference for admins, Scalar's page over `GET /api/openapi.json`.
 *
 * A page opened in a new tab cannot send the bearer token, so the admin area links to a signed
 * URL (storage/signed-urls.ts) that speaks for the admin's session: the page and its script are
 * refused (401/403, the error shape) to anyone else, like every admin route. The page runs no
 * inline script, loads nothing from elsewhere and gets its own CSP; every other page and answer
 * keeps the app's.
 *
 * The script is Scalar's browser bundle as @scalar/fastify-api-reference serves it; that plugin
 * registers routes without `config.access` (which the access plugin refuses under /api), so the
 * bundle is read once from a private instance of it and served here.
 */
import { promisify } from 'node:util';
import { brotliCompress, constants as zlib, gzip } from 'node:zlib';
import { SignedUrlQuerySchema } from '@learning-hub/core';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { RouteAccess } from './access';

export const API_REFERENCE_PATH = '/api/docs';
const SCRIPT_PATH = `${API_REFERENCE_PATH}/scalar.js`;

/** Who may open the reference: who may open Admin → System, where it is linked. */
export const API_REFERENCE_ACCESS: RouteAccess = {
  permissions: ['system.view'],
  roles: ['admin'],
  allowSignedUrl: true,
};

/** The page's own policy: its script and styles, the description from this origin, nothing else. */
export const API_REFERENCE_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // Scalar injects its stylesheet and sets styles on elements.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  // The description, and the requests its "Test request" panel sends to this API.
  "connect-src 'self'",
  "worker-src 'self' blob:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** What Scalar is told (read from the script element's `data-configuration`). */
const CONFIGURATION = {
  // No fonts, telemetry or proxy from elsewhere: the CSP would block them anyway.
  withDefaultFonts: false,
  telemetry: false,
  hideClientButton: false,
  showDeveloperTools: 'never',
  agent: { disabled: true },
  mcp: { disabled: true },
  defaultOpenAllTags: false,
  persistAuth: false,
  authentication: { preferredSecurityScheme: 'bearer' },
};

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

function page(specUrl: string, scriptUrl: string): string {
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="robots" content="noindex" />
    <title>API reference · Learning Hub</title>
  </head>
  <body>
    <script id="api-reference" data-url="${escapeAttribute(specUrl)}" data-configuration="${escapeAttribute(
      JSON.stringify(CONFIGURATION),
    )}"></script>
    <script src="${escapeAttribute(scriptUrl)}"></script>
  </body>
</html>
`;
}

type Encoding = 'br' | 'gzip' | 'identity';

let bundle: Promise<Buffer> | null = null;
const encoded = new Map<Encoding, Promise<Buffer>>();

/** Scalar's browser bundle (4 MB), read once per process. */
function scalarBundle(): Promise<Buffer> {
  bundle ??= (async () => {
    const { default: scalar } = await import('@scalar/fastify-api-reference');
    const source = Fastify({ logger: false });
    await source.register(scalar, { routePrefix: '/reference', configuration: { content: {} } });
    const answer = await source.inject({ method: 'GET', url: '/reference/js/scalar.js' });
    await source.close();
    if (answer.statusCode !== 200) {
      throw new Error(`Scalar's bundle could not be read (${answer.statusCode}).`);
    }
    return answer.rawPayload;
  })().catch((error: unknown) => {
    bundle = null;
    throw error;
  });
  return bundle;
}

/** The bundle in an encoding, compressed once per process (about 1.2 MB as brotli). */
function scalarBundleAs(encoding: Encoding): Promise<Buffer> {
  let found = encoded.get(encoding);
  if (!found) {
    found = scalarBundle().then((identity) =>
      encoding === 'br'
        ? promisify(brotliCompress)(identity, {
            // Quality 5: within 5 % of the best, in a seventh of the time.
            params: {
              [zlib.BROTLI_PARAM_QUALITY]: 5,
              [zlib.BROTLI_PARAM_SIZE_HINT]: identity.length,
            },
          })
        : encoding === 'gzip'
          ? promisify(gzip)(identity)
          : identity,
    );
    found.catch(() => encoded.delete(encoding));
    encoded.set(encoding, found);
  }
  return found;
}

/** The encoding to send: brotli, else gzip, as the client accepts (q=0 refuses). */
function encodingFor(request: FastifyRequest): Encoding {
  const header = String(request.headers['accept-encoding'] ?? '');
  const accepts = (name: string) =>
    header
      .split(',')
      .map((part) => part.trim().split(';'))
      .some(
        ([coding, q]) =>
          coding?.trim().toLowerCase() === name && !/^\s*q\s*=\s*0(\.0*)?\s*$/.test(q ?? ''),
      );
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

const sessionOf = (request: FastifyRequest) => request.auth?.session.id ?? '';

const apiReferenceRoutes: FastifyPluginAsyncZod<{ specUrl: string }> = async (app, { specUrl }) => {
  app.get(
    API_REFERENCE_PATH,
    {
      config: { access: API_REFERENCE_ACCESS },
      schema: { hide: true, querystring: SignedUrlQuerySchema },
    },
    async (request, reply) => {
      const scriptUrl = request.server.urlSigner.sign(SCRIPT_PATH, sessionOf(request));
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', API_REFERENCE_CSP)
        .send(page(specUrl, scriptUrl));
    },
  );

  app.get(
    SCRIPT_PATH,
    {
      config: { access: API_REFERENCE_ACCESS },
      // Sent already compressed (once per process), not compressed again per request.
      compress: false,
      schema: { hide: true, querystring: SignedUrlQuerySchema },
    },
    async (request, reply) => {
      const encoding = encodingFor(request);
      const script = await scalarBundleAs(encoding);
      reply
        .header('content-type', 'text/javascript; charset=utf-8')
        // Its URL's signature changes every hour; the bundle only with a new release.
        .header('cache-control', 'private, max-age=3600')
        .header('vary', 'accept-encoding');
      if (encoding !== 'identity') reply.header('content-encoding', encoding);
      return reply.send(script);
    },
  );
};

/** Registers the reference's page and script over the description at `specUrl`. */
export async function registerApiReference(app: FastifyInstance, specUrl: string): Promise<void> {
  await app.register(apiReferenceRoutes, { specUrl });
}

/** The link to the reference signed for the request's session (what Admin → System shows). */
export function apiReferenceUrl(request: FastifyRequest): string {
  return request.server.urlSigner.sign(API_REFERENCE_PATH, sessionOf(request));
}
