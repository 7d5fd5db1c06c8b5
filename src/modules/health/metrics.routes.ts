import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { errors } from '../../lib/http.ts';
import { deliveryMetrics } from '../sending/index.ts';

/** What the API reference says about each health route, by operationId. */
const healthRouteDocs = {
  getMetrics:
    'Prometheus text exposition: emails by status, the due backlog and its oldest age, claims and batch ' +
    'sizes, sends per transport and outcome, handoff latency, pacing waits, lease reclaims (counters are ' +
    'per process).',
} as const;

/** GET /metrics: Prometheus text format, behind the admin token (it describes every project's queue). */
export function metricsRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/metrics',
      {
        config: { auth: 'admin' },
        schema: {
          tags: ['Admin'],
          summary: 'Operational metrics',
          operationId: 'getMetrics',
          description: healthRouteDocs.getMetrics,
          response: {
            200: { description: 'Prometheus text format 0.0.4', content: { 'text/plain': { schema: z.string() } } },
            ...errors(),
          },
        },
      },
      async (_request, reply) => {
        // The delivery gauges read the database at scrape time; registering them here covers `api`-only processes too.
        deliveryMetrics(ctx);
        reply.type(ctx.metrics.contentType);
        return ctx.metrics.metrics();
      },
    );
  };
}
