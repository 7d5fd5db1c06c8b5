// What the emails module does with a campaign's emails for the campaigns module: cancel those not on their way
// yet, count them for the stats (with the activity definitions every figure shares), and say what held ones wait for.
import { recordTimelineOfMany } from './emails.timeline.ts';
import type { Executor } from '../../db/client.ts';
import {
  cancelCampaignEmailRows,
  countCampaignEmailRows,
  countSuppressedCampaignEmailRows,
  countCampaignLinkClicks,
  countVariantEmailRows,
  countSendTimeGroupRows,
  findHeldCampaignEmailRows,
  hasUntriedCampaignEmailRows,
  holdCampaignEmailRows,
  releaseCampaignEmailRows,
} from './emails.repo.ts';
import type { CampaignCounts } from './emails.types.ts';

/**
 * Cancels the campaign's emails that are not on their way yet (SCHEDULED, QUEUED or DEFERRED); the engine cancels those
 * it holds before their handoff.
 */
export async function cancelCampaignEmails(opts: { db: Executor; campaignId: string }): Promise<number> {
  const rows = await cancelCampaignEmailRows(opts.db, opts.campaignId);
  if (rows.length > 0)
    await recordTimelineOfMany(
      opts.db,
      rows[0]!.projectId,
      rows.map((r) => r.id),
      [{ type: 'cancelled', detail: { reason: 'CAMPAIGN_CANCELLED' } }],
    );
  return rows.length;
}

/**
 * A paused campaign's emails not on their way yet (QUEUED, DEFERRED, SCHEDULED) stop being due: no worker claims them
 * until they are released. Those a worker holds already finish their handoff.
 */
export async function holdCampaignEmails(opts: { db: Executor; campaignId: string }): Promise<number> {
  return holdCampaignEmailRows(opts.db, opts.campaignId);
}

/** A resumed campaign's held emails are due again: at once, or at their own time when it is later. */
export async function releaseCampaignEmails(opts: { db: Executor; campaignId: string }): Promise<number> {
  return releaseCampaignEmailRows(opts.db, opts.campaignId);
}

/**
 * True while an email of the campaign has not been handed over once (QUEUED, or SENDING: its first attempt under
 * way); those deferred by the receiving server were tried already and do not count.
 */
export async function hasUntriedCampaignEmails(opts: { db: Executor; campaignId: string }): Promise<boolean> {
  return hasUntriedCampaignEmailRows(opts.db, opts.campaignId);
}

/** Every count of a campaign's stats in one pass over its emails (test sends are not campaign emails). */
export async function countCampaignEmails(opts: {
  db: Executor;
  projectId: string;
  campaignId: string;
  settledSince?: Date | null;
}): Promise<CampaignCounts> {
  return countCampaignEmailRows(opts.db, opts.projectId, opts.campaignId, opts.settledSince);
}

/** A campaign's SUPPRESSED emails by reason: SNOOZED, FREQUENCY_CAP, TOPIC, UNSUBSCRIBED, or a suppression's. */
export async function countSuppressedCampaignEmails(opts: {
  db: Executor;
  projectId: string;
  campaignId: string;
}): Promise<Record<string, number>> {
  return countSuppressedCampaignEmailRows(opts.db, opts.projectId, opts.campaignId);
}

/** The same counts per A/B test variant (by variant index), in the same pass. */
export async function countVariantEmails(opts: {
  db: Executor;
  projectId: string;
  campaignId: string;
}): Promise<Map<number, CampaignCounts>> {
  return countVariantEmailRows(opts.db, opts.projectId, opts.campaignId);
}

/** A send-time optimised campaign's counts per group: `optimized` and `holdout` (a group with no email is absent). */
export async function countSendTimeGroups(opts: {
  db: Executor;
  projectId: string;
  campaignId: string;
}): Promise<Map<string, CampaignCounts>> {
  return countSendTimeGroupRows(opts.db, opts.projectId, opts.campaignId);
}

/** A campaign's links by clicks: every click, people's clicks, and the emails that clicked each. */
export async function countCampaignLinks(opts: { db: Executor; projectId: string; campaignId: string }) {
  return countCampaignLinkClicks(opts.db, opts.projectId, opts.campaignId);
}

/** What a sending campaign's mail waits for: the next day of its domain's warm-up, or a provider throttle's turn. */
export type CampaignWait = 'warmup' | 'throttle';

/**
 * The campaigns among these whose emails wait for a warm-up's next day or a provider throttle's turn (a warm-up when
 * some wait for each: the longer wait); campaigns whose mail waits for neither are left out.
 */
export async function findCampaignWaits(opts: {
  db: Executor;
  campaignIds: string[];
}): Promise<Map<string, CampaignWait>> {
  const rows = await findHeldCampaignEmailRows(opts.db, opts.campaignIds);
  return new Map(rows.map((r) => [r.campaignId, r.warmup ? 'warmup' : 'throttle']));
}
