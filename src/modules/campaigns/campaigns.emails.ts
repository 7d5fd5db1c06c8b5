// Named queries on the emails of a campaign: cancel, and the stats aggregate (the fan-out queues its emails
// through the delivery module).
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { emails } from '../../db/schema/index.ts';
import { EMAIL_TRANSITIONS } from '../delivery/index.ts';
import { ACTIVITY_SQL } from '../segments/index.ts';

// Side effect: cancels the campaign's emails that are not on their way yet (the delivery job skips them).
export async function cancelCampaignEmails(tx: Executor, campaignId: string): Promise<number> {
  const rows = await tx.update(emails).set({ status: 'CANCELLED', statusReason: 'CAMPAIGN_CANCELLED', updatedAt: sql`now()` })
    .where(and(eq(emails.sourceType, 'CAMPAIGN'), eq(emails.sourceId, campaignId), inArray(emails.status, [...EMAIL_TRANSITIONS.CANCELLED])))
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
export async function countCampaignEmails(db: Executor, projectId: string, campaignId: string): Promise<CampaignCounts> {
  const a = ACTIVITY_SQL;
  const result = await db.execute(sql`
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
    WHERE m.source_id = ${campaignId}::uuid AND m.source_type = 'CAMPAIGN' AND m.project_id = ${projectId}::uuid`);
  const row = (result as unknown as { rows: Record<keyof CampaignCounts, number | string>[] }).rows[0]!;
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, Number(v)])) as unknown as CampaignCounts;
}
