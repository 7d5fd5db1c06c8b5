import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { idParams } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { getLog, listLogs, type LogEntryView } from '../logs/index.ts';
import { resendErrors } from './resend.errors.ts';
import { cursorOf, resendList, resendListQuery, toResendList } from './resend.pagination.ts';
import { RESEND_TAG } from './resend.tag.ts';

const logItem = z.object({
  id: z.string(),
  created_at: z.string(),
  endpoint: z.string().describe("The request's path as Herald received it (`/resend/emails`, `/v1/send`)"),
  method: z.string(),
  response_status: z.number().int(),
  user_agent: z.string().nullable(),
});

const logSchema = logItem
  .extend({
    object: z.literal('log'),
    request_body: z.unknown().describe('As the request log keeps it: secrets and attachment contents redacted'),
    response_body: z.unknown(),
  })
  .meta({ id: 'ResendLog' });

const toItem = (entry: LogEntryView): z.infer<typeof logItem> => ({
  id: entry.id,
  created_at: entry.at,
  endpoint: entry.path,
  method: entry.method,
  response_status: entry.status,
  user_agent: entry.userAgent,
});

/** Resend's logs on Herald's request log: every API request of the project, newest first (admins and full keys). */
export function resendLogRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret', scope: 'full', role: 'admin' } as const;
    const tags = [RESEND_TAG];

    app.get(
      '/logs',
      {
        config,
        schema: {
          tags,
          summary: 'List API request logs (Resend)',
          operationId: 'resendListLogs',
          querystring: resendListQuery,
          response: { 200: resendList(logItem), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const cursor = await cursorOf(request.query, async (id) => {
          const entry = await getLog({ db: ctx.db, projectId, id });
          return { id: entry.id, createdAt: entry.at };
        });
        const page = await listLogs({ db: ctx.db, filter: { projectId }, limit: request.query.limit, cursor });
        return toResendList(page, toItem);
      },
    );

    app.get(
      '/logs/:id',
      {
        config,
        schema: {
          tags,
          summary: 'Retrieve an API request log (Resend)',
          operationId: 'resendGetLog',
          params: idParams,
          response: { 200: logSchema, ...resendErrors },
        },
      },
      async (request) => {
        const entry = await getLog({ db: ctx.db, projectId: projectOf(request), id: request.params.id });
        return {
          object: 'log' as const,
          ...toItem(entry),
          request_body: entry.requestBody,
          response_body: entry.responseBody,
        };
      },
    );
  };
}
