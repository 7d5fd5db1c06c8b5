// Resend's broadcasts on Herald's campaigns to a segment: every rule of Herald's campaigns holds (only subscribed,
// unsuppressed contacts of the segment receive one; a topic narrows it to those in the topic).
import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { validationError } from '../../lib/errors.ts';
import { idParams } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import {
  cancelCampaign,
  createCampaign,
  deleteCampaign,
  duplicateCampaign,
  getCampaign,
  getCampaignLinks,
  listCampaigns,
  sendCampaign,
  unscheduleCampaign,
  updateCampaign,
} from '../campaigns/index.ts';
import {
  bodyOf,
  replyToOf,
  resendBroadcastBody,
  resendBroadcastItemSchema,
  resendBroadcastPatch,
  resendBroadcastSchema,
  senderOf,
  splitBody,
  toResendBroadcast,
  toResendBroadcastItem,
} from './resend.broadcasts.map.ts';
import { inResendFields, resendErrors } from './resend.errors.ts';
import { pageOfList, resendList, resendListOf, resendListQuery } from './resend.pagination.ts';
import { RESEND_READ, RESEND_TAG, RESEND_WRITE } from './resend.tag.ts';

const broadcastRef = z.object({ object: z.literal('broadcast'), id: z.string() });
const sendBody = z.object({ scheduled_at: z.string().optional() }).optional();
const clickedLink = z.object({ id: z.string(), url: z.string(), clicks: z.number(), unique_clicks: z.number() });

/** Herald's campaign fields by the Resend field they came from, for the messages of 422s. */
const RESEND_FIELDS: Record<string, string> = {
  segmentId: 'segment_id',
  topicId: 'topic_id',
  scheduledFor: 'scheduled_at',
  replyTo: 'reply_to',
  fromName: 'from',
  body: 'html',
};

/** A campaign's 422 in Resend's words: its message names the Resend field. */
const inResendTerms = <T>(run: () => Promise<T>): Promise<T> => inResendFields(RESEND_FIELDS, run);

/** `scheduled_at` as a send takes it: an ISO 8601 date-time (Resend's natural-language forms are a 422). */
function scheduledFor(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!z.iso.datetime({ offset: true }).safeParse(value).success || Number.isNaN(Date.parse(value)))
    throw validationError('scheduled_at', 'scheduled_at: give an ISO 8601 date-time, e.g. 2030-01-31T09:00:00Z');
  return value;
}

/** Resend's broadcast routes. */
export function resendBroadcastRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const tags = [RESEND_TAG];

    app.post(
      '/broadcasts',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Create a broadcast (Resend)',
          operationId: 'resendCreateBroadcast',
          description: 'A DRAFT campaign to the segment; with `send: true` it is sent (or scheduled) at once.',
          body: resendBroadcastBody,
          response: { 200: z.object({ id: z.string() }), ...resendErrors },
        },
      },
      async (request) => {
        const body = request.body;
        const projectId = projectOf(request);
        const segmentId = body.segment_id ?? body.audience_id;
        if (!segmentId) throw validationError('segment_id', 'segment_id: give the segment to send to', 'required');
        if (body.html === undefined && body.text === undefined)
          throw validationError('html', 'html: give `html` or `text`', 'required');
        if (body.scheduled_at !== undefined && !body.send)
          throw validationError('scheduled_at', 'scheduled_at: only with `send: true`', 'not_allowed');
        const at = scheduledFor(body.scheduled_at);
        const campaign = await inResendTerms(() =>
          createCampaign({
            ctx,
            projectId,
            input: {
              name: body.name ?? body.subject,
              subject: body.subject,
              format: 'html',
              body: bodyOf(body, body.preview_text ?? null),
              layoutId: null,
              ...senderOf(body.from),
              replyTo: replyToOf(body.reply_to),
              audienceType: 'SEGMENT',
              segmentId,
              topicId: body.topic_id,
            },
          }),
        );
        if (body.send) await inResendTerms(() => sendCampaign({ ctx, projectId, id: campaign.id, scheduledFor: at }));
        return { id: campaign.id };
      },
    );

    app.get(
      '/broadcasts',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: 'List broadcasts (Resend)',
          operationId: 'resendListBroadcasts',
          description: "The project's campaigns, newest first.",
          querystring: resendListQuery,
          response: { 200: resendList(resendBroadcastItemSchema), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        return resendListOf(
          request.query,
          (id) => getCampaign({ db: ctx.db, projectId, id }),
          (cursor) => listCampaigns({ db: ctx.db, projectId, limit: request.query.limit, cursor }),
          toResendBroadcastItem,
        );
      },
    );

    app.get(
      '/broadcasts/:id',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: 'Retrieve a broadcast (Resend)',
          operationId: 'resendGetBroadcast',
          params: idParams,
          response: { 200: resendBroadcastSchema, ...resendErrors },
        },
      },
      async (request) =>
        toResendBroadcast(await getCampaign({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/broadcasts/:id',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Update a broadcast (Resend)',
          operationId: 'resendUpdateBroadcast',
          description: 'Only before it is sent: a draft or a scheduled broadcast (409 otherwise).',
          params: idParams,
          body: resendBroadcastPatch,
          response: { 200: z.object({ id: z.string() }), ...resendErrors },
        },
      },
      async (request) => {
        const body = request.body ?? {};
        const projectId = projectOf(request);
        const id = request.params.id;
        const current = await getCampaign({ db: ctx.db, projectId, id });
        const contentChanged = body.html !== undefined || body.text !== undefined || body.preview_text !== undefined;
        const stored = splitBody(current.body);
        const content = body.html !== undefined || body.text !== undefined ? body : { html: stored.html };
        const segmentId = body.segment_id ?? body.audience_id;
        const campaign = await inResendTerms(() =>
          updateCampaign({
            ctx,
            projectId,
            id,
            input: {
              name: body.name,
              subject: body.subject,
              ...(contentChanged ? { body: bodyOf(content, body.preview_text ?? stored.preview) } : {}),
              ...(body.from === undefined ? {} : senderOf(body.from)),
              replyTo: replyToOf(body.reply_to),
              ...(segmentId === undefined ? {} : { audienceType: 'SEGMENT' as const, segmentId }),
              topicId: body.topic_id,
            },
          }),
        );
        return { id: campaign.id };
      },
    );

    app.delete(
      '/broadcasts/:id',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Delete a broadcast (Resend)',
          operationId: 'resendDeleteBroadcast',
          description:
            'A scheduled broadcast is unscheduled first; one on its way must be cancelled first (409). The emails ' +
            'of a sent one stay.',
          params: idParams,
          response: { 200: broadcastRef.extend({ deleted: z.boolean() }), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const campaign = await getCampaign({ db: ctx.db, projectId, id: request.params.id });
        if (campaign.status === 'SCHEDULED') await unscheduleCampaign({ ctx, projectId, id: campaign.id });
        await deleteCampaign({ db: ctx.db, projectId, id: campaign.id });
        return { object: 'broadcast' as const, id: campaign.id, deleted: true };
      },
    );

    app.post(
      '/broadcasts/:id/send',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Send a broadcast (Resend)',
          operationId: 'resendSendBroadcast',
          description: 'Now, or at `scheduled_at` (ISO 8601). A draft or scheduled broadcast only (409 otherwise).',
          params: idParams,
          body: sendBody,
          response: { 200: z.object({ id: z.string() }), ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const at = scheduledFor(request.body?.scheduled_at);
        await inResendTerms(() => sendCampaign({ ctx, projectId, id: request.params.id, scheduledFor: at }));
        return { id: request.params.id.toLowerCase() };
      },
    );

    app.post(
      '/broadcasts/:id/cancel',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Cancel a broadcast (Resend)',
          operationId: 'resendCancelBroadcast',
          description: 'A scheduled broadcast goes back to draft; one on its way stops (the rest is not sent).',
          params: idParams,
          response: { 200: broadcastRef, ...resendErrors },
        },
      },
      async (request) => {
        const projectId = projectOf(request);
        const campaign = await getCampaign({ db: ctx.db, projectId, id: request.params.id });
        if (campaign.status === 'SCHEDULED') await unscheduleCampaign({ ctx, projectId, id: campaign.id });
        else await cancelCampaign({ ctx, projectId, id: campaign.id });
        return { object: 'broadcast' as const, id: campaign.id };
      },
    );

    app.get(
      '/broadcasts/:id/clicked-links',
      {
        config: RESEND_READ,
        schema: {
          tags,
          summary: "List a broadcast's clicked links (Resend)",
          operationId: 'resendListBroadcastClickedLinks',
          description:
            "Each link of its mail that was clicked, most clicked first, with all clicks (Herald's stats also tell " +
            "people's from machines'). An item's `id` only pages the list.",
          params: idParams,
          querystring: resendListQuery,
          response: { 200: resendList(clickedLink), ...resendErrors },
        },
      },
      async (request) => {
        const links = await getCampaignLinks({ ctx, projectId: projectOf(request), id: request.params.id });
        const items = links.map((link) => ({
          id: createHash('sha256').update(link.url).digest('base64url').slice(0, 22),
          url: link.url,
          clicks: link.clicks,
          unique_clicks: link.uniqueClicks,
        }));
        return pageOfList(items, request.query);
      },
    );

    app.post(
      '/broadcasts/:id/duplicate',
      {
        config: RESEND_WRITE,
        schema: {
          tags,
          summary: 'Duplicate a broadcast (Resend)',
          operationId: 'resendDuplicateBroadcast',
          description: 'A draft copy, named "<name> (copy)".',
          params: idParams,
          response: { 200: broadcastRef, ...resendErrors },
        },
      },
      async (request) => {
        const copy = await duplicateCampaign({ db: ctx.db, projectId: projectOf(request), id: request.params.id });
        return { object: 'broadcast' as const, id: copy.id };
      },
    );
  };
}
