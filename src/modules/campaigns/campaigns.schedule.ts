// The campaign state machine's user-driven transitions: send now, schedule, unschedule, cancel.
import type { AppContext } from '../../context.types.ts';
import { AppError, validationError } from '../../lib/errors.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { cancelCampaignEmails } from '../delivery/index.ts';
import { emitCampaignEvent } from './campaigns.webhooks.ts';
import { campaignFanoutJob } from './campaigns.jobs.ts';
import { CAMPAIGN_TRANSITIONS, transitionCampaign } from './campaigns.repo.ts';
import { audienceOf, campaignView, requireCampaign } from './campaigns.service.ts';

/**
 * POST /campaigns/{id}/send: from DRAFT or SCHEDULED, now (→ SENDING) or at a future `scheduledFor`
 * (→ SCHEDULED). The status change and the first fan-out job commit together; the job of an earlier
 * schedule finds the time changed and does nothing.
 */
export async function sendCampaign(opts: { ctx: AppContext; projectId: string; id: string; scheduledFor?: string | null | undefined }) {
  const { ctx, projectId, id } = opts;
  const at = opts.scheduledFor ? new Date(opts.scheduledFor) : null;
  if (at && at.getTime() <= Date.now()) throw validationError('scheduledFor', 'must be in the future; omit it to send now', 'past_date');
  const campaign = await requireCampaign({ db: ctx.db, projectId: projectId, id: id });
  const conflict = () => new AppError('CONFLICT', `Only a DRAFT or SCHEDULED campaign can be sent; this one is ${campaign.status}`);
  if (!(CAMPAIGN_TRANSITIONS.SENDING as readonly string[]).includes(campaign.status)) throw conflict();
  if (!audienceOf(campaign)) throw validationError('segmentId', 'The campaign has no audience: set segmentId or audienceFilter', 'required');
  await requireSenderDomain({ ctx, projectId, from: campaign.fromEmail });
  await ctx.db.transaction(async (tx) => {
    const row = at
      ? await transitionCampaign(tx, id, 'SCHEDULED', { scheduledAt: at }, projectId)
      : await transitionCampaign(tx, id, 'SENDING', { scheduledAt: null, sentAt: new Date() }, projectId);
    if (!row) throw conflict();
    if (!at) await emitCampaignEvent(tx, row, 'campaign.sending');
    if (at) await ctx.queue.enqueue(campaignFanoutJob, { campaignId: id, after: null, scheduledAt: at.toISOString() }, { tx, startAfter: at });
    else await ctx.queue.enqueue(campaignFanoutJob, { campaignId: id, after: null }, { tx });
  });
}

/** POST /campaigns/{id}/cancel: SCHEDULED or SENDING → CANCELLED, and its emails not yet on their way with it. */
export async function cancelCampaign(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { ctx, projectId, id } = opts;
  const campaign = await requireCampaign({ db: ctx.db, projectId: projectId, id: id });
  await ctx.db.transaction(async (tx) => {
    if (!(await transitionCampaign(tx, id, 'CANCELLED', {}, projectId))) {
      throw new AppError('CONFLICT', `Only a SCHEDULED or SENDING campaign can be cancelled; this one is ${campaign.status}`);
    }
    await cancelCampaignEmails({ db: tx, campaignId: id });
  });
}

/** POST /campaigns/{id}/unschedule: SCHEDULED → DRAFT, the time cleared (409 in any other status). */
export async function unscheduleCampaign(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { ctx, projectId, id } = opts;
  const campaign = await requireCampaign({ db: ctx.db, projectId, id });
  const row = await transitionCampaign(ctx.db, id, 'DRAFT', { scheduledAt: null }, projectId);
  if (!row) throw new AppError('CONFLICT', `Only a SCHEDULED campaign can be unscheduled; this one is ${campaign.status}`);
  return campaignView(ctx.db, row);
}
