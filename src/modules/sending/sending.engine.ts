// The delivery engine of one worker process. Each round claims a batch of due emails under a lease
// (from the emails store), builds and signs them on the compose threads, waits for the project's send slot
// when pacing is on, hands them to the transport with a bounded number in flight (backpressure: no new
// claim until there is room; messages with attachments also wait for room in a byte budget, so memory stays
// bounded however large they are), and records the outcomes: sent ones in batches, the rest one by one.
// Once the transport accepted a message, only its recording is retried, never the send.
// Each email is routed (sending.limiter.ts: its transport and fallbacks, provider throttles, warm-up) and handed to
// the first transport of its route that is not DOWN. A transport that fails to connect (or to AUTH, or greets with
// 421, or drops the connection before the message was accepted) counts towards its circuit breaker, and the message
// is offered to the next transport of its route at once: it was not accepted, so it cannot arrive twice. When every
// transport of its route is down, it waits (DEFERRED) without using up an attempt.
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import { DeliveryError, type SmtpLine } from '../../mail/transport.ts';
import { loggableError } from '../../lib/loggable-error.ts';
import { WeightedSemaphore } from '../../lib/weighted-semaphore.ts';
import { isLocalDomain, localDomainRefusal, type DomainRow } from '../domains/index.ts';
import type { AttemptRecord, ClaimedEmail, EmailRow, EmailStore, SentItem } from '../emails/index.ts';
import { DEFAULT_TRANSPORT_ID } from '../transports/index.ts';
import type { TransportDirectory, TransportHealth, UsableTransport } from '../transports/index.ts';
import type { Planned, SendLimiter } from './sending.limiter.ts';
import type { SigningDomains } from './sending.keys.ts';
import { envelopeRecipients, type MessageFactory } from './sending.message.ts';
import type { DeliveryMetrics } from './sending.metrics.ts';
import { LATE_TOLERANCE_MS, PACING_HORIZON_MS } from './sending.pacing.ts';
import type { CampaignHalts } from './sending.halts.ts';

/** A lapsed sender domain's mail is held this long (from the lapse) before it fails. */
export const DOMAIN_GRACE_MS = 72 * 3600 * 1000;
/** Held mail is looked at again after this long even without a release (releasing it is the fast path). */
const HOLD_RECHECK_SECONDS = 600;
/** Attempts whose render ran out of time before the email fails for it. */
const RENDER_TRIES = 3;
/**
 * Sent emails recorded per statement at most, and how a batch gathers. Each recording is a transaction of five
 * statements whatever its size, so under load a batch waits up to RECORD_DELAY_MS for company. It goes at once when it
 * holds RECORD_GATHER emails (or a quarter of the in-flight limit, since the slots it holds are not sending), or when
 * nothing else is in flight (nothing more is coming soon, and a lone send is recorded without waiting). Larger batches
 * would save little more and split more index pages: a batch's rows were claimed together, so their new index entries
 * land side by side before their old versions can be cleared.
 */
const RECORD_BATCH = 500;
const RECORD_GATHER = 25;
const RECORD_DELAY_MS = 50;

/** Time as the engine sees it: wall-clock and monotonic milliseconds, and waiting. */
export interface Clock {
  now(): number;
  monotonic(): number;
  sleep(ms: number): Promise<void>;
}

/** What the engine needs, and nothing more: it never sees the whole application context. */
/** The circuit breaker's shared state, as the engine changes it. */
export interface Breaker {
  failure(key: string, error: string): Promise<unknown>;
  healthy(key: string): Promise<unknown>;
  failovers(key: string, count: number): Promise<void>;
  claimProbe(key: string, owner: string): Promise<boolean>;
  probeFailed(key: string, owner: string, error: string): Promise<void>;
}

export interface EngineDeps {
  store: EmailStore;
  /** Routing, transports and the breaker's view. */
  directory: TransportDirectory;
  breaker: Breaker;
  limiter: SendLimiter;
  /** Reserves a transport's next `count` slots (its maxPerSecond): each one's delay in ms. */
  reserveTransportSlots(key: string, count: number, ratePerSecond: number): Promise<number[]>;
  /** Builds and signs an email's message (on the compose threads). */
  builder: MessageFactory;
  clock: Clock;
  metrics: DeliveryMetrics;
  /** The sender domains that sign, cached until one changes. */
  domains: SigningDomains;
  /** Whether a campaign is paused or cancelled (as of at most a second ago). */
  halts: CampaignHalts;
  /** Reserves the project's next `count` send slots: each one's delay in ms. */
  reserveSlots(projectId: string, count: number): Promise<number[]>;
  settings: Pick<Config, 'sendEngine' | 'sendRatePerSecond' | 'sendRetry'>;
  logger: Pick<Logger, 'warn'>;
}

/** A failure that is worth trying again later (a database read, a thread, a connection). */
const temporaryFailure = (error: unknown) =>
  new DeliveryError(error instanceof Error ? error.message : String(error), { kind: 'temporary', cause: error });

export class DeliveryEngine {
  /** This worker's name on the leases it takes. */
  readonly owner = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly store: EmailStore;
  private readonly metrics: DeliveryMetrics;
  private readonly clock: Clock;
  /** Attachment bytes of the messages being built and handed over. */
  private readonly attachmentBudget: WeightedSemaphore;
  /** Emails this worker holds a lease on, until their outcome is recorded. */
  private readonly held = new Map<string, EmailRow>();
  private readonly tasks = new Set<Promise<void>>();
  private sent: SentItem[] = [];
  private recording: Promise<void> | null = null;
  private recordTimer: NodeJS.Timeout | null = null;
  /** Stopping: the last flush records what is left. */
  private flushing = false;
  /** A gathering batch goes at this size: RECORD_GATHER, or a quarter of the in-flight limit if that is less. */
  private readonly recordGather: number;
  private readonly renewTimer: NodeJS.Timeout;
  /** Writes the throughput counts and failovers of mail that was not sent (deferrals) too, once a second. */
  private readonly statsTimer: NodeJS.Timeout;
  private roomWaiters: (() => void)[] = [];
  private stopping = false;

  constructor(private readonly deps: EngineDeps) {
    this.store = deps.store;
    this.metrics = deps.metrics;
    this.clock = deps.clock;
    this.attachmentBudget = new WeightedSemaphore(deps.settings.sendEngine.maxInFlightAttachmentBytes);
    this.recordGather = Math.min(RECORD_GATHER, Math.max(1, Math.floor(deps.settings.sendEngine.maxInFlight / 4)));
    this.renewTimer = setInterval(() => void this.renew(), (deps.settings.sendEngine.leaseSeconds * 1000) / 3);
    this.statsTimer = setInterval(() => void this.flushStats(), 1000);
  }

  /** One claim; true when the batch was full (more is probably due) or the worker had to wait for room. */
  async round(): Promise<boolean> {
    if (this.stopping) return false;
    this.maybeProbe();
    const { batchSize, maxInFlight, leaseSeconds } = this.deps.settings.sendEngine;
    if (this.held.size >= maxInFlight) {
      await this.waitForRoom();
      return !this.stopping;
    }
    const rate = this.deps.settings.sendRatePerSecond;
    // Paced: never claim more than the horizon's worth of slots in one go (other projects must get theirs).
    const paceLimit = rate > 0 ? Math.max(1, Math.ceil((rate * PACING_HORIZON_MS) / 1000)) : Infinity;
    const limit = Math.min(batchSize, maxInFlight - this.held.size, paceLimit);
    const claimed = await this.store.claim({
      owner: this.owner,
      limit,
      leaseSeconds,
      ...(rate > 0 ? { pacingHorizonMs: PACING_HORIZON_MS } : {}),
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
      this.deps.logger.warn({ err: loggableError(error) }, 'delivery dispatch failed');
      const open = claimed
        .filter((c) => this.held.has(c.email.id) && !this.started.has(c.email.id))
        .map((c) => c.email.id);
      await this.store.release(this.owner, open).catch(() => {});
      for (const id of open) this.done(id);
    }
    return claimed.length === limit;
  }

  private probing: Promise<void> | null = null;
  private probedAt = -Infinity;

  /** At most once a second, and never two at once: the probes due (in the background of the round). */
  private maybeProbe(): void {
    if (this.probing || this.clock.monotonic() - this.probedAt < 1000) return;
    this.probedAt = this.clock.monotonic();
    this.probing = this.probe()
      .catch((error) => this.deps.logger.warn({ err: loggableError(error) }, 'transport probe failed'))
      .finally(() => (this.probing = null));
  }

  /** Ids whose processing task has started (after dispatch decided they are to be sent). */
  private readonly started = new Set<string>();

  private async dispatch(claimed: ClaimedEmail[]): Promise<void> {
    const { store } = this;
    const toSend: { email: EmailRow; domain: DomainRow }[] = [];
    const disabled: string[] = [];
    const lapsed: string[] = [];
    for (const c of claimed) {
      const { email } = c;
      if (c.suppressed || c.unsubscribed || c.snoozed) {
        const reason = c.suppressed ? 'SUPPRESSED' : c.unsubscribed ? 'UNSUBSCRIBED' : 'SNOOZED';
        await store.settleSuppressed(this.owner, email, reason);
        this.done(email.id);
      } else if (c.projectDisabled) {
        disabled.push(email.id);
      } else if (c.reclaimed && email.attempts > this.deps.settings.sendRetry.limit + 1) {
        // Its workers kept dying while holding it: settle it rather than leave it (and its campaign) SENDING forever.
        await store.settleFailed(
          this.owner,
          email,
          `Gave up after ${email.attempts - 1} attempts whose worker stopped before settling`,
        );
        this.done(email.id);
      } else {
        const domain = await this.domainFor(email);
        if (domain === 'held') lapsed.push(email.id);
        else if (domain) toSend.push({ email, domain });
      }
    }
    await this.hold(disabled, 'HELD_PROJECT_DISABLED');
    await this.hold(lapsed, 'HELD_DOMAIN_NOT_VERIFIED');
    const { limiter } = this.deps;
    const { go, held } = await limiter.admit(await limiter.plan(toSend));
    for (const h of held) {
      await store.hold(this.owner, h.ids, h.reason, h.until);
      this.metrics.holds.inc({ reason: h.reason }, h.ids.length);
      for (const id of h.ids) this.done(id);
    }
    const delays = await this.slots(go.map((p) => p.email));
    go.forEach((plan, i) => {
      this.started.add(plan.email.id);
      const wait = Math.max(delays[i] ?? 0, plan.throttleDelayMs);
      const task = this.deliver(plan, wait).finally(() => this.tasks.delete(task));
      this.tasks.add(task);
    });
  }

  /**
   * The signing domain when it may sign now; 'held' while it is not verified (within its grace); null when the email
   * failed.
   */
  private async domainFor(email: EmailRow): Promise<DomainRow | 'held' | null> {
    const { store, deps } = this;
    let domain = await deps.domains.find(email.projectId, email.fromEmail);
    if (domain && domain.status !== 'VERIFIED')
      domain = await deps.domains.find(email.projectId, email.fromEmail, true);
    if (!domain) {
      await store.settleFailed(
        this.owner,
        email,
        `No domain of this project covers the sender ${email.fromEmail}`,
        'DOMAIN_NOT_FOUND',
      );
      this.done(email.id);
      return null;
    }
    if (domain.status === 'VERIFIED') return domain;
    const since = (domain.lapsedAt ?? email.createdAt).getTime();
    if (this.clock.now() - since < DOMAIN_GRACE_MS) return 'held';
    await store.settleFailed(
      this.owner,
      email,
      `The sender domain ${domain.domain} is ${domain.status} and its 72 h grace is over`,
      'DOMAIN_NOT_VERIFIED',
    );
    this.done(email.id);
    return null;
  }

  private async hold(ids: string[], reason: 'HELD_PROJECT_DISABLED' | 'HELD_DOMAIN_NOT_VERIFIED'): Promise<void> {
    if (ids.length === 0) return;
    await this.store.hold(this.owner, ids, reason, HOLD_RECHECK_SECONDS);
    this.metrics.holds.inc({ reason }, ids.length);
    for (const id of ids) this.done(id);
  }

  /** Each email's wait for its project's send slot, in ms (all 0 without pacing). */
  private async slots(list: EmailRow[]): Promise<number[]> {
    if (this.deps.settings.sendRatePerSecond <= 0) return list.map(() => 0);
    const byProject = new Map<string, number[]>();
    list.forEach((email, i) => byProject.set(email.projectId, [...(byProject.get(email.projectId) ?? []), i]));
    const delays = list.map(() => 0);
    for (const [projectId, indexes] of byProject) {
      const slots = await this.deps.reserveSlots(projectId, indexes.length);
      indexes.forEach((at, n) => (delays[at] = slots[n] ?? 0));
    }
    return delays;
  }

  /**
   * Delivers within the attachment budget: a message with attachments (or a submitted one) first waits for room for its
   * bytes.
   */
  private async deliver(plan: Planned, delayMs: number): Promise<void> {
    const { email } = plan;
    const slotAt = this.clock.monotonic() + delayMs;
    let bytes = 0;
    if (email.attachmentSetId || email.mimeId) {
      try {
        bytes = email.mimeId
          ? await this.store.mimeBytes(email.mimeId)
          : await this.store.attachmentBytes(email.attachmentSetId!);
      } catch (error) {
        await this.settleFailure(plan, temporaryFailure(error));
        return;
      }
    }
    await this.attachmentBudget.take(bytes);
    try {
      await this.buildAndSend(plan, slotAt, delayMs > 0);
    } finally {
      this.attachmentBudget.release(bytes);
    }
  }

  /** Builds, waits for the slot, hands over, and queues the outcome's recording. */
  private async buildAndSend(plan: Planned, slotAt: number, waits: boolean): Promise<void> {
    const { store, deps } = this;
    const { email, domain } = plan;
    let raw: Buffer;
    try {
      const built = await deps.builder.build(email, domain);
      // A render that ran out of time may only have met a busy machine (a loaded one can stall a thread for longer
      // than the limit twice in a row): the first attempts are tried again later; a template that runs out of time
      // on the third fails (each try holds a thread for the whole limit).
      if (!built.ok && built.reason === 'RENDER_TIMED_OUT' && email.attempts < RENDER_TRIES) {
        await this.settleFailure(plan, temporaryFailure(new Error(built.error)));
        return;
      }
      if (!built.ok) {
        const reason = built.reason === 'RENDER_TIMED_OUT' ? 'RENDER_FAILED' : built.reason;
        await store.settleFailed(this.owner, email, built.error, reason);
        this.done(email.id);
        return;
      }
      raw = Buffer.from(built.raw.buffer, built.raw.byteOffset, built.raw.byteLength);
    } catch (error) {
      // Not handed over: a database read or a thread failed. Try again soon, like a temporary failure.
      deps.logger.warn({ err: loggableError(error), emailId: email.id }, 'could not build a message');
      await this.settleFailure(plan, temporaryFailure(error));
      return;
    }
    if (deps.settings.sendRatePerSecond > 0) await this.waitForSlot(email.projectId, slotAt);
    else if (waits && slotAt > this.clock.monotonic()) await this.clock.sleep(slotAt - this.clock.monotonic());
    // A campaign paused or cancelled since the claim stops its message here (back to the queue, or cancelled).
    if (
      email.sourceType === 'CAMPAIGN' &&
      email.sourceId &&
      (await deps.halts.halted(email.sourceId)) &&
      (await store.settleIfCampaignHalted(this.owner, email).catch(() => false))
    ) {
      this.done(email.id);
      return;
    }
    await this.handOver(plan, raw);
  }

  /**
   * Offers the message to the transports of its route in order, skipping those that are DOWN; moves on only when a
   * transport failed to take it at all (connection, TLS, AUTH: nothing was accepted).
   */
  private async handOver(plan: Planned, raw: Buffer): Promise<void> {
    const { deps, clock } = this;
    const { email } = plan;
    const local = isLocalDomain(plan.domain.domain);
    const refusal = local ? await this.localRefusal(plan) : null;
    if (refusal) {
      await this.store.settleFailed(this.owner, email, refusal, 'DOMAIN_NOT_VERIFIED');
      this.done(email.id);
      return;
    }
    const states = await deps.directory.states(plan.chain);
    let lastFailure: DeliveryError | null = null;
    let skipped = 0;
    const attempts: AttemptRecord[] = [];
    for (const key of plan.chain) {
      const health = states.get(key);
      if (health?.state === 'DOWN') {
        skipped++;
        continue;
      }
      let usable: UsableTransport | null;
      try {
        usable = await deps.directory.transport(key);
      } catch (error) {
        // A transport that cannot be opened (its secret sealed under another APP_SECRET) fails like a connection.
        lastFailure = new DeliveryError(`transport ${key} cannot be opened: ${(error as Error).message}`, {
          kind: 'temporary',
          connection: true,
        });
        await this.breakerFailure(key, lastFailure);
        continue;
      }
      // A local sender's mail never fails over from an outbox to a relay.
      if (!usable || (local && usable.type !== 'outbox')) continue;
      if (key !== plan.chain[0]) this.failedOver(plan.chain[0]!);
      if (usable.maxPerSecond) {
        const [delay] = await deps.reserveTransportSlots(key, 1, usable.maxPerSecond);
        if (delay && delay > 0) await clock.sleep(delay);
      }
      const started = clock.monotonic();
      const startedAt = new Date(clock.now());
      const label = usable.type;
      const attempt = (outcome: AttemptRecord['outcome'], response: string | null, conversation?: SmtpLine[]) =>
        attempts.push({
          at: startedAt,
          transport: key,
          transportType: label,
          outcome,
          durationMs: Math.round(clock.monotonic() - started),
          response: response?.slice(0, 500) ?? null,
          ...(conversation ? { conversation } : {}),
        });
      try {
        const from = deps.builder.envelopeSender(email);
        const result = await usable.transport.send({ from, to: envelopeRecipients(email), raw, emailId: email.id });
        this.metrics.handoff.observe({ transport: label }, (clock.monotonic() - started) / 1000);
        this.metrics.sends.inc({ transport: label, outcome: 'sent' });
        if (health && (health.state !== 'HEALTHY' || health.failures > 0)) await this.breakerHealthy(key);
        deps.limiter.countSent(plan);
        attempt('sent', result.response ?? null, result.conversation);
        this.sent.push({
          attempts,
          email,
          response: result.response?.slice(0, 500) ?? null,
          sesMessageId: usable.transport.reportsByMessageId ? (result.messageId ?? null) : null,
          transportId: key,
          provider: plan.provider,
        });
        this.scheduleRecording();
        return;
      } catch (error) {
        this.metrics.handoff.observe({ transport: label }, (clock.monotonic() - started) / 1000);
        const failure = error instanceof DeliveryError ? error : temporaryFailure(error);
        attempt(failure.connection ? 'failed' : 'refused', failure.response ?? failure.message, failure.conversation);
        if (!failure.connection) {
          await this.settleFailure(plan, failure, label, attempts);
          return;
        }
        lastFailure = failure;
        await this.breakerFailure(key, failure);
      }
    }
    if (lastFailure) {
      await this.settleFailure(plan, lastFailure, 'none', attempts);
      return;
    }
    // Every transport of its route is down (or gone): it waits for the first to come back, without an attempt.
    const retryAt = this.earliestRetry(plan.chain, states);
    if (skipped > 0) this.failedOver(plan.chain[0]!);
    try {
      await this.store.settleAwaitingTransport(
        this.owner,
        email,
        `Every transport of its route is down (${plan.chain.join(', ')}); waiting for one to come back`,
        retryAt,
      );
    } catch (error) {
      deps.logger.warn({ err: loggableError(error), emailId: email.id }, 'could not record a wait for a transport');
    }
    this.done(email.id);
  }

  /**
   * Why a local sender's (.localhost) mail may not go out: its route's own transport is not an outbox, whatever its
   * health (such mail would reach real servers); null when it is.
   */
  private async localRefusal(plan: Planned): Promise<string | null> {
    const key = plan.chain[0]!;
    const route = await this.deps.directory.describe(key);
    if (!route) return null;
    return localDomainRefusal(plan.domain.domain, route.type, key === DEFAULT_TRANSPORT_ID ? undefined : route);
  }

  /** When the first transport of a chain may be tried again (its probe; at least a few seconds from now). */
  private earliestRetry(chain: string[], states: Map<string, TransportHealth>): Date {
    const now = this.clock.now();
    const times = chain.map((k) => states.get(k)?.downUntil?.getTime() ?? now).map((t) => Math.max(t, now + 5000));
    return new Date(Math.min(...times) + 1000);
  }

  private readonly failovers = new Map<string, number>();

  private failedOver(key: string): void {
    this.failovers.set(key, (this.failovers.get(key) ?? 0) + 1);
  }

  private async breakerFailure(key: string, failure: DeliveryError): Promise<void> {
    try {
      await this.deps.breaker.failure(key, failure.message);
    } catch (error) {
      this.deps.logger.warn({ err: loggableError(error), transport: key }, 'could not record a transport failure');
    }
    this.deps.directory.staleStates();
  }

  private async breakerHealthy(key: string): Promise<void> {
    try {
      await this.deps.breaker.healthy(key);
    } catch (error) {
      this.deps.logger.warn({ err: loggableError(error), transport: key }, 'could not record a transport recovery');
    }
    this.deps.directory.staleStates();
  }

  /**
   * The probes of DOWN transports whose back-off is over, run by whichever worker claims each: one connection, and the
   * transport is HEALTHY again or DOWN for a longer back-off.
   */
  async probe(): Promise<void> {
    const { directory, breaker } = this.deps;
    const states = await directory.states([]);
    const now = this.clock.now();
    for (const health of states.values()) {
      if (health.state !== 'DOWN' || (health.downUntil?.getTime() ?? Infinity) > now) continue;
      if (!(await breaker.claimProbe(health.key, this.owner))) continue;
      try {
        const usable = await directory.transport(health.key);
        if (!usable) continue;
        await usable.transport.verify();
        await breaker.healthy(health.key);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        await breaker.probeFailed(health.key, this.owner, message).catch(() => {});
      }
      directory.staleStates();
    }
  }

  /**
   * Waits for the slot; a message that missed its slot by more than the pacing's headroom (its thread was
   * slow, the process was busy) takes a new one rather than go out next to the following slot's message.
   */
  private async waitForSlot(projectId: string, slotAt: number): Promise<void> {
    let at = slotAt;
    for (;;) {
      const wait = at - this.clock.monotonic();
      if (wait > 0) {
        this.metrics.pacingWaits.inc();
        this.metrics.pacingWaitSeconds.inc(wait / 1000);
        await this.clock.sleep(wait);
      }
      if (this.clock.monotonic() - at <= LATE_TOLERANCE_MS) return;
      const [delay] = await this.deps.reserveSlots(projectId, 1);
      at = this.clock.monotonic() + (delay ?? 0);
    }
  }

  /** A refused or failed handoff: bounce, fail, or retry later with back-off. */
  private async settleFailure(
    plan: Planned,
    error: DeliveryError,
    transport = 'none',
    attempts: AttemptRecord[] = [],
  ): Promise<void> {
    const { store, deps } = this;
    const { email } = plan;
    const retry = deps.settings.sendRetry;
    let outcome: string;
    try {
      if (error.kind === 'permanent') {
        outcome = error.responseCode !== undefined && error.responseCode >= 500 ? 'bounced' : 'failed';
        if (outcome === 'bounced') await store.settleBounced(this.owner, email, error, attempts);
        else await store.settleFailed(this.owner, email, error.message.slice(0, 1000), undefined, attempts);
      } else if (email.attempts > retry.limit) {
        outcome = 'failed';
        await store.settleFailed(
          this.owner,
          email,
          `Gave up after ${email.attempts} attempts: ${error.message}`.slice(0, 1000),
          undefined,
          attempts,
        );
      } else {
        outcome = 'deferred';
        const delay = Math.min(retry.maxDelaySeconds, retry.delaySeconds * 2 ** Math.max(0, email.attempts - 1));
        const retryAt = new Date(this.clock.now() + delay * 1000);
        await store.settleDeferred(this.owner, email, error.message.slice(0, 1000), retryAt, attempts);
        if (error.responseCode !== undefined) await deps.limiter.deferred(plan, error);
      }
      this.metrics.sends.inc({ transport, outcome });
    } catch (settleError) {
      // The lease runs out and another round tries it again: nothing was accepted, so that is safe.
      deps.logger.warn({ err: loggableError(settleError), emailId: email.id }, 'could not record a delivery failure');
    }
    this.done(email.id);
  }

  private scheduleRecording(): void {
    if (this.recording || this.flushing) return;
    if (this.sent.length >= this.recordGather || this.sent.length >= this.held.size) {
      if (this.recordTimer) clearTimeout(this.recordTimer);
      this.recordTimer = null;
      this.startRecording();
      return;
    }
    this.recordTimer ??= setTimeout(() => {
      this.recordTimer = null;
      this.startRecording();
    }, RECORD_DELAY_MS);
  }

  private startRecording(): void {
    this.recording = this.recordAll(Infinity, true).finally(() => {
      this.recording = null;
      if (this.sent.length > 0) this.scheduleRecording();
    });
  }

  /**
   * Records every accepted message (or, with `oneBatch`, one batch of them); a failing write is retried with back-off
   * until it succeeds (or the worker stops for good).
   */
  private async recordAll(giveUpAt = Infinity, oneBatch = false): Promise<void> {
    let failures = 0;
    while (this.sent.length > 0) {
      const batch = this.sent.splice(0, RECORD_BATCH);
      try {
        await this.store.recordSent(this.owner, batch);
        failures = 0;
        for (const item of batch) this.done(item.email.id);
        if (oneBatch) return;
      } catch (error) {
        this.sent.unshift(...batch);
        this.metrics.recordRetries.inc();
        failures++;
        this.deps.logger.warn(
          { err: loggableError(error), emails: batch.length },
          'recording sent emails failed; retrying (they are not sent again)',
        );
        if (this.clock.now() > giveUpAt) return;
        await this.clock.sleep(Math.min(5000, 50 * 2 ** Math.min(failures, 7)));
      }
    }
  }

  /** The throughput counts and failovers gathered since the last write (they are statistics: a failure waits). */
  private async flushStats(): Promise<void> {
    try {
      await this.deps.limiter.flushCounts();
      for (const [key, count] of [...this.failovers]) {
        this.failovers.delete(key);
        await this.deps.breaker.failovers(key, count);
      }
    } catch (error) {
      this.deps.logger.warn({ err: loggableError(error) }, 'could not record send counts');
    }
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    try {
      await this.store.renewLeases(this.owner, [...this.held.keys()], this.deps.settings.sendEngine.leaseSeconds);
    } catch (error) {
      this.deps.logger.warn({ err: loggableError(error) }, 'lease renewal failed');
    }
  }

  private done(id: string): void {
    this.held.delete(id);
    this.started.delete(id);
    this.metrics.inFlight.set(this.held.size);
    if (this.held.size <= this.deps.settings.sendEngine.maxInFlight / 2) this.wakeWaiters();
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
    const deadline = this.clock.now() + 15_000;
    await Promise.race([Promise.allSettled([...this.tasks]), this.clock.sleep(15_000)]);
    // The last flush below records everything left, alone: no batch starts or is scheduled beside it.
    this.flushing = true;
    if (this.recordTimer) clearTimeout(this.recordTimer);
    this.recordTimer = null;
    await this.recording;
    await this.recordAll(deadline);
    await this.flushStats();
    await this.probing;
    clearInterval(this.renewTimer);
    clearInterval(this.statsTimer);
    await this.deps.directory.close();
    await this.deps.domains.close();
    await this.deps.builder.close();
  }
}
