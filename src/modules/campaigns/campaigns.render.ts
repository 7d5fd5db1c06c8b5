// Turns a campaign and a recipient into an email row. The body is stored once per send (the campaign's
// content) and rendered at delivery; the row keeps the recipient's subject and the few variables the
// body reads, fixed at fan-out, so every retry renders the same message.
import type { AppContext } from '../../context.types.ts';
import type { ContactRow } from '../contacts/index.ts';
import type { NewEmail } from '../delivery/index.ts';
import { newId } from '../../lib/ids.ts';
import { renderTemplate, TemplateError, type RenderedMessage } from '../../mail/render.ts';
import { templateVariables } from '../../mail/variables.ts';
import { pickVariables, templateRoots } from '../../mail/template-roots.ts';
import { unsubscribeUrlFor } from '../delivery/index.ts';
import type { CampaignRow } from './campaigns.repo.ts';

type Recipient = Pick<ContactRow, 'id' | 'email' | 'subscribed' | 'data'>;


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

/** What the fan-out of one batch shares: the stored content and the variable names its body reads. */
export interface CampaignBody {
  contentId: string;
  roots: Set<string> | null;
}

export function campaignRoots(campaign: CampaignRow): Set<string> | null {
  return templateRoots([campaign.body]);
}

/**
 * One recipient's QUEUED campaign email (marketing: List-Unsubscribe and tracking on). Only the subject is
 * rendered here; a subject that cannot render for this contact's data makes a FAILED email instead of
 * stopping the whole send (a body that cannot fails the same way at delivery).
 */
export function campaignEmailFor(ctx: AppContext, campaign: CampaignRow, body: CampaignBody, contact: Recipient): NewEmail {
  const id = newId();
  const base = { id, contactId: contact.id, sourceType: 'CAMPAIGN' as const, sourceId: campaign.id };
  const unsubscribeUrl = unsubscribeUrlFor(ctx, { ...base, projectId: campaign.projectId });
  const variables = templateVariables({ contact, unsubscribeUrl });
  const row = {
    ...sharedFields(campaign), ...base, toEmail: contact.email, toName: null,
    marketing: true, tracking: true,
  };
  try {
    const rendered = renderTemplate({ subject: campaign.subject, html: '', text: '', variables });
    const { unsubscribeUrl: _recomputed, ...fixed } = pickVariables(variables, body.roots);
    return { ...row, subject: rendered.subject, html: null, text: null, contentId: body.contentId, variables: fixed, status: 'QUEUED' };
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    return { ...row, subject: campaign.subject, html: null, text: null, status: 'FAILED', statusReason: 'RENDER_FAILED', lastError: error.message.slice(0, 1000) };
  }
}

/** The variables of a test message to an address: no contact behind it, so no real unsubscribe link. */
export function campaignTestVariables(to: string): Record<string, unknown> {
  return { email: to, unsubscribeUrl: '#', contact: { id: null, email: to, subscribed: true, data: {} } };
}

/**
 * A test message of the campaign to an address (POST /campaigns/{id}/test), from its rendering: `[TEST] `
 * before the subject, no contact (so no unsubscribe link, no events, no stats), tracking off.
 */
export function campaignTestEmailFor(campaign: CampaignRow, to: string, rendered: RenderedMessage): NewEmail {
  return {
    ...sharedFields(campaign), id: newId(), contactId: null, sourceType: 'TEST', sourceId: campaign.id,
    toEmail: to, toName: null, subject: `[TEST] ${rendered.subject}`, html: rendered.html, text: rendered.text,
    marketing: true, tracking: false, status: 'QUEUED',
  };
}
