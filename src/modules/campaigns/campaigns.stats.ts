import type { AppContext } from '../../context.types.ts';
import { rate } from '../../lib/rate.ts';
import {
  countCampaignEmails,
  countCampaignLinks,
  countSendTimeGroups,
  countSuppressedCampaignEmails,
  countVariantEmails,
} from '../emails/index.ts';
import { requireCampaign } from './campaigns.service.ts';
import { isAbTest, VARIANT_IDS } from './campaigns.variants.ts';

/**
 * GET /campaigns/{id}/stats: counts over the campaign's emails (one aggregate query), rates over sent.
 * `sent` counts every email handed to the mail server (a later bounce or complaint included). Open and click
 * rates count people only (machine opens and clicks are in `opened` and `clicked`). An A/B test adds its
 * figures per variant; a send at each recipient's local time, how many recipients named no known time zone; a
 * send-time optimised one, the figures of its optimized and holdout groups. Recipients held back at the send
 * (snoozed, at the frequency cap) count in `suppressed`, by reason.
 */
export async function getCampaignStats(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { db } = opts.ctx;
  const campaign = await requireCampaign({ db, projectId: opts.projectId, id: opts.id });
  const counts = await countCampaignEmails({ db, projectId: opts.projectId, campaignId: opts.id });
  const byReason = await countSuppressedCampaignEmails({ db, projectId: opts.projectId, campaignId: opts.id });
  const stats = {
    ...counts,
    suppressed: Object.values(byReason).reduce((sum, n) => sum + n, 0),
    suppressedByReason: byReason,
    openRate: rate(counts.humanOpened, counts.sent),
    clickRate: rate(counts.humanClicked, counts.sent),
    bounceRate: rate(counts.bounced, counts.sent),
    complaintRate: rate(counts.complained, counts.sent),
    ...(campaign.localTime ? { localTime: { unknownTimeZones: campaign.unknownTimeZones } } : {}),
  };
  if (campaign.optimizeWithinSeconds !== null) {
    const groups = await countSendTimeGroups({ db, projectId: opts.projectId, campaignId: opts.id });
    const group = (name: 'optimized' | 'holdout') => {
      const c = groups.get(name);
      return {
        recipients: c?.recipients ?? 0,
        sent: c?.sent ?? 0,
        humanOpened: c?.humanOpened ?? 0,
        humanClicked: c?.humanClicked ?? 0,
        openRate: rate(c?.humanOpened ?? 0, c?.sent ?? 0),
        clickRate: rate(c?.humanClicked ?? 0, c?.sent ?? 0),
      };
    };
    return { ...stats, sendTime: { optimized: group('optimized'), holdout: group('holdout') } };
  }
  if (!isAbTest(campaign)) return stats;
  const byVariant = await countVariantEmails({ db, projectId: opts.projectId, campaignId: opts.id });
  const variants = campaign.variants!.map((_, index) => {
    const c = byVariant.get(index) ?? {
      recipients: 0,
      sent: 0,
      opened: 0,
      humanOpened: 0,
      clicked: 0,
      humanClicked: 0,
    };
    return {
      id: VARIANT_IDS[index]!,
      recipients: c.recipients,
      sent: c.sent,
      opened: c.opened,
      humanOpened: c.humanOpened,
      clicked: c.clicked,
      humanClicked: c.humanClicked,
      openRate: rate(c.humanOpened, c.sent),
      clickRate: rate(c.humanClicked, c.sent),
      winner: campaign.winnerVariant === index,
    };
  });
  return { ...stats, variants };
}

/** GET /campaigns/{id}/links: the campaign's links, most clicked first. */
export async function getCampaignLinks(opts: { ctx: AppContext; projectId: string; id: string }) {
  await requireCampaign({ db: opts.ctx.db, projectId: opts.projectId, id: opts.id });
  return countCampaignLinks({ db: opts.ctx.db, projectId: opts.projectId, campaignId: opts.id });
}
