import type { AppContext } from '../../context.types.ts';
import type { Tx } from '../../db/client.ts';
import { AppError, validationError } from '../../lib/errors.ts';
import { newId } from '../../lib/ids.ts';
import { requestSource, upsertContacts } from '../contacts/index.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { linkBaseFor, queueMessages } from '../emails/index.ts';
import { checkTemplateSyntax, requireSendableTemplate } from '../templates/index.ts';
import type { Translations } from '../../db/schema/templates.ts';
import { findContactsOutOfTopic, findTopic, type TopicRow } from '../topics/index.ts';
import { getProjectSettings, noSender, type DefaultSender } from '../settings/index.ts';
import {
  checkedHeaders,
  decodedAttachments,
  recipientsOf,
  type DecodedAttachment,
  type Recipient,
} from './send.input.ts';
import { renderSends, type PlannedMessage, type RenderItem } from './send.render.ts';
import type { BatchResult, SendBody, SendResult } from './send.schemas.ts';

interface Sender {
  email: string;
  name: string | undefined;
}

/** A recipient's contact was created by someone else between the render and the transaction. */
class ContactsMoved extends Error {}

const MAX_RENDER_ATTEMPTS = 3;

/** The project's default sender, read once per request: a batch's items without a sender share it. */
const defaultSenders = new WeakMap<SendOptions, Promise<DefaultSender | null>>();
function defaultSenderOf(opts: SendOptions): Promise<DefaultSender | null> {
  let pending = defaultSenders.get(opts);
  if (!pending) {
    pending = getProjectSettings({ db: opts.ctx.db, projectId: opts.projectId }).then((s) => s.defaultFrom);
    defaultSenders.set(opts, pending);
  }
  return pending;
}

/**
 * The sender of a send: its `from`, else its template's, else the project's default sender; a 422 saying how to set
 * a default when there is none.
 */
async function senderOf(
  opts: SendOptions,
  body: SendBody,
  template: { fromEmail: string | null; fromName: string | null } | null,
): Promise<Sender> {
  const from = body.from ?? template?.fromEmail ?? undefined;
  if (typeof from === 'object') return { email: from.email, name: from.name ?? body.name };
  if (from) return { email: from, name: body.name ?? (body.from ? undefined : (template?.fromName ?? undefined)) };
  const defaultFrom = await defaultSenderOf(opts);
  if (defaultFrom) return { email: defaultFrom.email, name: body.name ?? defaultFrom.name ?? undefined };
  throw noSender();
}

/** A send request checked and resolved (template, sender, attachments), before anything is rendered or written. */
interface PreparedSend {
  body: SendBody;
  subject: string;
  html: string;
  translations: Translations | null;
  fields: { subject: string; html: string };
  sender: Sender;
  replyTo: string | null;
  headers: Record<string, string> | undefined;
  attachments: DecodedAttachment[];
  marketing: boolean;
  /** As the request asks (absent: the project's tracking setting decides). */
  tracking: boolean | undefined;
  /** Who gets a message of their own: every `to`, or (one message to all) the first, whose contact renders it. */
  rendered: Recipient[];
  /** One message to every address: with cc or bcc, or when the caller asks for it (`oneMessage`). */
  together: { to: Recipient[]; cc: Recipient[]; bcc: Recipient[] } | null;
  /** The send's topic: recipients out of it get nothing. */
  topic: TopicRow | null;
  /** Where the message's links point: the sender domain's verified tracking host, else PUBLIC_URL. */
  linkBase: string;
  /** The template it renders (its published version), when it renders one. */
  template: { id: string; version: number } | null;
}

async function prepareSend(opts: SendOptions, body: SendBody): Promise<PreparedSend> {
  const { ctx, projectId } = opts;
  const template = body.template ? await requireSendableTemplate({ db: ctx.db, projectId, id: body.template }) : null;
  const topic = body.topicId ? await findTopic({ db: ctx.db, projectId, id: body.topicId }) : null;
  if (body.topicId && !topic) throw validationError('topicId', 'no topic of this project has this id', 'unknown_topic');
  const subject = body.subject ?? template?.subject;
  const html = body.body ?? template?.html;
  if (subject === undefined) throw validationError('subject', 'Give `subject` and `body`, or a `template`', 'required');
  if (html === undefined) throw validationError('body', 'Give `subject` and `body`, or a `template`', 'required');
  const fields = {
    subject: body.subject !== undefined ? 'subject' : 'template.subject',
    html: body.body !== undefined ? 'body' : 'template.body',
  };
  checkTemplateSyntax(subject, html, fields);
  const sender = await senderOf(opts, body, template);
  const domain = await requireSenderDomain({ ctx, projectId, from: sender.email, domainIds: opts.senderDomainIds });
  const to = recipientsOf(body.to);
  const cc = recipientsOf(body.cc);
  const bcc = recipientsOf(body.bcc);
  const together = opts.oneMessage || cc.length > 0 || bcc.length > 0 ? { to, cc, bcc } : null;
  const marketing = template?.type === 'MARKETING' || body.stream === 'marketing';
  const replyTo =
    body.replyTo === undefined ? (body.reply ?? template?.replyTo ?? null) : [body.replyTo].flat().join(', ');
  // A template's translations apply while the request gives neither subject nor body of its own.
  const translations = body.subject === undefined && body.body === undefined ? (template?.translations ?? null) : null;
  return {
    body,
    subject,
    html,
    translations,
    fields,
    sender,
    replyTo,
    headers: checkedHeaders(body.headers),
    attachments: decodedAttachments(body.attachments),
    marketing,
    tracking: body.tracking,
    rendered: together ? [to[0]!] : to,
    together,
    topic,
    linkBase: linkBaseFor(ctx, domain),
    template:
      template && (body.subject === undefined || body.body === undefined)
        ? { id: template.id, version: template.version }
        : null,
  };
}

const renderItemOf = (p: PreparedSend): RenderItem => ({
  recipients: p.rendered,
  subject: p.subject,
  html: p.html,
  translations: p.translations,
  data: p.body.data,
  subscribed: p.body.subscribed ?? false,
  fields: p.fields,
  linkBase: p.linkBase,
});

/** Writes one prepared request's contacts and emails in `tx`; its answer as /v1/send gives it. */
async function writeSend(tx: Tx, projectId: string, p: PreparedSend, planned: PlannedMessage[]): Promise<SendResult> {
  const { body } = p;
  const subscribed = body.subscribed ?? false;
  // With one message to all, every address gets a contact; the first `to` is the one the message was rendered for.
  const everyone = p.together
    ? [...new Map([...p.together.to, ...p.together.cc, ...p.together.bcc].map((r) => [r.email, r])).values()]
    : p.rendered;
  const contactIds = new Map(planned.map((m) => [m.recipient.email, m.contactId]));
  const contacts = await upsertContacts({
    db: tx,
    projectId,
    rows: everyone.map((r) => ({
      email: r.email,
      id: contactIds.get(r.email) ?? newId(),
      defaultSubscribed: subscribed,
    })),
    consent: requestSource(),
  });
  const contactOf = new Map(everyone.map((r, i) => [r.email, contacts[i]!.contact]));
  if (planned.some((m) => contactOf.get(m.recipient.email)!.id !== m.contactId)) throw new ContactsMoved();
  const text = body.text;
  const out = p.topic
    ? await findContactsOutOfTopic({
        db: tx,
        topic: p.topic,
        contactIds: everyone.map((r) => contactOf.get(r.email)!.id),
      })
    : new Set<string>();
  const outOfTopic = everyone.filter((r) => out.has(contactOf.get(r.email)!.id)).map((r) => r.email);
  const queued = await queueMessages(tx, {
    projectId,
    source: { type: 'TRANSACTIONAL', id: null },
    sender: { email: p.sender.email, name: p.sender.name ?? null, replyTo: p.replyTo },
    headers: p.headers ?? null,
    attachments: p.attachments,
    marketing: p.marketing,
    tracking: p.tracking,
    tags: body.tags?.length ? body.tags : null,
    scheduledAt: body.scheduledAt ? new Date(body.scheduledAt) : null,
    template: p.template,
    messages: planned.map(({ recipient, emailId, contactId, rendered, locale }) => ({
      id: emailId,
      contactId,
      locale,
      to: recipient,
      subscribed: contactOf.get(recipient.email)!.subscribed,
      outOfTopic,
      ...(p.together
        ? {
            recipients: p.together,
            unsubscribed: everyone.filter((r) => !contactOf.get(r.email)!.subscribed).map((r) => r.email),
          }
        : {}),
      subject: rendered.subject,
      body: { html: rendered.html, text: text ?? rendered.text },
    })),
  });
  type Status = SendResult['emails'][number]['status'];
  const emails = p.together
    ? everyone.map((r) => {
        const email = queued[0]!;
        const status = (email.suppressedAddresses?.includes(r.email) ? 'SUPPRESSED' : email.status) as Status;
        return {
          contact: { id: contactOf.get(r.email)!.id, email: contactOf.get(r.email)!.email },
          email: email.id,
          status,
        };
      })
    : queued.map((email, i) => ({
        contact: { id: contacts[i]!.contact.id, email: contacts[i]!.contact.email },
        email: email.id,
        status: email.status as Status,
      }));
  if (emails.length === 0) throw new AppError('VALIDATION_ERROR', 'No recipients');
  return { emails, timestamp: new Date().toISOString() };
}

/**
 * Renders (outside the transaction: a heavy template holds neither the event loop nor the database), then writes
 * everything in one transaction. Should a recipient's contact appear (another request created it) between the render
 * and the write, its message was rendered for a contact id that is not its own: render again.
 */
async function renderAndWrite<T>(opts: {
  ctx: AppContext;
  projectId: string;
  prepared: PreparedSend[];
  answer: (results: SendResult[]) => T;
  beforeCommit?: ((tx: Tx, answer: T) => Promise<void>) | undefined;
  problemOf?: (error: unknown, index: number) => unknown;
}): Promise<T> {
  const { ctx, projectId, prepared, answer, beforeCommit } = opts;
  for (let attempt = 1; ; attempt++) {
    const planned = await renderSends({
      ctx,
      projectId,
      items: prepared.map(renderItemOf),
      ...(opts.problemOf ? { problemOf: opts.problemOf } : {}),
    });
    try {
      return await ctx.db.transaction(async (tx) => {
        const results: SendResult[] = [];
        for (const [i, p] of prepared.entries()) results.push(await writeSend(tx, projectId, p, planned[i]!));
        const result = answer(results);
        await beforeCommit?.(tx, result);
        return result;
      });
    } catch (error) {
      if (!(error instanceof ContactsMoved)) throw error;
      if (attempt >= MAX_RENDER_ATTEMPTS)
        throw new AppError('CONFLICT', "The recipients' contacts were changed concurrently; retry the request");
    }
  }
}

export interface SendOptions {
  ctx: AppContext;
  projectId: string;
  /**
   * One message to every `to` address (To lists them all, one email record) even without cc/bcc. Without it, each
   * `to` gets a message of its own unless the request has cc or bcc.
   */
  oneMessage?: boolean;
  /** The sender domains the caller's key is restricted to (null or absent: any verified domain). */
  senderDomainIds?: string[] | null;
}

/**
 * POST /v1/send: one message per recipient, each with its own email id and contact (or one message to all, with cc
 * or bcc). Answers only after the email rows and their delivery jobs are committed together.
 */
export async function sendEmail(
  opts: SendOptions & { body: SendBody; beforeCommit?: (tx: Tx, result: SendResult) => Promise<void> },
): Promise<SendResult> {
  const prepared = await prepareSend(opts, opts.body);
  return renderAndWrite({
    ctx: opts.ctx,
    projectId: opts.projectId,
    prepared: [prepared],
    answer: (results) => results[0]!,
    beforeCommit: opts.beforeCommit,
  });
}

/** An item's error, its fields prefixed with the item's index (`3.to`). */
function itemError(error: unknown, index: number): unknown {
  if (!(error instanceof AppError)) return error;
  const errors = (error.errors ?? [{ field: '', message: error.message, code: error.code.toLowerCase() }]).map((e) => ({
    ...e,
    field: e.field ? `${index}.${e.field}` : String(index),
  }));
  return new AppError(error.code, `Item ${index}: ${error.message}`, {
    errors,
    ...(error.suggestion ? { suggestion: error.suggestion } : {}),
  });
}

/** POST /v1/send/batch: every body checked before any is written, then all written in one transaction (or none). */
export async function sendBatch(
  opts: SendOptions & { bodies: SendBody[]; beforeCommit?: (tx: Tx, result: BatchResult) => Promise<void> },
): Promise<BatchResult> {
  const settled = await Promise.allSettled(opts.bodies.map((body) => prepareSend(opts, body)));
  // The first invalid item, by index, is the one reported.
  const failed = settled.findIndex((r) => r.status === 'rejected');
  if (failed >= 0) throw itemError((settled[failed] as PromiseRejectedResult).reason, failed);
  const prepared = settled.map((r) => (r as PromiseFulfilledResult<PreparedSend>).value);
  return renderAndWrite({
    ctx: opts.ctx,
    projectId: opts.projectId,
    prepared,
    answer: (results) => ({ results }),
    beforeCommit: opts.beforeCommit,
    problemOf: itemError,
  });
}
