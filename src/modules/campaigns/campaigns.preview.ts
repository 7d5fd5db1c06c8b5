import type { AppContext } from '../../context.types.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { queueMessages } from '../emails/index.ts';
import { templateProblem } from '../templates/index.ts';
import { campaignSender, campaignTestMessageFor, campaignTestVariables } from './campaigns.render.ts';
import { renderMessages } from '../../mail/render-pool.ts';
import type { RenderedMessage } from '../../mail/render.ts';
import { requireCampaign } from './campaigns.service.ts';
import { findOr404 } from '../../lib/errors.ts';
import { findContact, findContactsByEmails, normalizeEmail } from '../contacts/index.ts';

/** Whose data each test address renders with: the picked contact for all, else the address's own contact (if any). */
async function testContacts(ctx: AppContext, projectId: string, addresses: string[], contactId: string | undefined) {
  if (contactId) {
    const picked = await findOr404('Contact', contactId, () => findContact({ db: ctx.db, projectId, id: contactId }));
    return () => picked;
  }
  const byEmail = await findContactsByEmails({ db: ctx.db, projectId, emails: addresses.map(normalizeEmail) });
  return (to: string) => byEmail.get(normalizeEmail(to));
}

/**
 * POST /campaigns/{id}/test: the rendered campaign, `[TEST] ` before the subject, to a few addresses.
 * No contact is created and nothing counts in the campaign's stats; suppressed addresses get nothing.
 */
export async function sendCampaignTest(opts: {
  ctx: AppContext;
  projectId: string;
  id: string;
  emails: string[];
  contactId?: string | undefined;
  data?: Record<string, unknown> | undefined;
}) {
  const { ctx, projectId } = opts;
  const campaign = await requireCampaign({ db: ctx.db, projectId: projectId, id: opts.id });
  await requireSenderDomain({ ctx, projectId, from: campaign.fromEmail });
  const addresses = [...new Set(opts.emails)];
  const contactOf = await testContacts(ctx, projectId, addresses, opts.contactId);
  // Rendered off the event loop within the request's render budget, like /v1/send.
  let rendered: RenderedMessage[];
  try {
    rendered = await renderMessages(ctx, {
      subject: campaign.subject,
      html: campaign.body,
      variables: addresses.map((to) => campaignTestVariables(to, contactOf(to), opts.data)),
      budget: ctx.config.renderBudget,
    });
  } catch (error) {
    throw templateProblem(error, { subject: 'subject', html: 'body' }) ?? error;
  }
  return ctx.db.transaction(async (tx) => {
    const queued = await queueMessages(tx, {
      projectId,
      source: { type: 'TEST', id: campaign.id },
      sender: campaignSender(campaign),
      marketing: true,
      tracking: false,
      messages: addresses.map((to, i) => campaignTestMessageFor(to, rendered[i]!)),
    });
    return {
      emails: queued.map((email, i) => ({
        to: addresses[i]!,
        email: email.id,
        status: email.status as 'QUEUED' | 'SUPPRESSED',
      })),
    };
  });
}
