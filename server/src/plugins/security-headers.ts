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

export const SECURITY_HEADER_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      'default-src': ["'self'"],
      'script-src': ["'self'"],
      'style-src': ["'self'", "'unsafe-inline'"],
      'img-src': ["'self'", 'data:', 'blob:'],
      'font-src': ["'self'", 'data:'],
      'connect-src': ["'self'"],
      'upgrade-insecure-requests': null,
    },
  },
};

/** Headers of JSON API responses (OWASP REST Security Cheat Sheet). */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
};

const isApi = (url: string) =>
  url.startsWith('/api/') || url === '/api' || url === '/healthz' || url === '/readyz';

export default fp(
  async function securityHeaders(app: FastifyInstance) {
    const documentHeaders = computeSecurityHeaders(SECURITY_HEADER_OPTIONS);
    app.addHook('onRequest', (request, reply, done) => {
      reply.headers(isApi(request.url) ? API_SECURITY_HEADERS : documentHeaders);
      done();
    });
  },
  { name: 'security-headers' },
);
