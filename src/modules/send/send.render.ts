// The messages of a /v1/send, rendered before anything is written: off the event loop, within the
// request's render budget, for the contacts the transaction will then find or create.
import type { AppContext } from '../../context.types.ts';
import { newId } from '../../lib/ids.ts';
import { renderMessages } from '../../mail/render-pool.ts';
import type { RenderedMessage } from '../../mail/render.ts';
import { templateVariables, type VariableContact } from '../../mail/variables.ts';
import { findContactsByEmails } from '../contacts/index.ts';
import { unsubscribeUrlFor } from '../delivery/index.ts';
import { templateProblem } from '../templates/index.ts';
import type { Recipient } from './send.input.ts';

/** One recipient's message: its email id, the contact id it was rendered for, and what it says. */
export interface PlannedMessage {
  recipient: Recipient;
  emailId: string;
  contactId: string;
  rendered: RenderedMessage;
}

/**
 * Renders every recipient's subject, HTML and text. An existing contact renders with its own data and
 * id; a new one with the id the transaction will give it (`UpsertRow.id`), no data, and the request's
 * `subscribed`. The recipient's `to.name` is `{{ name }}`, over the contact's `name` and under the
 * request's `data.name` (as Plunk merges them).
 */
export async function renderSend(opts: {
  ctx: AppContext;
  projectId: string;
  recipients: Recipient[];
  subject: string;
  html: string;
  data: Record<string, unknown> | undefined;
  subscribed: boolean;
  /** The request fields a template problem is reported on. */
  fields: { subject: string; html: string };
}): Promise<PlannedMessage[]> {
  const { ctx, projectId, recipients } = opts;
  const existing = await findContactsByEmails({ db: ctx.db, projectId, emails: recipients.map((r) => r.email) });
  const plans = recipients.map((recipient) => {
    const found = existing.get(recipient.email);
    const contact: VariableContact & { id: string } = found
      ? { id: found.id, email: found.email, subscribed: found.subscribed, data: found.data }
      : { id: newId(), email: recipient.email, subscribed: opts.subscribed, data: {} };
    const emailId = newId();
    const unsubscribeUrl = unsubscribeUrlFor(ctx, { id: emailId, projectId, contactId: contact.id, sourceType: 'TRANSACTIONAL', sourceId: null });
    const data = recipient.name === undefined ? opts.data : { name: recipient.name, ...opts.data };
    return { recipient, emailId, contactId: contact.id, variables: templateVariables({ contact, data, unsubscribeUrl }) };
  });
  let rendered: RenderedMessage[];
  try {
    rendered = await renderMessages({ subject: opts.subject, html: opts.html, variables: plans.map((p) => p.variables), budget: ctx.config.renderBudget });
  } catch (error) {
    throw templateProblem(error, opts.fields) ?? error;
  }
  return plans.map((plan, i) => ({ recipient: plan.recipient, emailId: plan.emailId, contactId: plan.contactId, rendered: rendered[i]! }));
}
