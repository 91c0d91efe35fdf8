/**
 * What the server logs about requests: one line per request when its answer has gone
 * (`request completed`: method, URL, host, address, status, time), never a secret. Fastify's own
 * two lines per request (one on arrival, one at the end) are off. Signed file URLs carry their
 * signature and session in the query (`sig`, `sid`: a working link for anyone who reads the
 * log), so logged URLs have them redacted; headers and bodies that hold passwords or tokens are
 * redacted by path.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Redacted wherever they appear in a log line. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.token',
];

const SIGNED_URL_SECRETS = /([?&](?:sig|sid)=)[^&#]*/gi;

/** A URL as it may be logged: the values of its `sig` and `sid` parameters redacted. */
export function loggableUrl(url: string): string {
  return url.replace(SIGNED_URL_SECRETS, '$1[redacted]');
}

/** The app's logger options at `level` (Fastify's `logger`). */
export function loggerOptions(level: string) {
  return {
    level,
    redact: { paths: REDACT, censor: '[redacted]' },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggableUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
    },
  };
}

/** Logs each request once, when its answer has gone (with Fastify's own request lines turned off: `logController` in app.ts). */
export function logEachRequestOnce(app: FastifyInstance): void {
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      { req: request, res: reply, responseTime: reply.elapsedTime },
      'request completed',
    );
    done();
  });
}
