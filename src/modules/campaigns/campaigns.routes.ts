import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { envelope, errors, idParams, listEnvelope, ok } from '../../lib/http.ts';
import { projectOf } from '../../plugins/auth.ts';
import { sendCampaignTest } from './campaigns.preview.ts';
import {
  cancelCampaign,
  pauseCampaign,
  pickCampaignWinner,
  resumeCampaign,
  sendCampaign,
  unscheduleCampaign,
} from './campaigns.schedule.ts';
import {
  campaignLinkSchema,
  campaignRouteDocs,
  campaignSchema,
  campaignStatsSchema,
  createCampaignBody,
  followUpBody,
  listCampaignsQuery,
  pickWinnerBody,
  sendCampaignBody,
  testCampaignBody,
  testCampaignResult,
  updateCampaignBody,
} from './campaigns.schemas.ts';
import * as service from './campaigns.service.ts';
import { getCampaignLinks, getCampaignStats } from './campaigns.stats.ts';
import { createFollowUp } from './campaigns.follow-up.ts';
import { checkCampaign } from './campaigns.check.ts';
import { checkResultSchema } from '../checks/index.ts';

/** /campaigns: marketing email to an audience (all, a segment, or a filter), sent now or at a set time. */
export function campaignRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { auth: 'secret' } as const;
    const tags = ['Campaigns'];
    const empty = z.null().meta({ description: 'Accepted, with an empty body' });
    // 202 with an empty body (not the JSON text `null`).
    const accepted = (reply: FastifyReply) =>
      reply
        .code(202)
        .serializer(() => '')
        .send(null);

    app.post(
      '/campaigns',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Create a campaign',
          operationId: 'createCampaign',
          description: 'A DRAFT campaign; `from` must be on a verified domain (403 otherwise).',
          body: createCampaignBody,
          response: { 201: envelope(campaignSchema), ...errors() },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(await service.createCampaign({ ctx, projectId: projectOf(request), input: request.body }));
      },
    );

    app.get(
      '/campaigns',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'List campaigns',
          operationId: 'listCampaigns',
          querystring: listCampaignsQuery,
          response: { 200: listEnvelope(campaignSchema), ...errors() },
        },
      },
      async (request) =>
        ok(await service.listCampaigns({ db: ctx.db, projectId: projectOf(request), ...request.query })),
    );

    app.get(
      '/campaigns/:id',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get a campaign',
          operationId: 'getCampaign',
          params: idParams,
          response: { 200: envelope(campaignSchema), ...errors(404) },
        },
      },
      async (request) =>
        ok(await service.getCampaign({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.patch(
      '/campaigns/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Update a campaign',
          operationId: 'updateCampaign',
          description: 'Changes a DRAFT or SCHEDULED campaign (409 otherwise).',
          params: idParams,
          body: updateCampaignBody,
          response: { 200: envelope(campaignSchema), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(
          await service.updateCampaign({
            ctx,
            projectId: projectOf(request),
            id: request.params.id,
            input: request.body,
          }),
        ),
    );

    app.delete(
      '/campaigns/:id',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Delete a campaign',
          operationId: 'deleteCampaign',
          description: campaignRouteDocs.deleteCampaign,
          params: idParams,
          response: { 200: envelope(z.object({ id: z.string(), deleted: z.literal(true) })), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(await service.deleteCampaign({ db: ctx.db, projectId: projectOf(request), id: request.params.id })),
    );

    app.post(
      '/campaigns/:id/send',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Send or schedule a campaign',
          operationId: 'sendCampaign',
          description: campaignRouteDocs.sendCampaign,
          params: idParams,
          body: sendCampaignBody,
          response: { 202: empty, ...errors(404, 409) },
        },
      },
      async (request, reply) => {
        await sendCampaign({
          ctx,
          projectId: projectOf(request),
          id: request.params.id,
          scheduledFor: request.body?.scheduledFor,
          sendAt: request.body?.sendAt,
          force: request.body?.force ?? false,
        });
        return accepted(reply);
      },
    );

    app.post(
      '/campaigns/:id/check',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Check a campaign before sending',
          operationId: 'checkCampaign',
          description:
            'The pre-send check: what the content as it would go out (in its layout, every variant and ' +
            'translation), its links, its sender domain and its audience say about how it will be received, each ' +
            'issue with a fix, and a score. A send with an `error` issue is refused (409 CHECK_FAILED) unless ' +
            'forced. Changes nothing.',
          params: idParams,
          response: { 200: envelope(checkResultSchema), ...errors(404) },
        },
      },
      async (request) => {
        const campaign = await service.requireCampaign({
          db: ctx.db,
          projectId: projectOf(request),
          id: request.params.id,
        });
        return ok(await checkCampaign(ctx, campaign));
      },
    );

    app.post(
      '/campaigns/:id/cancel',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Cancel a campaign',
          operationId: 'cancelCampaign',
          description: campaignRouteDocs.cancelCampaign,
          params: idParams,
          response: { 202: empty, ...errors(404, 409) },
        },
      },
      async (request, reply) => {
        await cancelCampaign({ ctx, projectId: projectOf(request), id: request.params.id });
        return accepted(reply);
      },
    );

    app.post(
      '/campaigns/:id/pause',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Pause a campaign',
          operationId: 'pauseCampaign',
          description: campaignRouteDocs.pauseCampaign,
          params: idParams,
          response: { 200: envelope(campaignSchema), ...errors(404, 409) },
        },
      },
      async (request) => ok(await pauseCampaign({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.post(
      '/campaigns/:id/resume',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Resume a campaign',
          operationId: 'resumeCampaign',
          description: campaignRouteDocs.resumeCampaign,
          params: idParams,
          response: { 200: envelope(campaignSchema), ...errors(404, 409) },
        },
      },
      async (request) => ok(await resumeCampaign({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.post(
      '/campaigns/:id/winner',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Pick the winner of an A/B test',
          operationId: 'pickCampaignWinner',
          description: campaignRouteDocs.pickCampaignWinner,
          params: idParams,
          body: pickWinnerBody,
          response: { 200: envelope(campaignSchema), ...errors(404, 409) },
        },
      },
      async (request) =>
        ok(
          await pickCampaignWinner({
            ctx,
            projectId: projectOf(request),
            id: request.params.id,
            variantId: request.body.variantId,
          }),
        ),
    );

    app.post(
      '/campaigns/:id/follow-up',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Create a follow-up campaign',
          operationId: 'createFollowUpCampaign',
          description: campaignRouteDocs.createFollowUpCampaign,
          params: idParams,
          body: followUpBody,
          response: { 201: envelope(campaignSchema), ...errors(404) },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(await createFollowUp({ ctx, projectId: projectOf(request), id: request.params.id, ...request.body }));
      },
    );

    app.get(
      '/campaigns/:id/links',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get the link report of a campaign',
          operationId: 'getCampaignLinks',
          description: campaignRouteDocs.getCampaignLinks,
          params: idParams,
          response: { 200: envelope(z.array(campaignLinkSchema)), ...errors(404) },
        },
      },
      async (request) => ok(await getCampaignLinks({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.post(
      '/campaigns/:id/unschedule',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Unschedule a campaign',
          operationId: 'unscheduleCampaign',
          description: campaignRouteDocs.unscheduleCampaign,
          params: idParams,
          response: { 200: envelope(campaignSchema), ...errors(404, 409) },
        },
      },
      async (request) => ok(await unscheduleCampaign({ ctx, projectId: projectOf(request), id: request.params.id })),
    );

    app.post(
      '/campaigns/:id/duplicate',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Duplicate a campaign',
          operationId: 'duplicateCampaign',
          description: campaignRouteDocs.duplicateCampaign,
          params: idParams,
          response: { 201: envelope(campaignSchema), ...errors(404) },
        },
      },
      async (request, reply) => {
        reply.code(201);
        return ok(
          await service.duplicateCampaign({ db: ctx.db, projectId: projectOf(request), id: request.params.id }),
        );
      },
    );

    app.post(
      '/campaigns/:id/test',
      {
        config: { ...config, scope: 'full', role: 'editor' },
        schema: {
          tags,
          summary: 'Send a test of a campaign',
          operationId: 'testCampaign',
          description: campaignRouteDocs.testCampaign,
          params: idParams,
          body: testCampaignBody,
          response: { 200: envelope(testCampaignResult), ...errors(404) },
        },
      },
      async (request) =>
        ok(await sendCampaignTest({ ctx, projectId: projectOf(request), id: request.params.id, ...request.body })),
    );

    app.get(
      '/campaigns/:id/stats',
      {
        config: { ...config, scope: 'read', role: 'viewer' },
        schema: {
          tags,
          summary: 'Get the stats of a campaign',
          operationId: 'getCampaignStats',
          params: idParams,
          response: { 200: envelope(campaignStatsSchema), ...errors(404) },
        },
      },
      async (request) => ok(await getCampaignStats({ ctx, projectId: projectOf(request), id: request.params.id })),
    );
  };
}
