import type { FastifyInstance } from 'fastify';

/**
 * The public endpoints browsers call: /v1/* and their unprefixed aliases, and signup forms (/f/…: posted and their
 * widget loaded from any site that embeds one).
 */
const CORS_PATH = /^\/(v1\/|(track|send|verify)(\/|$)|f\/|f-assets\/)/;

/**
 * CORS for the public endpoints: any origin, no credentials, `Authorization` allowed by
 * name (a `*` would not cover it). Preflights are answered here, before auth; errors carry the headers
 * too, so a browser can read them. Register before auth.
 */
export function registerCors(app: FastifyInstance): void {
  app.addHook('onRequest', async (request, reply) => {
    if (!CORS_PATH.test(request.url)) return;
    reply.header('Access-Control-Allow-Origin', '*');
    if (request.method !== 'OPTIONS') {
      reply.header(
        'Access-Control-Expose-Headers',
        'X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, Idempotent-Replayed',
      );
      return;
    }
    reply.header('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
    reply.header('Access-Control-Allow-Headers', 'Authorization, Content-Type, Idempotency-Key');
    reply.header('Access-Control-Max-Age', '86400');
    return reply.code(204).send();
  });
}
