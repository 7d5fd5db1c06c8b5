// Amazon SES feedback through SNS: Bounce, Complaint and Delivery notifications of the configured topics only (the
// instance's, and those of projects' own SES transports, each for its project's emails), verified, mapped to the
// email handed to SES under the id they quote, and applied once (the SNS MessageId is the fingerprint). The cheap
// refusals (topic, age) come before the signature check, which may fetch a certificate.
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { AppError } from '../../lib/errors.ts';
import { anySesTransport, projectsOfSnsTopic } from '../transports/index.ts';
import { applyFeedback, type FeedbackResult, type ReportDetail } from './feedback.service.ts';
import { isTrustedSnsUrl, parseSnsMessage, snsGet, staleTimestamp, type SnsVerifier } from './feedback.sns.ts';

// Every string we keep or look up by: bounded, and without NUL (PostgreSQL refuses it in text and jsonb).
const text = z
  .string()
  .max(2000)
  .refine((v) => !v.includes('\0'));
const recipient = z.object({ status: text.optional(), diagnosticCode: text.optional() });

/** The parts of an SES notification Herald reads; any other shape is ignored (answered 200, never retried). */
const sesNotificationSchema = z.object({
  notificationType: text.optional(),
  eventType: text.optional(),
  mail: z.object({
    /** The id SES gave the message at handoff. */
    messageId: text.min(1),
    commonHeaders: z.object({ messageId: text.optional() }).optional(),
    headers: z.array(z.object({ name: text, value: text })).optional(),
  }),
  bounce: z
    .object({
      bounceType: text.optional(),
      bounceSubType: text.optional(),
      bouncedRecipients: z.array(recipient).optional(),
    })
    .optional(),
  complaint: z.object({ complaintFeedbackType: text.optional() }).optional(),
  delivery: z.object({ smtpResponse: text.optional() }).optional(),
  deliveryDelay: z.object({ delayType: text.optional(), delayedRecipients: z.array(recipient).optional() }).optional(),
});

type SesNotification = z.infer<typeof sesNotificationSchema>;

export type SesOutcome =
  | { type: 'confirmed' }
  | { type: 'ignored'; reason: string }
  | { type: 'notification'; result: FeedbackResult };

const bracketed = (id: string) => (id.startsWith('<') ? id : `<${id}>`);

/** Our Message-ID header as SES quotes it (commonHeaders, else the raw headers). */
function messageIdOf(mail: SesNotification['mail']): string | null {
  const common = mail.commonHeaders?.messageId;
  if (common) return bracketed(common.trim());
  const header = mail.headers?.find((h) => h.name.toLowerCase() === 'message-id')?.value;
  return header ? bracketed(header.trim()) : null;
}

/** What a notification means for the email; null for kinds we do not act on (Send, Open, Reject…). */
export function detailOfSes(n: SesNotification): ReportDetail | null {
  const kind = n.notificationType ?? n.eventType;
  switch (kind) {
    case 'Bounce': {
      const recipient = n.bounce?.bouncedRecipients?.[0];
      const status = recipient?.status ?? null;
      const diagnostic =
        recipient?.diagnosticCode ?? `${n.bounce?.bounceType ?? 'Unknown'}/${n.bounce?.bounceSubType ?? 'Unknown'}`;
      if (n.bounce?.bounceType === 'Permanent')
        return { kind: 'bounce', status: status ?? '5.0.0', diagnostic, permanentMailbox: true };
      return { kind: 'delay', status, diagnostic };
    }
    case 'DeliveryDelay': {
      const recipient = n.deliveryDelay?.delayedRecipients?.[0];
      return {
        kind: 'delay',
        status: recipient?.status ?? null,
        diagnostic: recipient?.diagnosticCode ?? n.deliveryDelay?.delayType ?? null,
      };
    }
    case 'Complaint':
      return { kind: 'complaint', feedbackType: n.complaint?.complaintFeedbackType ?? null };
    case 'Delivery':
      return { kind: 'delivery', response: n.delivery?.smtpResponse ?? null };
    default:
      return null;
  }
}

/** The SES notification inside a verified SNS Notification, or why it is ignored. */
function readNotification(message: string): SesNotification | string {
  let value: unknown;
  try {
    value = JSON.parse(message);
  } catch {
    return 'the Message is not JSON';
  }
  const parsed = sesNotificationSchema.safeParse(value);
  return parsed.success ? parsed.data : 'not an SES notification Herald reads';
}

/**
 * Whose notifications a topic carries: every project's (null) when it is one of the instance's SES_SNS_TOPIC_ARNS
 * with the SES transport, else the projects whose own SES transports name it. Any other topic is refused: 403, or
 * 404 while no SES transport is in use at all (the endpoint has nothing to take).
 */
async function acceptingProjects(ctx: AppContext, topicArn: string): Promise<string[] | null> {
  const instanceSes = ctx.config.mailTransport === 'ses';
  if (instanceSes && ctx.config.sns.topicArns.includes(topicArn)) return null;
  const projects = await projectsOfSnsTopic({ db: ctx.db, topicArn });
  if (projects.length > 0) return projects;
  if (!instanceSes && !(await anySesTransport({ db: ctx.db })))
    throw new AppError('NOT_FOUND', 'No SES transport is in use here, so POST /feedback/ses takes no notifications');
  throw new AppError(
    'FORBIDDEN',
    'This SNS topic is not accepted here (SES_SNS_TOPIC_ARNS, or the snsTopicArns of a project’s SES transport)',
  );
}

/**
 * POST /feedback/ses: refuses other topics and stale messages, verifies the rest, confirms subscriptions, applies
 * notifications.
 */
export async function receiveSesNotification(opts: {
  ctx: AppContext;
  verifier: SnsVerifier;
  body: unknown;
}): Promise<SesOutcome> {
  const { ctx, verifier } = opts;
  const message = parseSnsMessage(opts.body);
  const projectIds = await acceptingProjects(ctx, message.TopicArn);
  const stale = staleTimestamp(message.Timestamp);
  if (stale) throw new AppError('FORBIDDEN', `SNS message refused: ${stale}`);
  const problem = await verifier
    .problem(message)
    .catch((error: unknown) => `certificate unavailable: ${error instanceof Error ? error.message : String(error)}`);
  if (problem) throw new AppError('FORBIDDEN', `SNS message refused: ${problem}`);
  if (message.Type === 'SubscriptionConfirmation') {
    if (!message.SubscribeURL || !isTrustedSnsUrl(message.SubscribeURL, verifier.trustRules, 'subscribe'))
      throw new AppError('FORBIDDEN', 'SubscribeURL is not an SNS https URL');
    await snsGet(message.SubscribeURL, verifier.trustRules).catch((error: unknown) => {
      // Amazon's side did not answer: not our fault nor the caller's, and worth another try (the subscription
      // can be confirmed again from the AWS console); never a 500.
      ctx.logger.warn({ err: error, topic: message.TopicArn }, 'SNS subscription confirmation failed');
      throw new AppError('SERVICE_UNAVAILABLE', 'Amazon SNS did not answer the subscription confirmation; try again', {
        headers: { 'retry-after': '60' },
      });
    });
    ctx.logger.info({ topic: message.TopicArn }, 'confirmed SNS subscription');
    return { type: 'confirmed' };
  }
  if (message.Type !== 'Notification') return { type: 'ignored', reason: message.Type };
  const notification = readNotification(message.Message);
  if (typeof notification === 'string') {
    ctx.logger.info({ snsMessageId: message.MessageId, reason: notification }, 'SES notification ignored');
    return { type: 'ignored', reason: notification };
  }
  const detail = detailOfSes(notification);
  if (!detail)
    return {
      type: 'ignored',
      reason: `notification ${notification.notificationType ?? notification.eventType ?? 'unknown'}`,
    };
  const messageId = messageIdOf(notification.mail);
  if (!messageId) return { type: 'ignored', reason: 'no Message-ID in the notification' };
  const ref = { messageId, sesMessageId: notification.mail.messageId };
  const result = await applyFeedback({
    ctx,
    ref,
    source: 'ses',
    fingerprint: `sns:${message.MessageId}`,
    detail,
    ...(projectIds ? { projectIds } : {}),
  });
  return { type: 'notification', result };
}
