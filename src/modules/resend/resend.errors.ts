// Resend's error body, {statusCode, name, message}, for every error a /resend route raises: Herald's own errors
// (AppError codes) map onto the names Resend's SDKs know.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { AppError, validationError, type ErrorCode } from '../../lib/errors.ts';
import { loggableError } from '../../lib/loggable-error.ts';
import { toAppError } from '../../plugins/error-handler.ts';
import { SENDER_DOMAIN_NOT_ALLOWED } from '../domains/index.ts';

export const resendErrorSchema = z
  .object({
    statusCode: z.number().int(),
    name: z
      .string()
      .describe(
        "Resend's error name: validation_error, missing_api_key, invalid_api_key, not_found, rate_limit_exceeded…",
      ),
    message: z.string(),
  })
  .meta({ id: 'ResendError', description: "An error in Resend's shape" });

export type ResendError = z.infer<typeof resendErrorSchema>;

/** Herald's code → Resend's status and name, where they differ from Herald's status (Resend's error table). */
const byCode: Partial<Record<ErrorCode, { status?: number; name: string }>> = {
  BAD_REQUEST: { name: 'validation_error' },
  VALIDATION_ERROR: { name: 'validation_error' },
  // A key outside its scope (a sender outside its domains is Resend's 403 below).
  FORBIDDEN: { status: 401, name: 'restricted_api_key' },
  PROJECT_DISABLED: { name: 'invalid_api_key' },
  DOMAIN_NOT_VERIFIED: { name: 'validation_error' },
  NOT_FOUND: { name: 'not_found' },
  GONE: { name: 'not_found' },
  CONFLICT: { name: 'validation_error' },
  CHECK_FAILED: { name: 'validation_error' },
  IDEMPOTENCY_KEY_IN_PROGRESS: { name: 'concurrent_idempotent_requests' },
  IDEMPOTENCY_KEY_MISMATCH: { status: 409, name: 'invalid_idempotent_request' },
  PAYLOAD_TOO_LARGE: { name: 'validation_error' },
  URI_TOO_LONG: { name: 'validation_error' },
  UNSUPPORTED_MEDIA_TYPE: { name: 'validation_error' },
  RATE_LIMIT_EXCEEDED: { name: 'rate_limit_exceeded' },
  INTERNAL_ERROR: { name: 'internal_server_error' },
};

/** The Resend error for a Herald error; `authorization` tells a missing key (401) from a wrong one (403). */
export function toResendError(error: AppError, authorization: string | undefined): ResendError {
  if (error.code === 'UNAUTHORIZED') {
    return authorization
      ? { statusCode: 403, name: 'invalid_api_key', message: 'API key is invalid' }
      : { statusCode: 401, name: 'missing_api_key', message: 'Missing API key in the authorization header' };
  }
  // A sender outside the key's domains: Resend's 403 for a from domain the account may not send from.
  if (error.code === 'FORBIDDEN' && error.errors?.some((e) => e.code === SENDER_DOMAIN_NOT_ALLOWED)) {
    return { statusCode: 403, name: 'validation_error', message: error.message };
  }
  if (error.code === 'BAD_REQUEST' && error.message.startsWith('Idempotency-Key')) {
    return { statusCode: 400, name: 'invalid_idempotency_key', message: error.message };
  }
  const mapped = byCode[error.code];
  return {
    statusCode: mapped?.status ?? error.statusCode,
    name: mapped?.name ?? 'application_error',
    message: error.message,
  };
}

/** Sends `error` in Resend's shape (keeping its Retry-After and similar headers). */
export function sendResendError(request: FastifyRequest, reply: FastifyReply, error: AppError): FastifyReply {
  if (error.headers) reply.headers(error.headers);
  const body = toResendError(error, request.headers.authorization);
  return reply.code(body.statusCode).type('application/json; charset=utf-8').send(body);
}

/** The error handler of the /resend routes: Herald's mapping to AppError, then Resend's shape. */
export function handleResendError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const appError = toAppError(error);
  if (appError.statusCode >= 500) request.log.error({ err: loggableError(error) }, 'request failed');
  return sendResendError(request, reply, appError);
}

/** The statuses a /resend route may answer with an error, each documented with Resend's shape. */
const ERROR_STATUSES = [400, 401, 403, 404, 409, 413, 414, 415, 422, 429, 500, 503] as const;

/** Response schemas of every error status, so the document shows Resend's shape rather than Herald's envelope. */
export const resendErrors = Object.fromEntries(ERROR_STATUSES.map((status) => [status, resendErrorSchema])) as Record<
  (typeof ERROR_STATUSES)[number],
  typeof resendErrorSchema
>;

/** A 404 in Resend's words. */
export const notFoundError = (what: string) => new AppError('NOT_FOUND', `${what} not found`);

/**
 * Runs `run`; a 422 it raises is answered in Resend's words, its message naming the Resend field (`fields` maps
 * Herald's field names to Resend's, part by part).
 */
export async function inResendFields<T>(fields: Record<string, string>, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    const first = error instanceof AppError && error.code === 'VALIDATION_ERROR' ? error.errors?.[0] : undefined;
    if (!first) throw error;
    const field = first.field
      .split('.')
      .map((part) => fields[part] ?? part)
      .join('.');
    throw validationError(field, `${field}: ${first.message}`, first.code);
  }
}
