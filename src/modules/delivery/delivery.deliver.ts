import type { AppContext } from '../../context.ts';
import type { JobMeta } from '../../queue/registry.ts';
import { composeMessage, ComposeError } from '../../mail/compose.ts';
import { createUnsubscribeToken, rewriteHtmlForTracking } from '../../mail/tracking.ts';
import { DeliveryError } from '../../mail/transport.ts';
import { returnPathFor } from '../../mail/verp.ts';
import { recordEvents } from '../events/index.ts';
import { addSuppression } from '../suppressions/index.ts';
import { newId } from '../../lib/ids.ts';
import { dkimKeyOf, signingDomainFor } from './delivery.keys.ts';
import { paceSend } from './delivery.pacing.ts';
import { findAttachments, findEmailForDelivery, markSent, transitionEmail, type EmailRow } from './delivery.repo.ts';
import { emitEmailEvents } from './delivery.webhooks.ts';

/** The one-click unsubscribe URL of a message (List-Unsubscribe and `{{unsubscribeUrl}}`). */
export function unsubscribeUrlFor(ctx: AppContext, email: { projectId: string; contactId: string | null; id: string; sourceType: string; sourceId: string | null }): string | undefined {
  if (!email.contactId) return undefined;
  const token = createUnsubscribeToken(ctx.secrets.appSecret, {
    projectId: email.projectId,
    contactId: email.contactId,
    emailId: email.id,
    ...(email.sourceType === 'CAMPAIGN' && email.sourceId ? { campaignId: email.sourceId } : {}),
  });
  return `${ctx.config.publicUrl}/unsubscribe/${token}`;
}

/** MAIL FROM: the VERP return path when RETURN_PATH_HOST is set (bounces come back naming the email), else the From address. */
export function envelopeSender(ctx: AppContext, email: Pick<EmailRow, 'id' | 'fromEmail'>): string {
  if (!ctx.config.returnPathHost) return email.fromEmail;
  return returnPathFor(ctx.secrets.appSecret, email.id, email.fromEmail.slice(email.fromEmail.lastIndexOf('@') + 1));
}

async function buildMessage(ctx: AppContext, email: EmailRow): Promise<Buffer> {
  const domain = await signingDomainFor(ctx, email.projectId, email.fromEmail);
  if (!domain) throw new ComposeError(`No domain of this project covers the sender ${email.fromEmail}`);
  const unsubscribeUrl = email.marketing ? unsubscribeUrlFor(ctx, email) : undefined;
  const html = email.tracking
    ? rewriteHtmlForTracking({
        html: email.html, emailId: email.id, baseUrl: ctx.config.publicUrl, secret: ctx.secrets.appSecret, opens: true, clicks: true,
        ...(unsubscribeUrl ? { unsubscribeUrl } : {}), skipPrefixes: [`${ctx.config.publicUrl}/unsubscribe/`],
      })
    : email.html;
  const attachments = email.attachmentSetId ? await findAttachments(ctx.db, email.attachmentSetId) : [];
  return composeMessage({
    from: { email: email.fromEmail, ...(email.fromName ? { name: email.fromName } : {}) },
    to: { email: email.toEmail, ...(email.toName ? { name: email.toName } : {}) },
    ...(email.replyTo ? { replyTo: { email: email.replyTo } } : {}),
    subject: email.subject,
    html,
    text: email.text ?? '',
    messageId: email.messageId,
    ...(email.headers ? { headers: email.headers } : {}),
    attachments: attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content.toString('base64') })),
    ...(unsubscribeUrl ? { listUnsubscribeUrl: unsubscribeUrl } : {}),
    feedbackId: `${email.sourceId ?? 'none'}:${email.sourceType.toLowerCase()}:${email.projectId}:herald`,
    dkim: { domainName: domain.domain, keySelector: domain.dkimSelector, privateKey: dkimKeyOf(ctx, domain) },
  });
}

/** A status change and its webhook event, committed together. */
async function settle(ctx: AppContext, email: EmailRow, to: 'FAILED' | 'DEFERRED', lastError: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const changed = await transitionEmail(tx, email.id, to, { lastError });
    if (changed) await emitEmailEvents(tx, [{ email: changed, type: to === 'FAILED' ? 'email.failed' : 'email.deferred', details: { error: lastError } }]);
  });
}

async function settleBounced(ctx: AppContext, email: EmailRow, error: DeliveryError): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const bounced = await transitionEmail(tx, email.id, 'BOUNCED', { bouncedAt: new Date(), lastError: error.message.slice(0, 1000), statusReason: error.enhancedCode ?? String(error.responseCode ?? '') });
    if (!bounced) return;
    if (error.suppress) await addSuppression(tx, { projectId: email.projectId, email: email.toEmail, reason: 'BOUNCE', detail: error.message.slice(0, 500), emailId: email.id });
    const code = error.enhancedCode ?? error.responseCode ?? null;
    if (email.contactId) {
      await recordEvents({ db: tx, projectId: email.projectId, events: [{ contactId: email.contactId, name: 'email.bounced', data: { emailId: email.id, code, suppressed: error.suppress } }] });
    }
    await emitEmailEvents(tx, [{ email, type: 'email.bounced', details: { code, suppressed: error.suppress, source: 'smtp' } }]);
  });
}

/**
 * Delivers one email: skips it when no longer sendable or suppressed, waits for the project's send
 * rate, composes and DKIM-signs it, hands it to the transport, and records the outcome. A temporary
 * failure throws so the queue retries with back-off; the last attempt settles it as FAILED.
 */
export async function deliverEmail(ctx: AppContext, emailId: string, job: JobMeta): Promise<void> {
  const found = await findEmailForDelivery(ctx.db, emailId);
  if (!found || !['QUEUED', 'DEFERRED', 'SENDING'].includes(found.email.status)) return;
  const email = found.email;
  if (found.suppressed || found.unsubscribed) {
    await transitionEmail(ctx.db, email.id, 'SUPPRESSED', { statusReason: found.suppressed ? 'SUPPRESSED' : 'UNSUBSCRIBED' });
    return;
  }
  await paceSend(ctx, email.projectId);
  const sending = await transitionEmail(ctx.db, email.id, 'SENDING', { countAttempt: true });
  if (!sending) return;
  let raw: Buffer;
  try {
    raw = await buildMessage(ctx, sending);
  } catch (error) {
    const lastError = error instanceof Error ? error.message.slice(0, 1000) : String(error);
    // A message that cannot be built fails now; anything else (a database hiccup) is retried.
    const final = error instanceof ComposeError || job.retryCount >= job.retryLimit;
    await settle(ctx, sending, final ? 'FAILED' : 'DEFERRED', lastError);
    if (final) return;
    throw error;
  }
  try {
    const result = await ctx.transport.send({ from: envelopeSender(ctx, sending), to: sending.toEmail, raw, emailId: sending.id });
    await ctx.db.transaction(async (tx) => {
      await markSent(tx, sending, newId(), result.response?.slice(0, 500) ?? null);
      await emitEmailEvents(tx, [{ email: sending, type: 'email.sent', details: { response: result.response?.slice(0, 500) ?? null } }]);
    });
  } catch (error) {
    const delivery = error instanceof DeliveryError ? error : new DeliveryError(error instanceof Error ? error.message : String(error), { kind: 'temporary', cause: error });
    if (delivery.kind === 'permanent') {
      if (delivery.responseCode !== undefined && delivery.responseCode >= 500) await settleBounced(ctx, sending, delivery);
      else await settle(ctx, sending, 'FAILED', delivery.message.slice(0, 1000));
      return;
    }
    if (job.retryCount >= job.retryLimit) {
      await settle(ctx, sending, 'FAILED', `Gave up after ${sending.attempts} attempts: ${delivery.message}`.slice(0, 1000));
      return;
    }
    await settle(ctx, sending, 'DEFERRED', delivery.message.slice(0, 1000));
    throw delivery;
  }
}
