// Turns a campaign and a recipient into an email row, rendered once at fan-out: the row holds exactly
// what is sent, every retry sends the same bytes, and the delivery path is the one of every other email.
import type { AppContext } from '../../context.ts';
import type { ContactRow } from '../contacts/index.ts';
import type { NewEmail } from '../delivery/index.ts';
import { newId } from '../../lib/ids.ts';
import { createMessageId } from '../../mail/compose.ts';
import { renderTemplate, TemplateError } from '../../mail/render.ts';
import { templateVariables } from '../../mail/variables.ts';
import { unsubscribeUrlFor } from '../delivery/index.ts';
import type { CampaignRow } from './campaigns.repo.ts';

type Recipient = Pick<ContactRow, 'id' | 'email' | 'subscribed' | 'data'>;

/** The domain part of the sender: Message-IDs are made on it (R15). */
export function senderDomainOf(campaign: Pick<CampaignRow, 'fromEmail'>): string {
  return campaign.fromEmail.slice(campaign.fromEmail.lastIndexOf('@') + 1);
}

/** The fields every email of the campaign shares. */
function sharedFields(campaign: CampaignRow) {
  return {
    projectId: campaign.projectId,
    fromEmail: campaign.fromEmail,
    fromName: campaign.fromName,
    replyTo: campaign.replyTo,
    headers: null,
    attachmentSetId: null,
  };
}

/**
 * One recipient's QUEUED campaign email (marketing: List-Unsubscribe and tracking on). A body that cannot
 * render for this contact's data becomes a FAILED email instead of stopping the whole send.
 */
export function campaignEmailFor(ctx: AppContext, campaign: CampaignRow, contact: Recipient): NewEmail {
  const id = newId();
  const base = { id, contactId: contact.id, sourceType: 'CAMPAIGN' as const, sourceId: campaign.id };
  const unsubscribeUrl = unsubscribeUrlFor(ctx, { ...base, projectId: campaign.projectId });
  const variables = templateVariables({ contact, unsubscribeUrl });
  const row = {
    ...sharedFields(campaign), ...base, toEmail: contact.email, toName: null,
    messageId: createMessageId(senderDomainOf(campaign)), marketing: true, tracking: true,
  };
  try {
    const rendered = renderTemplate({ subject: campaign.subject, html: campaign.body, variables });
    return { ...row, subject: rendered.subject, html: rendered.html, text: rendered.text, status: 'QUEUED' };
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    return { ...row, subject: campaign.subject, html: '', text: null, status: 'FAILED', statusReason: 'RENDER_FAILED', lastError: error.message.slice(0, 1000) };
  }
}

/**
 * A test message of the campaign to an address (POST /campaigns/{id}/test): `[TEST] ` before the
 * subject, no contact (so no unsubscribe link, no events, no stats), tracking off.
 */
export function campaignTestEmailFor(campaign: CampaignRow, to: string): NewEmail {
  const variables = { email: to, unsubscribeUrl: '#', contact: { id: null, email: to, subscribed: true, data: {} } };
  const rendered = renderTemplate({ subject: campaign.subject, html: campaign.body, variables });
  return {
    ...sharedFields(campaign), id: newId(), contactId: null, sourceType: 'TEST', sourceId: campaign.id,
    toEmail: to, toName: null, subject: `[TEST] ${rendered.subject}`, html: rendered.html, text: rendered.text,
    messageId: createMessageId(senderDomainOf(campaign)), marketing: true, tracking: false, status: 'QUEUED',
  };
}
