import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, ok } from '../../lib/http.ts';
import {
  verifyBatchRequestSchema,
  verifyBatchResultSchema,
  verifyRequestSchema,
  verifyResultSchema,
} from './verify.schemas.ts';
import { verifyEmail, verifyEmails } from './verify.service.ts';

/** POST /v1/verify (one address) and /v1/verify/batch (list cleaning, up to 1000), also without /v1. */
export function verifyRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    for (const prefix of ['/v1', '']) {
      const hide = prefix === '';
      app.post(
        `${prefix}/verify`,
        {
          config: { ...config, scope: 'sending', role: 'editor' },
          schema: {
            tags: ['Public'],
            summary: 'Verify an address',
            operationId: 'verifyEmail',
            hide,
            body: verifyRequestSchema,
            response: { 200: envelope(verifyResultSchema), ...errors() },
          },
        },
        async (request) => ok(await verifyEmail({ email: request.body.email, dns: ctx.dns })),
      );
      app.post(
        `${prefix}/verify/batch`,
        {
          config: { ...config, scope: 'sending', role: 'editor' },
          schema: {
            tags: ['Public'],
            summary: 'Verify up to 1000 addresses',
            operationId: 'verifyEmails',
            hide,
            body: verifyBatchRequestSchema,
            response: { 200: envelope(verifyBatchResultSchema), ...errors() },
          },
        },
        async (request) => ok(await verifyEmails({ emails: request.body.emails, dns: ctx.dns })),
      );
    }
  };
}
