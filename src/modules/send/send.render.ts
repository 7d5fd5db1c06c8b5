// The messages of /v1/send requests, rendered before anything is written: off the event loop, within the render
// budget, for the contacts the transaction will then find or create.
import type { AppContext } from '../../context.types.ts';
import { newId } from '../../lib/ids.ts';
import { renderMessages } from '../../mail/render-pool.ts';
import type { RenderedMessage } from '../../mail/render.ts';
import { templateVariables, type VariableContact } from '../../mail/variables.ts';
import { findContactsByEmails, findDataFallbacks } from '../contacts/index.ts';
import { unsubscribeUrlFor, viewUrlFor } from '../emails/index.ts';
import type { Translations } from '../../db/schema/templates.ts';
import { templateProblem, translated } from '../templates/index.ts';
import type { Recipient } from './send.input.ts';

/** One recipient's message: its email id, the contact id it was rendered for, and what it says. */
export interface PlannedMessage {
  recipient: Recipient;
  emailId: string;
  contactId: string;
  rendered: RenderedMessage;
  /** The translation it was rendered in; null: the default. */
  locale: string | null;
}

/** One request's messages to render. */
export interface RenderItem {
  recipients: Recipient[];
  subject: string;
  html: string;
  /** A template's translations: each recipient whose contact reads one of them gets it. */
  translations: Translations | null;
  data: Record<string, unknown> | undefined;
  subscribed: boolean;
  /** The base URL of the message's links (its unsubscribe and preference links). */
  linkBase: string;
  /** The request fields a template problem is reported on. */
  fields: { subject: string; html: string };
}

/**
 * Renders every recipient's subject, HTML and text, for each request (a batch has several). An existing contact
 * renders with its own data and id; a new one with the id the transaction will give it (`UpsertRow.id`, the same for
 * an address in several requests), no data, and the request's `subscribed`. The recipient's `to.name` is `{{ name }}`,
 * over the contact's `name` and under the request's `data.name` (as Plunk merges them). Requests with the same
 * subject and body render in one call; a template problem is reported through `problemOf` with the request's index.
 */
export async function renderSends(opts: {
  ctx: AppContext;
  projectId: string;
  items: RenderItem[];
  problemOf?: (error: unknown, index: number) => unknown;
}): Promise<PlannedMessage[][]> {
  const { ctx, projectId, items } = opts;
  const emails = [...new Set(items.flatMap((item) => item.recipients.map((r) => r.email)))];
  const existing = await findContactsByEmails({ db: ctx.db, projectId, emails });
  const fallbacks = await findDataFallbacks({ db: ctx.db, projectId });
  const newIds = new Map<string, string>();
  const plans = items.map((item) =>
    item.recipients.map((recipient) => {
      const found = existing.get(recipient.email);
      if (!found && !newIds.has(recipient.email)) newIds.set(recipient.email, newId());
      const contact: VariableContact & { id: string } = found
        ? { id: found.id, email: found.email, subscribed: found.subscribed, data: found.data }
        : { id: newIds.get(recipient.email)!, email: recipient.email, subscribed: item.subscribed, data: {} };
      const emailId = newId();
      const email = { id: emailId, projectId, contactId: contact.id, sourceType: 'TRANSACTIONAL', sourceId: null };
      const unsubscribeUrl = unsubscribeUrlFor(ctx, email, item.linkBase);
      const data = recipient.name === undefined ? item.data : { name: recipient.name, ...item.data };
      return {
        recipient,
        emailId,
        contactId: contact.id,
        message: translated(item, found?.locale),
        variables: templateVariables({
          contact,
          data,
          unsubscribeUrl,
          viewInBrowserUrl: viewUrlFor(ctx, emailId, item.linkBase),
          fallbacks,
        }),
      };
    }),
  );
  // Recipients of the same subject and body (across requests) render in one call.
  const groups = new Map<string, { item: number; at: number }[]>();
  plans.forEach((list, i) =>
    list.forEach((plan, at) => {
      const key = `${plan.message.subject}\u0000${plan.message.html}`;
      groups.set(key, [...(groups.get(key) ?? []), { item: i, at }]);
    }),
  );
  const rendered: RenderedMessage[][] = items.map(() => []);
  for (const members of groups.values()) {
    const first = plans[members[0]!.item]![members[0]!.at]!;
    let out: RenderedMessage[];
    try {
      out = await renderMessages(ctx, {
        subject: first.message.subject,
        html: first.message.html,
        variables: members.map((m) => plans[m.item]![m.at]!.variables),
        budget: ctx.config.renderBudget,
      });
    } catch (error) {
      const problem = templateProblem(error, items[members[0]!.item]!.fields) ?? error;
      throw opts.problemOf ? opts.problemOf(problem, members[0]!.item) : problem;
    }
    members.forEach((m, k) => (rendered[m.item]![m.at] = out[k]!));
  }
  return plans.map((list, i) =>
    list.map((plan, j) => ({
      recipient: plan.recipient,
      emailId: plan.emailId,
      contactId: plan.contactId,
      rendered: rendered[i]![j]!,
      locale: plan.message.locale,
    })),
  );
}
