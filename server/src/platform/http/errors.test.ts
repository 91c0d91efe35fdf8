/**
 * The answers given before any route or hook runs, over real HTTP (`app.inject` skips Node's
 * HTTP parser): oversized headers, requests that are not HTTP, bad URLs, over-long parameters and
 * requests while the server shuts down all answer `{ code, message }` with the security headers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestApp,
  testDatabaseAvailable,
  TEST_DB_KIND,
  type TestContext,
} from '../../test/helpers';
import { portOf, rawRequest, type RawResponse } from '../../test/raw-http';

const available = await testDatabaseAvailable();

const API_CSP = "default-src 'none'; frame-ancestors 'none'";

function expectErrorShape(res: RawResponse, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(['code', 'message']);
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['x-request-id']).toBeTruthy();
  // Plain HTTP: no HSTS.
  expect(res.headers).not.toHaveProperty('strict-transport-security');
}

function expectApiHeaders(res: RawResponse) {
  expect(res.headers['content-security-policy']).toBe(API_CSP);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['referrer-policy']).toBe('no-referrer');
}

const get = (path: string, extra = '') =>
  `GET ${path} HTTP/1.1\r\nHost: localhost\r\n${extra}Connection: close\r\n\r\n`;

describe.skipIf(!available)(`framework-level errors over real HTTP (${TEST_DB_KIND})`, () => {
  let ctx: TestContext;
  let port: number;

  beforeAll(async () => {
    ctx = await createTestApp();
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    port = portOf(ctx.app);
  });
  afterAll(async () => {
    await ctx?.close();
  });

  it('answers oversized headers with a 431 of ours (Node parser, clientError)', async () => {
    const res = await rawRequest(port, get('/api/auth/me', `X-Big: ${'a'.repeat(20_000)}\r\n`));
    expectErrorShape(res, 431, 'HEADERS_TOO_LARGE');
    expectApiHeaders(res);
    expect(res.headers.connection).toBe('close');
  });

  it('answers a request that is not HTTP with a 400 of ours', async () => {
    for (const request of ['NOT HTTP AT ALL\r\n\r\n', 'GET / HTTP/1.1\r\nBad Header\r\n\r\n']) {
      const res = await rawRequest(port, request);
      expectErrorShape(res, 400, 'BAD_REQUEST');
      expectApiHeaders(res);
    }
  });

  it('answers malformed percent-encoding with a 400 of ours (FST_ERR_BAD_URL)', async () => {
    const page = await rawRequest(port, get('/departments/%'));
    expectErrorShape(page, 400, 'BAD_REQUEST');
    // A page address: the document set (same-origin CSP).
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");

    for (const path of ['/api/auth/me%', '/api/admin/users/%E0%A4%A', '/api/%zz?x=1']) {
      const res = await rawRequest(port, get(path));
      expectErrorShape(res, 400, 'BAD_REQUEST');
      expectApiHeaders(res);
    }
  });

  it('answers an over-long path parameter with a 414 of ours (FST_ERR_MAX_PARAM_LENGTH)', async () => {
    const res = await rawRequest(port, get(`/api/admin/users/${'x'.repeat(500)}`));
    expectErrorShape(res, 414, 'URI_TOO_LONG');
    expectApiHeaders(res);
  });

  it('keeps serving after all of these', async () => {
    const res = await rawRequest(port, get('/healthz'));
    expect(res.status).toBe(200);
  });
});

describe.skipIf(!available)(`shutting down (${TEST_DB_KIND})`, () => {
  it('answers requests that arrive while closing with a 503 of ours', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const ctx = await createTestApp({
      beforeReady: (app) => {
        // Holds the connection busy so that closing waits for it.
        app.get('/test-hold', async () => {
          await held;
          return { ok: true };
        });
      },
    });
    try {
      await ctx.app.listen({ port: 0, host: '127.0.0.1' });
      const port = portOf(ctx.app);
      const { connect } = await import('node:net');
      const socket = connect({ port, host: '127.0.0.1' });
      let received = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        received += chunk;
      });
      await new Promise<void>((resolve) => socket.on('connect', resolve));
      socket.write('GET /test-hold HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 100));
      const closed = ctx.app.close();
      await new Promise((resolve) => setTimeout(resolve, 100));
      // Same keep-alive connection, second request, while the server is closing.
      socket.write('GET /api/auth/me HTTP/1.1\r\nHost: localhost\r\n\r\n');
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      await closed;
      await new Promise((resolve) => setTimeout(resolve, 100));
      socket.destroy();
      const second = received.slice(received.indexOf('HTTP/1.1', 1));
      const { parseResponse } = await import('../../test/raw-http');
      const res = parseResponse(second);
      expect(res, received).not.toBeNull();
      expectErrorShape(res!, 503, 'SERVICE_UNAVAILABLE');
      expectApiHeaders(res!);
    } finally {
      release();
      await ctx.close().catch(() => undefined);
    }
  });
});
