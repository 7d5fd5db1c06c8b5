// How the engine writes down what happened to the emails it holds. Sent emails are recorded in batches
// (one statement for the rows and their contacts' events, one for their webhook events); the rarer
// outcomes (bounce, retry, failure, suppression) one by one. Every write is guarded by the lease owner.
import type { Db } from '../../db/client.ts';
import type { DeliveryError } from '../../mail/transport.ts';
import { recordEvents } from '../events/index.ts';
import { suppressAddress } from '../suppressions/index.ts';
import { awaitTransport, haltCampaignEmail, recordSentEmails, transitionEmail, type EmailRow } from './emails.repo.ts';
import { emitEmailEvents } from './emails.webhooks.ts';
import { attemptEntries, recordTimeline, type AttemptRecord, type TimelineEntry } from './emails.timeline.ts';

export interface SentItem {
  email: EmailRow;
  response: string | null;
  /** The id SES gave the message (SES transport only): what SNS notifications about it must name. */
  sesMessageId?: string | null;
  /** The transport that took it (a transport's id, or `default`). */
  transportId?: string | null;
  /** The recipient's mailbox provider. */
  provider?: string | null;
  /** The delivery's attempts, for the email's timeline (the last one took it). */
  attempts?: AttemptRecord[];
}

/** An email's attempts and the outcome they came to, as timeline entries. */
function outcomeEntries(
  email: EmailRow,
  attempts: AttemptRecord[] | undefined,
  type: TimelineEntry['type'],
  detail: Record<string, unknown>,
): TimelineEntry[] {
  return [...attemptEntries(email, attempts), { emailId: email.id, projectId: email.projectId, type, detail }];
}

/**
 * SENDING → SENT for this owner's emails (with the id SES gave each message handed to it), the `email.sent` event of
 * each that has a (still existing) contact, and their webhook events: one transaction for the whole batch.
 */
export async function recordSent(db: Db, owner: string, items: SentItem[]): Promise<number> {
  if (items.length === 0) return 0;
  return db.transaction(async (tx) => {
    const sent = items.map((i) => ({
      id: i.email.id,
      response: i.response,
      sesMessageId: i.sesMessageId,
      transportId: i.transportId,
      provider: i.provider,
    }));
    const recorded = new Set(await recordSentEmails(tx, owner, sent));
    const events = items
      .filter((i) => recorded.has(i.email.id))
      .map((i) => ({
        email: { ...i.email, transportId: i.transportId ?? null, provider: i.provider ?? null },
        type: 'email.sent' as const,
        details: { response: i.response },
      }));
    await emitEmailEvents(tx, events);
    await recordTimeline(
      tx,
      items
        .filter((i) => recorded.has(i.email.id))
        .flatMap((i) =>
          outcomeEntries(i.email, i.attempts, 'sent', { transport: i.transportId ?? null, response: i.response }),
        ),
    );
    return recorded.size;
  });
}

/** A status change of a held email and its webhook event, committed together. */
export async function settleFailed(
  db: Db,
  owner: string,
  email: EmailRow,
  lastError: string,
  statusReason?: string,
  attempts?: AttemptRecord[],
): Promise<void> {
  await db.transaction(async (tx) => {
    const changed = await transitionEmail(tx, email.id, 'fail', {
      lastError,
      owner,
      ...(statusReason ? { statusReason } : {}),
    });
    if (!changed) return;
    await emitEmailEvents(tx, [{ email: changed, type: 'email.failed', details: { error: lastError } }]);
    await recordTimeline(
      tx,
      outcomeEntries(email, attempts, 'failed', { error: lastError, reason: statusReason ?? null }),
    );
  });
}

/** A temporary failure: DEFERRED until `retryAt`, with its webhook event. */
export async function settleDeferred(
  db: Db,
  owner: string,
  email: EmailRow,
  lastError: string,
  retryAt: Date,
  attempts?: AttemptRecord[],
): Promise<void> {
  await db.transaction(async (tx) => {
    const changed = await transitionEmail(tx, email.id, 'defer', { lastError, owner, retryAt });
    if (!changed) return;
    const details = { error: lastError, retryAt: retryAt.toISOString() };
    await emitEmailEvents(tx, [{ email: changed, type: 'email.deferred', details }]);
    await recordTimeline(tx, outcomeEntries(email, attempts, 'deferred', details));
  });
}

/** Every transport of its route is down: it waits (DEFERRED, not an attempt), with its webhook event. */
export async function settleAwaitingTransport(
  db: Db,
  owner: string,
  email: EmailRow,
  lastError: string,
  retryAt: Date,
): Promise<void> {
  await db.transaction(async (tx) => {
    const changed = await awaitTransport(tx, owner, email.id, lastError, retryAt);
    if (!changed) return;
    const details = { error: lastError, retryAt: retryAt.toISOString() };
    await emitEmailEvents(tx, [{ email: changed, type: 'email.deferred', details }]);
    await recordTimeline(tx, outcomeEntries(email, [], 'deferred', { ...details, awaitingTransport: true }));
  });
}

/**
 * Not sent: its campaign was cancelled (the email is CANCELLED) or paused (the email goes back to the queue, held
 * until the campaign resumes) while the message waited for its send slot. Checked (and settled) in one statement,
 * only while this worker holds the email: true when it is not to be sent now.
 */
export async function settleIfCampaignCancelled(db: Db, owner: string, email: EmailRow): Promise<boolean> {
  if (email.sourceType !== 'CAMPAIGN' || !email.sourceId) return false;
  return haltCampaignEmail(db, owner, email.id);
}

/** Not sent: the address is suppressed, or the contact unsubscribed from (or snoozed) marketing mail. */
export async function settleSuppressed(
  db: Db,
  owner: string,
  email: EmailRow,
  reason: 'SUPPRESSED' | 'UNSUBSCRIBED' | 'SNOOZED',
): Promise<void> {
  await db.transaction(async (tx) => {
    const changed = await transitionEmail(tx, email.id, 'suppress', { statusReason: reason, owner });
    if (changed) await recordTimeline(tx, outcomeEntries(email, [], 'suppressed', { reason, when: 'at delivery' }));
  });
}

/**
 * A permanent SMTP rejection: BOUNCED, the address suppressed when the reply is about the mailbox, events. A message to
 * several (cc/bcc) bounces only when every recipient was refused, and no address is suppressed: the reply names none.
 */
export async function settleBounced(
  db: Db,
  owner: string,
  email: EmailRow,
  error: DeliveryError,
  attempts?: AttemptRecord[],
): Promise<void> {
  await db.transaction(async (tx) => {
    const bounced = await transitionEmail(tx, email.id, 'bounce', {
      bouncedAt: new Date(),
      lastError: error.message.slice(0, 1000),
      statusReason: error.enhancedCode ?? String(error.responseCode ?? ''),
      owner,
    });
    if (!bounced) return;
    if (error.suppress && !email.rcpt)
      await suppressAddress({
        db: tx,
        projectId: email.projectId,
        email: email.toEmail,
        reason: 'BOUNCE',
        detail: error.message.slice(0, 500),
        emailId: email.id,
      });
    const code = error.enhancedCode ?? error.responseCode ?? null;
    const suppressed = error.suppress && !email.rcpt;
    await recordTimeline(tx, [
      ...outcomeEntries(email, attempts, 'bounced', { source: 'smtp', code, response: error.message.slice(0, 500) }),
      ...(suppressed ? outcomeEntries(email, [], 'suppressed', { reason: 'BOUNCE', address: email.toEmail }) : []),
    ]);
    if (email.contactId) {
      await recordEvents({
        db: tx,
        projectId: email.projectId,
        events: [
          {
            contactId: email.contactId,
            name: 'email.bounced',
            data: { emailId: email.id, code, suppressed: error.suppress },
          },
        ],
      });
    }
    await emitEmailEvents(tx, [
      { email: bounced, type: 'email.bounced', details: { code, suppressed: error.suppress, source: 'smtp' } },
    ]);
  });
}
