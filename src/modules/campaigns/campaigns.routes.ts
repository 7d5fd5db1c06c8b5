import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { sendCampaignTest } from './campaigns.preview.ts';
import { cancelCampaign, pauseCampaign, pickCampaignWinner, resumeCampaign, sendCampaign, unscheduleCampaign } from './campaigns.schedule.ts';
import {
  campaignLinkSchema, campaignSchema, campaignStatsSchema, createCampaignBody, followUpBody, listCampaignsQuery, pickWinnerBody, sendCampaignBody, testCampaignBody, testCampaignResult,
  updateCampaignBody,
} from './campaigns.schemas.ts';
import * as service from './campaigns.service.ts';
import { getCampaignLinks, getCampaignStats } from './campaigns.stats.ts';
import { createFollowUp } from './campaigns.follow-up.ts';

/** /campaigns: marketing email to an audience (all, a segment, or a filter), sent now or at a set time. */
export function campaignRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Campaigns'];
    const empty = z.null().meta({ description: 'Accepted, with an empty body' });
    // 202 with an empty body (not the JSON text `null`).
    const accepted = (reply: FastifyReply) => reply.code(202).serializer(() => '').send(null);

    app.post('/campaigns', { config: { ...config, scope: 'full', role: 'editor' }, schema: { tags, summary: 'Create a campaign', operationId: 'createCampaign', description: 'A DRAFT campaign; `from` must be on a verified domain (403 otherwise).', body: createCampaignBody, response: { 201: envelope(campaignSchema), ...errors() } } }, async (request, reply) => {
      reply.code(201);
      return ok(await service.createCampaign({ ctx, projectId: projectOf(request), input: request.body }));
    });

    app.get('/campaigns', { config: { ...config, scope: 'read', role: 'viewer' }, schema: { tags, summary: 'List campaigns', operationId: 'listCampaigns', querystring: listCampaignsQuery, response: { 200: listEnvelope(campaignSchema), ...errors() } } },
      async (request) => ok(await service.listCampaigns({ db: ctx.db, projectId: projectOf(request), ...request.query })));

    app.get('/campaigns/:id', { config: { ...config, scope: 'read', role: 'viewer' }, schema: { tags, summary: 'Get a campaign', operationId: 'getCampaign', params: idParams, response: { 200: envelope(campaignSchema), ...errors(404) } } },
      async (request) => ok(await service.getCampaign({ db: ctx.db, projectId: projectOf(request), id: request.params.id })));

    app.patch('/campaigns/:id', {
      config: { ...config, scope: 'full', role: 'editor' },
      schema: { tags, summary: 'Update a campaign', operationId: 'updateCampaign', description: 'Changes a DRAFT or SCHEDULED campaign (409 otherwise).', params: idParams, body: updateCampaignBody, response: { 200: envelope(campaignSchema), ...errors(404, 409) } },
    }, async (request) => ok(await service.updateCampaign({ ctx, projectId: projectOf(request), id: request.params.id, input: request.body })));

    app.delete('/campaigns/:id', {
      config: { ...config, scope: 'full', role: 'editor' },
      schema: { tags, summary: 'Delete a campaign', operationId: 'deleteCampaign', description: 'Deletes a DRAFT, SENT or CANCELLED campaign (409 while SCHEDULED, SENDING, TESTING or PAUSED). The emails it sent stay in the email log, and count in the email stats.', params: idParams, response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errors(404, 409) } },
    }, async (request) => ok(await service.deleteCampaign({ db: ctx.db, projectId: projectOf(request), id: request.params.id })));

    app.post('/campaigns/:id/send', {
      config: { ...config, scope: 'full', role: 'editor' },
      schema: {
        tags, summary: 'Send or schedule a campaign', operationId: 'sendCampaign',
        description: 'Sends a DRAFT or SCHEDULED campaign now, schedules it for a future `scheduledFor`, or for each recipient\'s local time with `sendAt` (202, empty body). The body is optional.',
        params: idParams, body: sendCampaignBody, response: { 202: empty, ...errors(404, 409) },
      },
    }, async (request, reply) => {
      await sendCampaign({ ctx, projectId: projectOf(request), id: request.params.id, scheduledFor: request.body?.scheduledFor, sendAt: request.body?.sendAt });
      return accepted(reply);
    });

    app.post('/campaigns/:id/cancel', {
      config: { ...config, scope: 'full', role: 'editor' },
      schema: { tags, summary: 'Cancel a campaign', operationId: 'cancelCampaign', description: 'Cancels a SCHEDULED, SENDING, TESTING or PAUSED campaign and its unsent emails (202, empty body).', params: idParams, response: { 202: empty, ...errors(404, 409) } },
    }, async (request, reply) => {
      await cancelCampaign({ ctx, projectId: projectOf(request), id: request.params.id });
      return accepted(reply);
    });

    app.post('/campaigns/:id/pause', {
      config: { ...config, scope: 'full', role: 'editor' },
      schema: { tags, summary: 'Pause a campaign', operationId: 'pauseCampaign', description: 'A SENDING or TESTING campaign, or a local-time send under way (SCHEDULED while its time zones take their turns), becomes PAUSED: nothing more of it is handed to the mail server until it is resumed (messages already being handed over finish). 409 in any other status.', params: idParams, response: { 200: envelope(campaignSchema), ...errors(404, 409) } },
    }, async (request) => ok(await pauseCampaign({ ctx, projectId: projectOf(request), id: request.params.id })));

    app.post('/campaigns/:id/resume', {
      config: { ...config, scope: 'full', role: 'editor' },
      schema: { tags, summary: 'Resume a campaign', operationId: 'resumeCampaign', description: 'A PAUSED campaign goes on where it stopped: SENDING, TESTING while its A/B test is undecided, or SCHEDULED for a local-time send whose time zones are not all through (each waiting email keeps its time). 409 in any other status.', params: idParams, response: { 200: envelope(campaignSchema), ...errors(404, 409) } },
    }, async (request) => ok(await resumeCampaign({ ctx, projectId: projectOf(request), id: request.params.id })));

    app.post('/campaigns/:id/winner', {
      config: { ...config, scope: 'full', role: 'editor' },
      schema: { tags, summary: 'Pick the winner of an A/B test', operationId: 'pickCampaignWinner', description: 'Ends the test of a TESTING campaign early: `variantId` goes to the rest of the audience. 409 without a test or outside TESTING; 422 for a variant it does not have.', params: idParams, body: pickWinnerBody, response: { 200: envelope(campaignSchema), ...errors(404, 409) } },
    }, async (request) => ok(await pickCampaignWinner({ ctx, projectId: projectOf(request), id: request.params.id, variantId: request.body.variantId })));

    app.post('/campaigns/:id/follow-up', {
      config: { ...config, scope: 'full', role: 'editor' },
      schema: { tags, summary: 'Create a follow-up campaign', operationId: 'createFollowUpCampaign', description: 'A DRAFT FILTERED campaign to this campaign\'s recipients who did not open it (`nonOpeners`) or click in it (`nonClickers`), counting people only, and are still subscribed; with its content unless `subject` or `body` replace it.', params: idParams, body: followUpBody, response: { 201: envelope(campaignSchema), ...errors(404) } },
    }, async (request, reply) => {
      reply.code(201);
      return ok(await createFollowUp({ ctx, projectId: projectOf(request), id: request.params.id, ...request.body }));
    });

    app.get('/campaigns/:id/links', { config: { ...config, scope: 'read', role: 'viewer' }, schema: { tags, summary: 'Get the link report of a campaign', operationId: 'getCampaignLinks', description: 'Each link of the campaign that was clicked: every click, clicks by people, and the emails whose recipient clicked it; most clicked first (up to 500).', params: idParams, response: { 200: envelope(z.array(campaignLinkSchema)), ...errors(404) } } },
      async (request) => ok(await getCampaignLinks({ ctx, projectId: projectOf(request), id: request.params.id })));

    app.post('/campaigns/:id/unschedule', {
      config: { ...config, scope: 'full', role: 'editor' },
      schema: { tags, summary: 'Unschedule a campaign', operationId: 'unscheduleCampaign', description: 'Returns a SCHEDULED campaign to DRAFT and clears its time (409 in any other status).', params: idParams, response: { 200: envelope(campaignSchema), ...errors(404, 409) } },
    }, async (request) => ok(await unscheduleCampaign({ ctx, projectId: projectOf(request), id: request.params.id })));

    app.post('/campaigns/:id/duplicate', {
      config: { ...config, scope: 'full', role: 'editor' },
      schema: { tags, summary: 'Duplicate a campaign', operationId: 'duplicateCampaign', description: 'A new DRAFT named "<name> (copy)" with the same content, audience and sender, and no schedule; from a campaign in any status.', params: idParams, response: { 201: envelope(campaignSchema), ...errors(404) } },
    }, async (request, reply) => {
      reply.code(201);
      return ok(await service.duplicateCampaign({ db: ctx.db, projectId: projectOf(request), id: request.params.id }));
    });

    app.post('/campaigns/:id/test', {
      config: { ...config, scope: 'full', role: 'editor' },
      schema: { tags, summary: 'Send a test of a campaign', operationId: 'testCampaign', description: 'Sends the rendered campaign to a few addresses, subject prefixed "[TEST] ". Each renders with the data of the contact picked by `contactId`, else of the contact with that address, with `data` over it. 404 when the campaign or the picked contact is not found.', params: idParams, body: testCampaignBody, response: { 200: envelope(testCampaignResult), ...errors(404) } },
    }, async (request) => ok(await sendCampaignTest({ ctx, projectId: projectOf(request), id: request.params.id, ...request.body })));

    app.get('/campaigns/:id/stats', { config: { ...config, scope: 'read', role: 'viewer' }, schema: { tags, summary: 'Get the stats of a campaign', operationId: 'getCampaignStats', params: idParams, response: { 200: envelope(campaignStatsSchema), ...errors(404) } } },
      async (request) => ok(await getCampaignStats({ ctx, projectId: projectOf(request), id: request.params.id })));
  };
}
