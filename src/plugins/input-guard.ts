import type { FastifyInstance } from 'fastify';
import { AppError, validationError } from '../lib/errors.ts';
import { findJsonProblem } from '../lib/json-guard.ts';

/**
 * Deepest nesting any request may carry (filters reach about 25 levels of JSON, workflow steps a few
 * more); `data` objects have their own, smaller cap in their schema.
 */
export const MAX_REQUEST_DEPTH = 64;

const parts = ['params', 'query', 'body'] as const;

/**
 * Before any schema runs: a `\0` anywhere in the path, query or body (PostgreSQL refuses it in text),
 * nesting past MAX_REQUEST_DEPTH, or a `__proto__` / `constructor` / `prototype` key is a 422 naming the
 * field. One rule at the edge, so no later query, merge or recursion ever sees such input.
 */
export function registerInputGuard(app: FastifyInstance): void {
  // Plain JSON.parse instead of fastify's secure-json-parse: a `__proto__` key then reaches the check
  // below and gets a 422 naming it, rather than a 400 "malformed JSON" (JSON.parse makes it an own
  // property, never a prototype, and nothing reads the body before this hook).
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    if (body === '')
      return done(new AppError('BAD_REQUEST', 'Request body is empty but Content-Type is application/json'), undefined);
    try {
      done(null, JSON.parse(body as string));
    } catch {
      done(new AppError('BAD_REQUEST', 'Malformed JSON body'), undefined);
    }
  });
  app.addHook('preValidation', async (request) => {
    for (const part of parts) {
      const value = request[part];
      if (value === undefined || value === null) continue;
      const problem = findJsonProblem(value, MAX_REQUEST_DEPTH);
      if (problem)
        throw validationError(
          part === 'body' ? problem.path || 'body' : problem.path || part,
          `${problem.path || part}: ${problem.message}`,
          problem.code,
        );
    }
  });
}
