import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { envelope, errorResponses, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { sendCampaignTest } from './campaigns.preview.ts';
import { cancelCampaign, sendCampaign } from './campaigns.schedule.ts';
import {
  campaignSchema, campaignStatsSchema, createCampaignBody, listCampaignsQuery, sendCampaignBody, testCampaignBody, testCampaignResult, updateCampaignBody,
} from './campaigns.schemas.ts';
import * as service from './campaigns.service.ts';
import { getCampaignStats } from './campaigns.stats.ts';

/** /campaigns: marketing email to an audience (all, a segment, or a filter), sent now or at a set time. */
export function campaignRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Campaigns'];
    const empty = z.null().meta({ description: 'Empty body' });
    // CONTRACT §3: 202 with an empty body (not the JSON text `null`).
    const accepted = (reply: FastifyReply) => reply.code(202).serializer(() => '').send(null);

    app.post('/campaigns', { config, schema: { tags, body: createCampaignBody, response: { 201: envelope(campaignSchema), ...errorResponses } } }, async (request, reply) => {
      reply.code(201);
      return ok(await service.createCampaign({ ctx, projectId: projectOf(request), input: request.body }));
    });

    app.get('/campaigns', { config, schema: { tags, querystring: listCampaignsQuery, response: { 200: listEnvelope(campaignSchema), ...errorResponses } } },
      async (request) => ok(await service.listCampaigns({ ctx, projectId: projectOf(request), ...request.query })));

    app.get('/campaigns/:id', { config, schema: { tags, params: idParams, response: { 200: envelope(campaignSchema), ...errorResponses } } },
      async (request) => ok(await service.getCampaign({ ctx, projectId: projectOf(request), id: request.params.id })));

    app.patch('/campaigns/:id', {
      config,
      schema: { tags, description: 'Changes a DRAFT or SCHEDULED campaign (409 otherwise).', params: idParams, body: updateCampaignBody, response: { 200: envelope(campaignSchema), ...errorResponses } },
    }, async (request) => ok(await service.updateCampaign({ ctx, projectId: projectOf(request), id: request.params.id, input: request.body })));

    app.delete('/campaigns/:id', {
      config,
      schema: { tags, description: 'Deletes a DRAFT campaign (409 otherwise).', params: idParams, response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errorResponses } },
    }, async (request) => ok(await service.deleteCampaign({ ctx, projectId: projectOf(request), id: request.params.id })));

    app.post('/campaigns/:id/send', {
      config,
      schema: {
        tags, description: 'Sends a DRAFT or SCHEDULED campaign now, or schedules it for a future `scheduledFor` (202, empty body).',
        params: idParams, body: sendCampaignBody, response: { 202: empty, ...errorResponses },
      },
    }, async (request, reply) => {
      await sendCampaign({ ctx, projectId: projectOf(request), id: request.params.id, scheduledFor: request.body?.scheduledFor });
      return accepted(reply);
    });

    app.post('/campaigns/:id/cancel', {
      config,
      schema: { tags, description: 'Cancels a SCHEDULED or SENDING campaign and its unsent emails (202, empty body).', params: idParams, response: { 202: empty, ...errorResponses } },
    }, async (request, reply) => {
      await cancelCampaign({ ctx, projectId: projectOf(request), id: request.params.id });
      return accepted(reply);
    });

    app.post('/campaigns/:id/test', {
      config,
      schema: { tags, description: 'Sends the rendered campaign to a few addresses, subject prefixed "[TEST] ".', params: idParams, body: testCampaignBody, response: { 200: envelope(testCampaignResult), ...errorResponses } },
    }, async (request) => ok(await sendCampaignTest({ ctx, projectId: projectOf(request), id: request.params.id, emails: request.body.emails })));

    app.get('/campaigns/:id/stats', { config, schema: { tags, params: idParams, response: { 200: envelope(campaignStatsSchema), ...errorResponses } } },
      async (request) => ok(await getCampaignStats({ ctx, projectId: projectOf(request), id: request.params.id })));
  };
}
