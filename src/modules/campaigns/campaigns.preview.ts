import type { AppContext } from '../../context.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { queueEmails } from '../delivery/index.ts';
import { findSuppressed } from '../suppressions/index.ts';
import { templateProblem } from '../templates/index.ts';
import { campaignTestEmailFor } from './campaigns.render.ts';
import { requireCampaign } from './campaigns.service.ts';

/**
 * POST /campaigns/{id}/test: the rendered campaign, `[TEST] ` before the subject, to a few addresses.
 * No contact is created and nothing counts in the campaign's stats; suppressed addresses get nothing.
 */
export async function sendCampaignTest(opts: { ctx: AppContext; projectId: string; id: string; emails: string[] }) {
  const { ctx, projectId } = opts;
  const campaign = await requireCampaign(ctx.db, projectId, opts.id);
  await requireSenderDomain({ ctx, projectId, from: campaign.fromEmail });
  const addresses = [...new Set(opts.emails)];
  const rows = addresses.map((to) => {
    try {
      return campaignTestEmailFor(campaign, to);
    } catch (error) {
      throw templateProblem(error, { subject: 'subject', html: 'body' }) ?? error;
    }
  });
  return ctx.db.transaction(async (tx) => {
    const suppressed = await findSuppressed(tx, projectId, addresses);
    for (const row of rows) {
      const reason = suppressed.get(row.toEmail);
      if (reason) Object.assign(row, { status: 'SUPPRESSED', statusReason: reason });
    }
    await queueEmails(ctx, tx, rows, 'TEST');
    return { emails: rows.map((r) => ({ to: r.toEmail, email: r.id!, status: r.status as 'QUEUED' | 'SUPPRESSED' })) };
  });
}
