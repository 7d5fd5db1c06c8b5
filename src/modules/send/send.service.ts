import type { AppContext } from '../../context.types.ts';
import { AppError, validationError } from '../../lib/errors.ts';
import { upsertContacts } from '../contacts/index.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { queueMessages } from '../delivery/index.ts';
import { checkTemplateSyntax, requireTemplate } from '../templates/index.ts';
import { checkedHeaders, decodedAttachments, recipientsOf } from './send.input.ts';
import { renderSend } from './send.render.ts';
import type { SendBody, SendResult } from './send.schemas.ts';
import type { Tx } from '../../db/client.ts';

interface Sender {
  email: string;
  name: string | undefined;
}

/** A recipient's contact was created by someone else between the render and the transaction. */
class ContactsMoved extends Error {}

const MAX_RENDER_ATTEMPTS = 3;

function senderOf(body: SendBody, template: { fromEmail: string | null; fromName: string | null } | null): Sender {
  const from = body.from ?? template?.fromEmail ?? undefined;
  if (!from) throw validationError('from', 'No sender: give `from`, or use a template that has one', 'required');
  if (typeof from === 'string') return { email: from, name: body.name ?? (body.from ? undefined : template?.fromName ?? undefined) };
  return { email: from.email, name: from.name ?? body.name };
}

/**
 * POST /v1/send: one message per recipient, each with its own email id and contact. Answers only
 * after the email rows and their delivery jobs are committed together.
 */
export async function sendEmails(opts: { ctx: AppContext; projectId: string; body: SendBody; beforeCommit?: (tx: Tx, result: SendResult) => Promise<void> }) {
  const { ctx, projectId, body } = opts;
  const template = body.template ? await requireTemplate({ db: ctx.db, projectId: projectId, id: body.template }) : null;
  const subject = body.subject ?? template?.subject;
  const html = body.body ?? template?.body;
  if (subject === undefined) throw validationError('subject', 'Give `subject` and `body`, or a `template`', 'required');
  if (html === undefined) throw validationError('body', 'Give `subject` and `body`, or a `template`', 'required');
  const fields = { subject: body.subject !== undefined ? 'subject' : 'template.subject', html: body.body !== undefined ? 'body' : 'template.body' };
  checkTemplateSyntax(subject, html, fields);
  const sender = senderOf(body, template);
  await requireSenderDomain({ ctx, projectId, from: sender.email });
  const headers = checkedHeaders(body.headers);
  const attachments = decodedAttachments(body.attachments);
  const recipients = recipientsOf(body.to);
  const marketing = template?.type === 'MARKETING';
  const tracking = body.tracking ?? marketing;
  const replyTo = body.reply ?? template?.replyTo ?? null;

  // Render first, outside the transaction: a heavy template holds neither the event loop nor the database.
  // Should a recipient's contact appear (another request created it) between the render and the write,
  // its message was rendered for a contact id that is not its own: render again.
  for (let attempt = 1; ; attempt++) {
    const planned = await renderSend({ ctx, projectId, recipients, subject, html, data: body.data, subscribed: body.subscribed ?? false, fields });
    try {
      return await ctx.db.transaction(async (tx) => {
        const contacts = await upsertContacts({
          db: tx, projectId, rows: planned.map((p) => ({ email: p.recipient.email, id: p.contactId, defaultSubscribed: body.subscribed ?? false })),
        });
        if (contacts.some((c, i) => c.contact.id !== planned[i]!.contactId)) throw new ContactsMoved();
        const queued = await queueMessages(tx, {
          projectId, source: { type: 'TRANSACTIONAL', id: null },
          sender: { email: sender.email, name: sender.name ?? null, replyTo }, headers: headers ?? null, attachments, marketing, tracking,
          messages: planned.map(({ recipient, emailId, contactId, rendered }, i) => ({
            id: emailId, contactId, to: recipient, subscribed: contacts[i]!.contact.subscribed,
            subject: rendered.subject, body: { html: rendered.html, text: rendered.text },
          })),
        });
        const emails = queued.map((email, i) => ({ contact: { id: contacts[i]!.contact.id, email: contacts[i]!.contact.email }, email: email.id, status: email.status as 'QUEUED' | 'SUPPRESSED' }));
        if (emails.length === 0) throw new AppError('VALIDATION_ERROR', 'No recipients');
        const result: SendResult = { emails, timestamp: new Date().toISOString() };
        await opts.beforeCommit?.(tx, result);
        return result;
      });
    } catch (error) {
      if (!(error instanceof ContactsMoved)) throw error;
      if (attempt >= MAX_RENDER_ATTEMPTS) throw new AppError('CONFLICT', 'The recipients\' contacts were changed concurrently; retry the request');
    }
  }
}
