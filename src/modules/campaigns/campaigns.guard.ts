// The reputation guard: a campaign whose bounces or complaints show a bad list pauses itself before it
// hurts the sender's domain (Gmail and Yahoo's bulk-sender rules), with the reason and a campaign.paused webhook.
import type { AppContext } from '../../context.types.ts';
import type { Executor, Tx } from '../../db/client.ts';
import { countCampaignEmails, holdCampaignEmails } from '../emails/index.ts';
import { getProjectSettings } from '../settings/index.ts';
import { isLocalSendUnderway } from './campaigns.local-time.ts';
import * as repo from './campaigns.repo.ts';
import { emitCampaignEvent } from './campaigns.webhooks.ts';

/** Handoffs before the rates mean anything. */
export const GUARD_MIN_SENT = 200;

/** The project's limits: the rate of bounces and of complaints over the emails handed over. */
export interface ReputationLimits {
  maxBounceRate: number;
  maxComplaintRate: number;
}

/**
 * SENDING or TESTING (or a local-time send under way) → PAUSED with its reason, in the caller's transaction: the
 * campaign's emails not on their way yet stop being due, and `campaign.paused` goes to the webhooks. Null when it was
 * not sending.
 */
export async function pauseSend(
  db: Executor,
  campaignId: string,
  reason: string | null,
  projectId?: string,
): Promise<repo.CampaignRow | null> {
  const row = await repo.transitionCampaign(db, campaignId, 'PAUSED', { pausedReason: reason }, projectId);
  if (!row) return null;
  await holdCampaignEmails({ db, campaignId });
  await emitCampaignEvent(db, row, 'campaign.paused');
  return row;
}

/** Why the campaign's figures call for a pause, or null: after GUARD_MIN_SENT handoffs, a rate above its limit. */
export function guardReason(
  counts: { sent: number; bounced: number; complained: number },
  limits: ReputationLimits,
): string | null {
  if (counts.sent < GUARD_MIN_SENT) return null;
  const bounceRate = counts.bounced / counts.sent;
  const complaintRate = counts.complained / counts.sent;
  const pct = (rate: number) => `${(rate * 100).toFixed(2)}%`;
  if (bounceRate > limits.maxBounceRate)
    return (
      `Bounce rate ${pct(bounceRate)} passed the limit of ${pct(limits.maxBounceRate)} ` + `after ${counts.sent} emails`
    );
  if (complaintRate > limits.maxComplaintRate)
    return (
      `Complaint rate ${pct(complaintRate)} passed the limit of ${pct(limits.maxComplaintRate)} ` +
      `after ${counts.sent} emails`
    );
  return null;
}

/**
 * Pauses a sending campaign (or a local-time send under way) whose rates since its last resume pass the project's
 * limits: the paused row, or null. In the caller's transaction when given one (the campaign locked in it).
 */
export async function guardReputation(
  ctx: AppContext,
  campaign: repo.CampaignRow,
  tx?: Tx,
): Promise<repo.CampaignRow | null> {
  if (campaign.status !== 'SENDING' && campaign.status !== 'TESTING' && !isLocalSendUnderway(campaign)) return null;
  const db = tx ?? ctx.db;
  // After a resume, the user has seen the figures so far: only what is settled from then on can pause it again.
  const counts = await countCampaignEmails({
    db,
    projectId: campaign.projectId,
    campaignId: campaign.id,
    settledSince: campaign.resumedAt,
  });
  const reason = guardReason(counts, await getProjectSettings({ db, projectId: campaign.projectId }));
  if (!reason) return null;
  return tx ? pauseSend(tx, campaign.id, reason) : ctx.db.transaction((own) => pauseSend(own, campaign.id, reason));
}
