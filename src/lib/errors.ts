import { isId } from './ids.ts';
/** One error type for the whole service; the code decides the HTTP status. */

export const errorStatus = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  INVALID_CREDENTIALS: 401,
  TWO_FACTOR_REQUIRED: 401,
  CSRF: 403,
  FORBIDDEN: 403,
  PROJECT_DISABLED: 403,
  DOMAIN_NOT_VERIFIED: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  GONE: 410,
  REQUEST_TIMEOUT: 408,
  CONFLICT: 409,
  IDEMPOTENCY_KEY_IN_PROGRESS: 409,
  CHECK_FAILED: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  VALIDATION_ERROR: 422,
  IDEMPOTENCY_KEY_MISMATCH: 422,
  RATE_LIMIT_EXCEEDED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export interface FieldError {
  field: string;
  message: string;
  code: string;
}

export interface AppErrorOptions {
  errors?: FieldError[];
  suggestion?: string;
  headers?: Record<string, string>;
  /**
   * A status other than the code's usual one (TWO_FACTOR_REQUIRED is 401 at sign-in, 403 on a project that requires
   * it).
   */
  status?: number;
}

export class AppError extends Error {
  override name = 'AppError';
  readonly statusCode: number;
  readonly errors: FieldError[] | undefined;
  readonly suggestion: string | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(
    readonly code: ErrorCode,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message);
    this.statusCode = options.status ?? errorStatus[code];
    this.errors = options.errors;
    this.suggestion = options.suggestion;
    this.headers = options.headers;
  }
}

/** The 404 every missing or foreign resource gets: same body whether it exists elsewhere or never did. */
export function notFound(resource: string): AppError {
  return new AppError('NOT_FOUND', `${resource} not found`);
}

/**
 * The row `find` returns for a resource id, or the 404 of `resource`: the same answer for an id that is not a UUID
 * (asked of no one), one that never existed and one of another project.
 */
export async function findOr404<T>(resource: string, id: string, find: () => Promise<T | null>): Promise<T> {
  const row = isId(id) ? await find() : null;
  if (!row) throw notFound(resource);
  return row;
}

/** A 422 for one field, for rules zod schemas cannot express. */
export function validationError(field: string, message: string, code = 'invalid'): AppError {
  return new AppError('VALIDATION_ERROR', message, { errors: [{ field, message, code }] });
}
