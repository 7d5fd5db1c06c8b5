// campaign.sending, campaign.sent and campaign.paused for the customer's webhooks, queued with the status change
// itself.
import type { Executor } from '../../db/client.ts';
import { emitWebhookEvents } from '../webhooks/index.ts';
import type { CampaignRow } from './campaigns.repo.ts';

/** Pushes a campaign's status change to webhooks in the caller's transaction. */
export async function emitCampaignEvent(
  db: Executor,
  campaign: Pick<CampaignRow, 'id' | 'projectId' | 'name' | 'status' | 'pausedReason'>,
  type: 'campaign.sending' | 'campaign.sent' | 'campaign.paused',
): Promise<void> {
  const data = {
    campaignId: campaign.id,
    name: campaign.name,
    status: campaign.status,
    ...(type === 'campaign.paused' ? { reason: campaign.pausedReason } : {}),
  };
  await emitWebhookEvents(db, [{ projectId: campaign.projectId, type, data }]);
}
