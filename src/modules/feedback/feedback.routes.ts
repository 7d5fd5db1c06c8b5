import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, ok } from '../../lib/http.ts';
import { receiveSesNotification } from './feedback.ses.ts';
import { SnsVerifier } from './feedback.sns.ts';

const outcome = z.object({
  type: z.enum(['confirmed', 'ignored', 'notification']),
  reason: z.string().optional(),
  result: z.string().optional(),
});

/**
 * POST /feedback/ses: Amazon SNS posts SES Bounce, Complaint and Delivery notifications here (no API key: the
 * SNS signature and the topic list are the proof). It takes notifications only while an SES transport is in use
 * (the instance's, or a project's own), and answers 404 otherwise. Limited per client address like the links
 * inside mail (LINK_RATE_LIMIT_PER_MINUTE), as anyone can post to it.
 */
export function feedbackRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const verifier = SnsVerifier.fromConfig(ctx.config.sns);
    // SNS posts JSON with Content-Type text/plain.
    app.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) =>
      done(null, body),
    );
    app.post(
      '/feedback/ses',
      {
        bodyLimit: 256 * 1024,
        config: { auth: 'none', rateLimit: 'links' },
        schema: {
          tags: ['Feedback'],
          summary: 'Receive Amazon SES notifications through SNS',
          description:
            'Only for the SNS topics in SES_SNS_TOPIC_ARNS (with MAIL_TRANSPORT=ses) and in the snsTopicArns of ' +
            'projects’ SES transports (a project’s topic reports on its own emails only); 404 while no SES ' +
            'transport is in use.',
          operationId: 'receiveSesNotification',
          body: z.unknown(),
          response: { 200: envelope(outcome), ...errors(403, 404) },
        },
      },
      async (request) => ok(await receiveSesNotification({ ctx, verifier, body: request.body })),
    );
  };
}
