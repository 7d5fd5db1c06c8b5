import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelope, errorResponses, ok } from '../../lib/http.ts';
import { receiveSesNotification } from './feedback.ses.ts';
import { SnsVerifier } from './feedback.sns.ts';

const outcome = z.object({ type: z.enum(['confirmed', 'ignored', 'notification']), reason: z.string().optional(), result: z.string().optional() });

/** POST /feedback/ses: Amazon SNS posts SES Bounce, Complaint and Delivery notifications here (no API key: the SNS signature is the proof). */
export function feedbackRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  const verifier = SnsVerifier.fromConfig(ctx.config.sns);
  return async (app) => {
    // SNS posts JSON with Content-Type text/plain.
    app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) => done(null, body));
    app.post('/feedback/ses', {
      bodyLimit: 256 * 1024,
      schema: {
        tags: ['Feedback'],
        summary: 'Receive Amazon SES notifications through SNS',
        operationId: 'receiveSesNotification',
        body: z.unknown(),
        response: { 200: envelope(outcome), ...errorResponses },
      },
    }, async (request) => ok(await receiveSesNotification({ ctx, verifier, body: request.body })));
  };
}
