import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { emailAddressSchema as addressSchema, normalizeEmail } from '../../lib/email-address.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { envelope, errors, iso, isoDate, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery, toPage } from '../../lib/pagination.ts';
import { projectOf } from '../../plugins/auth.ts';
import * as repo from './suppressions.repo.ts';
import { addSuppression, removeSuppression } from './suppressions.service.ts';

const reason = z.enum(['BOUNCE', 'COMPLAINT', 'MANUAL']);
const suppressionSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    reason,
    detail: z.string().nullable(),
    emailId: z.string().nullable(),
    createdAt: isoDate,
  })
  .meta({ id: 'Suppression' });

function toView(row: repo.SuppressionRow): z.infer<typeof suppressionSchema> {
  return {
    id: row.id,
    email: row.email,
    reason: row.reason,
    detail: row.detail,
    emailId: row.emailId,
    createdAt: iso(row.createdAt),
  };
}

/** The project's suppression list: addresses never sent to (hard bounces, complaints, manual). */
export function suppressionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Suppressions'];

    app.get(
      '/suppressions',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List suppressed addresses',
          operationId: 'listSuppressions',
          querystring: paginationQuery.extend({ reason: reason.optional() }),
          response: { 200: listEnvelope(suppressionSchema), ...errors() },
        },
      },
      async (request) => {
        const { rows, total } = await repo.listSuppressions(ctx.db, projectOf(request), request.query);
        return ok(toPage(rows, request.query.limit, total, toView));
      },
    );

    app.post(
      '/suppressions',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Suppress an address',
          operationId: 'addSuppression',
          description: 'An address already suppressed is a 409.',
          body: z.object({
            email: addressSchema,
            reason: reason.default('MANUAL'),
            detail: z.string().max(500).optional(),
          }),
          response: { 201: envelope(suppressionSchema), ...errors(409) },
        },
      },
      async (request, reply) => {
        const projectId = projectOf(request);
        const { email, reason, detail } = request.body;
        const created = await addSuppression({ db: ctx.db, projectId, email, reason, detail: detail ?? null });
        if (!created) throw new AppError('CONFLICT', `${request.body.email} is already suppressed`);
        reply.code(201);
        return ok(toView(created));
      },
    );

    app.delete(
      '/suppressions/:email',
      {
        config: { ...config, scope: 'full', role: 'admin' },
        schema: {
          tags,
          summary: 'Remove a suppressed address',
          operationId: 'deleteSuppression',
          params: z.object({ email: z.string().meta({ description: 'The suppressed address' }) }),
          response: { 200: envelope(z.object({ email: z.string(), deleted: z.literal(true) })), ...errors(404) },
        },
      },
      async (request) => {
        const email = normalizeEmail(request.params.email);
        const removed = await removeSuppression({ db: ctx.db, projectId: projectOf(request), email });
        if (!removed) throw notFound('Suppression');
        return ok({ email, deleted: true as const });
      },
    );
  };
}
