// A submitted message becomes one email per envelope recipient, queued like a /v1/send: the sender domain checked,
// the project's rate limit spent, contacts made, the Idempotency-Key honoured, everything in one transaction.
import type { AppContext } from '../../context.types.ts';
import { domainOf } from '../../lib/address-domain.ts';
import { AppError } from '../../lib/errors.ts';
import { normalizeEmail } from '../../lib/email-address.ts';
import type { RateLimiter } from '../../lib/rate-limiter.ts';
import { smtpError } from '../../net/smtp-connections.ts';
import { findStoredAnswer, storeAnswer, type StoredKey } from '../../plugins/idempotency.ts';
import { upsertContacts } from '../contacts/index.ts';
import { queueMessages } from '../emails/index.ts';
import { requireSenderDomain } from '../domains/index.ts';
import type { Submission } from './relay.message.ts';
import { MINUTE_MS as MINUTE } from '../../lib/durations.ts';

/** The Idempotency-Key scope of messages submitted over SMTP (apart from every HTTP route's). */
const KEY_SCOPE = 'SMTP DATA';

/** A concurrent submission with the same Idempotency-Key committed first. */
class KeyTaken extends Error {}

export interface SubmitResult {
  ids: string[];
  /** Answered from an earlier submission with the same Idempotency-Key; nothing was queued. */
  replayed: boolean;
}

/** Envelope recipients, once each (case-insensitively), in the order given. */
function uniqueRecipients(recipients: string[]): string[] {
  const seen = new Map<string, string>();
  for (const r of recipients) if (!seen.has(normalizeEmail(r))) seen.set(normalizeEmail(r), r);
  return [...seen.values()];
}

async function checkSender(
  ctx: AppContext,
  projectId: string,
  domainIds: string[] | null,
  from: string,
): Promise<void> {
  try {
    await requireSenderDomain({ ctx, projectId, from, domainIds });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.code === 'FORBIDDEN') throw smtpError(550, `5.7.1 ${error.message}`);
    if (error.code !== 'DOMAIN_NOT_VERIFIED') throw error;
    throw smtpError(
      550,
      `5.7.1 The From domain ${domainOf(from)} is not a verified domain of this project (${error.message})`,
    );
  }
}

const replayOf = (answer: string): SubmitResult => ({ ids: answer.split(',').filter(Boolean), replayed: true });

/** Queues a submitted message for its envelope recipients; throws the SMTP answer when it cannot be accepted. */
export async function submitMessage(opts: {
  ctx: AppContext;
  limiter: RateLimiter;
  projectId: string;
  domainIds?: string[] | null;
  recipients: string[];
  submission: Submission;
}): Promise<SubmitResult> {
  const { ctx, projectId, submission } = opts;
  const held: StoredKey | null = submission.idempotencyKey
    ? { projectId, scope: KEY_SCOPE, key: submission.idempotencyKey }
    : null;
  if (held) {
    const answer = await findStoredAnswer(ctx.db, held);
    if (answer !== null) return replayOf(answer);
  }
  await checkSender(ctx, projectId, opts.domainIds ?? null, submission.from.email);
  const take = await opts.limiter.take(`api:${projectId}`, ctx.config.rateLimitPerMinute, MINUTE);
  if (!take.allowed) {
    throw smtpError(
      451,
      `4.7.1 Rate limit of ${take.limit} requests per minute exceeded, ` +
        `try again in ${Math.max(1, Math.ceil(take.resetMs / 1000))} seconds`,
    );
  }
  const recipients = uniqueRecipients(opts.recipients);
  try {
    return await ctx.db.transaction(async (tx) => {
      const contacts = await upsertContacts({
        db: tx,
        projectId,
        rows: recipients.map((email) => ({ email, defaultSubscribed: false })),
        consent: { type: 'api' },
      });
      const queued = await queueMessages(tx, {
        projectId,
        source: { type: 'SMTP', id: null },
        sender: { email: submission.from.email, name: submission.from.name, replyTo: null },
        mime: submission.mime,
        marketing: false,
        tracking: submission.tracking,
        messages: recipients.map((email, i) => ({
          contactId: contacts[i]!.contact.id,
          to: { email },
          subscribed: contacts[i]!.contact.subscribed,
          subject: submission.subject,
          body: { html: '', text: '' },
        })),
      });
      const ids = queued.map((q) => q.id);
      if (held && !(await storeAnswer(tx, held, ids.join(',')))) throw new KeyTaken();
      return { ids, replayed: false };
    });
  } catch (error) {
    if (!(error instanceof KeyTaken) || !held) throw error;
    const answer = await findStoredAnswer(ctx.db, held);
    if (answer === null)
      throw smtpError(451, '4.3.0 A message with this Idempotency-Key is being queued, try again later');
    return replayOf(answer);
  }
}
