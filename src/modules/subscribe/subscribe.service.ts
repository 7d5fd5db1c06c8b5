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
  claimConfirmation,
  confirmationOf,
  confirmContact,
  findContact,
  findContactsByEmails,
  normalizeEmail,
  requestSource,
  upsertContacts,
  type ConsentSource,
  type ContactRow,
} from '../contacts/index.ts';
import { queueMessages } from '../emails/index.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { recordEvents } from '../events/index.ts';
import { recipientSenderName } from '../projects/index.ts';
import { getProjectSettings } from '../settings/index.ts';
import { findTemplate, type TemplateRow, translated } from '../templates/index.ts';
import { chooseTopics, requireTopicIds } from '../topics/index.ts';

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

const view = (contact: ContactRow): SubscribeResult => ({
  contact: contact.id,
  email: contact.email,
  status: contact.subscribed ? 'SUBSCRIBED' : 'PENDING',
  confirmation: contact.confirmationStatus
    ? { status: contact.confirmationStatus, sentAt: iso(contact.confirmationSentAt) }
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
  /** Where the signup comes from, for the consent ledger (a hosted form names itself); the API by default. */
  consent?: ConsentSource | undefined;
}): Promise<SubscribeResult | null> {
  const consent = opts.consent ?? requestSource();
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
        consent,
      });
      if (topicIds.length > 0)
        await chooseTopics({ db: tx, projectId, contactId: written!.contact.id, topicIds, consent });
      return written!.contact;
    });
  }
  // A subscribed address is sent nothing, yet a public key gets the errors of the project's sender as for any address.
  if (!subscribedNow && settings.doubleOptIn)
    await sendConfirmation(ctx, contact!, settings.doubleOptIn.templateId, consent);
  else if (!secret && settings.doubleOptIn) await confirmationSender(ctx, projectId, settings.doubleOptIn.templateId);
  if (!secret) return null;
  return view((await findContact({ db: ctx.db, projectId, id: contact!.id })) ?? contact!);
}

/**
 * Sends the project's confirmation email to a contact that signed up elsewhere (a form), at most one per 10 minutes;
 * confirming its link subscribes the contact. 409 when the project has no double opt-in setting.
 */
export async function requestConfirmation(opts: {
  ctx: AppContext;
  contact: ContactRow;
  /** The signup's source (a form names itself): its confirmation is recorded with it. */
  consent: ConsentSource;
}): Promise<void> {
  const settings = await getProjectSettings({ db: opts.ctx.db, projectId: opts.contact.projectId });
  if (!settings.doubleOptIn) throw new AppError('CONFLICT', 'Double opt-in is not set up for this project');
  await sendConfirmation(opts.ctx, opts.contact, settings.doubleOptIn.templateId, opts.consent);
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
async function sendConfirmation(
  ctx: AppContext,
  contact: ContactRow,
  templateId: string,
  consent: ConsentSource,
): Promise<void> {
  const template = await confirmationSender(ctx, contact.projectId, templateId);
  const formId = consent.type === 'form' ? (consent.id ?? undefined) : undefined;
  const token = createConfirmToken(ctx.secrets.appSecret, {
    projectId: contact.projectId,
    contactId: contact.id,
    formId,
  });
  const confirmUrl = `${ctx.config.publicUrl}/confirm/${token}`;
  // In the contact's language when the template has it, else the default.
  const message = translated(template, contact.locale);
  const rendered = renderTemplate({
    subject: message.subject,
    html: message.html,
    variables: { ...templateVariables({ contact, unsubscribeUrl: undefined }), confirmUrl },
  });
  await ctx.db.transaction(async (tx) => {
    if (!(await claimConfirmation({ db: tx, projectId: contact.projectId, id: contact.id }))) return;
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
  return confirmationOf(contact);
}

/** Who a confirmation link names and the sender as recipients read it (null when unknown), for its pages. */
export interface ConfirmationTarget {
  contact: ContactRow;
  projectName: string | null;
  /** The hosted form the signup came through, when it did. */
  formId?: string | undefined;
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
  return {
    contact,
    projectName: await recipientSenderName({ db: ctx.db, projectId: claims.projectId }),
    formId: claims.formId,
  };
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
  // The confirmation completes the signup: the ledger names the signup's form, or the API.
  const consent: ConsentSource = target.formId ? { type: 'form', id: target.formId } : { type: 'api' };
  await ctx.db.transaction(async (tx) => {
    if (!(await confirmContact({ db: tx, contact, consent }))) return;
    await recordEvents({
      db: tx,
      projectId: contact.projectId,
      events: [{ contactId: contact.id, name: 'contact.confirmed' }],
    });
  });
  return target;
}
