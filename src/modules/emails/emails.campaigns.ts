// What the delivery module does with a campaign's emails for the campaigns module: cancel those not on their way
// yet, and count them for the stats (with the activity definitions every figure shares).
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emails } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/rows.ts';
import { ACTIVITY_SQL, HUMAN_ACTIVITY_SQL } from './emails.activity.ts';
import { fromOf, target } from './emails.lifecycle.ts';

// Side effect: cancels the campaign's emails that are not on their way yet (QUEUED or DEFERRED); the engine
// cancels those it holds before their handoff.
export async function cancelCampaignEmails(opts: { db: Executor; campaignId: string }): Promise<number> {
  const rows = await opts.db.update(emails).set({ status: target('cancel', 'CANCELLED'), statusReason: 'CAMPAIGN_CANCELLED', updatedAt: sql`now()` })
    .where(and(eq(emails.sourceType, 'CAMPAIGN'), eq(emails.sourceId, opts.campaignId), inArray(emails.status, fromOf('cancel'))))
    .returning({ id: emails.id });
  return rows.length;
}

/** Far enough ahead that a paused campaign's emails are never due; resuming sets their time again. */
const PAUSED_UNTIL = sql.raw(`'9999-01-01T00:00:00Z'::timestamptz`);

// Side effect: a paused campaign's emails not on their way yet (QUEUED, DEFERRED, SCHEDULED) stop being due:
// no worker claims them until they are released. Those a worker holds already finish their handoff.
export async function holdCampaignEmails(opts: { db: Executor; campaignId: string }): Promise<number> {
  const rows = await opts.db.update(emails).set({ statusReason: 'CAMPAIGN_PAUSED', nextAttemptAt: PAUSED_UNTIL, updatedAt: sql`now()` })
    .where(and(eq(emails.sourceType, 'CAMPAIGN'), eq(emails.sourceId, opts.campaignId), inArray(emails.status, fromOf('cancel'))))
    .returning({ id: emails.id });
  return rows.length;
}

// Side effect: a resumed campaign's held emails are due again: at once, or at their own time when it is later.
export async function releaseCampaignEmails(opts: { db: Executor; campaignId: string }): Promise<number> {
  const rows = await opts.db.update(emails).set({ statusReason: null, nextAttemptAt: sql`greatest(now(), coalesce(${emails.scheduledAt}, now()))`, updatedAt: sql`now()` })
    .where(and(eq(emails.sourceType, 'CAMPAIGN'), eq(emails.sourceId, opts.campaignId), eq(emails.statusReason, 'CAMPAIGN_PAUSED'), inArray(emails.status, fromOf('cancel'))))
    .returning({ id: emails.id });
  return rows.length;
}

/**
 * True while an email of the campaign has not been handed over once (QUEUED, or SENDING: its first attempt under
 * way); those deferred by the receiving server were tried already and do not count.
 */
export async function hasUntriedCampaignEmails(opts: { db: Executor; campaignId: string }): Promise<boolean> {
  const result = await opts.db.execute(sql`SELECT EXISTS (SELECT 1 FROM emails m
    WHERE m.source_id = ${opts.campaignId}::uuid AND m.source_type = 'CAMPAIGN' AND m.status IN ('QUEUED', 'SENDING')) AS waiting`);
  return rowsOf<{ waiting: boolean }>(result)[0]?.waiting === true;
}

export interface CampaignCounts {
  recipients: number;
  sent: number;
  delivered: number;
  opened: number;
  humanOpened: number;
  clicked: number;
  humanClicked: number;
  bounced: number;
  complained: number;
  unsubscribed: number;
  failed: number;
}

export const numbers = <T>(row: Record<string, number | string | null>): T => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as T;

/** The count columns of a campaign's figures over `emails m` (each definition shared with filters and stats). */
export function countColumns(): SQL {
  const a = ACTIVITY_SQL;
  const h = HUMAN_ACTIVITY_SQL;
  return sql`count(*)::int AS recipients,
      (count(*) FILTER (WHERE ${a.sent.match}))::int AS sent,
      (count(*) FILTER (WHERE ${a.delivered.match}))::int AS delivered,
      (count(*) FILTER (WHERE ${a.opened.match}))::int AS opened,
      (count(*) FILTER (WHERE ${h.opened!.match}))::int AS "humanOpened",
      (count(*) FILTER (WHERE ${a.clicked.match}))::int AS clicked,
      (count(*) FILTER (WHERE ${h.clicked!.match}))::int AS "humanClicked",
      (count(*) FILTER (WHERE ${a.bounced.match}))::int AS bounced,
      (count(*) FILTER (WHERE ${a.complained.match}))::int AS complained,
      (count(*) FILTER (WHERE m.unsubscribed_at IS NOT NULL))::int AS unsubscribed,
      (count(*) FILTER (WHERE m.status = 'FAILED'))::int AS failed`;
}

const ofCampaign = (projectId: string, campaignId: string) =>
  sql`m.source_id = ${campaignId}::uuid AND m.source_type = 'CAMPAIGN' AND m.project_id = ${projectId}::uuid`;

/** Every count of a campaign's stats in one pass over its emails (test sends are not campaign emails). */
export async function countCampaignEmails(opts: { db: Executor; projectId: string; campaignId: string; settledSince?: Date | null }): Promise<CampaignCounts> {
  const since = opts.settledSince ? sql` AND m.updated_at >= ${opts.settledSince.toISOString()}::timestamptz` : sql``;
  const result = await opts.db.execute(sql`SELECT ${countColumns()} FROM emails m WHERE ${ofCampaign(opts.projectId, opts.campaignId)}${since}`);
  return numbers<CampaignCounts>(rowsOf<Record<string, number | string>>(result)[0]!);
}

/** The same counts per A/B test variant (by variant index), in the same pass. */
export async function countVariantEmails(opts: { db: Executor; projectId: string; campaignId: string }): Promise<Map<number, CampaignCounts>> {
  const result = await opts.db.execute(sql`SELECT m.variant, ${countColumns()} FROM emails m
    WHERE ${ofCampaign(opts.projectId, opts.campaignId)} AND m.variant IS NOT NULL GROUP BY m.variant`);
  return new Map(rowsOf<Record<string, number | string>>(result).map(({ variant, ...row }) => [Number(variant), numbers<CampaignCounts>(row)]));
}

/** A campaign's links by clicks: every click, people's clicks, and the emails that clicked each. */
export async function countCampaignLinks(opts: { db: Executor; projectId: string; campaignId: string }) {
  const result = await opts.db.execute(sql`
    SELECT l.url, sum(l.clicks)::int AS clicks, sum(l.human_clicks)::int AS "humanClicks", count(*)::int AS "uniqueClicks"
    FROM link_clicks l WHERE l.campaign_id = ${opts.campaignId}::uuid AND l.project_id = ${opts.projectId}::uuid
    GROUP BY l.url ORDER BY 2 DESC, 1 LIMIT 500`);
  return rowsOf<{ url: string; clicks: number; humanClicks: number; uniqueClicks: number }>(result)
    .map((r) => ({ url: r.url, clicks: Number(r.clicks), humanClicks: Number(r.humanClicks), uniqueClicks: Number(r.uniqueClicks) }));
}
