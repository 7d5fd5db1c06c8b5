import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, isoDate, listEnvelope, ok } from '../../lib/http.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { projectOf } from '../../plugins/auth.ts';
import { getEmail, listEmails } from './emails.service.ts';
import { cancelEmail, rescheduleEmail, scheduledAtSchema } from './emails.schedule.ts';
import { emailSchema, emailStatus } from './emails.view.ts';
import { getEmailTimeline, TIMELINE_TYPES } from './emails.timeline.ts';

const timelineEntrySchema = z
  .object({
    at: isoDate,
    type: z.enum([...TIMELINE_TYPES]),
    detail: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'EmailTimelineEntry' });
import { z } from 'zod';

const listQuery = paginationQuery.extend({
  status: emailStatus.optional(),
  contactId: z.string().optional(),
  sourceId: z.string().optional(),
  to: z
    .string()
    .trim()
    .toLowerCase()
    .min(1)
    .max(254)
    .optional()
    .meta({
      description:
        'Recipient address, case-insensitive: the whole address or its beginning (`ann@` ' +
        'or `ann@example.com`); an internationalised domain may be typed in Unicode',
    }),
  tag: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,256}:[A-Za-z0-9_-]{1,256}$/, 'must be name:value')
    .optional()
    .meta({ description: 'Only emails with this tag, as `name:value`' }),
  reason: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,100}$/, 'must be a status reason such as SNOOZED')
    .optional()
    .meta({
      description:
        'Only emails with this status reason, such as the reasons of SUPPRESSED mail: SNOOZED, FREQUENCY_CAP, ' +
        'TOPIC, UNSUBSCRIBED, SUPPRESSED, BOUNCE, COMPLAINT',
    }),
});

/** Email records: every message Herald made, with its delivery status. */
export function emailRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Emails'];

    app.get(
      '/emails',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List emails',
          operationId: 'listEmails',
          querystring: listQuery,
          response: { 200: listEnvelope(emailSchema), ...errors() },
        },
      },
      async (request) => {
        return ok(await listEmails({ db: ctx.db, projectId: projectOf(request), ...request.query }));
      },
    );

    app.get(
      '/emails/:id',
      {
        config: { ...config, scope: ['read', 'sending'], role: 'viewer' },
        schema: {
          tags,
          summary: 'Get an email',
          operationId: 'getEmail',
          params: idParams,
          response: { 200: envelope(emailSchema), ...errors(404) },
        },
      },
      async (request) => {
        return ok(await getEmail({ db: ctx.db, projectId: projectOf(request), id: request.params.id }));
      },
    );

    app.get(
      '/emails/:id/timeline',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: "An email's timeline",
          operationId: 'getEmailTimeline',
          description:
            'What happened to the email, in order, recorded as it happened: accepted (how and by whom, the request ' +
            'id), rendered, queued or scheduled, each delivery attempt (transport, the SMTP replies), deferrals, ' +
            'sent, delivered, bounced or complained (the report), opened and clicked (by a person or a machine, ' +
            'and why), unsubscribed, suppressed, cancelled, and the webhook deliveries of events about it.',
          params: idParams,
          response: { 200: envelope(z.array(timelineEntrySchema)), ...errors(404) },
        },
      },
      async (request) => {
        const entries = await getEmailTimeline({ db: ctx.db, projectId: projectOf(request), id: request.params.id });
        return ok(entries.map((e) => ({ ...e, at: e.at.toISOString() })));
      },
    );

    app.patch(
      '/emails/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Reschedule an email',
          operationId: 'rescheduleEmail',
          description: 'Only while the email is SCHEDULED; otherwise 409.',
          params: idParams,
          body: z.object({ scheduledAt: scheduledAtSchema }),
          response: { 200: envelope(emailSchema), ...errors(404, 409) },
        },
      },
      async (request) => {
        return ok(
          await rescheduleEmail({
            ctx,
            projectId: projectOf(request),
            id: request.params.id,
            scheduledAt: request.body.scheduledAt,
          }),
        );
      },
    );

    app.post(
      '/emails/:id/cancel',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Cancel an email',
          operationId: 'cancelEmail',
          description: 'A SCHEDULED, QUEUED or DEFERRED email becomes CANCELLED; any other is a 409.',
          params: idParams,
          response: { 200: envelope(emailSchema), ...errors(404, 409) },
        },
      },
      async (request) => {
        return ok(await cancelEmail({ ctx, projectId: projectOf(request), id: request.params.id }));
      },
    );
  };
}
