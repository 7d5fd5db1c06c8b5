// What is learnt after the handoff: bounces, delays, complaints and deliveries reported by
// the receiving side. Each function runs in the caller's transaction and changes an email only through a
// guarded transition, so a report for an email already past that state changes nothing.
import type { Executor, Tx } from '../../db/client.ts';
import type { JsonObject } from '../../db/schema/index.ts';
import { isRecipientFailure } from '../../mail/transport.ts';
import { findContact, updateContact } from '../contacts/index.ts';
import { recordEvents } from '../events/index.ts';
import { suppressAddress } from '../suppressions/index.ts';
import { findEmailById, findEmailByMessageId, transitionEmail, type EmailRow } from './emails.repo.ts';
import { ERASED_ADDRESS } from './emails.types.ts';
import { emitEmailEvents } from './emails.webhooks.ts';
import { recordEmailStep } from './emails.timeline.ts';

export type FeedbackSource = 'dsn' | 'arf' | 'ses';

export interface FeedbackOutcome {
  /** The email the report was about, when it exists. */
  email: EmailRow | null;
  /** True when the report changed something (a status, a suppression or an event). */
  applied: boolean;
}

async function event(tx: Tx, email: EmailRow, name: string, data: JsonObject): Promise<void> {
  if (email.contactId)
    await recordEvents({
      db: tx,
      projectId: email.projectId,
      events: [{ contactId: email.contactId, name, data: { emailId: email.id, ...data } }],
    });
}

/** How a report names its email: the id in a VERP token, or (SES) its Message-ID header and the id SES gave it. */
export type ReportedEmailRef = { emailId: string } | { messageId: string; sesMessageId: string };

/**
 * The email a report names. An SES notification finds only an email handed to SES under the id it quotes:
 * never one sent through SMTP or the outbox, even of a project that moved to SES later.
 */
export async function findReportedEmail(db: Executor, ref: ReportedEmailRef): Promise<EmailRow | null> {
  if ('emailId' in ref) return findEmailById(db, ref.emailId);
  const email = await findEmailByMessageId(db, ref.messageId);
  return email && email.sesMessageId === ref.sesMessageId ? email : null;
}

/**
 * A permanent failure reported after the handoff: SENT/DELIVERED → BOUNCED, `email.bounced`, and the address
 * suppressed when the status is about the mailbox (5.7.x policy rejections do not suppress).
 */
export async function recordReportedBounce(
  tx: Tx,
  email: EmailRow,
  report: { status: string | null; diagnostic: string | null; source: FeedbackSource; permanentMailbox?: boolean },
): Promise<boolean> {
  const detail = (report.diagnostic ?? report.status ?? 'bounce report').slice(0, 1000);
  const bounced = await transitionEmail(tx, email.id, 'bounce', {
    bouncedAt: new Date(),
    lastError: detail,
    statusReason: report.status ?? 'BOUNCE',
  });
  if (!bounced) return false;
  // An erased email's address is gone (its contact was deleted): there is nothing left to suppress.
  const suppress =
    (report.permanentMailbox ?? isRecipientFailure(undefined, report.status ?? undefined)) &&
    email.toEmail !== ERASED_ADDRESS;
  if (suppress)
    await suppressAddress({
      db: tx,
      projectId: email.projectId,
      email: email.toEmail,
      reason: 'BOUNCE',
      detail: detail.slice(0, 500),
      emailId: email.id,
    });
  await recordEmailStep(tx, email, 'bounced', {
    source: report.source,
    code: report.status,
    diagnostic: report.diagnostic,
  });
  if (suppress) await recordEmailStep(tx, email, 'suppressed', { reason: 'BOUNCE', address: email.toEmail });
  await event(tx, email, 'email.bounced', { code: report.status, suppressed: suppress, source: report.source });
  await emitEmailEvents(tx, [
    {
      email,
      type: 'email.bounced',
      details: { code: report.status, diagnostic: report.diagnostic, suppressed: suppress, source: report.source },
    },
  ]);
  return true;
}

/** A temporary failure reported after the handoff (4.x.x): only an `email.deferred` event, no state change. */
export async function recordReportedDelay(
  tx: Tx,
  email: EmailRow,
  report: { status: string | null; diagnostic: string | null; source: FeedbackSource },
): Promise<boolean> {
  await recordEmailStep(tx, email, 'deferred', {
    source: report.source,
    code: report.status,
    diagnostic: report.diagnostic,
  });
  await event(tx, email, 'email.deferred', {
    code: report.status,
    diagnostic: report.diagnostic,
    source: report.source,
  });
  await emitEmailEvents(tx, [
    {
      email,
      type: 'email.deferred',
      details: { code: report.status, diagnostic: report.diagnostic, source: report.source },
    },
  ]);
  return true;
}

/**
 * An abuse complaint: the email COMPLAINED, the contact unsubscribed from marketing, the address
 * suppressed with reason COMPLAINT, and `email.complained`.
 */
export async function recordComplaint(
  tx: Tx,
  email: EmailRow,
  report: { feedbackType: string | null; source: FeedbackSource },
): Promise<boolean> {
  const complained = await transitionEmail(tx, email.id, 'complain', {
    statusReason: `COMPLAINT${report.feedbackType ? `:${report.feedbackType}` : ''}`,
  });
  if (!complained) return false;
  if (email.toEmail !== ERASED_ADDRESS)
    await suppressAddress({
      db: tx,
      projectId: email.projectId,
      email: email.toEmail,
      reason: 'COMPLAINT',
      detail: `${report.source} ${report.feedbackType ?? ''}`.trim(),
      emailId: email.id,
    });
  const contact = email.contactId
    ? await findContact({ db: tx, projectId: email.projectId, id: email.contactId })
    : null;
  if (contact?.subscribed)
    await updateContact({
      db: tx,
      projectId: email.projectId,
      id: contact.id,
      subscribed: false,
      consent: { type: 'complaint', id: email.id },
    });
  await recordEmailStep(tx, email, 'complained', { source: report.source, feedbackType: report.feedbackType });
  if (email.toEmail !== ERASED_ADDRESS)
    await recordEmailStep(tx, email, 'suppressed', { reason: 'COMPLAINT', address: email.toEmail });
  await event(tx, email, 'email.complained', { feedbackType: report.feedbackType, source: report.source });
  await emitEmailEvents(tx, [
    { email, type: 'email.complained', details: { feedbackType: report.feedbackType, source: report.source } },
  ]);
  return true;
}

/** A provider's delivery notice (SES Delivery): SENT → DELIVERED and `email.delivered`. */
export async function recordDelivered(
  tx: Tx,
  email: EmailRow,
  report: { source: FeedbackSource; response?: string | null },
): Promise<boolean> {
  const delivered = await transitionEmail(
    tx,
    email.id,
    'deliver',
    report.response ? { statusReason: report.response.slice(0, 500) } : {},
  );
  if (!delivered) return false;
  await recordEmailStep(tx, email, 'delivered', { source: report.source, response: report.response ?? null });
  await event(tx, email, 'email.delivered', { source: report.source });
  await emitEmailEvents(tx, [
    { email, type: 'email.delivered', details: { source: report.source, response: report.response ?? null } },
  ]);
  return true;
}
