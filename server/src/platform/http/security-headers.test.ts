import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  computeSecurityHeaders,
  HSTS,
  SECURITY_HEADER_OPTIONS,
  SHELL_GREETING_SCRIPT_HASH,
} from './security-headers';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { createTestApp, testDatabaseAvailable, TEST_DB_KIND } from '../../test/helpers';
import { rawRequest } from '../../test/raw-http';

const available = await testDatabaseAvailable();

describe('security headers', () => {
  it('computes helmet headers with a strict same-origin CSP', () => {
    const headers = computeSecurityHeaders(SECURITY_HEADER_OPTIONS);
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    expect(headers['content-security-policy']).toContain("script-src 'self'");
    expect(headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers).not.toHaveProperty('x-powered-by');
    // HSTS is added per response, over HTTPS only.
    expect(headers).not.toHaveProperty('strict-transport-security');
  });

  it("allows web/index.html's one inline script by its hash, and no other inline script", () => {
    const html = readFileSync(new URL('../../../../web/index.html', import.meta.url), 'utf8');
    const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(inline).toHaveLength(1);
    const hash = `'sha256-${createHash('sha256').update(inline[0]!).digest('base64')}'`;
    expect(hash).toBe(SHELL_GREETING_SCRIPT_HASH);
    const csp = computeSecurityHeaders(SECURITY_HEADER_OPTIONS)['content-security-policy'];
    expect(csp).toContain(`script-src 'self' ${hash}`);
    expect(csp).not.toContain("unsafe-inline'; script");
  });

  it.skipIf(!available)(
    `sets the API set on every API response, errors included (${TEST_DB_KIND})`,
    async () => {
      const ctx = await createTestApp();
      try {
        for (const url of ['/healthz', '/api/auth/me', '/api/missing', '/api/auth/config']) {
          const res = await ctx.app.inject({ method: 'GET', url });
          expect(res.headers['cache-control'], url).toBe('no-store');
          expect(res.headers['content-security-policy'], url).toBe(
            "default-src 'none'; frame-ancestors 'none'",
          );
          expect(res.headers['x-content-type-options'], url).toBe('nosniff');
          expect(res.headers['x-frame-options'], url).toBe('DENY');
          expect(res.headers['x-request-id'], url).toBeTruthy();
        }
      } finally {
        await ctx.close();
      }
    },
  );

  // A page path (no web build in tests: the JSON 404 with the document set), an API path, a path
  // the router refuses (frameworkErrors) and an API 404.
  const URLS = ['/login', '/api/auth/me', '/api/auth/%', '/departments/%', '/api/missing'];

  it.skipIf(!available)(
    `sends HSTS only over HTTPS: never over plain HTTP, X-Forwarded-Proto ignored without TRUST_PROXY (${TEST_DB_KIND})`,
    async () => {
      const ctx = await createTestApp();
      try {
        for (const url of URLS) {
          for (const headers of [{}, { 'x-forwarded-proto': 'https' }]) {
            const res = await ctx.app.inject({ method: 'GET', url, headers });
            expect(res.headers['x-content-type-options'], url).toBe('nosniff');
            expect(res.headers, url).not.toHaveProperty('strict-transport-security');
          }
        }
      } finally {
        await ctx.close();
      }
    },
  );

  // [TRUST_PROXY, the peer's address, X-Forwarded-Proto, HSTS expected]
  const PROXIED: [string, string, string, boolean][] = [
    ['true', '127.0.0.1', 'https', true],
    ['true', '127.0.0.1', 'http', false],
    ['true', '127.0.0.1', 'http, https', true],
    ['true', '127.0.0.1', 'https, http', false],
    // A hop count trusts the nearest hops whatever their address.
    ['1', '10.1.2.3', 'https', true],
    ['1', '10.1.2.3', 'http', false],
    ['127.0.0.1', '127.0.0.1', 'https', true],
    ['127.0.0.1', '::ffff:127.0.0.1', 'https', true],
    ['127.0.0.1', '10.1.2.3', 'https', false],
    ['10.0.0.0/8', '10.1.2.3', 'https', true],
    ['10.0.0.0/255.0.0.0', '10.1.2.3', 'https', true],
    ['10.0.0.0/8', '11.1.2.3', 'https', false],
    ['192.168.0.1, ::1', '::1', 'https', true],
    ['fd00::/8', 'fd12::1', 'https', true],
    ['fd00::/8', 'fe12::1', 'https', false],
  ];

  const settings = [...new Set(PROXIED.map(([trustProxy]) => trustProxy))];
  it.each(settings)(
    'sends HSTS behind a trusted proxy that says https, on every kind of response (TRUST_PROXY=%s)',
    async (trustProxy) => {
      // These answers never reach the database (no token: 401 before any lookup).
      const app = await buildApp({
        config: loadConfig({
          NODE_ENV: 'test',
          WEB_DIST_DIR: '/nonexistent',
          TRUST_PROXY: trustProxy,
        }),
        db: {} as never,
        logger: false,
      });
      try {
        for (const [, remoteAddress, proto, expected] of PROXIED.filter(
          ([setting]) => setting === trustProxy,
        )) {
          for (const url of URLS) {
            const res = await app.inject({
              method: 'GET',
              url,
              remoteAddress,
              headers: { 'x-forwarded-proto': proto },
            });
            const label = `${remoteAddress} ${proto} ${url}`;
            expect(res.headers['x-content-type-options'], label).toBe('nosniff');
            expect(res.headers['strict-transport-security'], label).toBe(
              expected ? HSTS : undefined,
            );
          }
        }
      } finally {
        await app.close();
      }
    },
  );

  it.skipIf(!available)(
    `sends HSTS over a direct TLS connection, framework and parser errors included (${TEST_DB_KIND})`,
    async () => {
      const ctx = await createTestApp();
      // The app's HTTP server behind TLS, as with Fastify's https option.
      const tls: TlsServer = createTlsServer({ key: TEST_KEY, cert: TEST_CERT }, (socket) => {
        ctx.app.server.emit('connection', socket);
      });
      try {
        await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
        const port = (tls.address() as AddressInfo).port;
        const get = (path: string, extra = '') =>
          `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}Connection: close\r\n\r\n`;
        for (const [request, status] of [
          [get('/api/auth/me'), 401],
          [get('/login'), 404],
          [get('/api/auth/%'), 400],
          [get('/departments/%'), 400],
          [get('/api/auth/me', `X-Big: ${'a'.repeat(20_000)}\r\n`), 431],
        ] as const) {
          const res = await rawRequest(port, request, { tls: true });
          expect(res.status, request.slice(0, 40)).toBe(status);
          expect(res.headers['strict-transport-security'], request.slice(0, 40)).toBe(HSTS);
        }
      } finally {
        await new Promise((resolve) => tls.close(resolve));
        await ctx.close();
      }
    },
  );
});

/** A throwaway self-signed certificate for localhost (P-256), made for this test only. */
const TEST_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgs9VbHrCY7w5n3NmF
qjP5Je0EaX3Ml/V4jw/o8ZXEMcOhRANCAATrdFdCoxO7mQWyIRpQUT4gUaevfN8H
BfA8JR3KizGJLBeeVs5iofvYhujG5gUd2tyz1WR+MEGzRTHsmsBJxG1G
-----END PRIVATE KEY-----`;
const TEST_CERT = `-----BEGIN CERTIFICATE-----
MIIBmzCCAUGgAwIBAgIUKqiRnFlHz/Ndkv1XPRHoZd1TTjUwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyMzE2MTczNloYDzIxMjYxMDMw
MTYxNzM2WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAATrdFdCoxO7mQWyIRpQUT4gUaevfN8HBfA8JR3KizGJLBeeVs5iofvY
hujG5gUd2tyz1WR+MEGzRTHsmsBJxG1Go28wbTAdBgNVHQ4EFgQU0Dqf7jEnQAgv
IA3HRUTlONLhCCcwHwYDVR0jBBgwFoAU0Dqf7jEnQAgvIA3HRUTlONLhCCcwDwYD
VR0TAQH/BAUwAwEB/zAaBgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwCgYIKoZI
zj0EAwIDSAAwRQIgPH8N7YtU6g6US688t+gK4A+m9jcMcz7i3UeLunSuhdYCIQCx
z7kOH7vlBiKiIb7I4lOYrSC+82a5pdfwe/nKaA8glw==
-----END CERTIFICATE-----`;
