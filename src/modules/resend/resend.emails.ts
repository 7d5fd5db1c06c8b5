import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { ATTACHMENT_BODY_LIMIT, idParams } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { saveIdempotentResponse } from '../../plugins/idempotency.ts';
import { getEmail, getEmailDetail, listEmails } from '../delivery/index.ts';
import { sendEmails } from '../send/index.ts';
import { resendEmailBody, resendEmailItemSchema, resendEmailSchema, toResendEmail, toResendEmailItem, toSendBody } from './resend.emails.map.ts';
import { resendErrors } from './resend.errors.ts';
import { cursorOf, resendList, resendListQuery, toResendList } from './resend.pagination.ts';
import { RESEND_TAG } from './resend.tag.ts';

const created = z.object({ id: z.string() });

/** Resend's email routes: sending goes through Herald's send service, reading through delivery's email log. */
export function resendEmailRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = [RESEND_TAG];

    app.post('/emails', {
      config,
      bodyLimit: ATTACHMENT_BODY_LIMIT,
      schema: {
        tags, summary: 'Send an email (Resend)', operationId: 'resendSendEmail',
        description: 'Answered once the email and its delivery job are committed. `html` and `subject` are sent as given (no template language).',
        body: resendEmailBody, response: { 200: created, ...resendErrors },
      },
    }, async (request) => {
      const result = await sendEmails({
        ctx, projectId: projectOf(request), body: toSendBody(request.body),
        // The Idempotency-Key's answer commits with the email, so a retry after a crash cannot send twice.
        beforeCommit: (tx, answer) => saveIdempotentResponse(tx, request, 200, { id: answer.emails[0]!.email }),
      });
      return { id: result.emails[0]!.email };
    });

    app.get('/emails', {
      config,
      schema: { tags, summary: 'List emails (Resend)', operationId: 'resendListEmails', querystring: resendListQuery, response: { 200: resendList(resendEmailItemSchema), ...resendErrors } },
    }, async (request) => {
      const projectId = projectOf(request);
      const cursor = await cursorOf(request.query, (id) => getEmail({ db: ctx.db, projectId, id }));
      return toResendList(await listEmails({ db: ctx.db, projectId, limit: request.query.limit, cursor }), (email) => toResendEmailItem(email));
    });

    app.get('/emails/:id', {
      config,
      schema: { tags, summary: 'Retrieve an email (Resend)', operationId: 'resendGetEmail', params: idParams, response: { 200: resendEmailSchema, ...resendErrors } },
    }, async (request) => toResendEmail(await getEmailDetail({ db: ctx.db, projectId: projectOf(request), id: request.params.id })));
  };
}
