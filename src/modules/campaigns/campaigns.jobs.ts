// The send of a campaign, crash-safe at any audience size: a chain of `campaign-fanout` jobs walks the
// audience by contact id, and each batch's emails (queued for delivery by being inserted), the checkpoint
// and the next job commit in one transaction. A crash repeats at most the uncommitted batch; a stale job (cancelled,
// rescheduled, or a duplicate of a batch already done) finds the checkpoint moved and does nothing.
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { defineJob } from '../../queue/registry.ts';
import { queueMessages, storeContent } from '../delivery/index.ts';
import { campaignMessageFor, campaignRoots, campaignSender } from './campaigns.render.ts';
import * as repo from './campaigns.repo.ts';
import { emitCampaignEvent } from './campaigns.webhooks.ts';
import { recipientsOf } from './campaigns.service.ts';

/** Recipients per transaction: bounded memory and short locks whatever the audience size. */
export const FANOUT_BATCH = 500;
/** A SENDING campaign untouched this long gets its fan-out or completion re-kicked by the sweep. */
const IDLE_SECONDS = 120;

const fanoutPayload = z.object({
  campaignId: z.string(),
  /** The checkpoint this batch starts after (null = the first batch). */
  after: z.string().nullable(),
  /** Set on the job a scheduled send enqueued: it only starts the campaign still scheduled for that time. */
  scheduledAt: z.string().optional(),
});
type FanoutPayload = z.infer<typeof fanoutPayload>;

/** True when this job is the campaign's next step: not cancelled, rescheduled, done, or run already. */
function isCurrent(campaign: repo.CampaignRow, job: FanoutPayload): boolean {
  if (job.scheduledAt !== undefined && campaign.scheduledAt?.toISOString() !== job.scheduledAt) return false;
  if (campaign.status === 'SCHEDULED') return job.scheduledAt !== undefined && job.after === null;
  return campaign.status === 'SENDING' && !campaign.fanoutDone && campaign.fanoutCursor === job.after;
}

/**
 * One batch: the next recipients after the checkpoint are read and rendered outside the transaction
 * (no lock held while rendering), then inserted with their jobs and the new checkpoint in one transaction
 * that first re-checks, under the campaign's row lock, that nothing moved meanwhile.
 */
export async function fanoutBatch(ctx: AppContext, job: FanoutPayload): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const seen = await repo.findCampaignById(ctx.db, job.campaignId);
    if (!seen || !isCurrent(seen, job)) return;
    const recipients = await recipientsOf(ctx.db, seen);
    const batch = recipients ? await repo.findRecipientBatch(ctx.db, seen.projectId, recipients, job.after, FANOUT_BATCH) : [];
    const roots = campaignRoots(seen);
    const committed = await ctx.db.transaction(async (tx) => {
      const locked = await repo.lockCampaign(tx, job.campaignId);
      if (!locked || !isCurrent(locked, job)) return true;
      if (locked.updatedAt.getTime() !== seen.updatedAt.getTime()) return false; // edited meanwhile: render again
      if (locked.status === 'SCHEDULED') {
        const started = await repo.transitionCampaign(tx, locked.id, 'SENDING', { sentAt: new Date() });
        if (!started) return true;
        await emitCampaignEvent(tx, started, 'campaign.sending');
      }
      // The body is stored once, with the first batch; every email of the send renders from it at delivery.
      const contentId = locked.contentId ?? (await storeContent(tx, { projectId: locked.projectId, subject: locked.subject, html: locked.body }));
      // Queued at once (the emails table is the delivery queue, and the insert wakes the workers); a contact that
      // has this campaign's email already (a repeated batch) gets nothing.
      const inserted = await queueMessages(tx, {
        projectId: locked.projectId, source: { type: 'CAMPAIGN', id: locked.id }, sender: campaignSender(seen), marketing: true, tracking: true,
        messages: batch.map((contact) => campaignMessageFor(ctx, seen, { contentId, roots }, contact)),
      });
      const cursor = batch.at(-1)?.id ?? job.after;
      const done = batch.length < FANOUT_BATCH;
      await repo.advanceFanout(tx, locked.id, { cursor, added: inserted.length, done, contentId });
      if (done) await ctx.queue.enqueue(campaignFinishJob, { campaignId: locked.id, attempt: 0 }, { tx, startAfter: 1 });
      else await ctx.queue.enqueue(campaignFanoutJob, { campaignId: locked.id, after: cursor }, { tx });
      return true;
    });
    if (committed) return;
  }
  throw new Error(`campaign ${job.campaignId} kept changing during its fan-out batch`);
}

/** SENDING → SENT when every email is settled, with its campaign.sent webhook event in the same transaction. */
async function completeAndNotify(ctx: AppContext, campaignId: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    const done = await repo.completeCampaign(tx, campaignId);
    if (done) await emitCampaignEvent(tx, done, 'campaign.sent');
    return done !== null;
  });
}

/** Walks a campaign's audience one batch per job (see fanoutBatch). */
export const campaignFanoutJob = defineJob({
  name: 'campaign-fanout',
  schema: fanoutPayload,
  batchSize: 2,
  // A killed worker's batch is re-run once its heartbeat goes stale, not only after the long expiry.
  queue: { retryLimit: 20, retryDelay: 2, retryBackoff: true, retryDelayMax: 60, expireInSeconds: 900, heartbeatSeconds: 30 },
  async handler(payload, ctx: AppContext) {
    await fanoutBatch(ctx, payload);
  },
});

/**
 * Marks a campaign SENT once its fan-out is over and every email reached a final state; until then it
 * looks again with growing pauses (1 s … 5 s: one indexed query each).
 */
export const campaignFinishJob = defineJob({
  name: 'campaign-finish',
  schema: z.object({ campaignId: z.string(), attempt: z.number().int().min(0) }),
  batchSize: 5,
  // A killed worker's check is taken over once its heartbeat stops (tens of seconds: the queue's maintenance
  // runs every minute), not after the 15 min expiry.
  queue: { retryLimit: 10, retryDelay: 5, retryBackoff: true, heartbeatSeconds: 10 },
  async handler({ campaignId, attempt }, ctx: AppContext) {
    if (await completeAndNotify(ctx, campaignId)) return;
    const campaign = await repo.findCampaignById(ctx.db, campaignId);
    if (campaign?.status !== 'SENDING') return;
    await ctx.queue.enqueue(campaignFinishJob, { campaignId, attempt: attempt + 1 }, { startAfter: Math.min(5, 2 ** Math.min(attempt, 3)) });
  },
});

/**
 * Every minute, for SENDING campaigns that made no progress for a while: a fan-out chain whose job ran
 * out of retries gets its next batch enqueued again (a duplicate is harmless), a finished one is completed.
 */
export const campaignSweepJob = defineJob({
  name: 'campaign-sweep',
  schema: z.object({}),
  cron: '* * * * *',
  queue: { retryLimit: 1, policy: 'singleton' },
  async handler(_payload, ctx: AppContext) {
    for (const campaign of await repo.findIdleSendingCampaigns(ctx.db, IDLE_SECONDS)) {
      if (campaign.fanoutDone) await completeAndNotify(ctx, campaign.id);
      else await ctx.queue.enqueue(campaignFanoutJob, { campaignId: campaign.id, after: campaign.fanoutCursor });
    }
  },
});
