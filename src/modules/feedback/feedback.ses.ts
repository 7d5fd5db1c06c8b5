// Amazon SES feedback through SNS (CONTRACT §12): Bounce, Complaint and Delivery notifications, verified,
// mapped to our email by its Message-ID header, and applied once (the SNS MessageId is the fingerprint).
import type { AppContext } from '../../context.ts';
import { AppError } from '../../lib/errors.ts';
import { applyFeedback, type FeedbackResult, type ReportDetail } from './feedback.service.ts';
import { isTrustedSnsUrl, snsGet, type SnsMessage, type SnsVerifier } from './feedback.sns.ts';

interface SesMail {
  messageId?: string;
  commonHeaders?: { messageId?: string };
  headers?: { name: string; value: string }[];
}

interface SesNotification {
  notificationType?: string;
  eventType?: string;
  mail?: SesMail;
  bounce?: { bounceType?: string; bounceSubType?: string; bouncedRecipients?: { status?: string; diagnosticCode?: string }[] };
  complaint?: { complaintFeedbackType?: string };
  delivery?: { smtpResponse?: string };
  deliveryDelay?: { delayType?: string; delayedRecipients?: { status?: string; diagnosticCode?: string }[] };
}

export type SesOutcome = { type: 'confirmed' } | { type: 'ignored'; reason: string } | { type: 'notification'; result: FeedbackResult };

const bracketed = (id: string) => (id.startsWith('<') ? id : `<${id}>`);

/** Our Message-ID header as SES quotes it (commonHeaders, else the raw headers). */
function messageIdOf(mail: SesMail | undefined): string | null {
  const common = mail?.commonHeaders?.messageId;
  if (common) return bracketed(common.trim());
  const header = mail?.headers?.find((h) => h.name.toLowerCase() === 'message-id')?.value;
  return header ? bracketed(header.trim()) : null;
}

/** What a notification means for the email; null for kinds we do not act on (Send, Open, Reject…). */
export function detailOfSes(n: SesNotification): ReportDetail | null {
  const kind = n.notificationType ?? n.eventType;
  switch (kind) {
    case 'Bounce': {
      const recipient = n.bounce?.bouncedRecipients?.[0];
      const status = recipient?.status ?? null;
      const diagnostic = recipient?.diagnosticCode ?? `${n.bounce?.bounceType ?? 'Unknown'}/${n.bounce?.bounceSubType ?? 'Unknown'}`;
      if (n.bounce?.bounceType === 'Permanent') return { kind: 'bounce', status: status ?? '5.0.0', diagnostic, permanentMailbox: true };
      return { kind: 'delay', status, diagnostic };
    }
    case 'DeliveryDelay': {
      const recipient = n.deliveryDelay?.delayedRecipients?.[0];
      return { kind: 'delay', status: recipient?.status ?? null, diagnostic: recipient?.diagnosticCode ?? n.deliveryDelay?.delayType ?? null };
    }
    case 'Complaint':
      return { kind: 'complaint', feedbackType: n.complaint?.complaintFeedbackType ?? null };
    case 'Delivery':
      return { kind: 'delivery', response: n.delivery?.smtpResponse ?? null };
    default:
      return null;
  }
}

function parseBody(body: unknown): SnsMessage {
  const value = typeof body === 'string' ? safeJson(body) : body;
  const m = value as Partial<SnsMessage> | null;
  const strings = ['Type', 'MessageId', 'TopicArn', 'Timestamp', 'SignatureVersion', 'Signature', 'SigningCertURL', 'Message'] as const;
  if (!m || typeof m !== 'object' || strings.some((k) => typeof m[k] !== 'string')) {
    throw new AppError('BAD_REQUEST', 'Not an Amazon SNS message');
  }
  return m as SnsMessage;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new AppError('BAD_REQUEST', 'Malformed JSON body');
  }
}

/** POST /feedback/ses: verifies the SNS message, confirms subscriptions, applies SES notifications. */
export async function receiveSesNotification(opts: { ctx: AppContext; verifier: SnsVerifier; body: unknown }): Promise<SesOutcome> {
  const { ctx, verifier } = opts;
  const message = parseBody(opts.body);
  const topics = ctx.config.sns.topicArns;
  if (topics.length > 0 && !topics.includes(message.TopicArn)) throw new AppError('FORBIDDEN', 'This SNS topic is not accepted here');
  const problem = await verifier.problem(message).catch((error: unknown) => `certificate unavailable: ${error instanceof Error ? error.message : String(error)}`);
  if (problem) throw new AppError('FORBIDDEN', `SNS message refused: ${problem}`);
  if (message.Type === 'SubscriptionConfirmation') {
    if (!message.SubscribeURL || !isTrustedSnsUrl(message.SubscribeURL, verifier.trustRules, 'subscribe')) throw new AppError('FORBIDDEN', 'SubscribeURL is not an SNS https URL');
    await snsGet(message.SubscribeURL, verifier.trustRules);
    ctx.logger.info({ topic: message.TopicArn }, 'confirmed SNS subscription');
    return { type: 'confirmed' };
  }
  if (message.Type !== 'Notification') return { type: 'ignored', reason: message.Type };
  const notification = safeJson(message.Message) as SesNotification;
  const detail = detailOfSes(notification ?? {});
  if (!detail) return { type: 'ignored', reason: `notification ${notification?.notificationType ?? notification?.eventType ?? 'unknown'}` };
  const messageId = messageIdOf(notification.mail);
  if (!messageId) return { type: 'ignored', reason: 'no Message-ID in the notification' };
  const result = await applyFeedback({ ctx, ref: { messageId }, source: 'ses', fingerprint: `sns:${message.MessageId}`, detail });
  return { type: 'notification', result };
}
