// The campaign state machine's user-driven transitions: send now, schedule, unschedule, cancel, pause, resume, pick a
// winner.
import type { AppContext } from '../../context.types.ts';
import { AppError, validationError } from '../../lib/errors.ts';
import { requireSenderDomain } from '../domains/index.ts';
import { cancelCampaignEmails, releaseCampaignEmails } from '../emails/index.ts';
import { emitCampaignEvent } from './campaigns.webhooks.ts';
import { campaignFanoutJob, continueSend, startRest } from './campaigns.jobs.ts';
import { lockCampaign, SENDABLE_STATUSES, transitionCampaign } from './campaigns.repo.ts';
import { pauseSend } from './campaigns.guard.ts';
import { isAbTest, VARIANT_IDS } from './campaigns.variants.ts';
import {
  audienceOf,
  campaignView,
  recordCampaignChange,
  requireCampaign,
  requireVariantSenders,
  underwayConflict,
} from './campaigns.service.ts';
import { checkSendAt, isLocalSendUnderway, localTurnsAhead, type SendAt } from './campaigns.local-time.ts';
import { DEFAULT_HOLDOUT_PERCENT, optimizeWindowSeconds, type OptimizeSendAt } from './campaigns.send-time.ts';
import { requirePassingCheck } from './campaigns.check.ts';

/** `sendAt` as a send takes it: a local time and day, or send-time optimisation (checked by its schema). */
export interface SendAtBody {
  localTime?: string | undefined;
  date?: string | undefined;
  optimize?: { within: string } | undefined;
  holdoutPercent?: number | undefined;
}

/**
 * POST /campaigns/{id}/send: from DRAFT or SCHEDULED, now (→ SENDING), at a future `scheduledFor` (→ SCHEDULED),
 * or at each recipient's local time (`sendAt` → SCHEDULED, its fan-out starting at the first time zone's turn).
 * The status change and the first fan-out job commit together; the job of an earlier schedule finds the time
 * changed and does nothing.
 */
export async function sendCampaign(opts: {
  ctx: AppContext;
  projectId: string;
  id: string;
  scheduledFor?: string | null | undefined;
  sendAt?: SendAtBody | null | undefined;
  /** Send even though the pre-send check finds errors. */
  force?: boolean;
}) {
  const { ctx, projectId, id } = opts;
  if (opts.scheduledFor && opts.sendAt)
    throw validationError('sendAt', 'give scheduledFor or sendAt, not both', 'conflict');
  const optimize: OptimizeSendAt | null = opts.sendAt?.optimize
    ? { optimize: opts.sendAt.optimize, holdoutPercent: opts.sendAt.holdoutPercent }
    : null;
  const localAt: SendAt | null =
    opts.sendAt?.localTime && opts.sendAt.date ? { localTime: opts.sendAt.localTime, date: opts.sendAt.date } : null;
  const optimizeFields = {
    optimizeWithinSeconds: optimize ? optimizeWindowSeconds(optimize) : null,
    holdoutPercent: optimize ? (optimize.holdoutPercent ?? DEFAULT_HOLDOUT_PERCENT) : null,
  };
  const local = localAt ? { ...localAt, ...checkSendAt(localAt) } : null;
  const at = local ? local.firstTurn : opts.scheduledFor ? new Date(opts.scheduledFor) : null;
  if (!local && at && at.getTime() <= Date.now())
    throw validationError('scheduledFor', 'must be in the future; omit it to send now', 'past_date');
  const campaign = await requireCampaign({ db: ctx.db, projectId: projectId, id: id });
  const conflict = () =>
    new AppError('CONFLICT', `Only a DRAFT or SCHEDULED campaign can be sent; this one is ${campaign.status}`);
  if (!(SENDABLE_STATUSES as readonly string[]).includes(campaign.status)) throw conflict();
  if (isLocalSendUnderway(campaign)) throw underwayConflict('sent again');
  const ab = isAbTest(campaign);
  if ((local || optimize) && ab)
    throw validationError(
      'sendAt',
      optimize
        ? 'an A/B test cannot be sent with send-time optimisation: remove the test, or send it at once'
        : "an A/B test cannot be sent at each recipient's local time: use scheduledFor, or remove the test",
      'ab_test',
    );
  if (!audienceOf(campaign))
    throw validationError('segmentId', 'The campaign has no audience: set segmentId or audienceFilter', 'required');
  // Domains can lose their verification after the campaign was saved: every sender it would send as is checked now.
  await requireSenderDomain({ ctx, projectId, from: campaign.fromEmail });
  if (ab) await requireVariantSenders(ctx, projectId, campaign.variants);
  await requirePassingCheck(ctx, campaign, opts.force ?? false);
  const localFields = {
    localTime: local?.localTime ?? null,
    localDate: local?.date ?? null,
    localEndsAt: null,
    unknownTimeZones: 0,
    ...optimizeFields,
  };
  await ctx.db.transaction(async (tx) => {
    // An A/B test sends its test share first, TESTING until its winner is picked.
    const row = at
      ? await transitionCampaign(tx, id, 'SCHEDULED', { scheduledAt: at, ...localFields }, projectId, SENDABLE_STATUSES)
      : await transitionCampaign(
          tx,
          id,
          ab ? 'TESTING' : 'SENDING',
          { scheduledAt: null, sentAt: new Date(), fanoutPhase: ab ? 'TEST' : null, ...localFields },
          projectId,
          SENDABLE_STATUSES,
        );
    if (!row) throw conflict();
    await recordCampaignChange(tx, at ? 'scheduled' : 'sent', campaign, row);
    if (!at) await emitCampaignEvent(tx, row, 'campaign.sending');
    if (at)
      await ctx.queue.enqueue(
        campaignFanoutJob,
        { campaignId: id, after: null, scheduledAt: at.toISOString() },
        { tx, startAfter: at },
      );
    else
      await ctx.queue.enqueue(
        campaignFanoutJob,
        { campaignId: id, after: null, ...(ab ? { phase: 'TEST' as const } : {}) },
        { tx },
      );
  });
}

/**
 * POST /campaigns/{id}/cancel: SCHEDULED, SENDING, TESTING or PAUSED → CANCELLED, and its emails not yet on their way
 * with it.
 */
export async function cancelCampaign(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { ctx, projectId, id } = opts;
  const campaign = await requireCampaign({ db: ctx.db, projectId: projectId, id: id });
  await ctx.db.transaction(async (tx) => {
    const row = await transitionCampaign(tx, id, 'CANCELLED', {}, projectId);
    if (!row) {
      throw new AppError(
        'CONFLICT',
        `Only a SCHEDULED, SENDING, TESTING or PAUSED campaign can be cancelled; this one is ${campaign.status}`,
      );
    }
    await recordCampaignChange(tx, 'cancelled', campaign, row);
    await cancelCampaignEmails({ db: tx, campaignId: id });
  });
}

/** POST /campaigns/{id}/unschedule: SCHEDULED → DRAFT, the time cleared (409 in any other status). */
export async function unscheduleCampaign(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { ctx, projectId, id } = opts;
  const campaign = await requireCampaign({ db: ctx.db, projectId, id });
  if (isLocalSendUnderway(campaign)) throw underwayConflict('unscheduled');
  const noTime = { scheduledAt: null, localTime: null, localDate: null };
  const row = await ctx.db.transaction(async (tx) => {
    const unscheduled = await transitionCampaign(tx, id, 'DRAFT', noTime, projectId);
    if (unscheduled) await recordCampaignChange(tx, 'unscheduled', campaign, unscheduled);
    return unscheduled;
  });
  if (!row)
    throw new AppError('CONFLICT', `Only a SCHEDULED campaign can be unscheduled; this one is ${campaign.status}`);
  return campaignView(ctx.db, row);
}

/**
 * POST /campaigns/{id}/pause: SENDING or TESTING (or a local-time send under way, SCHEDULED while its time zones
 * take their turns) → PAUSED; nothing more of it is handed to the mail server.
 */
export async function pauseCampaign(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { ctx, projectId, id } = opts;
  const campaign = await requireCampaign({ db: ctx.db, projectId, id });
  const row = await ctx.db.transaction(async (tx) => {
    const paused = await pauseSend(tx, id, null, projectId);
    if (paused) await recordCampaignChange(tx, 'paused', campaign, paused);
    return paused;
  });
  if (!row) {
    const what = campaign.status === 'SCHEDULED' ? 'SCHEDULED and not yet sending' : campaign.status;
    throw new AppError(
      'CONFLICT',
      `Only a SENDING or TESTING campaign, or a local-time send under way, can be paused; this one is ${what}`,
      {
        ...(campaign.status === 'SCHEDULED' ? { suggestion: 'Unschedule it to keep it from starting.' } : {}),
      },
    );
  }
  return campaignView(ctx.db, row);
}

/**
 * POST /campaigns/{id}/resume: PAUSED → SENDING (TESTING for a test not yet decided; SCHEDULED for a local-time send
 * whose time zones are not all through), its held emails due again (at their own time when it is later) and its send
 * taken up from its checkpoint, in one transaction.
 */
export async function resumeCampaign(opts: { ctx: AppContext; projectId: string; id: string }) {
  const { ctx, projectId, id } = opts;
  const campaign = await requireCampaign({ db: ctx.db, projectId, id });
  const row = await ctx.db.transaction(async (tx) => {
    const locked = await lockCampaign(tx, id);
    const to = locked?.fanoutPhase === 'TEST' ? 'TESTING' : locked && localTurnsAhead(locked) ? 'SCHEDULED' : 'SENDING';
    const resumed = await transitionCampaign(tx, id, to, { pausedReason: null, resumedAt: new Date() }, projectId, [
      'PAUSED',
    ]);
    if (!resumed) return null;
    await recordCampaignChange(tx, 'resumed', locked, resumed);
    await releaseCampaignEmails({ db: tx, campaignId: id });
    await continueSend(ctx, resumed, tx);
    return resumed;
  });
  if (!row) throw new AppError('CONFLICT', `Only a PAUSED campaign can be resumed; this one is ${campaign.status}`);
  return campaignView(ctx.db, row);
}

/**
 * POST /campaigns/{id}/winner: ends a TESTING campaign's test early with the variant picked by hand (409 when the
 * reputation guard pauses it instead, as the winner job would).
 */
export async function pickCampaignWinner(opts: { ctx: AppContext; projectId: string; id: string; variantId: string }) {
  const { ctx, projectId, id } = opts;
  const campaign = await requireCampaign({ db: ctx.db, projectId, id });
  if (!isAbTest(campaign))
    throw new AppError('CONFLICT', 'This campaign has no A/B test', {
      suggestion: 'Set variants and abTest on a DRAFT campaign.',
    });
  const index = VARIANT_IDS.indexOf(opts.variantId.toUpperCase() as (typeof VARIANT_IDS)[number]);
  if (index < 0 || index >= campaign.variants!.length) {
    throw validationError(
      'variantId',
      `must be one of ${VARIANT_IDS.slice(0, campaign.variants!.length).join(', ')}`,
      'unknown_variant',
    );
  }
  const row = await ctx.db.transaction(async (tx) => {
    const locked = await lockCampaign(tx, id);
    const after = locked ? await startRest(ctx, tx, locked, index) : null;
    // The reputation guard may pause it instead: the entry says which happened.
    if (after) await recordCampaignChange(tx, after.status === 'PAUSED' ? 'paused' : 'winner_picked', locked, after);
    return after;
  });
  if (!row)
    throw new AppError(
      'CONFLICT',
      `A winner can be picked only while the campaign is TESTING; this one is ${campaign.status}`,
    );
  // The pause committed with the transaction: the answer says why the rest did not go.
  if (row.status === 'PAUSED') {
    throw new AppError(
      'CONFLICT',
      `The reputation guard paused this campaign instead of sending the rest: ${row.pausedReason}`,
      {
        suggestion: 'Look at its bounces and complaints; resume it to go on with the test, then pick the winner again.',
      },
    );
  }
  return campaignView(ctx.db, row);
}
