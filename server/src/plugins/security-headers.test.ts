import { describe, expect, it } from 'vitest';
import { computeSecurityHeaders, SECURITY_HEADER_OPTIONS } from './security-headers';
import { createTestApp, testDatabaseAvailable, TEST_DB_KIND } from '../test/helpers';

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
});
