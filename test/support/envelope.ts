/** Assertions on the contract's envelopes, shared by the HTTP tests. */
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { z } from 'zod';

export const errorShape = z.object({
  success: z.literal(false),
  message: z.string(),
  error: z.object({
    code: z.string(),
    message: z.string(),
    statusCode: z.number(),
    requestId: z.string().startsWith('req_'),
    errors: z.array(z.object({ field: z.string(), message: z.string(), code: z.string() })).optional(),
    suggestion: z.string().optional(),
  }),
  timestamp: z.iso.datetime({ offset: false }),
});

export type ErrorBody = z.infer<typeof errorShape>;

/** The error body of Resend's API under /resend. */
export const resendErrorShape = z
  .object({ statusCode: z.number().int(), name: z.string(), message: z.string() })
  .strict();

/** Checks status, envelope and code of an error response, and returns its body. */
export function expectError(res: LightMyRequestResponse, status: number, code: string): ErrorBody {
  expect(res.statusCode, res.body).toBe(status);
  const body = errorShape.parse(res.json());
  expect(body.error.code).toBe(code);
  return body;
}

/** A 422 that names `field` among its errors. */
export function expectValidation(res: LightMyRequestResponse, field: string): ErrorBody {
  const body = expectError(res, 422, 'VALIDATION_ERROR');
  expect(
    body.error.errors?.map((e) => e.field),
    res.body,
  ).toContain(field);
  return body;
}

/** An error body without what differs on every request (request id, time): for "same body" comparisons. */
export function stableError(res: LightMyRequestResponse): unknown {
  const body = errorShape.parse(res.json());
  return { ...body, timestamp: undefined, error: { ...body.error, requestId: undefined } };
}
