// The delivery engine of one worker process. Each round claims a batch of due emails under a lease
// (delivery.claim.ts), builds and signs them on the compose threads, waits for the project's send slot
// when pacing is on, hands them to the transport with a bounded number in flight (backpressure: no new
// claim until there is room; messages with attachments also wait for room in a byte budget, so memory stays
// bounded however large they are), and records the outcomes: sent ones in batches, the rest one by one.
// Once the transport accepted a message, only its recording is retried, never the send.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import type { AppContext } from '../../context.types.ts';
import { createMessageBuilder, type MessageBuilder } from '../../mail/compose-pool/index.ts';
import { DeliveryError } from '../../mail/transport.ts';
import { loggableError } from '../../lib/loggable-error.ts';
import { ByteBudget } from '../../lib/byte-budget.ts';
import { localDomainRefusal, type DomainRow } from '../domains/index.ts';
import { claimEmails, holdEmails, releaseEmails, renewLeases, type ClaimedEmail } from './delivery.claim.ts';
import { SigningDomains } from './delivery.keys.ts';
import { buildTaskFor, envelopeRecipients, envelopeSender } from './delivery.message.ts';
import { deliveryMetrics, type DeliveryMetrics } from './delivery.metrics.ts';
import { LATE_TOLERANCE_MS, PACING_HORIZON_MS, reserveSlots } from './delivery.pacing.ts';
import { CampaignHalts } from './delivery.halts.ts';
import { recordSent, settleBounced, settleDeferred, settleFailed, settleIfCampaignCancelled, settleSuppressed, type SentItem } from './delivery.record.ts';
import { findAttachmentBytes, findMimeBytes, type EmailRow } from './delivery.repo.ts';

/** A lapsed sender domain's mail is held this long (from the lapse) before it fails. */
export const DOMAIN_GRACE_MS = 72 * 3600 * 1000;
/** Held mail is looked at again after this long even without a release (the release triggers are the fast path). */
const HOLD_RECHECK_SECONDS = 600;
/** Sent emails recorded per statement, and how long a partial batch waits for company. */
const RECORD_BATCH = 500;
const RECORD_DELAY_MS = 20;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A failure that is worth trying again later (a database read, a thread, a connection). */
const temporaryFailure = (error: unknown) => new DeliveryError(error instanceof Error ? error.message : String(error), { kind: 'temporary', cause: error });

export class DeliveryEngine {
  /** This worker's name on the leases it takes. */
  readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly builder: MessageBuilder;
  private readonly metrics: DeliveryMetrics;
  /** Sender domains by (project, from domain), cleared whenever a domain changes anywhere. */
  private readonly domains: SigningDomains;
  private readonly halts: CampaignHalts;
  /** Attachment bytes of the messages being built and handed over. */
  private readonly attachmentBudget: ByteBudget;
  /** Emails this worker holds a lease on, until their outcome is recorded. */
  private readonly held = new Map<string, EmailRow>();
  private readonly tasks = new Set<Promise<void>>();
  private sent: SentItem[] = [];
  private recording: Promise<void> | null = null;
  private recordTimer: NodeJS.Timeout | null = null;
  private readonly renewTimer: NodeJS.Timeout;
  private roomWaiters: (() => void)[] = [];
  private stopping = false;

  constructor(private readonly ctx: AppContext) {
    this.builder = createMessageBuilder(ctx.config.sendEngine.threads);
    this.attachmentBudget = new ByteBudget(ctx.config.sendEngine.maxInFlightAttachmentBytes);
    this.metrics = deliveryMetrics(ctx);
    this.domains = new SigningDomains(ctx, () => this.metrics.domainCacheClears.inc());
    this.halts = new CampaignHalts(ctx.db);
    this.renewTimer = setInterval(() => void this.renew(), (ctx.config.sendEngine.leaseSeconds * 1000) / 3);
  }

  /** One claim; true when the batch was full (more is probably due) or the worker had to wait for room. */
  async round(): Promise<boolean> {
    if (this.stopping) return false;
    const { batchSize, maxInFlight, leaseSeconds } = this.ctx.config.sendEngine;
    if (this.held.size >= maxInFlight) {
      await this.waitForRoom();
      return !this.stopping;
    }
    const rate = this.ctx.config.sendRatePerSecond;
    // Paced: never claim more than the horizon's worth of slots in one go (other projects must get theirs).
    const paceLimit = rate > 0 ? Math.max(1, Math.ceil((rate * PACING_HORIZON_MS) / 1000)) : Infinity;
    const limit = Math.min(batchSize, maxInFlight - this.held.size, paceLimit);
    const claimed = await claimEmails(this.ctx.db, {
      owner: this.owner, limit, leaseSeconds, ...(rate > 0 ? { pacingHorizonMs: PACING_HORIZON_MS } : {}),
    });
    if (claimed.length === 0) return false;
    this.metrics.claims.inc();
    this.metrics.batchSize.observe(claimed.length);
    for (const c of claimed) {
      this.held.set(c.email.id, c.email);
      if (c.reclaimed) this.metrics.reclaims.inc();
    }
    this.metrics.inFlight.set(this.held.size);
    try {
      await this.dispatch(claimed);
    } catch (error) {
      // Nothing was handed over yet: give the batch back at once rather than after the lease.
      this.ctx.logger.warn({ err: loggableError(error) }, 'delivery dispatch failed');
      const open = claimed.filter((c) => this.held.has(c.email.id) && !this.started.has(c.email.id)).map((c) => c.email.id);
      await releaseEmails(this.ctx.db, this.owner, open).catch(() => {});
      for (const id of open) this.done(id);
    }
    return claimed.length === limit;
  }

  /** Ids whose processing task has started (after dispatch decided they are to be sent). */
  private readonly started = new Set<string>();

  private async dispatch(claimed: ClaimedEmail[]): Promise<void> {
    const { ctx } = this;
    const toSend: { email: EmailRow; domain: DomainRow }[] = [];
    const disabled: string[] = [];
    const lapsed: string[] = [];
    for (const c of claimed) {
      const { email } = c;
      if (c.suppressed || c.unsubscribed) {
        await settleSuppressed(ctx, this.owner, email, c.suppressed ? 'SUPPRESSED' : 'UNSUBSCRIBED');
        this.done(email.id);
      } else if (c.projectDisabled) {
        disabled.push(email.id);
      } else if (c.reclaimed && email.attempts > ctx.config.sendRetry.limit + 1) {
        // Its workers kept dying while holding it: settle it rather than leave it (and its campaign) SENDING forever.
        await settleFailed(ctx, this.owner, email, `Gave up after ${email.attempts - 1} attempts whose worker stopped before settling`);
        this.done(email.id);
      } else {
        const domain = await this.domainFor(email);
        if (domain === 'held') lapsed.push(email.id);
        else if (domain) toSend.push({ email, domain });
      }
    }
    await this.hold(disabled, 'HELD_PROJECT_DISABLED');
    await this.hold(lapsed, 'HELD_DOMAIN_NOT_VERIFIED');
    const delays = await this.slots(toSend.map((s) => s.email));
    toSend.forEach(({ email, domain }, i) => {
      this.started.add(email.id);
      const task = this.deliver(email, domain, delays[i] ?? 0).finally(() => this.tasks.delete(task));
      this.tasks.add(task);
    });
  }

  /** The signing domain when it may sign now; 'held' while it is not verified (within its grace); null when the email failed. */
  private async domainFor(email: EmailRow): Promise<DomainRow | 'held' | null> {
    const { ctx } = this;
    let domain = await this.domains.find(email.projectId, email.fromEmail);
    if (domain && domain.status !== 'VERIFIED') domain = await this.domains.find(email.projectId, email.fromEmail, true);
    if (!domain) {
      await settleFailed(ctx, this.owner, email, `No domain of this project covers the sender ${email.fromEmail}`, 'DOMAIN_NOT_FOUND');
      this.done(email.id);
      return null;
    }
    const local = localDomainRefusal(domain.domain, ctx.config.mailTransport);
    if (local) {
      await settleFailed(ctx, this.owner, email, local, 'DOMAIN_NOT_VERIFIED');
      this.done(email.id);
      return null;
    }
    if (domain.status === 'VERIFIED') return domain;
    const since = (domain.lapsedAt ?? email.createdAt).getTime();
    if (Date.now() - since < DOMAIN_GRACE_MS) return 'held';
    await settleFailed(ctx, this.owner, email, `The sender domain ${domain.domain} is ${domain.status} and its 72 h grace is over`, 'DOMAIN_NOT_VERIFIED');
    this.done(email.id);
    return null;
  }

  private async hold(ids: string[], reason: 'HELD_PROJECT_DISABLED' | 'HELD_DOMAIN_NOT_VERIFIED'): Promise<void> {
    if (ids.length === 0) return;
    await holdEmails(this.ctx.db, this.owner, ids, reason, HOLD_RECHECK_SECONDS);
    this.metrics.holds.inc({ reason }, ids.length);
    for (const id of ids) this.done(id);
  }

  /** Each email's wait for its project's send slot, in ms (all 0 without pacing). */
  private async slots(list: EmailRow[]): Promise<number[]> {
    const rate = this.ctx.config.sendRatePerSecond;
    if (rate <= 0) return list.map(() => 0);
    const byProject = new Map<string, number[]>();
    list.forEach((email, i) => byProject.set(email.projectId, [...(byProject.get(email.projectId) ?? []), i]));
    const delays = list.map(() => 0);
    for (const [projectId, indexes] of byProject) {
      const slots = await reserveSlots(this.ctx.db, projectId, indexes.length, rate);
      indexes.forEach((at, n) => (delays[at] = slots[n] ?? 0));
    }
    return delays;
  }

  /** Delivers within the attachment budget: a message with attachments (or a submitted one) first waits for room for its bytes. */
  private async deliver(email: EmailRow, domain: DomainRow, delayMs: number): Promise<void> {
    const slotAt = performance.now() + delayMs;
    let bytes = 0;
    if (email.attachmentSetId || email.mimeId) {
      try {
        bytes = email.mimeId ? await findMimeBytes(this.ctx.db, email.mimeId) : await findAttachmentBytes(this.ctx.db, email.attachmentSetId!);
      } catch (error) {
        await this.settleFailure(email, temporaryFailure(error));
        return;
      }
    }
    await this.attachmentBudget.take(bytes);
    try {
      await this.buildAndSend(email, domain, slotAt);
    } finally {
      this.attachmentBudget.release(bytes);
    }
  }

  /** Builds, waits for the slot, hands over, and queues the outcome's recording. */
  private async buildAndSend(email: EmailRow, domain: DomainRow, slotAt: number): Promise<void> {
    const { ctx } = this;
    let raw: Buffer;
    try {
      const built = await this.builder.build(await buildTaskFor(ctx, email, domain));
      if (!built.ok) {
        await settleFailed(ctx, this.owner, email, built.error, built.reason);
        this.done(email.id);
        return;
      }
      raw = Buffer.from(built.raw.buffer, built.raw.byteOffset, built.raw.byteLength);
    } catch (error) {
      // Not handed over: a database read or a thread failed. Try again soon, like a temporary failure.
      this.ctx.logger.warn({ err: loggableError(error), emailId: email.id }, 'could not build a message');
      await this.settleFailure(email, temporaryFailure(error));
      return;
    }
    if (ctx.config.sendRatePerSecond > 0) await this.waitForSlot(email.projectId, slotAt);
    // A campaign paused or cancelled since the claim stops its message here (back to the queue, or cancelled).
    if (email.sourceType === 'CAMPAIGN' && email.sourceId && (await this.halts.halted(email.sourceId))
      && (await settleIfCampaignCancelled(ctx.db, this.owner, email).catch(() => false))) {
      this.done(email.id);
      return;
    }
    const transport = ctx.transport.name;
    const started = performance.now();
    let response: string | null;
    let sesMessageId: string | null;
    try {
      const result = await ctx.transport.send({ from: envelopeSender(ctx, email), to: envelopeRecipients(email), raw, emailId: email.id });
      response = result.response?.slice(0, 500) ?? null;
      sesMessageId = transport === 'ses' ? (result.messageId ?? null) : null;
    } catch (error) {
      this.metrics.handoff.observe({ transport }, (performance.now() - started) / 1000);
      const failure = error instanceof DeliveryError ? error : temporaryFailure(error);
      await this.settleFailure(email, failure);
      return;
    }
    this.metrics.handoff.observe({ transport }, (performance.now() - started) / 1000);
    this.metrics.sends.inc({ transport, outcome: 'sent' });
    this.sent.push({ email, response, sesMessageId });
    this.scheduleRecording();
  }

  /**
   * Waits for the slot; a message that missed its slot by more than the pacing's headroom (its thread was
   * slow, the process was busy) takes a new one rather than go out next to the following slot's message.
   */
  private async waitForSlot(projectId: string, slotAt: number): Promise<void> {
    let at = slotAt;
    for (;;) {
      const wait = at - performance.now();
      if (wait > 0) {
        this.metrics.pacingWaits.inc();
        this.metrics.pacingWaitSeconds.inc(wait / 1000);
        await sleep(wait);
      }
      if (performance.now() - at <= LATE_TOLERANCE_MS) return;
      const [delay] = await reserveSlots(this.ctx.db, projectId, 1, this.ctx.config.sendRatePerSecond);
      at = performance.now() + (delay ?? 0);
    }
  }

  /** A refused or failed handoff: bounce, fail, or retry later with back-off. */
  private async settleFailure(email: EmailRow, error: DeliveryError): Promise<void> {
    const { ctx } = this;
    const retry = ctx.config.sendRetry;
    let outcome: string;
    try {
      if (error.kind === 'permanent') {
        outcome = error.responseCode !== undefined && error.responseCode >= 500 ? 'bounced' : 'failed';
        if (outcome === 'bounced') await settleBounced(ctx, this.owner, email, error);
        else await settleFailed(ctx, this.owner, email, error.message.slice(0, 1000));
      } else if (email.attempts > retry.limit) {
        outcome = 'failed';
        await settleFailed(ctx, this.owner, email, `Gave up after ${email.attempts} attempts: ${error.message}`.slice(0, 1000));
      } else {
        outcome = 'deferred';
        const delay = Math.min(retry.maxDelaySeconds, retry.delaySeconds * 2 ** Math.max(0, email.attempts - 1));
        await settleDeferred(ctx, this.owner, email, error.message.slice(0, 1000), new Date(Date.now() + delay * 1000));
      }
      this.metrics.sends.inc({ transport: ctx.transport.name, outcome });
    } catch (settleError) {
      // The lease runs out and another round tries it again: nothing was accepted, so that is safe.
      ctx.logger.warn({ err: loggableError(settleError), emailId: email.id }, 'could not record a delivery failure');
    }
    this.done(email.id);
  }

  private scheduleRecording(): void {
    if (this.recording || this.recordTimer) return;
    if (this.sent.length >= RECORD_BATCH) {
      this.recording = this.recordAll().finally(() => (this.recording = null));
      return;
    }
    this.recordTimer = setTimeout(() => {
      this.recordTimer = null;
      this.recording = this.recordAll().finally(() => {
        this.recording = null;
        if (this.sent.length > 0) this.scheduleRecording();
      });
    }, RECORD_DELAY_MS);
  }

  /** Records every accepted message; a failing write is retried with back-off until it succeeds (or the worker stops for good). */
  private async recordAll(giveUpAt = Infinity): Promise<void> {
    let failures = 0;
    while (this.sent.length > 0) {
      const batch = this.sent.splice(0, RECORD_BATCH);
      try {
        await recordSent(this.ctx.db, this.owner, batch);
        failures = 0;
        for (const item of batch) this.done(item.email.id);
      } catch (error) {
        this.sent.unshift(...batch);
        this.metrics.recordRetries.inc();
        failures++;
        this.ctx.logger.warn({ err: loggableError(error), emails: batch.length }, 'recording sent emails failed; retrying (they are not sent again)');
        if (Date.now() > giveUpAt) return;
        await sleep(Math.min(5000, 50 * 2 ** Math.min(failures, 7)));
      }
    }
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    try {
      await renewLeases(this.ctx.db, this.owner, [...this.held.keys()], this.ctx.config.sendEngine.leaseSeconds);
    } catch (error) {
      this.ctx.logger.warn({ err: loggableError(error) }, 'lease renewal failed');
    }
  }

  private done(id: string): void {
    this.held.delete(id);
    this.started.delete(id);
    this.metrics.inFlight.set(this.held.size);
    if (this.held.size <= this.ctx.config.sendEngine.maxInFlight / 2) this.wakeWaiters();
  }

  private wakeWaiters(): void {
    for (const wake of this.roomWaiters.splice(0)) wake();
  }

  private waitForRoom(): Promise<void> {
    return new Promise((resolve) => this.roomWaiters.push(resolve));
  }

  /** Stops claiming, lets the messages in flight finish and records them (bounded), and closes the threads. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wakeWaiters();
    const deadline = Date.now() + 15_000;
    await Promise.race([Promise.allSettled([...this.tasks]), sleep(15_000)]);
    if (this.recordTimer) clearTimeout(this.recordTimer);
    this.recordTimer = null;
    await this.recording;
    await this.recordAll(deadline);
    clearInterval(this.renewTimer);
    await this.domains.close();
    await this.builder.close();
  }
}
