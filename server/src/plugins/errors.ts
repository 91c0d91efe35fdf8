/**
 * The one error handler: every failure becomes `{ code, message, details? }` with the status of
 * the error catalogue. Bad input is a 4xx with a readable message, never a 500; unexpected errors
 * are logged with the request id and answered with a generic 500.
 */
import { AppError, isErrorCode, type ErrorBody } from '@learning-hub/core';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';

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

export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError) {
  if (error.status === 401) reply.header('www-authenticate', 'Bearer');
  return reply.code(error.status).send(shape(request, error.toBody()));
}

export default fp(
  async function errorsPlugin(app: FastifyInstance) {
    app.setErrorHandler((error: FastifyError | Error, request, reply) => {
      const appError = toAppError(error, request);
      if (appError) {
        if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
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
