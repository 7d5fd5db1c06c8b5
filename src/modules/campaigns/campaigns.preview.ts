import type { AppContext } from '../../context.types.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { queueMessages } from '../delivery/index.ts';
import { templateProblem } from '../templates/index.ts';
import { campaignSender, campaignTestMessageFor, campaignTestVariables } from './campaigns.render.ts';
import { renderMessages } from '../../mail/render-pool.ts';
import type { RenderedMessage } from '../../mail/render.ts';
import { requireCampaign } from './campaigns.service.ts';

/**
 * POST /campaigns/{id}/test: the rendered campaign, `[TEST] ` before the subject, to a few addresses.
 * No contact is created and nothing counts in the campaign's stats; suppressed addresses get nothing.
 */
export async function sendCampaignTest(opts: { ctx: AppContext; projectId: string; id: string; emails: string[] }) {
  const { ctx, projectId } = opts;
  const campaign = await requireCampaign({ db: ctx.db, projectId: projectId, id: opts.id });
  await requireSenderDomain({ ctx, projectId, from: campaign.fromEmail });
  const addresses = [...new Set(opts.emails)];
  // Rendered off the event loop within the request's render budget, like /v1/send.
  let rendered: RenderedMessage[];
  try {
    rendered = await renderMessages({ subject: campaign.subject, html: campaign.body, variables: addresses.map(campaignTestVariables), budget: ctx.config.renderBudget });
  } catch (error) {
    throw templateProblem(error, { subject: 'subject', html: 'body' }) ?? error;
  }
  return ctx.db.transaction(async (tx) => {
    const queued = await queueMessages(tx, {
      projectId, source: { type: 'TEST', id: campaign.id }, sender: campaignSender(campaign), marketing: true, tracking: false,
      messages: addresses.map((to, i) => campaignTestMessageFor(to, rendered[i]!)),
    });
    return { emails: queued.map((email, i) => ({ to: addresses[i]!, email: email.id, status: email.status as 'QUEUED' | 'SUPPRESSED' })) };
  });
}
