/**
 * Security headers, computed once at start-up and set on every response (@fastify/helmet rebuilds
 * helmet and re-parses the CSP on every request, which cost more than the whole authenticated
 * /api/auth/me request path).
 *
 * Documents and static files get helmet's full set with a same-origin CSP. JSON API responses get
 * the set OWASP recommends for REST APIs: nothing cacheable (`no-store`: they carry tokens and
 * personal data), a CSP that allows nothing, no framing, no sniffing, no referrer. Headers that
 * only mean something for documents (COOP, Origin-Agent-Cluster, X-DNS-Prefetch-Control, …) are
 * left off API responses.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

/** The headers helmet would set for `options`, lower-cased names. */
export function computeSecurityHeaders(options: Readonly<HelmetOptions>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)(
    {} as IncomingMessage,
    response as unknown as ServerResponse,
    (error?: unknown) => {
      if (error) throw error;
    },
  );
  return headers;
}

/**
 * The one inline script: web/index.html's, which sets the colour scheme of the settings this
 * browser kept (docs/settings.md) and puts the start page's greeting into the shell from the
 * stored session, so both paint with the document (docs/front-end.md "The shell before the app").
 * Allowed by its hash alone; a test holds it to the script in index.html.
 */
export const SHELL_GREETING_SCRIPT_HASH = "'sha256-voVcRgU2Jm8MAr87JIiPZVQDcqlPRA7MrimfefpO9SI='";

export const SECURITY_HEADER_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      'default-src': ["'self'"],
      'script-src': ["'self'", SHELL_GREETING_SCRIPT_HASH],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'blob:'],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'upgrade-insecure-requests': null,
    },
  },
  // Added per request, over HTTPS only (see securityHeadersFor).
  strictTransportSecurity: false,
};

/**
 * HSTS (RFC 6797), sent only on responses that travel over HTTPS: directly over TLS, or behind a
 * trusted proxy (TRUST_PROXY) that says so in X-Forwarded-Proto. Over plain HTTP it means nothing
 * and would wrongly suggest the connection was secure.
 */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** Headers of JSON API responses (OWASP REST Security Cheat Sheet). */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

const DOCUMENT_SECURITY_HEADERS: Readonly<Record<string, string>> =
  computeSecurityHeaders(SECURITY_HEADER_OPTIONS);
const withHsts = (headers: Readonly<Record<string, string>>) =>
  Object.freeze({ ...headers, 'strict-transport-security': HSTS });
const API_HSTS = withHsts(API_SECURITY_HEADERS);
const DOCUMENT_HSTS = withHsts(DOCUMENT_SECURITY_HEADERS);

/** Whether a request target (path and query, as sent) is the API's rather than the web app's. */
export function isApiUrl(url: string): boolean {
  const end = url.search(/[?#]/);
  const path = end === -1 ? url : url.slice(0, end);
  return path.startsWith('/api/') || path === '/api' || path === '/healthz' || path === '/readyz';
}

/**
 * The security headers of a response to `url`: the API set or the document set, plus HSTS when
 * the response goes out over HTTPS. Used by the hook below and by the answers the framework gives
 * before any hook runs (bad URLs, oversized headers: see plugins/errors.ts).
 */
export function securityHeadersFor(url: string, https: boolean): Readonly<Record<string, string>> {
  if (isApiUrl(url)) return https ? API_HSTS : API_SECURITY_HEADERS;
  return https ? DOCUMENT_HSTS : DOCUMENT_SECURITY_HEADERS;
}

export default fp(
  async function securityHeaders(app: FastifyInstance) {
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(securityHeadersFor(request.url, request.protocol === 'https'));
      done();
    });
  },
  { name: 'security-headers' },
);
