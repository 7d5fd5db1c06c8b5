// campaign.sending and campaign.sent for the customer's webhooks, queued with the status change itself.
import type { Executor } from '../../db/client.ts';
import { emitWebhookEvents } from '../webhooks/index.ts';
import type { CampaignRow } from './campaigns.repo.ts';

/** Pushes a campaign's status change to webhooks in the caller's transaction. */
export async function emitCampaignEvent(db: Executor, campaign: Pick<CampaignRow, 'id' | 'projectId' | 'name' | 'status'>, type: 'campaign.sending' | 'campaign.sent'): Promise<void> {
  await emitWebhookEvents(db, [{ projectId: campaign.projectId, type, data: { campaignId: campaign.id, name: campaign.name, status: campaign.status } }]);
}
