import { z } from 'zod';

/** Body limit of every route without one of its own (fastify's default). */
export const DEFAULT_BODY_LIMIT = 1024 * 1024;

/** Body limit of the routes that take attachments: 10 MB of files is ~13.4 MB of base64, and the margin
 * lets a little over 10 MB get a clear 422 rather than a 413. */
export const ATTACHMENT_BODY_LIMIT = 20 * 1024 * 1024;

/** The success envelope every JSON endpoint answers with. */
export function ok<T>(data: T): { success: true; data: T } {
  return { success: true, data };
}

/** Response schema of `{success: true, data}` around a data schema. */
export function envelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

/** Response schema of a list: items, cursor, hasMore and the total of every match. */
export function listEnvelope<T extends z.ZodType>(item: T) {
  return envelope(
    z.object({
      items: z.array(item),
      nextCursor: z.string().nullable(),
      hasMore: z.boolean(),
      total: z.number().int(),
    }),
  );
}

export const errorEnvelope = z
  .object({
    success: z.literal(false),
    message: z.string(),
    error: z.object({
      code: z.string(),
      message: z.string(),
      statusCode: z.number().int(),
      requestId: z.string(),
      errors: z.array(z.object({ field: z.string(), message: z.string(), code: z.string() })).optional(),
      suggestion: z.string().optional(),
    }),
    timestamp: z.string(),
  })
  .meta({ id: 'Error' });

/**
 * The error responses a route answers itself (404 for its id, 409 for its conflicts…), for the OpenAPI
 * document. Those every route of a kind shares (401/403 of auth, 400/413/415 of bodies, 409/422 of
 * Idempotency-Key, 422 of validation, 429, 500, 503) are added by plugins/openapi.ts from the route's
 * config and schema, so they cannot drift from what the plugins do.
 */
export function errors<C extends number>(...codes: C[]): Record<C, typeof errorEnvelope> {
  return Object.fromEntries(codes.map((code) => [code, errorEnvelope])) as Record<C, typeof errorEnvelope>;
}

/** A broad set of error responses (routes written before `errors()`; prefer `errors(404, …)`). */
export const errorResponses = {
  400: errorEnvelope,
  401: errorEnvelope,
  403: errorEnvelope,
  404: errorEnvelope,
  409: errorEnvelope,
  413: errorEnvelope,
  422: errorEnvelope,
  429: errorEnvelope,
} as const;

export const idParams = z.object({ id: z.string() });

export const isoDate = z.string().meta({ format: 'date-time' });

/** ISO 8601 UTC with milliseconds, or null. */
export function iso(date: Date): string;
export function iso(date: Date | null): string | null;
export function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

/** `filename*=` (RFC 6266) with a plain ASCII fallback, so any received name is a safe header value. */
export function attachmentDisposition(filename: string | null): string {
  const name = filename ?? 'attachment';
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}
