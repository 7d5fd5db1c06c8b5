import type { AppContext } from '../../context.types.ts';
import { countCampaignEmails } from '../delivery/index.ts';
import { requireCampaign } from './campaigns.service.ts';

const rate = (part: number, whole: number) => (whole > 0 ? Math.min(1, Math.round((part / whole) * 10_000) / 10_000) : 0);

/**
 * GET /campaigns/{id}/stats: counts over the campaign's emails (one aggregate query), rates over sent.
 * `sent` counts every email handed to the mail server (a later bounce or complaint included).
 */
export async function getCampaignStats(opts: { ctx: AppContext; projectId: string; id: string }) {
  await requireCampaign({ db: opts.ctx.db, projectId: opts.projectId, id: opts.id });
  const counts = await countCampaignEmails({ db: opts.ctx.db, projectId: opts.projectId, campaignId: opts.id });
  return {
    ...counts,
    openRate: rate(counts.opened, counts.sent),
    clickRate: rate(counts.clicked, counts.sent),
    bounceRate: rate(counts.bounced, counts.sent),
  };
}
