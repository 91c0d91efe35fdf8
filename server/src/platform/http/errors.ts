/**
 * The one error handler: every failure becomes `{ code, message, details? }` with the status of
 * the error catalogue. Bad input is a 4xx with a readable message, never a 500; unexpected errors
 * are logged with the request id and answered with a generic 500.
 *
 * A failure of the database itself (unreachable, restarting, a broken connection, SQLite locked
 * past its busy timeout: db/errors.ts `isDatabaseUnavailable`) is no fault of the request: it is
 * answered 503 SERVICE_UNAVAILABLE with `Retry-After`, whatever the route, and reported to the
 * outage watcher (db/outage.ts), which logs an outage once instead of once per request.
 *
 * The answers the framework gives before any route or hook runs get the same shape and the same
 * security headers: bad URLs and over-long path parameters (`frameworkErrors`), requests Node's
 * HTTP parser refuses, such as oversized headers (`clientErrorHandler`), and requests arriving
 * while the server shuts down.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4, isIPv6, type Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';
import { AppError, isErrorCode, type ErrorBody, type ErrorCode } from '@learning-hub/core';
import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DATABASE_UNAVAILABLE_MESSAGE, isDatabaseUnavailable } from '../db/errors';
import type { DatabaseOutage } from '../db/outage';
import { isStorageFull, storageFull } from '../storage/file-store';
import { securityHeadersFor } from './security-headers';

const FASTIFY_CODES: Record<string, AppError['code']> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_INVALID_TYPE: 'BAD_REQUEST',
};

/** Other 4xx errors raised by Fastify or plugins keep their status. */
const CODE_BY_STATUS: Record<number, AppError['code']> = {
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  429: 'RATE_LIMITED',
};

const FASTIFY_MESSAGES: Partial<Record<AppError['code'], string>> = {
  INVALID_JSON: 'The request body is not valid JSON.',
  PAYLOAD_TOO_LARGE: 'The request body is too large.',
  UNSUPPORTED_MEDIA_TYPE: 'This content type is not supported; send application/json.',
};

function toAppError(error: FastifyError | Error, request: FastifyRequest): AppError | null {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation.map((v) => ({
      path: [error.validationContext, ...v.instancePath.split('/').filter(Boolean)]
        .filter(Boolean)
        .join('.'),
      message: v.message ?? 'Invalid value',
    }));
    const first = issues[0];
    const message = first ? first.message : 'The request is invalid.';
    return new AppError('VALIDATION_ERROR', message, { issues });
  }
  // A full disk or database (ENOSPC, EDQUOT, SQLITE_FULL, PostgreSQL's disk_full) wherever it
  // surfaced: 507 in words a person can act on, not a 500 (storage/file-store.ts).
  if (isStorageFull(error)) return storageFull();
  const fe = error as FastifyError;
  // PostgreSQL refusing a value (a NUL in text, text too long): bad input that validation let
  // through. A clear 400 rather than a 500.
  if (fe.code === '22021' || fe.code === '22P05' || fe.code === '22001') {
    return new AppError('BAD_REQUEST', 'The request contains text that cannot be stored.');
  }
  const mapped = fe.code ? FASTIFY_CODES[fe.code] : undefined;
  if (mapped) return new AppError(mapped, FASTIFY_MESSAGES[mapped] ?? fe.message);
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    const code = isErrorCode(fe.code) ? fe.code : (CODE_BY_STATUS[fe.statusCode] ?? 'BAD_REQUEST');
    return new AppError(code, fe.message);
  }
  void request;
  return null;
}

/** Adds the spec's `{ success: false, error }` to the body of sign-in routes (spec §7). */
function shape(request: FastifyRequest, body: ErrorBody): Record<string, unknown> {
  return request.routeOptions.config?.loginRoute
    ? { success: false, error: body.message, ...body }
    : { ...body };
}

/** Seconds a 503 asks the client to wait before trying again (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 5;

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  if (error.status === 401) reply.header('www-authenticate', 'Bearer');
  if (error.status === 503 && !reply.hasHeader('retry-after')) {
    reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  }
  // Every 429 says when to come back: its `details.retryAfter` (seconds), or the route's header.
  if (error.status === 429 && !reply.hasHeader('retry-after')) {
    const wait = (error.details as { retryAfter?: unknown } | undefined)?.retryAfter;
    reply.header(
      'retry-after',
      String(typeof wait === 'number' && wait >= 0 ? Math.ceil(wait) : RETRY_AFTER_SECONDS),
    );
  }
  return reply.code(error.status).send(shape(request, error.toBody()));
}

/** What TRUST_PROXY may be (see config.ts). */
export type TrustProxySetting = boolean | number | string | readonly string[];

/**
 * Whether a request came over HTTPS, for answers Fastify gives before it builds its own request
 * (whose `request.protocol` would ignore TRUST_PROXY there): over TLS, or from a trusted proxy
 * whose last X-Forwarded-Proto says `https`. The peer is trusted as Fastify trusts the nearest
 * hop: `true`, a hop count of 1 or more, or an address or subnet in the list.
 */
export function createHttpsCheck(trustProxy: TrustProxySetting): (raw: IncomingMessage) => boolean {
  const trusts = trustedPeer(trustProxy);
  return (raw) => {
    if ((raw.socket as { encrypted?: boolean } | undefined)?.encrypted) return true;
    const forwarded = raw.headers['x-forwarded-proto'];
    if (typeof forwarded !== 'string' || !trusts(raw.socket?.remoteAddress)) return false;
    return forwarded.slice(forwarded.lastIndexOf(',') + 1).trim() === 'https';
  };
}

/**
 * TRUST_PROXY as Fastify's `trustProxy` option. Fastify 5 ignores a bare number (it answers with
 * the socket's address and protocol, as if no proxy were trusted), so a hop count becomes the
 * function it does honour: the nearest `hops` hops are trusted, whatever their addresses, and
 * `request.ip` is the address `hops` entries from the end of X-Forwarded-For.
 */
export function fastifyTrustProxy(
  trustProxy: TrustProxySetting,
): boolean | string | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy === 'number') {
    const hops = trustProxy;
    return (_address, hop) => hop < hops;
  }
  return typeof trustProxy === 'string' || typeof trustProxy === 'boolean'
    ? trustProxy
    : [...trustProxy];
}

function trustedPeer(trustProxy: TrustProxySetting): (address: string | undefined) => boolean {
  if (trustProxy === true) return () => true;
  if (!trustProxy) return () => false;
  // A hop count says every peer is a proxy (the server is reachable only through them), as
  // `fastifyTrustProxy` tells Fastify.
  if (typeof trustProxy === 'number') return () => trustProxy > 0;
  const list = new BlockList();
  const entries = typeof trustProxy === 'string' ? trustProxy.split(',') : trustProxy;
  for (const entry of entries) {
    const [address = '', mask] = entry.trim().split('/');
    const type = isIPv6(address) ? 'ipv6' : 'ipv4';
    if (!isIPv4(address) && !isIPv6(address)) continue;
    if (mask === undefined) list.addAddress(address, type);
    else list.addSubnet(address, prefixLength(mask), type);
  }
  return (address) => {
    if (!address) return false;
    if (isIPv4(address)) return list.check(address, 'ipv4');
    if (!isIPv6(address)) return false;
    if (list.check(address, 'ipv6')) return true;
    // An IPv4 peer on a dual-stack socket (`::ffff:10.0.0.1`) matches IPv4 entries.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
    return mapped !== undefined && list.check(mapped, 'ipv4');
  };
}

/** `24` or `255.255.255.0` → 24. */
function prefixLength(mask: string): number {
  if (!mask.includes('.')) return Number(mask);
  return mask
    .split('.')
    .reduce((bits, octet) => bits + (Number(octet) >>> 0).toString(2).replace(/0/g, '').length, 0);
}

const FRAMEWORK_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  FST_ERR_BAD_URL: {
    code: 'BAD_REQUEST',
    message: 'The address is not a valid URL (check its percent-encoding).',
  },
  FST_ERR_MAX_PARAM_LENGTH: {
    code: 'URI_TOO_LONG',
    message: 'A part of the address is too long.',
  },
};

/**
 * Fastify's `frameworkErrors`: the router refused the URL before any hook ran, so the request id
 * and security headers are set here.
 */
export function createFrameworkErrorHandler(
  isHttps: (raw: IncomingMessage) => boolean,
): NonNullable<FastifyServerOptions['frameworkErrors']> {
  return (error, request, reply) => {
    const known = FRAMEWORK_ERRORS[error.code];
    reply.header('x-request-id', request.id);
    reply.headers(securityHeadersFor(request.url, isHttps(request.raw)));
    if (known) {
      request.log.info({ code: error.code }, 'request refused by the router');
      void sendError(request, reply, new AppError(known.code, known.message));
      return;
    }
    request.log.error({ err: error }, 'unexpected framework error');
    void sendError(
      request,
      reply,
      new AppError('INTERNAL_ERROR', `An unexpected error occurred. Reference: ${request.id}`),
    );
  };
}

const CLIENT_ERRORS: Record<string, { code: ErrorCode; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    code: 'HEADERS_TOO_LARGE',
    message: 'The request headers are too large.',
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'REQUEST_TIMEOUT',
    message: 'The request took too long to arrive.',
  },
};
const NOT_HTTP = { code: 'BAD_REQUEST', message: 'The request is not valid HTTP.' } as const;

/**
 * Fastify's `clientErrorHandler`: Node's HTTP parser refused the request (headers over
 * `maxHeaderSize`, a malformed request line or header, a timeout) before Fastify saw it. There is
 * no request, only the socket, so the answer is written by hand: `{ code, message }` with the API
 * security headers, HSTS when the connection itself is TLS (the headers, X-Forwarded-Proto
 * included, could not be read), and `Connection: close` since the stream cannot be trusted past
 * the error.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: Error & { code?: string },
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already under way on this connection (keep-alive) cannot be followed by another.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && !inFlight?.headersSent) {
    const known = (error.code && CLIENT_ERRORS[error.code]) || NOT_HTTP;
    const status = new AppError(known.code, known.message).status;
    const id = randomUUID();
    const body = JSON.stringify({ code: known.code, message: known.message });
    const headers: Record<string, string | number> = {
      ...securityHeadersFor(
        '/api/',
        (socket as Socket & { encrypted?: boolean }).encrypted === true,
      ),
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'x-request-id': id,
      connection: 'close',
    };
    this.log.info({ code: error.code, requestId: id }, 'request refused by the HTTP parser');
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\n` +
        Object.entries(headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('') +
        `\r\n${body}`,
    );
  }
  socket.destroy(error);
}

export default fp(
  async function errorsPlugin(app: FastifyInstance, options: { outage?: DatabaseOutage }) {
    // Fastify's own 503 while closing (`return503OnClosing`) has its own shape and no headers.
    let closing = false;
    app.addHook('preClose', (done) => {
      closing = true;
      done();
    });
    app.addHook('onRequest', (_request, reply, done) => {
      if (!closing) return done();
      reply.header('connection', 'close');
      done(new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down; try again shortly.'));
    });

    app.setErrorHandler((error: FastifyError | Error, request, reply) => {
      if (!(error instanceof AppError) && isDatabaseUnavailable(error)) {
        // Logged once per outage by the watcher; each request only at debug.
        if (!options.outage?.report(error, 'a request')) {
          request.log.warn({ err: error }, 'the database is not reachable');
        } else request.log.debug({ err: error }, 'the database is not reachable');
        return sendError(
          request,
          reply,
          new AppError('SERVICE_UNAVAILABLE', DATABASE_UNAVAILABLE_MESSAGE),
        );
      }
      const appError = toAppError(error, request);
      if (appError) {
        // A 503 says so on purpose (shutting down, a provider or the database away): not a fault.
        if (appError.status === 503) request.log.info({ err: error }, 'request refused for now');
        else if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
        return sendError(request, reply, appError);
      }
      request.log.error({ err: error }, 'unexpected error');
      return reply.code(500).send(
        shape(request, {
          code: 'INTERNAL_ERROR',
          message: `An unexpected error occurred. Reference: ${request.id}`,
          details: { requestId: request.id },
        }),
      );
    });
  },
  { name: 'errors' },
);
