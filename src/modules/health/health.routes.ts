import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError } from '../../lib/errors.ts';

const status = z.object({ status: z.literal('ok') });

/** Liveness (process up) and readiness (database reachable). */
export function healthRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/healthz',
      {
        config: { auth: 'none' },
        schema: {
          tags: ['Health'],
          summary: 'Liveness',
          operationId: 'getHealth',
          description: 'The process is up.',
          response: { 200: status },
        },
      },
      async () => ({ status: 'ok' as const }),
    );

    app.get(
      '/readyz',
      {
        config: { auth: 'none' },
        schema: {
          tags: ['Health'],
          summary: 'Readiness',
          operationId: 'getReadiness',
          description: 'The database answers (503 otherwise).',
          response: { 200: status },
        },
      },
      async () => {
        try {
          await Promise.race([
            ctx.db.execute(sql`SELECT 1`),
            new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 3000).unref()),
          ]);
        } catch {
          throw new AppError('SERVICE_UNAVAILABLE', 'The database is unreachable', { headers: { 'Retry-After': '5' } });
        }
        return { status: 'ok' as const };
      },
    );
  };
}
