// Turns a campaign and a recipient into an email row. The body is stored once per send (the campaign's
// content) and rendered at delivery; the row keeps the recipient's subject and the few variables the
// body reads, fixed at fan-out, so every retry renders the same message.
import type { AppContext } from '../../context.types.ts';
import type { ContactRow } from '../contacts/index.ts';
import type { OutgoingMessage } from '../emails/index.ts';
import { newId } from '../../lib/ids.ts';
import { DEFAULT_RENDER_LIMITS, renderSubject, TemplateError, type RenderedMessage } from '../../mail/render.ts';
import { templateVariables } from '../../mail/variables.ts';
import { pickVariables } from '../../mail/template-roots.ts';
import { unsubscribeUrlFor } from '../emails/index.ts';
import type { CampaignRow } from './campaigns.repo.ts';

type Recipient = Pick<ContactRow, 'id' | 'email' | 'subscribed' | 'data'>;

/** Who every email of the campaign is from (delivery's sender). */
export function campaignSender(campaign: CampaignRow) {
  return { email: campaign.fromEmail, name: campaign.fromName, replyTo: campaign.replyTo };
}

/** What the fan-out of one batch shares: the stored content, the variable names it reads, the data fallbacks. */
export interface CampaignBody {
  contentId: string;
  roots: Set<string> | null;
  /** The project's contact data fallbacks (declared contact properties). */
  fallbacks?: Record<string, unknown> | undefined;
}

/**
 * Time one recipient's subject may take to render during the fan-out. It renders on the event loop, inside the
 * fan-out's transaction, once per recipient: a real subject takes microseconds, and a subject that loops must not
 * hold the process (and, on the embedded database, every other project's work) for half a second per recipient.
 */
export const SUBJECT_RENDER_MS = 20;

/**
 * A subject that ran out of SUBJECT_RENDER_MS may only have met a busy machine: it is rendered again with the
 * delivery's limit while the fan-out batch has spent less than this on second tries that ran out of time too (a
 * subject that loops costs the batch that much more, not every recipient). A second try that succeeds costs the
 * budget nothing, so a slow moment never turns a good subject into a failed message.
 */
export const SUBJECT_RETRY_MS_PER_BATCH = 2_000;

/** Tries of a subject that runs out of time: the first with SUBJECT_RENDER_MS, the others with the delivery's limit. */
const SUBJECT_TRIES = 3;

/** What a fan-out batch has left for second tries of subjects that ran out of time. */
export interface SubjectRetries {
  msLeft: number;
}

/**
 * One recipient's campaign message (marketing: List-Unsubscribe and tracking on). Only the subject is rendered
 * here; a subject that cannot render for this contact's data (or within SUBJECT_RENDER_MS) makes a failed message
 * instead of stopping the whole send (a body that cannot fails the same way at delivery).
 */
export function campaignMessageFor(
  ctx: AppContext,
  campaign: CampaignRow,
  body: CampaignBody,
  contact: Recipient,
  retries: SubjectRetries = { msLeft: 0 },
): OutgoingMessage {
  const id = newId();
  const unsubscribeUrl = unsubscribeUrlFor(ctx, {
    id,
    projectId: campaign.projectId,
    contactId: contact.id,
    sourceType: 'CAMPAIGN',
    sourceId: campaign.id,
  });
  const variables = templateVariables({ contact, unsubscribeUrl, fallbacks: body.fallbacks });
  const message = { id, contactId: contact.id, to: { email: contact.email }, subscribed: contact.subscribed };
  const render = (renderTimeoutMs: number) => renderSubject(campaign.subject, variables, { renderTimeoutMs });
  // The first try with SUBJECT_RENDER_MS, the others with the delivery's limit: a process that the machine did not run
  // for a while (a loaded machine, a long garbage collection) runs out of any wall-clock limit without any fault of
  // the subject. Only the later tries that run out of time too spend the batch's budget.
  const subjectFor = (): string => {
    for (let n = 0; ; n++) {
      const started = performance.now();
      try {
        return render(n === 0 ? SUBJECT_RENDER_MS : DEFAULT_RENDER_LIMITS.renderTimeoutMs);
      } catch (error) {
        const timedOut = error instanceof TemplateError && error.timedOut;
        if (timedOut && n > 0) retries.msLeft -= performance.now() - started;
        if (!timedOut || n + 1 >= SUBJECT_TRIES || retries.msLeft <= 0) throw error;
      }
    }
  };
  try {
    const subject = subjectFor();
    // The message's own links are made again at delivery (with the sender domain's link base).
    const {
      unsubscribeUrl: _recomputed,
      manageUrl: _alsoRecomputed,
      viewInBrowserUrl: _madeAtDelivery,
      ...fixed
    } = pickVariables(variables, body.roots);
    return { ...message, subject, body: { contentId: body.contentId, variables: fixed } };
  } catch (error) {
    if (!(error instanceof TemplateError)) throw error;
    return {
      ...message,
      subject: campaign.subject,
      body: { contentId: body.contentId, variables: {} },
      failure: { reason: 'RENDER_FAILED', error: error.message },
    };
  }
}

/**
 * The variables of a test message to an address: the data of `contact` (the one picked, or the address's own)
 * with the sample `data` over it; never a real unsubscribe link, since no contact may unsubscribe through a test.
 */
export function campaignTestVariables(
  to: string,
  contact: Recipient | undefined,
  data: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const seen = contact
    ? {
        id: contact.id,
        email: contact.email,
        subscribed: contact.subscribed,
        data: contact.data as Record<string, unknown>,
      }
    : { id: null, email: to, subscribed: true, data: {} };
  return { ...templateVariables({ contact: seen, data, unsubscribeUrl: '#' }), email: to };
}

/**
 * A test message of the campaign to an address (POST /campaigns/{id}/test), from its rendering: `[TEST] `
 * before the subject, no contact (so no unsubscribe link, no events, no stats).
 */
export function campaignTestMessageFor(to: string, rendered: RenderedMessage): OutgoingMessage {
  return {
    contactId: null,
    to: { email: to },
    subject: `[TEST] ${rendered.subject}`,
    body: { html: rendered.html, text: rendered.text },
  };
}
