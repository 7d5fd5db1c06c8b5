import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { trackBody, trackResult, trackRouteDocs } from './track.schemas.ts';
import { TrackBatcher } from './track.batcher.ts';
import { trackEvent } from './track.service.ts';

/** Room for 64 KB of data plus the rest; anything larger is a 413 before any work. */
const TRACK_BODY_LIMIT = 256 * 1024;

/** POST /v1/track (and the Plunk SDK's /track): records an event with a secret or a public key. */
export function trackRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    // The embedded database runs one statement at a time: more in flight would only shrink the batches.
    const batcher = new TrackBatcher(ctx.db, { maxInFlight: ctx.database.kind === 'pglite' ? 1 : 4, maxBatch: 100 });
    for (const url of ['/v1/track', '/track']) {
      app.post(
        url,
        {
          config: { auth: 'public', scope: 'sending', role: 'editor' },
          bodyLimit: TRACK_BODY_LIMIT,
          schema: {
            tags: ['Public'],
            summary: 'Track an event',
            operationId: 'trackEvent',
            ...(url === '/track' ? { hide: true } : {}),
            description: trackRouteDocs.trackEvent,
            body: trackBody,
            response: { 200: envelope(trackResult), ...errors() },
          },
        },
        async (request) =>
          ok(
            await trackEvent({
              batcher,
              projectId: projectOf(request),
              keyType: request.auth!.keyType,
              ...request.body,
            }),
          ),
      );
    }
  };
}
