// What the delivery module does with a campaign's emails for the campaigns module: cancel those not on their way
// yet, and count them for the stats (with the activity definitions every figure shares).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emails } from '../../db/schema/index.ts';
import { rowsOf } from '../../db/rows.ts';
import { ACTIVITY_SQL } from './delivery.activity.ts';
import { EMAIL_TRANSITIONS } from './delivery.repo.ts';

// Side effect: cancels the campaign's emails that are not on their way yet (QUEUED or DEFERRED); the engine
// cancels those it holds before their handoff.
export async function cancelCampaignEmails(opts: { db: Executor; campaignId: string }): Promise<number> {
  const rows = await opts.db.update(emails).set({ status: 'CANCELLED', statusReason: 'CAMPAIGN_CANCELLED', updatedAt: sql`now()` })
    .where(and(eq(emails.sourceType, 'CAMPAIGN'), eq(emails.sourceId, opts.campaignId), inArray(emails.status, [...EMAIL_TRANSITIONS.CANCELLED])))
    .returning({ id: emails.id });
  return rows.length;
}

export interface CampaignCounts {
  recipients: number;
  sent: number;
  delivered: number;
  opened: number;
  clicked: number;
  bounced: number;
  complained: number;
  unsubscribed: number;
  failed: number;
}

/** Every count of a campaign's stats in one pass over its emails (test sends are not campaign emails). */
export async function countCampaignEmails(opts: { db: Executor; projectId: string; campaignId: string }): Promise<CampaignCounts> {
  const a = ACTIVITY_SQL;
  const result = await opts.db.execute(sql`
    SELECT count(*)::int AS recipients,
      (count(*) FILTER (WHERE ${a.sent.match}))::int AS sent,
      (count(*) FILTER (WHERE ${a.delivered.match}))::int AS delivered,
      (count(*) FILTER (WHERE ${a.opened.match}))::int AS opened,
      (count(*) FILTER (WHERE ${a.clicked.match}))::int AS clicked,
      (count(*) FILTER (WHERE ${a.bounced.match}))::int AS bounced,
      (count(*) FILTER (WHERE ${a.complained.match}))::int AS complained,
      (count(*) FILTER (WHERE m.unsubscribed_at IS NOT NULL))::int AS unsubscribed,
      (count(*) FILTER (WHERE m.status = 'FAILED'))::int AS failed
    FROM emails m
    WHERE m.source_id = ${opts.campaignId}::uuid AND m.source_type = 'CAMPAIGN' AND m.project_id = ${opts.projectId}::uuid`);
  const row = rowsOf<Record<keyof CampaignCounts, number | string>>(result)[0]!;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as unknown as CampaignCounts;
}
