import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { ATTACHMENT_BODY_LIMIT, idParams } from '../../lib/http.ts';
import { projectOf, senderDomainsOf } from '../../plugins/auth.ts';
import { saveIdempotentResponse } from '../../plugins/idempotency.ts';
import {
  cancelEmail,
  getEmail,
  getEmailDetail,
  listEmails,
  rescheduleEmail,
  scheduledAtSchema,
} from '../emails/index.ts';
import { MAX_BATCH, sendBatch, sendEmail } from '../send/index.ts';
import {
  resendEmailBody,
  resendEmailItemSchema,
  resendEmailSchema,
  toResendEmail,
  toResendEmailItem,
  toSendBodies,
  toSendBody,
} from './resend.emails.map.ts';
import { resendErrors } from './resend.errors.ts';
import { cursorOf, resendList, resendListQuery, toResendList } from './resend.pagination.ts';
import { RESEND_TAG } from './resend.tag.ts';
import { checkTemplateSends } from './resend.templates.ts';

const created = z.object({ id: z.string() });
const batchCreated = z.object({ data: z.array(created) });
const emailRef = z.object({ object: z.literal('email'), id: z.string() });
const updateBody = z.object({
  scheduled_at: scheduledAtSchema.describe('The new time: ISO 8601, in the future, at most 30 days ahead'),
});

/** Resend's email routes: sending goes through Herald's send service, reading through delivery's email log. */
export function resendEmailRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = [RESEND_TAG];

    app.post(
      '/emails',
      {
        config: { ...config, scope: 'sending', role: 'editor' },
        bodyLimit: ATTACHMENT_BODY_LIMIT,
        schema: {
          tags,
          summary: 'Send an email (Resend)',
          operationId: 'resendSendEmail',
          description:
            'Answered once the email and its delivery job are committed. `html` and `subject` ' +
            'are sent as given (no template language); a `template` is rendered with its variables.',
          body: resendEmailBody,
          response: { 200: created, ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const body = toSendBody(request.body);
        await checkTemplateSends({ db: ctx.db, projectId, bodies: [request.body], batch: false });
        const result = await sendEmail({
          ctx,
          projectId,
          senderDomainIds: senderDomainsOf(request),
          body,
          oneMessage: true,
          // The Idempotency-Key's answer commits with the email, so a retry after a crash cannot send twice.
          beforeCommit: (tx, answer) => saveIdempotentResponse(tx, request, 200, { id: answer.emails[0]!.email }),
        });
        return { id: result.emails[0]!.email };
      },
    );

    app.post(
      '/emails/batch',
      {
        config: { ...config, scope: 'sending', role: 'editor' },
        bodyLimit: ATTACHMENT_BODY_LIMIT,
        schema: {
          tags,
          summary: 'Send up to 100 emails (Resend)',
          operationId: 'resendSendBatch',
          description:
            'All are checked first: one invalid email is a 422 naming its index (`3.to`), and ' +
            'nothing is sent. Attachments and scheduling are taken too.',
          body: z.array(resendEmailBody).min(1).max(MAX_BATCH),
          response: { 200: batchCreated, ...resendErrors },
        },
      },
      async (request) => {
        const answerOf = (results: { emails: { email: string }[] }[]) => ({
          data: results.map((r) => ({ id: r.emails[0]!.email })),
        });
        const projectId = projectOf(request);
        const bodies = toSendBodies(request.body);
        await checkTemplateSends({ db: ctx.db, projectId, bodies: request.body, batch: true });
        const batch = await sendBatch({
          ctx,
          projectId,
          senderDomainIds: senderDomainsOf(request),
          bodies,
          oneMessage: true,
          beforeCommit: (tx, answer) => saveIdempotentResponse(tx, request, 200, answerOf(answer.results)),
        });
        return answerOf(batch.results);
      },
    );

    // Rescheduling and cancelling take a full key, as PATCH /emails/{id} and its cancel do: a sending key sends and
    // reads.
    app.patch(
      '/emails/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Reschedule an email (Resend)',
          operationId: 'resendUpdateEmail',
          description: 'Only a scheduled email can be moved (409 otherwise).',
          params: idParams,
          body: updateBody,
          response: { 200: emailRef, ...resendErrors },
        },
      },
      async (request) => {
        const email = await rescheduleEmail({
          ctx,
          projectId: projectOf(request),
          id: request.params.id,
          scheduledAt: request.body.scheduled_at,
        });
        return { object: 'email' as const, id: email.id };
      },
    );

    app.post(
      '/emails/:id/cancel',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Cancel an email (Resend)',
          operationId: 'resendCancelEmail',
          description: 'Cancels a scheduled email, or one still queued or waiting for a retry (409 otherwise).',
          params: idParams,
          response: { 200: emailRef, ...resendErrors },
        },
      },
      async (request) => {
        const email = await cancelEmail({ ctx, projectId: projectOf(request), id: request.params.id });
        return { object: 'email' as const, id: email.id };
      },
    );

    // Listing is reading, as GET /emails is: a read key lists, a sending key only gets an email by its id.
    app.get(
      '/emails',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List emails (Resend)',
          operationId: 'resendListEmails',
          querystring: resendListQuery,
          response: { 200: resendList(resendEmailItemSchema), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const cursor = await cursorOf(request.query, (id) => getEmail({ db: ctx.db, projectId, id }));
        return toResendList(await listEmails({ db: ctx.db, projectId, limit: request.query.limit, cursor }), (email) =>
          toResendEmailItem(email),
        );
      },
    );

    app.get(
      '/emails/:id',
      {
        config: { ...config, scope: ['read', 'sending'], role: 'viewer' },
        schema: {
          tags,
          summary: 'Retrieve an email (Resend)',
          operationId: 'resendGetEmail',
          params: idParams,
          response: { 200: resendEmailSchema, ...resendErrors },
        },
      },
      async (request) =>
        toResendEmail(await getEmailDetail({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );
  };
}
