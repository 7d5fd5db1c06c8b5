// The story of each email, written as it happens by the code that makes it happen: in the same transaction as the
// change it tells of, so an entry exists exactly when its change does.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { jsonRowsInsert } from '../../db/json-insert.ts';
import { emailTimeline } from '../../db/schema/emails.ts';
import { currentOrigin } from '../../lib/request-origin.ts';
import { findOr404 } from '../../lib/errors.ts';
import type { SmtpLine } from '../../mail/transport.ts';
import { webhookDeliveriesAboutEmail } from '../webhooks/index.ts';
import { findEmail } from './emails.repo.ts';

export const TIMELINE_TYPES = [
  'accepted',
  'rendered',
  'queued',
  'scheduled',
  'attempt',
  'deferred',
  'sent',
  'delivered',
  'bounced',
  'complained',
  'failed',
  'suppressed',
  'cancelled',
  'opened',
  'clicked',
  'unsubscribed',
  'webhook',
] as const;
export type TimelineType = (typeof TIMELINE_TYPES)[number];

export interface TimelineEntry {
  emailId: string;
  projectId: string;
  type: TimelineType;
  detail: Record<string, unknown>;
  /** When it happened; absent: now (the transaction's time). */
  at?: Date;
}

/** One delivery attempt: where it went, what the server said, and how it ended. */
export interface AttemptRecord {
  at: Date;
  transport: string;
  transportType: string;
  outcome: 'sent' | 'refused' | 'failed';
  durationMs: number;
  /** The server's reply that ended it (or the error). */
  response: string | null;
  conversation?: SmtpLine[];
}

let recording = true;

/**
 * Whether timelines are written (on unless EMAIL_TIMELINE=false: an installation may trade the story of its emails for
 * a row write or two less per email).
 */
export function setTimelineRecording(on: boolean): void {
  recording = on;
}

/** Writes entries, each of its own email (one statement). */
export async function recordTimeline(db: Executor, entries: TimelineEntry[]): Promise<void> {
  if (!recording || entries.length === 0) return;
  const now = new Date();
  await db.execute(
    jsonRowsInsert(
      emailTimeline,
      entries.map((e) => ({
        emailId: e.emailId,
        projectId: e.projectId,
        type: e.type,
        detail: e.detail,
        at: e.at ?? now,
      })),
    ),
  );
}

/** One entry of one email. */
export async function recordEmailStep(
  db: Executor,
  email: { id: string; projectId: string },
  type: TimelineType,
  detail: Record<string, unknown>,
): Promise<void> {
  await recordTimeline(db, [{ emailId: email.id, projectId: email.projectId, type, detail }]);
}

/** The same steps for many emails of one project (a campaign's fan-out): one statement, entries in step order. */
export async function recordTimelineOfMany(
  db: Executor,
  projectId: string,
  emailIds: string[],
  steps: { type: TimelineType; detail: Record<string, unknown> }[],
): Promise<void> {
  if (!recording || emailIds.length === 0 || steps.length === 0) return;
  await db.execute(sql`
    INSERT INTO email_timeline (email_id, project_id, type, detail)
    SELECT e.id, ${projectId}::uuid, s.type, s.detail
    FROM unnest(${`{${emailIds.join(',')}}`}::uuid[]) WITH ORDINALITY AS e(id, n)
    CROSS JOIN jsonb_to_recordset(${JSON.stringify(steps.map((step, k) => ({ ...step, k })))}::jsonb)
      AS s(type text, detail jsonb, k int)
    ORDER BY e.n, s.k`);
}

/** Entries for the attempts of a delivery, then its outcome. */
export function attemptEntries(
  email: { id: string; projectId: string },
  attempts: AttemptRecord[] | undefined,
): TimelineEntry[] {
  return (attempts ?? []).map(({ at, ...detail }) => ({
    emailId: email.id,
    projectId: email.projectId,
    type: 'attempt' as const,
    at,
    detail,
  }));
}

const HOW_BY_SOURCE: Record<string, string> = { CAMPAIGN: 'campaign', WORKFLOW: 'workflow', SMTP: 'relay' };
const HOW_BY_ACTOR: Record<string, string> = { user: 'dashboard', key: 'api' };

/** Who handed the email to Herald and how, from the request (or job) running now. */
export function acceptedDetail(source: { type: string; id: string | null }): Record<string, unknown> {
  const origin = currentOrigin();
  const how = HOW_BY_SOURCE[source.type] ?? HOW_BY_ACTOR[origin.actor.type] ?? origin.actor.type;
  return { how, source: source.type, ...(source.id ? { sourceId: source.id } : {}), ...byDetail() };
}

/** Who is acting now (a person, a key, Herald itself) and the request's id. */
export function byDetail(): Record<string, unknown> {
  const origin = currentOrigin();
  return {
    actor: { type: origin.actor.type, id: origin.actor.id, label: origin.actor.label },
    ...(origin.requestId ? { requestId: origin.requestId } : {}),
  };
}

export interface TimelineItem {
  at: Date;
  type: TimelineType;
  detail: Record<string, unknown>;
}

/** An email's entries in the order they happened. */
export async function listTimeline(db: Executor, projectId: string, emailId: string): Promise<TimelineItem[]> {
  const rows = await db
    .select({ at: emailTimeline.at, type: emailTimeline.type, detail: emailTimeline.detail })
    .from(emailTimeline)
    .where(and(eq(emailTimeline.emailId, emailId), eq(emailTimeline.projectId, projectId)))
    .orderBy(asc(emailTimeline.at), asc(emailTimeline.seq));
  return rows as TimelineItem[];
}

/**
 * An email's timeline (404 when the project has no such email): its entries, with the webhook deliveries of events
 * about it (each at its last attempt) in their place.
 */
export async function getEmailTimeline(opts: { db: Executor; projectId: string; id: string }): Promise<TimelineItem[]> {
  const { db, projectId, id } = opts;
  await findOr404('Email', id, () => findEmail(db, projectId, id));
  const [entries, deliveries] = await Promise.all([
    listTimeline(db, projectId, id),
    webhookDeliveriesAboutEmail(db, projectId, id),
  ]);
  const webhooks = deliveries.map(
    ({ at, ...detail }): TimelineItem => ({ at, type: 'webhook', detail: { ...detail } }),
  );
  // A stable sort: entries of one moment keep the order they were written in.
  return [...entries, ...webhooks].sort((a, b) => a.at.getTime() - b.at.getTime());
}

/**
 * Side effect: erased addresses leave the timelines of these emails (an SMTP reply or a suppression quotes the
 * recipient), replaced by `replacement`, whatever their case.
 */
export async function eraseTimelineAddresses(
  db: Executor,
  emailIds: string[],
  addresses: string[],
  replacement: string,
): Promise<void> {
  if (emailIds.length === 0 || addresses.length === 0) return;
  const pattern = addresses.map((a) => a.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
  await db.execute(sql`
    UPDATE email_timeline SET detail = regexp_replace(detail::text, ${pattern}, ${replacement}, 'gi')::jsonb
    WHERE email_id = ANY(${`{${emailIds.join(',')}}`}::uuid[]) AND detail::text ~* ${pattern}`);
}
