import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type FieldError } from '../lib/errors.ts';

/** Writes the contract's error envelope, with the request id in body and header. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send({
    success: false,
    message: error.message,
    error: {
      code: error.code,
      message: error.message,
      statusCode: error.statusCode,
      requestId: request.id,
      ...(error.errors ? { errors: error.errors } : {}),
      ...(error.suggestion ? { suggestion: error.suggestion } : {}),
    },
    timestamp: new Date().toISOString(),
  });
}

const connectionErrorCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', '57P01', '57P02', '57P03', '53300']);

/** True for errors that mean "the database is not reachable right now" (503, retry later). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string; cause?: unknown } | null;
  if (!e) return false;
  if (typeof e.code === 'string' && (connectionErrorCodes.has(e.code) || e.code.startsWith('08'))) return true;
  if (typeof e.message === 'string' && /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Cannot use a pool after calling end|PGlite is closed/i.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== error && isDatabaseUnavailable(e.cause);
}

function validationFields(error: FastifyError & { validation: unknown[]; validationContext?: string }): FieldError[] {
  if (!hasZodFastifySchemaValidationErrors(error)) return [];
  return error.validation.map((v) => {
    const path = v.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
    return { field: path || error.validationContext || 'body', message: v.message ?? 'Invalid value', code: v.keyword };
  });
}

/** Maps every error to the envelope: known 4xx stay 4xx, a down database is 503, anything else is a bare 500. */
export function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields = validationFields(error as FastifyError & { validation: unknown[] });
    const first = fields[0];
    return new AppError('VALIDATION_ERROR', first ? `${first.field}: ${first.message}` : 'Request validation failed', { errors: fields });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type: send application/json');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('BAD_REQUEST', 'Request body is empty but Content-Type is application/json');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new AppError('BAD_REQUEST', 'Malformed JSON body');
  }
  if (error instanceof SyntaxError && error.statusCode === 400) return new AppError('BAD_REQUEST', 'Malformed JSON body');
  if (isDatabaseUnavailable(error)) {
    return new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable; retry shortly', { headers: { 'Retry-After': '5' } });
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    if (error.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    return new AppError('BAD_REQUEST', error.message);
  }
  return new AppError('INTERNAL_ERROR', 'Internal server error');
}

/** One error handler and one not-found handler for the whole app. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (appError.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return sendError(request, reply, appError);
  });
  app.setNotFoundHandler((request, reply) => sendError(request, reply, new AppError('NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`)));
}
