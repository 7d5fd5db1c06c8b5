// Everything the compose thread needs for one email, gathered on the main thread: the signing domain and
// its parsed key, attachments, the shared content to render, and the tracking and unsubscribe links.
import type { AppContext } from '../../context.types.ts';
import {
  createMessageBuilder,
  type BuildResult,
  type BuildTask,
  type MessageBuilder,
} from '../../mail/compose-pool/index.ts';
import { messageIdFor } from '../../mail/compose.ts';
import { domainOf } from '../../lib/address-domain.ts';
import { returnPathFor } from '../../mail/verp.ts';
import type { DomainRow } from '../domains/index.ts';
import { dkimKeyOf } from './sending.keys.ts';
import { linkBaseFor, unsubscribeUrlFor, viewUrlFor, type EmailRow, type EmailStore } from '../emails/index.ts';

const addressOf = (a: { email: string; name?: string | null }) => ({
  email: a.email,
  ...(a.name ? { name: a.name } : {}),
});

/** RCPT TO: the email's one address, or the envelope stored for a message to several (cc/bcc). */
export function envelopeRecipients(email: Pick<EmailRow, 'toEmail' | 'rcpt'>): string[] {
  return email.rcpt ?? [email.toEmail];
}

/**
 * MAIL FROM: the VERP return path when RETURN_PATH_HOST is set (bounces come back naming the email), else the From
 * address.
 */
export function envelopeSender(ctx: AppContext, email: Pick<EmailRow, 'id' | 'fromEmail'>): string {
  if (!ctx.config.returnPathHost) return email.fromEmail;
  return returnPathFor(ctx.secrets.appSecret, email.id, domainOf(email.fromEmail));
}

/**
 * The build task of one email, signed by `domain`'s key. Everything in it comes from what is stored, so the same
 * email builds the same message again (`date` aside: now when sending, the handoff time when rebuilt).
 */
export async function buildTaskFor(
  ctx: AppContext,
  store: EmailStore,
  email: EmailRow,
  domain: DomainRow,
  date?: Date,
): Promise<BuildTask> {
  const base = linkBaseFor(ctx, domain);
  const unsubscribeUrl = email.marketing ? unsubscribeUrlFor(ctx, email, base) : undefined;
  // A stored body's own links were built with this base when it was rendered; they are sent as they are.
  const { html, text } = email;
  const attachments = email.attachmentSetId ? await store.attachments(email.attachmentSetId) : [];
  const render = await store.renderInput(email, { unsubscribeUrl, viewInBrowserUrl: viewUrlFor(ctx, email.id, base) });
  const mime = email.mimeId ? await store.mime(email.mimeId) : undefined;
  return {
    ...(mime ? { mime } : {}),
    compose: {
      from: { email: email.fromEmail, ...(email.fromName ? { name: email.fromName } : {}) },
      to: email.toList
        ? email.toList.map(addressOf)
        : { email: email.toEmail, ...(email.toName ? { name: email.toName } : {}) },
      ...(email.cc?.length ? { cc: email.cc.map(addressOf) } : {}),
      ...(email.replyTo ? { replyTo: email.replyTo.split(', ').map((a) => ({ email: a })) } : {}),
      subject: email.subject,
      ...(html !== null ? { html } : {}),
      ...(text !== null ? { text } : {}),
      messageId: messageIdFor(email),
      boundary: email.id.replaceAll('-', ''),
      ...(date ? { date } : {}),
      ...(email.headers ? { headers: email.headers } : {}),
      attachments,
      ...(unsubscribeUrl ? { listUnsubscribeUrl: unsubscribeUrl } : {}),
      feedbackId: `${email.sourceId ?? 'none'}:${email.sourceType.toLowerCase()}:${email.projectId}:herald`,
    },
    dkim: { domainName: domain.domain, keySelector: domain.dkimSelector, privateKey: dkimKeyOf(ctx, domain) },
    ...(render ? { render } : {}),
    ...(email.tracking
      ? {
          tracking: {
            emailId: email.id,
            baseUrl: base,
            secret: ctx.secrets.appSecret,
            ...(unsubscribeUrl ? { unsubscribeUrl } : {}),
          },
        }
      : {}),
  };
}

/** Builds and signs emails' messages on the compose threads, from what the store holds. */
export class MessageFactory {
  private readonly threads: MessageBuilder;

  constructor(
    private readonly ctx: AppContext,
    private readonly store: EmailStore,
  ) {
    this.threads = createMessageBuilder(ctx.config.sendEngine.threads);
  }

  /** The email's message, signed by `domain`'s key (or why it cannot be built for its recipient). */
  async build(email: EmailRow, domain: DomainRow): Promise<BuildResult> {
    return this.threads.build(await buildTaskFor(this.ctx, this.store, email, domain));
  }

  /** MAIL FROM of the email's message. */
  envelopeSender(email: Pick<EmailRow, 'id' | 'fromEmail'>): string {
    return envelopeSender(this.ctx, email);
  }

  close(): Promise<void> {
    return this.threads.close();
  }
}
