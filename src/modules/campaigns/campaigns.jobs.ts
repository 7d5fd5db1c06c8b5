// The send of a campaign, crash-safe at any audience size: a chain of `campaign-fanout` jobs walks the
// audience by contact id, and each batch's emails (queued for delivery by being inserted), the checkpoint
// and the next job commit in one transaction. A crash repeats at most the uncommitted batch; a stale job (cancelled,
// rescheduled, or a duplicate of a batch already done) finds the checkpoint moved and does nothing.
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import { defineJob } from '../../queue/registry.ts';
import { contentRoots, queueMessages, storeContent } from '../emails/index.ts';
import { findDataFallbacks } from '../contacts/index.ts';
import { campaignMessageFor, campaignSender, SUBJECT_RETRY_MS_PER_BATCH } from './campaigns.render.ts';
import * as repo from './campaigns.repo.ts';
import { emitCampaignEvent } from './campaigns.webhooks.ts';
import { recipientsOf } from './campaigns.service.ts';
import type { Executor, Tx } from '../../db/client.ts';
import { isAbTest, testVariantAt, variantRow, waitSeconds } from './campaigns.variants.ts';
import { countVariantEmails, hasUntriedCampaignEmails } from '../emails/index.ts';
import { guardReputation } from './campaigns.guard.ts';
import { pickWinner } from './campaigns.variants.ts';
import { isLocalSendUnderway, localDueTimes } from './campaigns.local-time.ts';
import { isHoldout, optimizedDueAt, recipientZone } from './campaigns.send-time.ts';
import { getProjectSettings } from '../settings/index.ts';
import { compileSource } from '../templates/index.ts';
import { AppError } from '../../lib/errors.ts';
import { pickLocale } from '../../lib/locale.ts';

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
  /** An A/B test's walk (TEST: the test share, REST: the winner to the others); absent for a plain campaign. */
  phase: z.enum(['TEST', 'REST']).optional(),
});
type FanoutPayload = z.infer<typeof fanoutPayload>;

/** True when this job is the campaign's next step: not cancelled, rescheduled, paused, done, or run already. */
function isCurrent(campaign: repo.CampaignRow, job: FanoutPayload): boolean {
  if (job.scheduledAt !== undefined && campaign.scheduledAt?.toISOString() !== job.scheduledAt) return false;
  // A local-time send walks its audience while it stays SCHEDULED (its emails wait for their turns).
  if (isLocalSendUnderway(campaign)) return !campaign.fanoutDone && campaign.fanoutCursor === job.after;
  if (campaign.status === 'SCHEDULED') return job.scheduledAt !== undefined && job.after === null;
  return (
    (campaign.status === 'SENDING' || campaign.status === 'TESTING') &&
    !campaign.fanoutDone &&
    campaign.fanoutCursor === job.after &&
    (job.phase ?? null) === campaign.fanoutPhase
  );
}

type Contact = Awaited<ReturnType<typeof repo.findRecipientBatch>>[number];

/**
 * Each contact of a batch with the variant it gets (undefined: a plain campaign), or left out (the rest, while
 * testing).
 */
function assignVariants(
  campaign: repo.CampaignRow,
  batch: Contact[],
): { contact: Contact; variant: number | undefined }[] {
  if (campaign.fanoutPhase === null) return batch.map((contact) => ({ contact, variant: undefined }));
  if (campaign.fanoutPhase === 'REST')
    return batch.map((contact) => ({ contact, variant: campaign.winnerVariant ?? 0 }));
  const percent = campaign.abTest!.testPercent;
  return batch.flatMap((contact, i) => {
    const variant = testVariantAt(campaign.fanoutSeen + i, percent, campaign.variants!.length);
    return variant === null ? [] : [{ contact, variant }];
  });
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
    const batch = recipients
      ? await repo.findRecipientBatch(ctx.db, seen.projectId, recipients, job.after, FANOUT_BATCH)
      : [];
    const committed = await ctx.db.transaction(async (tx) => {
      let locked = await repo.lockCampaign(tx, job.campaignId);
      if (!locked || !isCurrent(locked, job)) return true;
      if (locked.updatedAt.getTime() !== seen.updatedAt.getTime()) return false; // edited meanwhile: render again
      if (locked.status === 'SCHEDULED' && locked.localTime !== null) {
        // A local-time send begins: it stays SCHEDULED until its last time zone's turn (see endLocalWait).
        if (!isLocalSendUnderway(locked))
          locked = await repo.transitionCampaign(tx, locked.id, 'SCHEDULED', { sentAt: new Date() });
        if (!locked) return true;
      } else if (locked.status === 'SCHEDULED') {
        const ab = isAbTest(locked);
        const started = await repo.transitionCampaign(tx, locked.id, ab ? 'TESTING' : 'SENDING', {
          sentAt: new Date(),
          fanoutPhase: ab ? 'TEST' : null,
        });
        if (!started) return true;
        await emitCampaignEvent(tx, started, 'campaign.sending');
        locked = started;
      }
      await queueBatch(ctx, tx, locked, batch, job.after);
      return true;
    });
    if (committed) return;
  }
  throw new Error(`campaign ${job.campaignId} kept changing during its fan-out batch`);
}

/** Inserts one batch's emails, moves the checkpoint, and enqueues what comes next, in the caller's transaction. */
async function queueBatch(
  ctx: AppContext,
  tx: Tx,
  campaign: repo.CampaignRow,
  batch: Contact[],
  after: string | null,
): Promise<void> {
  const ab = campaign.fanoutPhase !== null;
  // The body is stored once, with the first batch (one per variant for a test, one per translation), compiled in
  // its layout as it is then; every email renders from it at delivery.
  const stored = campaign.contentId
    ? { contentId: campaign.contentId, localeContentIds: campaign.localeContentIds }
    : await storeSentContents(ctx, tx, campaign);
  const { contentId } = stored;
  const variantContentIds = ab ? (campaign.variantContentIds ?? (await storeVariantContents(ctx, tx, campaign))) : null;
  const assigned = assignVariants(campaign, batch);
  const local = campaign.localTime
    ? localDueTimes(campaign, (await getProjectSettings({ db: tx, projectId: campaign.projectId })).timezone)
    : null;
  const optimized = campaign.optimizeWithinSeconds !== null ? await optimizedTimes(tx, campaign) : null;
  const turns = { lastDueAt: null as Date | null, unknownTimeZones: 0 };
  const dueOf = (contact: Contact): { dueAt?: Date; sendTimeGroup?: 'optimized' | 'holdout' } => {
    if (optimized) {
      const due = optimized(contact);
      if (due.dueAt && (!turns.lastDueAt || due.dueAt > turns.lastDueAt)) turns.lastDueAt = due.dueAt;
      return due;
    }
    if (!local) return {};
    const { dueAt, unknown } = local(contact.data as Record<string, unknown> | null);
    if (unknown) turns.unknownTimeZones++;
    if (!turns.lastDueAt || dueAt > turns.lastDueAt) turns.lastDueAt = dueAt;
    return { dueAt };
  };
  // Recipients in groups of one variant or one translation (a campaign with a test has no translations).
  const groups = new Map<string, { variant: number | undefined; locale: string | null; contacts: Contact[] }>();
  for (const { contact, variant } of assigned) {
    const locale = variant === undefined ? translationOf(campaign, stored.localeContentIds, contact) : null;
    const key = `${variant ?? ''}:${locale ?? ''}`;
    const group = groups.get(key) ?? { variant, locale, contacts: [] };
    group.contacts.push(contact);
    groups.set(key, group);
  }
  let added = 0;
  const retries = { msLeft: SUBJECT_RETRY_MS_PER_BATCH };
  const fallbacks = await findDataFallbacks({ db: tx, projectId: campaign.projectId });
  for (const { variant, locale, contacts } of groups.values()) {
    const translation = locale ? campaign.translations![locale]! : null;
    const row =
      variant !== undefined
        ? variantRow(campaign, variant)
        : translation
          ? { ...campaign, subject: translation.subject ?? campaign.subject, body: translation.html ?? campaign.body }
          : campaign;
    const groupContentId =
      variant !== undefined ? variantContentIds![variant]! : locale ? stored.localeContentIds![locale]! : contentId;
    // The row keeps what the stored subject and body read (the layout's variables too): delivery renders both.
    const body = { contentId: groupContentId, roots: await contentRoots(tx, groupContentId), fallbacks };
    // Queued at once (the emails table is the delivery queue, and the insert wakes the workers); a contact that
    // has this campaign's email already (a repeated batch, or a test recipient on the rest's walk) gets nothing.
    const inserted = await queueMessages(tx, {
      projectId: campaign.projectId,
      source: { type: 'CAMPAIGN', id: campaign.id },
      sender: campaignSender(row),
      marketing: true,
      tracking: true,
      ignoreFrequencyCap: campaign.ignoreFrequencyCap,
      messages: contacts.map((contact) => ({
        ...campaignMessageFor(ctx, row, body, contact, retries),
        ...(variant === undefined ? {} : { variant }),
        ...(locale ? { locale } : {}),
        ...dueOf(contact),
      })),
    });
    added += inserted.length;
  }
  const cursor = batch.at(-1)?.id ?? after;
  const done = batch.length < FANOUT_BATCH;
  const testDone = done && campaign.fanoutPhase === 'TEST';
  const testEndsAt = testDone ? new Date(Date.now() + (waitSeconds(campaign.abTest!.waitFor) ?? 0) * 1000) : undefined;
  await repo.advanceFanout(tx, campaign.id, {
    cursor,
    added,
    done,
    contentId,
    variantContentIds,
    localeContentIds: stored.localeContentIds,
    ...(testEndsAt ? { testEndsAt } : {}),
    ...(campaign.fanoutPhase === 'TEST' ? { seen: batch.length } : {}),
    ...(local || optimized ? { local: turns } : {}),
  });
  if (testEndsAt)
    await ctx.queue.enqueue(campaignWinnerJob, { campaignId: campaign.id }, { tx, startAfter: testEndsAt });
  else if (done)
    await ctx.queue.enqueue(campaignFinishJob, { campaignId: campaign.id, attempt: 0 }, { tx, startAfter: 1 });
  else
    await ctx.queue.enqueue(
      campaignFanoutJob,
      { campaignId: campaign.id, after: cursor, ...(ab ? { phase: campaign.fanoutPhase! } : {}) },
      { tx },
    );
}

/**
 * Each recipient's due time and group for a send-time optimised campaign, from the send's start (its sentAt, the same
 * for every batch and every re-run of one): the holdout share at once, the others at their best hour.
 */
async function optimizedTimes(tx: Executor, campaign: repo.CampaignRow) {
  const projectZone = (await getProjectSettings({ db: tx, projectId: campaign.projectId })).timezone;
  const start = campaign.sentAt ?? new Date();
  const withinSeconds = campaign.optimizeWithinSeconds!;
  return (contact: Contact): { dueAt?: Date; sendTimeGroup: 'optimized' | 'holdout' } => {
    if (isHoldout(campaign.id, contact.id, campaign.holdoutPercent ?? 0)) return { sendTimeGroup: 'holdout' };
    const zone = recipientZone(contact.data as Record<string, unknown> | null, projectZone);
    const dueAt = optimizedDueAt({ start, withinSeconds, hours: contact.engagementHours, zone });
    return { dueAt, sendTimeGroup: 'optimized' };
  };
}

/** The translation a contact reads among those stored for the send (null: the default). */
function translationOf(
  campaign: repo.CampaignRow,
  localeContentIds: Record<string, string> | null,
  contact: Contact,
): string | null {
  if (!localeContentIds) return null;
  return pickLocale(contact.locale, Object.keys(localeContentIds));
}

/**
 * The HTML a campaign's emails are sent with: its content compiled in its layout as it is now. Should that no
 * longer compile (a layout changed since the campaign was saved), the body as saved is sent, and the log says so.
 */
export async function sentContent(ctx: AppContext, tx: Executor, campaign: repo.CampaignRow, body: string) {
  try {
    return await compileSource({
      db: tx,
      projectId: campaign.projectId,
      source: {
        subject: campaign.subject,
        format: campaign.format,
        body: campaign.format === 'html' ? body : null,
        content: campaign.content,
        layoutId: campaign.layoutId,
        noLayout: campaign.noLayout,
        translations: campaign.translations,
      },
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    ctx.logger.warn(
      { campaignId: campaign.id, err: error.message },
      'campaign content no longer compiles; sent as saved',
    );
    return { html: body, translations: campaign.translations };
  }
}

/** The campaign's content and each translation's, stored once when it starts sending. */
async function storeSentContents(ctx: AppContext, tx: Tx, campaign: repo.CampaignRow) {
  const sent = await sentContent(ctx, tx, campaign, campaign.body);
  const contentId = await storeContent(tx, {
    projectId: campaign.projectId,
    subject: campaign.subject,
    html: sent.html,
  });
  const localeContentIds: Record<string, string> = {};
  for (const [locale, translation] of Object.entries(sent.translations ?? {})) {
    const subject = translation.subject ?? campaign.subject;
    const html = translation.html ?? sent.html;
    localeContentIds[locale] = await storeContent(tx, { projectId: campaign.projectId, subject, html });
  }
  return { contentId, localeContentIds: Object.keys(localeContentIds).length > 0 ? localeContentIds : null };
}

/** Each variant's body stored once (in variant order), when an A/B test starts sending. */
async function storeVariantContents(ctx: AppContext, tx: Tx, campaign: repo.CampaignRow): Promise<string[]> {
  const ids: string[] = [];
  for (let index = 0; index < (campaign.variants?.length ?? 0); index++) {
    const row = variantRow(campaign, index);
    const sent = await sentContent(ctx, tx, { ...campaign, translations: null }, row.body);
    ids.push(await storeContent(tx, { projectId: campaign.projectId, subject: row.subject, html: sent.html }));
  }
  return ids;
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
  queue: {
    retryLimit: 20,
    retryDelay: 2,
    retryBackoff: true,
    retryDelayMax: 60,
    expireInSeconds: 900,
    heartbeatSeconds: 30,
  },
  async handler(payload, ctx: AppContext) {
    await fanoutBatch(ctx, payload);
  },
});

/**
 * Ends an A/B test: the winner (`winner`, or the best human rate of the test's metric) goes to the rest of the
 * audience. The fan-out walks the audience again from the start in the REST phase; contacts that got a test
 * variant already are skipped by the one-email-per-contact index, so nobody gets two variants. Null when the
 * campaign is not TESTING (picked already, paused, cancelled). First the test share's figures face the reputation
 * guard: when they pass the project's limits, the campaign is PAUSED instead (the row returned) and the rest gets
 * nothing.
 */
export async function startRest(
  ctx: AppContext,
  tx: Tx,
  campaign: repo.CampaignRow,
  winner?: number,
): Promise<repo.CampaignRow | null> {
  if (campaign.status !== 'TESTING' || campaign.fanoutPhase !== 'TEST') return null;
  const paused = await guardReputation(ctx, campaign, tx);
  if (paused) return paused;
  const picked =
    winner ??
    pickWinner(
      await countVariantEmails({ db: tx, projectId: campaign.projectId, campaignId: campaign.id }),
      campaign.variants!.length,
      campaign.abTest!.metric,
    );
  const row = await repo.transitionCampaign(
    tx,
    campaign.id,
    'SENDING',
    { fanoutPhase: 'REST', winnerVariant: picked, fanoutCursor: null, fanoutDone: false },
    undefined,
    ['TESTING'],
  );
  if (row) await ctx.queue.enqueue(campaignFanoutJob, { campaignId: campaign.id, after: null, phase: 'REST' }, { tx });
  return row;
}

/** A test share still being handed over is looked at again this many seconds later (after the watch below). */
const SHARE_RECHECK_SECONDS = 2;
/**
 * How long one run of the winner job watches a share being handed over, and how often it looks: the rest starts
 * within a fraction of a second of the share's last handoff, not at the queue's next poll after a delayed retry.
 */
const SHARE_WATCH_MS = 15_000;
const SHARE_LOOK_MS = 200;

/** The campaign is TESTING past its wait, and its test share is still being handed over. */
async function shareUnderway(ctx: AppContext, campaignId: string): Promise<boolean> {
  const campaign = await repo.findCampaignById(ctx.db, campaignId);
  if (
    !campaign ||
    campaign.status !== 'TESTING' ||
    !campaign.fanoutDone ||
    (campaign.testEndsAt?.getTime() ?? 0) > Date.now()
  )
    return false;
  return hasUntriedCampaignEmails({ db: ctx.db, campaignId });
}

/**
 * After an A/B test's wait: picks the winner and starts the rest (a durable job: a restart runs it when due). A short
 * wait can end before the test share is all handed over; the winner (and the guard) then wait for it, since
 * figures of emails not sent yet say nothing: watched here for a while, then looked at again by a delayed job.
 */
export const campaignWinnerJob = defineJob({
  name: 'campaign-winner',
  schema: z.object({ campaignId: z.string() }),
  batchSize: 5,
  queue: { retryLimit: 10, retryDelay: 5, retryBackoff: true, heartbeatSeconds: 30 },
  async handler({ campaignId }, ctx: AppContext) {
    const watchUntil = Date.now() + SHARE_WATCH_MS;
    while (Date.now() < watchUntil && (await shareUnderway(ctx, campaignId))) await sleep(SHARE_LOOK_MS);
    await ctx.db.transaction(async (tx) => {
      const campaign = await repo.lockCampaign(tx, campaignId);
      if (!campaign || campaign.status !== 'TESTING' || !campaign.fanoutDone) return;
      // Early (the queue's clock and ours differ by a little): look again at the end of the wait.
      if (campaign.testEndsAt && campaign.testEndsAt.getTime() > Date.now()) {
        await ctx.queue.enqueue(campaignWinnerJob, { campaignId }, { tx, startAfter: campaign.testEndsAt });
        return;
      }
      if (await hasUntriedCampaignEmails({ db: tx, campaignId })) {
        await ctx.queue.enqueue(campaignWinnerJob, { campaignId }, { tx, startAfter: SHARE_RECHECK_SECONDS });
        return;
      }
      await startRest(ctx, tx, campaign);
    });
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
    if (campaign && isLocalSendUnderway(campaign)) return endLocalWait(ctx, campaign);
    if (campaign?.status !== 'SENDING') return;
    if (await guardReputation(ctx, campaign)) return;
    // A send-time optimised send is complete no sooner than its last recipient's turn: one delayed check until then.
    const lastTurn = campaign.optimizeWithinSeconds !== null ? campaign.localEndsAt : null;
    if (lastTurn && lastTurn.getTime() > Date.now() + 60_000) {
      await ctx.queue.enqueue(campaignFinishJob, { campaignId, attempt: 0 }, { startAfter: lastTurn });
      return;
    }
    await ctx.queue.enqueue(
      campaignFinishJob,
      { campaignId, attempt: attempt + 1 },
      { startAfter: Math.min(5, 2 ** Math.min(attempt, 3)) },
    );
  },
});

/**
 * A local-time send whose audience is all queued: at its last time zone's turn (the latest due time of its emails;
 * the emails themselves are released by the delivery queue at their own times) it becomes SENDING, and the
 * completion checks begin. Before then, this check waits for that turn as one delayed job.
 */
async function endLocalWait(ctx: AppContext, campaign: repo.CampaignRow): Promise<void> {
  if (!campaign.fanoutDone) return; // the fan-out's last batch asks again
  const last = campaign.localEndsAt;
  if (last && last.getTime() > Date.now()) {
    await ctx.queue.enqueue(campaignFinishJob, { campaignId: campaign.id, attempt: 0 }, { startAfter: last });
    return;
  }
  await ctx.db.transaction(async (tx) => {
    const row = await repo.endLocalWait(tx, campaign.id);
    if (!row) return;
    await emitCampaignEvent(tx, row, 'campaign.sending');
    await ctx.queue.enqueue(campaignFinishJob, { campaignId: campaign.id, attempt: 0 }, { tx, startAfter: 1 });
  });
}

/**
 * Every minute, for SENDING and TESTING campaigns that made no progress for a while: a fan-out chain whose job
 * ran out of retries gets its next batch enqueued again (a duplicate is harmless), a test whose wait is over
 * gets its winner picked, a finished send is completed. Each is also checked against the reputation guard, and so
 * is every local-time send under way (its emails go out zone by zone for up to a day while it is SCHEDULED).
 */
export const campaignSweepJob = defineJob({
  name: 'campaign-sweep',
  schema: z.object({}),
  cron: '* * * * *',
  queue: { retryLimit: 1, policy: 'singleton' },
  async handler(_payload, ctx: AppContext) {
    const guarded = new Set<string>();
    for (const campaign of await repo.findIdleSendingCampaigns(ctx.db, IDLE_SECONDS)) {
      guarded.add(campaign.id);
      if (await guardReputation(ctx, campaign)) continue;
      // A test still within its wait, or whose share is still being handed over, has its winner job waiting: nothing is
      // stuck.
      if (
        campaign.status === 'TESTING' &&
        campaign.fanoutDone &&
        ((campaign.testEndsAt?.getTime() ?? 0) > Date.now() - IDLE_SECONDS * 1000 ||
          (await hasUntriedCampaignEmails({ db: ctx.db, campaignId: campaign.id })))
      )
        continue;
      await continueSend(ctx, campaign);
    }
    // Local-time sends under way that were not idle (so not looked at above) get their guard check here, once.
    for (const campaign of await repo.findLocalSendsUnderway(ctx.db))
      if (!guarded.has(campaign.id)) await guardReputation(ctx, campaign);
  },
});

/**
 * Enqueues a SENDING or TESTING campaign's next step from its checkpoint: the fan-out's next batch, the test's
 * winner (at the end of its wait), or the completion check. Used after a resume and by the sweep; a step
 * that is enqueued twice finds the checkpoint moved and does nothing.
 */
export async function continueSend(ctx: AppContext, campaign: repo.CampaignRow, tx?: Tx): Promise<void> {
  const options = tx ? { tx } : {};
  if (!campaign.fanoutDone) {
    await ctx.queue.enqueue(
      campaignFanoutJob,
      {
        campaignId: campaign.id,
        after: campaign.fanoutCursor,
        ...(campaign.fanoutPhase ? { phase: campaign.fanoutPhase } : {}),
      },
      options,
    );
  } else if (isLocalSendUnderway(campaign)) {
    await ctx.queue.enqueue(campaignFinishJob, { campaignId: campaign.id, attempt: 0 }, { ...options, startAfter: 1 });
  } else if (campaign.status === 'TESTING') {
    const at = campaign.testEndsAt && campaign.testEndsAt.getTime() > Date.now() ? campaign.testEndsAt : new Date();
    await ctx.queue.enqueue(campaignWinnerJob, { campaignId: campaign.id }, { ...options, startAfter: at });
  } else if (tx) {
    await ctx.queue.enqueue(campaignFinishJob, { campaignId: campaign.id, attempt: 0 }, { tx, startAfter: 1 });
  } else {
    await completeAndNotify(ctx, campaign.id);
  }
}
