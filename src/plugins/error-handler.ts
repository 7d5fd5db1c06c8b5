import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, type FieldError } from '../lib/errors.ts';
import { newRequestId } from '../lib/ids.ts';
import { loggableError } from '../lib/loggable-error.ts';

/** The contract's error body for an AppError. */
function envelopeOf(requestId: string, error: AppError) {
  return {
    success: false,
    message: error.message,
    error: {
      code: error.code,
      message: error.message,
      statusCode: error.statusCode,
      requestId,
      ...(error.errors ? { errors: error.errors } : {}),
      ...(error.suggestion ? { suggestion: error.suggestion } : {}),
    },
    timestamp: new Date().toISOString(),
  };
}

/** Writes the contract's error envelope, with the request id in body and header. */
export function sendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  reply.header('X-Request-Id', request.id);
  return reply.code(error.statusCode).type('application/json; charset=utf-8').send(envelopeOf(request.id, error));
}

/** What the database clients say when the connection went away (the message is all they give). */
const CONNECTION_LOST = new RegExp(
  [
    'Connection terminated',
    'timeout exceeded when trying to connect',
    'Client has encountered a connection error',
    'Cannot use a pool after calling end',
    'PGlite is closed',
  ].join('|'),
  'i',
);
const connectionErrorCodes = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/** True for errors that mean "the database is not reachable right now" (503, retry later). */
export function isDatabaseUnavailable(error: unknown): boolean {
  const e = error as { code?: string; message?: string; cause?: unknown } | null;
  if (!e) return false;
  if (typeof e.code === 'string' && (connectionErrorCodes.has(e.code) || e.code.startsWith('08'))) return true;
  if (typeof e.message === 'string' && CONNECTION_LOST.test(e.message)) return true;
  return e.cause !== undefined && e.cause !== error && isDatabaseUnavailable(e.cause);
}

function validationFields(error: FastifyError & { validation: unknown[]; validationContext?: string }): FieldError[] {
  if (!hasZodFastifySchemaValidationErrors(error)) return [];
  return error.validation.map((v) => {
    const path = v.instancePath.replace(/^\//, '').split('/').filter(Boolean).join('.');
    // A custom check may name its reason (params.reason), e.g. too_deep; otherwise zod's issue code.
    const reason = (v.params as { params?: { reason?: unknown } } | undefined)?.params?.reason;
    return {
      field: path || error.validationContext || 'body',
      message: v.message ?? 'Invalid value',
      code: typeof reason === 'string' ? reason : v.keyword,
    };
  });
}

/** The errors fastify raises itself, by code, as the contract's errors. */
const frameworkErrors: Record<string, () => AppError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large'),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () =>
    new AppError('UNSUPPORTED_MEDIA_TYPE', 'Unsupported Content-Type: send application/json', {
      suggestion:
        'Send the body as JSON with Content-Type: application/json (POST /contacts/import also takes text/csv).',
    }),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new AppError('BAD_REQUEST', 'Request body is empty but Content-Type is application/json'),
  FST_ERR_CTP_INVALID_JSON_BODY: () => new AppError('BAD_REQUEST', 'Malformed JSON body'),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new AppError('BAD_REQUEST', 'Content-Length does not match the body'),
  FST_ERR_MAX_PARAM_LENGTH: () =>
    new AppError('URI_TOO_LONG', 'A path segment is too long', {
      suggestion: 'Ids are 36 characters; link tokens are shorter than 2,048.',
    }),
  FST_ERR_BAD_URL: () => new AppError('BAD_REQUEST', 'Malformed URL'),
};

/** Maps every error to the envelope: known 4xx stay 4xx, a down database is 503, anything else is a bare 500. */
export function toAppError(error: FastifyError): AppError {
  if (error instanceof AppError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const fields = validationFields(error as FastifyError & { validation: unknown[] });
    const first = fields[0];
    return new AppError('VALIDATION_ERROR', first ? `${first.field}: ${first.message}` : 'Request validation failed', {
      errors: fields,
    });
  }
  const known = frameworkErrors[error.code];
  if (known) return known();
  if (error instanceof SyntaxError && error.statusCode === 400)
    return new AppError('BAD_REQUEST', 'Malformed JSON body');
  if (isDatabaseUnavailable(error)) {
    return new AppError('SERVICE_UNAVAILABLE', 'The database is unavailable; retry shortly', {
      headers: { 'Retry-After': '5' },
    });
  }
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    if (error.statusCode === 413) return new AppError('PAYLOAD_TOO_LARGE', 'Request body is too large');
    return new AppError('BAD_REQUEST', error.message);
  }
  return new AppError('INTERNAL_ERROR', 'Internal server error');
}

/** Writes an error in a shape of its own (an API compatible with another service's answers its errors its way). */
export type ErrorWriter = (request: FastifyRequest, reply: FastifyReply, error: AppError) => FastifyReply;

declare module 'fastify' {
  interface FastifyInstance {
    /** Error writers by path prefix, for the errors raised before routing (see answerErrorsUnder). */
    prefixErrorWriters: Map<string, ErrorWriter>;
  }
}

/**
 * Errors raised before routing on paths under `prefix` are written by `write`: routes set their own error
 * handler, but a malformed URL or an overlong path segment reaches no route.
 */
export function answerErrorsUnder(app: FastifyInstance, prefix: string, write: ErrorWriter): void {
  app.prefixErrorWriters.set(prefix, write);
}

function writerFor(request: FastifyRequest): ErrorWriter {
  const path = request.url.split('?')[0]!;
  for (const [prefix, write] of request.server.prefixErrorWriters ?? []) {
    if (path === prefix || path.startsWith(`${prefix}/`)) return write;
  }
  return sendError;
}

/**
 * Fastify's `frameworkErrors` option: the URL errors it raises before routing (a path segment longer
 * than maxParamLength → 414, a malformed URL → 400) leave in the envelope too (or the shape of their prefix).
 */
export function onFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void writerFor(request)(request, reply, toAppError(error));
}

/**
 * Fastify's `clientErrorHandler` option: errors of the HTTP parser, before any request exists (request
 * timeout, oversized headers, garbage) are written straight to the socket, still as the envelope.
 */
export function onClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const appError =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? new AppError('REQUEST_TIMEOUT', 'The request took too long to arrive')
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? new AppError('HEADERS_TOO_LARGE', 'Request headers are too large')
        : new AppError('BAD_REQUEST', 'Malformed HTTP request');
  const requestId = newRequestId();
  const body = JSON.stringify(envelopeOf(requestId, appError));
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${appError.statusCode} ${STATUS_CODES[appError.statusCode] ?? 'Error'}\r\nContent-Type: ` +
        `application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/**
 * One error handler and one not-found handler for the whole app; while the server closes, requests
 * get a 503 in the envelope (instead of fastify's own 503 body). Fastify's frameworkErrors and
 * clientErrorHandler options point at the two functions above.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.decorate('prefixErrorWriters', new Map<string, ErrorWriter>());
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!closing) return;
    reply.header('Connection', 'close');
    throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down; retry shortly', {
      headers: { 'Retry-After': '1' },
    });
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = toAppError(error);
    if (appError.statusCode >= 500) request.log.error({ err: loggableError(error) }, 'request failed');
    return sendError(request, reply, appError);
  });
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const shown = path.length > 200 ? `${path.slice(0, 200)}…` : path;
    return sendError(request, reply, new AppError('NOT_FOUND', `Route ${request.method} ${shown} not found`));
  });
}
