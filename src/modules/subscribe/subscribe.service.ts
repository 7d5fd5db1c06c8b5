// Signups with double opt-in: POST /v1/subscribe from a signup form (public key) or a backend (secret key), the
// confirmation email, and the confirmation itself.
import type { AppContext } from '../../context.types.ts';
import type { JsonObject } from '../../db/schema/index.ts';
import type { Executor } from '../../db/client.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { isId, newId } from '../../lib/ids.ts';
import { acceptedLocales } from '../../lib/locale.ts';
import { createConfirmToken, decodeConfirmToken } from '../../mail/links.ts';
import { renderTemplate } from '../../mail/render.ts';
import { templateVariables } from '../../mail/variables.ts';
import {
  findContact,
  findContactsByEmails,
  normalizeEmail,
  updateContact,
  upsertContacts,
  type ContactRow,
} from '../contacts/index.ts';
import { queueMessages } from '../emails/index.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { recordEvents } from '../events/index.ts';
import { getProject } from '../projects/index.ts';
import { getProjectSettings } from '../settings/index.ts';
import { findTemplate, type TemplateRow, translated } from '../templates/index.ts';
import { chooseTopics, requireTopicIds } from '../topics/index.ts';
import * as repo from './subscribe.repo.ts';

export interface SubscribeInput {
  email: string;
  data?: JsonObject | undefined;
  topics?: string[] | undefined;
  /** The person's language (canonical BCP 47), as the signup form says it. */
  locale?: string | undefined;
}

export interface SubscribeResult {
  contact: string;
  email: string;
  status: 'SUBSCRIBED' | 'PENDING';
  confirmation: { status: 'PENDING' | 'CONFIRMED'; sentAt: string | null } | null;
}

const view = (contact: ContactRow, confirmation: repo.ConfirmationRow | null): SubscribeResult => ({
  contact: contact.id,
  email: contact.email,
  status: contact.subscribed ? 'SUBSCRIBED' : 'PENDING',
  confirmation: confirmation
    ? { status: confirmation.status, sentAt: confirmation.sentAt?.toISOString() ?? null }
    : null,
});

/**
 * POST /v1/subscribe. A public key may create a contact (unsubscribed until it confirms) but never changes an
 * existing one: for an existing unsubscribed address it only (re)sends the confirmation. Without a doubleOptIn
 * setting a public key gets 409, and a secret key subscribes the address at once.
 * A public key learns nothing about who is on the list: it gets null whether the address was new, pending or
 * already subscribed, and the same errors (the project's, never the address's); a secret key gets the contact.
 * The contact's language: `input.locale` when given, else the best of `acceptLanguage` (the browser's) for a contact
 * that has none yet.
 */
export async function subscribe(opts: {
  ctx: AppContext;
  projectId: string;
  keyType: 'secret' | 'public';
  input: SubscribeInput;
  /** The request's Accept-Language header. */
  acceptLanguage?: string | undefined;
}): Promise<SubscribeResult | null> {
  const { ctx, projectId, input } = opts;
  const secret = opts.keyType === 'secret';
  const settings = await getProjectSettings({ db: ctx.db, projectId });
  if (!settings.doubleOptIn && !secret) {
    throw new AppError(
      'CONFLICT',
      'This project does not take signups with a public key: double opt-in is not set up',
      { suggestion: 'Choose a confirmation template with PATCH /settings {"doubleOptIn": {"templateId": "…"}}' },
    );
  }
  const topicIds = input.topics?.length
    ? await requireTopicIds({ db: ctx.db, projectId, ids: input.topics, field: 'topics' })
    : [];
  const email = normalizeEmail(input.email);
  const existing = (await findContactsByEmails({ db: ctx.db, projectId, emails: [email] })).get(email) ?? null;
  const mayWrite = secret || !existing;
  const subscribedNow = !settings.doubleOptIn || existing?.subscribed === true;
  let contact = existing;
  if (mayWrite) {
    contact = await ctx.db.transaction(async (tx) => {
      const [written] = await upsertContacts({
        db: tx,
        projectId,
        rows: [
          {
            email,
            id: newId(),
            defaultSubscribed: false,
            patch: input.data,
            ...(input.locale ? { locale: input.locale } : { fallbackLocale: acceptedLocales(opts.acceptLanguage)[0] }),
            ...(settings.doubleOptIn ? {} : { subscribed: true }),
          },
        ],
      });
      if (topicIds.length > 0) await chooseTopics({ db: tx, contactId: written!.contact.id, topicIds });
      return written!.contact;
    });
  }
  // A subscribed address is sent nothing, yet a public key gets the errors of the project's sender as for any address.
  if (!subscribedNow && settings.doubleOptIn) await sendConfirmation(ctx, contact!, settings.doubleOptIn.templateId);
  else if (!secret && settings.doubleOptIn) await confirmationSender(ctx, projectId, settings.doubleOptIn.templateId);
  return secret ? view(contact!, await repo.findConfirmation(ctx.db, contact!.id)) : null;
}

/**
 * Sends the project's confirmation email to a contact that signed up elsewhere (a form), at most one per 10 minutes;
 * confirming its link subscribes the contact. 409 when the project has no double opt-in setting.
 */
export async function requestConfirmation(opts: { ctx: AppContext; contact: ContactRow }): Promise<void> {
  const settings = await getProjectSettings({ db: opts.ctx.db, projectId: opts.contact.projectId });
  if (!settings.doubleOptIn) throw new AppError('CONFLICT', 'Double opt-in is not set up for this project');
  await sendConfirmation(opts.ctx, opts.contact, settings.doubleOptIn.templateId);
}

/** The confirmation template, with a sender on a verified domain of the project (409 or 403 otherwise). */
async function confirmationSender(
  ctx: AppContext,
  projectId: string,
  templateId: string,
): Promise<TemplateRow & { fromEmail: string }> {
  const template = await findTemplate({ db: ctx.db, projectId, id: templateId });
  if (!template?.fromEmail)
    throw new AppError('CONFLICT', 'The confirmation template has no sender (from): set one on the template');
  await requireSenderDomain({ ctx, projectId, from: template.fromEmail });
  return { ...template, fromEmail: template.fromEmail };
}

/**
 * The confirmation email, unless one went to this contact in the last 10 minutes; sent whatever the contact's
 * subscription.
 */
async function sendConfirmation(ctx: AppContext, contact: ContactRow, templateId: string): Promise<void> {
  const template = await confirmationSender(ctx, contact.projectId, templateId);
  const token = createConfirmToken(ctx.secrets.appSecret, { projectId: contact.projectId, contactId: contact.id });
  const confirmUrl = `${ctx.config.publicUrl}/confirm/${token}`;
  // In the contact's language when the template has it, else the default.
  const message = translated(template, contact.locale);
  const rendered = renderTemplate({
    subject: message.subject,
    html: message.html,
    variables: { ...templateVariables({ contact, unsubscribeUrl: undefined }), confirmUrl },
  });
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.claimConfirmationSend(tx, contact.projectId, contact.id))) return;
    // Transactional: the person asked for it, and an unsubscribed (pending) contact must still get it.
    await queueMessages(tx, {
      projectId: contact.projectId,
      source: { type: 'TRANSACTIONAL', id: null },
      sender: { email: template.fromEmail, name: template.fromName, replyTo: template.replyTo },
      marketing: false,
      tracking: false,
      messages: [
        {
          contactId: contact.id,
          to: { email: contact.email },
          locale: message.locale,
          subject: rendered.subject,
          body: { html: rendered.html, text: rendered.text },
        },
      ],
    });
  });
}

/**
 * GET /contacts/{id}/confirmation: the contact's double opt-in state (NONE when it never signed up with it); 404 for no
 * contact.
 */
export async function getConfirmation(opts: { db: Executor; projectId: string; contactId: string }) {
  const contact = isId(opts.contactId)
    ? await findContact({ db: opts.db, projectId: opts.projectId, id: opts.contactId })
    : null;
  if (!contact) throw notFound('Contact');
  const row = await repo.findConfirmation(opts.db, contact.id);
  return {
    status: row?.status ?? ('NONE' as const),
    sentAt: iso(row?.sentAt ?? null),
    confirmedAt: iso(row?.confirmedAt ?? null),
  };
}

/** Who a confirmation link names and the project's name (null when it cannot be read), for its pages. */
export interface ConfirmationTarget {
  contact: ContactRow;
  projectName: string | null;
}

/** Who a confirmation link names, for its page; 'expired' or null (forged) otherwise. */
export async function confirmationTarget(
  ctx: AppContext,
  token: string,
): Promise<ConfirmationTarget | 'expired' | null> {
  const claims = decodeConfirmToken(ctx.secrets.appSecret, token);
  if (claims === null || claims === 'expired') return claims;
  const contact = await findContact({ db: ctx.db, projectId: claims.projectId, id: claims.contactId }).catch(
    () => null,
  );
  if (!contact) return null;
  const project = await getProject({ db: ctx.db, id: claims.projectId }).catch(() => null);
  return { contact, projectName: project?.name ?? null };
}

/**
 * The POST of a confirmation page: subscribed, CONFIRMED, `contact.confirmed` (and `contact.subscribed`); repeating it
 * changes nothing.
 */
export async function confirmSubscription(
  ctx: AppContext,
  token: string,
): Promise<ConfirmationTarget | 'expired' | null> {
  const target = await confirmationTarget(ctx, token);
  if (target === null || target === 'expired') return target;
  const { contact } = target;
  await ctx.db.transaction(async (tx) => {
    if (!(await repo.markConfirmed(tx, contact.projectId, contact.id))) return;
    if (!contact.subscribed)
      await updateContact({ db: tx, projectId: contact.projectId, id: contact.id, subscribed: true });
    await recordEvents({
      db: tx,
      projectId: contact.projectId,
      events: [{ contactId: contact.id, name: 'contact.confirmed' }],
    });
  });
  return target;
}
