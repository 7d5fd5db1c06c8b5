// Everything the compose thread needs for one email, gathered on the main thread: the signing domain and
// its parsed key, attachments, the shared content to render, and the tracking and unsubscribe links.
import type { Config } from '../../config.ts';
import type { AppContext, Secrets } from '../../context.types.ts';
import type { BuildTask } from '../../mail/compose-pool/index.ts';
import { messageIdFor } from '../../mail/compose.ts';
import { domainOf } from '../../lib/address-domain.ts';
import { createUnsubscribeToken } from '../../mail/links.ts';
import { returnPathFor } from '../../mail/verp.ts';
import { verifiedTrackingHost, type DomainRow } from '../domains/index.ts';
import { renderInputOf } from './delivery.content.ts';
import { dkimKeyOf } from './delivery.keys.ts';
import { attachmentsOf } from './delivery.attachments.ts';
import { findMime, type EmailRow } from './delivery.repo.ts';

/** What signing a message's links needs of the context. */
export interface LinkSigning {
  config: Pick<Config, 'publicUrl'>;
  secrets: Pick<Secrets, 'appSecret'>;
}

/** The one-click unsubscribe URL of a message (List-Unsubscribe and `{{unsubscribeUrl}}`). */
export function unsubscribeUrlFor(ctx: LinkSigning, email: { projectId: string; contactId: string | null; id: string; sourceType: string; sourceId: string | null }, baseUrl = ctx.config.publicUrl): string | undefined {
  if (!email.contactId) return undefined;
  const token = createUnsubscribeToken(ctx.secrets.appSecret, {
    projectId: email.projectId,
    contactId: email.contactId,
    emailId: email.id,
    ...(email.sourceType === 'CAMPAIGN' && email.sourceId ? { campaignId: email.sourceId } : {}),
  });
  return `${baseUrl}/unsubscribe/${token}`;
}

/**
 * Where the links of mail signed by `domain` point: its verified custom tracking host (with PUBLIC_URL's scheme,
 * so a local http setup stays http), else PUBLIC_URL.
 */
export function linkBaseFor(ctx: AppContext, domain: Pick<DomainRow, 'records'>): string {
  const host = verifiedTrackingHost(domain);
  return host ? `${new URL(ctx.config.publicUrl).protocol}//${host}` : ctx.config.publicUrl;
}

/** A stored body's own unsubscribe and preference links (rendered on PUBLIC_URL when it was sent) moved to `base`. */
function onLinkBase(ctx: AppContext, body: string | null, unsubscribeUrl: string | undefined, base: string): string | null {
  if (body === null || !unsubscribeUrl || base === ctx.config.publicUrl) return body;
  const token = unsubscribeUrl.slice(unsubscribeUrl.lastIndexOf('/') + 1);
  return ['unsubscribe', 'manage'].reduce((text, page) => text.replaceAll(`${ctx.config.publicUrl}/${page}/${token}`, `${base}/${page}/${token}`), body);
}

const addressOf = (a: { email: string; name?: string | null }) => ({ email: a.email, ...(a.name ? { name: a.name } : {}) });

/** RCPT TO: the email's one address, or the envelope stored for a message to several (cc/bcc). */
export function envelopeRecipients(email: Pick<EmailRow, 'toEmail' | 'rcpt'>): string[] {
  return email.rcpt ?? [email.toEmail];
}

/** MAIL FROM: the VERP return path when RETURN_PATH_HOST is set (bounces come back naming the email), else the From address. */
export function envelopeSender(ctx: AppContext, email: Pick<EmailRow, 'id' | 'fromEmail'>): string {
  if (!ctx.config.returnPathHost) return email.fromEmail;
  return returnPathFor(ctx.secrets.appSecret, email.id, domainOf(email.fromEmail));
}

// A submitted message goes to its recipients one after another: the last one read serves the next copies.
let lastMime: { id: string; content: Promise<Buffer | null> } | null = null;

/** A submitted message's bytes (the SMTP relay stores them once for all its recipients). */
async function mimeOf(ctx: AppContext, id: string): Promise<Buffer> {
  if (lastMime?.id !== id) {
    const content = findMime(ctx.db, id);
    lastMime = { id, content };
    content.catch(() => { if (lastMime?.content === content) lastMime = null; });
  }
  const content = await lastMime.content;
  if (!content) throw new Error(`submitted message ${id} is missing`);
  return content;
}

/**
 * The build task of one email, signed by `domain`'s key. Everything in it comes from what is stored, so the same
 * email builds the same message again (`date` aside: now when sending, the handoff time when rebuilt).
 */
export async function buildTaskFor(ctx: AppContext, email: EmailRow, domain: DomainRow, date?: Date): Promise<BuildTask> {
  const base = linkBaseFor(ctx, domain);
  const ownUnsubscribeUrl = unsubscribeUrlFor(ctx, email, base);
  const unsubscribeUrl = email.marketing ? ownUnsubscribeUrl : undefined;
  const html = onLinkBase(ctx, email.html, ownUnsubscribeUrl, base);
  const text = onLinkBase(ctx, email.text, ownUnsubscribeUrl, base);
  const attachments = email.attachmentSetId ? await attachmentsOf(ctx.db, email.attachmentSetId) : [];
  const render = await renderInputOf(ctx.db, email, unsubscribeUrl);
  const mime = email.mimeId ? await mimeOf(ctx, email.mimeId) : undefined;
  return {
    ...(mime ? { mime } : {}),
    compose: {
      from: { email: email.fromEmail, ...(email.fromName ? { name: email.fromName } : {}) },
      to: email.toList ? email.toList.map(addressOf) : { email: email.toEmail, ...(email.toName ? { name: email.toName } : {}) },
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
    ...(email.tracking ? { tracking: { emailId: email.id, baseUrl: base, secret: ctx.secrets.appSecret, ...(unsubscribeUrl ? { unsubscribeUrl } : {}) } } : {}),
  };
}
