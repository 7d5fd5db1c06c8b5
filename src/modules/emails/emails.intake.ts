// Intake, the emails module's way in: other modules hand it messages (who, from whom, what), and it decides each
// one's fate (queued, or kept as a SUPPRESSED record), stores the rows (the emails table is the delivery queue),
// wakes the sending workers when any is due, and owns their life from there.
import type { Tx } from '../../db/client.ts';
import type { EmailAddress, EmailSourceType, EmailTag } from '../../db/schema/emails.ts';
import { newId } from '../../lib/ids.ts';
import { findSuppressedAddresses } from '../suppressions/index.ts';
import { insertAttachments, insertCampaignEmails, insertEmails, insertMime, type NewEmail } from './emails.repo.ts';
import { emitEmailEvents } from './emails.webhooks.ts';
import { acceptedDetail, recordTimeline, recordTimelineOfMany } from './emails.timeline.ts';
import type { InitialStatus } from './emails.lifecycle.ts';
import { wakeSenders } from './emails.claim.ts';
import { frequencyCapDays, getProjectSettings, type ProjectSettings, type TrackingMode } from '../settings/index.ts';
import { marketingHolds } from './emails.marketing-holds.ts';

/** Claim order of the delivery queue: transactional and test mail before workflow mail before campaign mail. */
export const SEND_PRIORITY = {
  TRANSACTIONAL: 10,
  TEST: 10,
  SMTP: 10,
  WORKFLOW: 5,
  CAMPAIGN: 0,
} as const satisfies Record<EmailSourceType, number>;

/** One recipient's message. */
export interface OutgoingMessage {
  /** The email's id, when the caller needed it first (an unsubscribe link in the body names it). */
  id?: string;
  contactId: string | null;
  to: { email: string; name?: string | null };
  /**
   * One message to several recipients (To, Cc, and Bcc kept off the headers): `to` is then `recipients.to[0]`. The
   * envelope holds every address not suppressed; with none left the email is SUPPRESSED.
   */
  recipients?: { to: EmailAddress[]; cc: EmailAddress[]; bcc: EmailAddress[] };
  /** The contact's subscription: marketing mail is not sent to an unsubscribed contact. */
  subscribed?: boolean;
  /**
   * A message to several: the addresses whose contacts are unsubscribed, left out of the envelope of marketing mail.
   */
  unsubscribed?: string[];
  /** Addresses whose contacts are out of the send's topic: they get nothing (SUPPRESSED, reason TOPIC). */
  outOfTopic?: string[];
  subject: string;
  /**
   * The body: rendered for this recipient (`html`, `text`), or the shared content stored once (`contentId`) with
   * the recipient's variables, rendered at delivery (campaigns).
   */
  body: { html: string; text: string } | { contentId: string; variables: Record<string, unknown> };
  /** The A/B test variant (index) of a campaign message. */
  variant?: number;
  /** The translation it is in (`pt`); absent: the default. */
  locale?: string | null;
  /**
   * This message's own due time, over the call's `scheduledAt` (a campaign sent at each recipient's local time):
   * later than now, it waits SCHEDULED until then; otherwise it is queued at once.
   */
  dueAt?: Date;
  /** A campaign with send-time optimisation: sent at the recipient's best hour, or at once as the holdout. */
  sendTimeGroup?: 'optimized' | 'holdout';
  /** A message that could not be built for this recipient (its subject does not render): stored FAILED. */
  failure?: { reason: string; error: string };
}

export interface QueueMessagesOptions {
  projectId: string;
  source: { type: EmailSourceType; id: string | null };
  sender: { email: string; name: string | null; replyTo: string | null };
  headers?: Record<string, string> | null;
  /**
   * A message submitted over SMTP, as the client wrote it (less Bcc and the headers Herald reads): stored once and
   * sent as is to every recipient, with Herald's own Message-ID and signature. The messages' bodies are then empty.
   */
  mime?: Buffer;
  /** Stored once and shared by every message of the call. */
  attachments?: { filename: string; contentType: string; content: Buffer; cid?: string | null }[];
  marketing: boolean;
  /**
   * Open and click tracking as the caller asks for it; absent: the project's default for this kind of mail. The
   * project's `tracking` setting has the last word (trackingOf).
   */
  tracking?: boolean | undefined;
  /**
   * Marketing mail not held by the project's frequency cap (a campaign that says so); it still counts toward the cap.
   */
  ignoreFrequencyCap?: boolean;
  /** Kept with every email of the call, and in its webhook events. */
  tags?: EmailTag[] | null;
  /** The messages wait, SCHEDULED, until then (they are due at that time). */
  scheduledAt?: Date | null;
  /** The template the messages were rendered from (its published version), for their timelines. */
  template?: { id: string; version: number } | null;
  messages: OutgoingMessage[];
}

export interface QueuedEmail {
  id: string;
  status: InitialStatus;
  /** Why it is not sent: the suppression's reason, UNSUBSCRIBED, TOPIC, SNOOZED, FREQUENCY_CAP, or the failure's. */
  statusReason: string | null;
  /** A message to several: its addresses left out of the envelope (suppressed, or unsubscribed from marketing mail). */
  suppressedAddresses?: string[];
}

/**
 * Whether a message may go out now, decided once for every source: a suppressed address never gets mail, and
 * an unsubscribed contact gets no marketing mail. A campaign's audience leaves both out before its messages are
 * queued; every email is checked again when it is claimed. Marketing mail to one contact is then held while the
 * contact is snoozed (SNOOZED) or at the project's frequency cap (FREQUENCY_CAP).
 */
async function blockedReasons(
  tx: Tx,
  opts: QueueMessagesOptions,
  settings: ProjectSettings,
): Promise<{ reasons: (string | null)[]; envelopes: (string[] | null)[] }> {
  const checked = opts.source.type !== 'CAMPAIGN';
  const addresses = opts.messages.flatMap((m) => (m.recipients ? envelopeOf(m.recipients) : [m.to.email]));
  const suppressed = checked
    ? await findSuppressedAddresses({ db: tx, projectId: opts.projectId, emails: addresses })
    : new Map<string, string>();
  const reasonOf = (m: OutgoingMessage, address: string, unsubscribed: boolean) =>
    suppressed.get(address) ??
    (opts.marketing && unsubscribed ? 'UNSUBSCRIBED' : null) ??
    (m.outOfTopic?.includes(address) ? 'TOPIC' : null);
  // A message to several goes to the addresses that may get it; it is blocked (for the first one's reason) when none
  // may.
  const envelopes = opts.messages.map((m) =>
    m.recipients ? envelopeOf(m.recipients).filter((a) => !reasonOf(m, a, m.unsubscribed?.includes(a) ?? false)) : null,
  );
  const reasons = opts.messages.map((m, i) => {
    if (!m.recipients) return reasonOf(m, m.to.email, m.subscribed === false);
    const first = envelopeOf(m.recipients)[0]!;
    return envelopes[i]!.length === 0 ? reasonOf(m, first, m.unsubscribed?.includes(first) ?? false) : null;
  });
  if (opts.marketing) {
    const cap = settings.frequencyCap && !opts.ignoreFrequencyCap ? settings.frequencyCap : null;
    const candidates = opts.messages.flatMap((m, index) =>
      m.contactId && !m.recipients && !m.failure && reasons[index] === null ? [{ index, contactId: m.contactId }] : [],
    );
    const rule = cap ? { max: cap.max, days: frequencyCapDays(cap.per)! } : null;
    for (const [index, hold] of await marketingHolds(tx, opts.projectId, candidates, rule)) reasons[index] = hold;
  }
  return { reasons, envelopes };
}

/**
 * Whether a message is tracked under the project's `tracking` setting: NONE never, even when the send asks for it;
 * MARKETING_ONLY (the default) marketing mail unless the send says otherwise; ALL every message unless it says
 * `tracking: false`.
 */
export function trackingOf(mode: TrackingMode, marketing: boolean, requested: boolean | undefined): boolean {
  if (mode === 'NONE') return false;
  return requested ?? (mode === 'ALL' || marketing);
}

/** Every address of a one-message send, once each, in To, Cc, Bcc order. */
function envelopeOf(recipients: NonNullable<OutgoingMessage['recipients']>): string[] {
  return [...new Set([...recipients.to, ...recipients.cc, ...recipients.bcc].map((a) => a.email))];
}

/**
 * Stores the messages inside the caller's transaction: they exist, and the QUEUED ones will be sent (due at once),
 * only if that transaction commits. Returns each message's email, in order. A campaign's messages to contacts that
 * already have one of its emails are not stored again (a repeated fan-out batch mails no one twice) and are left
 * out of the result; campaigns announce themselves (`campaign.sending`) rather than each `email.queued`.
 */
export async function queueMessages(tx: Tx, opts: QueueMessagesOptions): Promise<QueuedEmail[]> {
  if (opts.messages.length === 0) return [];
  const settings = await getProjectSettings({ db: tx, projectId: opts.projectId });
  const { reasons: blocked, envelopes } = await blockedReasons(tx, opts, settings);
  const waiting: QueuedEmail['status'] = opts.scheduledAt ? 'SCHEDULED' : 'QUEUED';
  let attachmentSetId: string | null = null;
  if (opts.attachments && opts.attachments.length > 0) {
    const setId = newId();
    attachmentSetId = setId;
    await insertAttachments(
      tx,
      opts.attachments.map((a, position) => ({
        setId,
        position,
        projectId: opts.projectId,
        filename: a.filename,
        contentType: a.contentType,
        cid: a.cid ?? null,
        size: a.content.length,
        content: a.content,
      })),
    );
  }
  const mimeId = opts.mime ? newId() : null;
  if (mimeId) await insertMime(tx, { id: mimeId, projectId: opts.projectId, content: opts.mime! });
  const now = new Date();
  const { tracking: mode } = settings;
  const tracking = trackingOf(mode, opts.marketing, opts.tracking);
  const rows: NewEmail[] = opts.messages.map((m, i) => {
    const scheduledAt = m.dueAt ? (m.dueAt > now ? m.dueAt : null) : (opts.scheduledAt ?? null);
    const status: QueuedEmail['status'] = m.failure
      ? 'FAILED'
      : blocked[i]
        ? 'SUPPRESSED'
        : m.dueAt
          ? scheduledAt
            ? 'SCHEDULED'
            : 'QUEUED'
          : waiting;
    const many = m.recipients
      ? { toList: m.recipients.to, cc: m.recipients.cc, bcc: m.recipients.bcc, rcpt: envelopes[i]! }
      : {};
    const body =
      'contentId' in m.body
        ? { html: null, text: null, contentId: m.body.contentId, variables: m.body.variables }
        : { html: m.body.html, text: m.body.text };
    return {
      id: m.id ?? newId(),
      projectId: opts.projectId,
      contactId: m.contactId,
      sourceType: opts.source.type,
      sourceId: opts.source.id,
      toEmail: m.to.email,
      toName: m.to.name ?? null,
      fromEmail: opts.sender.email,
      fromName: opts.sender.name,
      replyTo: opts.sender.replyTo,
      subject: m.subject,
      ...body,
      headers: opts.headers ?? null,
      attachmentSetId,
      mimeId,
      status,
      statusReason: m.failure?.reason ?? blocked[i] ?? null,
      ...(m.failure ? { lastError: m.failure.error.slice(0, 1000) } : {}),
      marketing: opts.marketing,
      tracking,
      ...many,
      ...(m.variant === undefined ? {} : { variant: m.variant }),
      ...(m.sendTimeGroup === undefined ? {} : { sendTimeGroup: m.sendTimeGroup }),
      locale: m.locale ?? null,
      tags: opts.tags ?? null,
      scheduledAt,
      priority: SEND_PRIORITY[opts.source.type],
      nextAttemptAt: status === 'QUEUED' ? now : status === 'SCHEDULED' ? scheduledAt! : null,
    };
  });
  const viewOf = (row: NewEmail): QueuedEmail => ({
    id: row.id,
    status: row.status as QueuedEmail['status'],
    statusReason: row.statusReason ?? null,
    ...(row.toList
      ? {
          suppressedAddresses: [...row.toList, ...(row.cc ?? []), ...(row.bcc ?? [])]
            .map((a) => a.email)
            .filter((a) => !row.rcpt!.includes(a)),
        }
      : {}),
  });
  // The sending workers are woken when the transaction commits, if anything is due now.
  const due = rows.some((r) => r.status === 'QUEUED');
  if (opts.source.type === 'CAMPAIGN') {
    const stored = new Set((await insertCampaignEmails(tx, rows)).map((r) => r.id));
    const kept = rows.filter((r) => stored.has(r.id));
    await recordIntake(tx, opts, kept);
    if (due && stored.size > 0) await wakeSenders(tx);
    return kept.map(viewOf);
  }
  await insertEmails(tx, rows);
  await recordIntake(tx, opts, rows);
  if (due) await wakeSenders(tx);
  const announced = { QUEUED: 'email.queued', SCHEDULED: 'email.scheduled', SUPPRESSED: 'email.suppressed' } as const;
  await emitEmailEvents(
    tx,
    rows.flatMap((r) => {
      const type = announced[r.status as keyof typeof announced];
      const details =
        r.status === 'SCHEDULED'
          ? { scheduledAt: r.scheduledAt!.toISOString() }
          : r.status === 'SUPPRESSED'
            ? { reason: r.statusReason }
            : {};
      const email = {
        ...r,
        sourceId: r.sourceId ?? null,
        contactId: r.contactId ?? null,
        tags: r.tags ?? null,
        toList: r.toList ?? null,
      };
      return type ? [{ email, type, details }] : [];
    }),
  );
  return rows.map(viewOf);
}

/** Where a new email's timeline goes after it was accepted, by its first status. */
const FATE = { QUEUED: 'queued', SCHEDULED: 'scheduled', SUPPRESSED: 'suppressed', FAILED: 'failed' } as const;

/** The first entries of the stored emails' timelines: who handed them over and how, rendered, and their fate. */
async function recordIntake(tx: Tx, opts: QueueMessagesOptions, rows: NewEmail[]): Promise<void> {
  const accepted = { type: 'accepted' as const, detail: acceptedDetail(opts.source) };
  const rendered = opts.template
    ? [{ type: 'rendered' as const, detail: { templateId: opts.template.id, version: opts.template.version } }]
    : [];
  // The common case (a campaign's fan-out, a send to many): the same entries for every email, in one statement.
  const queued = rows.filter((r) => r.status === 'QUEUED' && !r.locale);
  await recordTimelineOfMany(
    tx,
    opts.projectId,
    queued.map((r) => r.id),
    [accepted, ...rendered, { type: 'queued', detail: {} }],
  );
  const others = rows.filter((r) => r.status !== 'QUEUED' || r.locale);
  await recordTimeline(
    tx,
    others.flatMap((r) => {
      const at = { emailId: r.id, projectId: opts.projectId };
      const type = FATE[r.status as keyof typeof FATE] ?? null;
      const detail =
        r.status === 'SCHEDULED'
          ? { scheduledAt: r.scheduledAt!.toISOString() }
          : r.status === 'QUEUED'
            ? {}
            : { reason: r.statusReason ?? null, ...(r.lastError ? { error: r.lastError } : {}) };
      return [
        { ...at, ...accepted },
        ...rendered.map((e) => ({ ...at, type: e.type, detail: { ...e.detail, locale: r.locale ?? null } })),
        ...(type ? [{ ...at, type, detail }] : []),
      ];
    }),
  );
}
