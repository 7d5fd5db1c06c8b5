// Where each claimed email goes and when it may go: its route (the project's routing rules by stream, sender and
// recipient domain, recipient provider and tag), its recipients' mailbox providers, the provider throttle of its
// sender domain (a configured rate per hour, halved for an hour after a "slow down" deferral), and its domain's
// warm-up (marketing beyond the day's cap waits for the next day; transactional mail is never held, but counts).
// The counts behind the throughput view (handed over and deferred, per domain, provider and minute) are kept in
// memory and written with each batch's recording.
import type { Executor } from '../../db/client.ts';
import type { MailboxProvider } from '../../db/schema/index.ts';
import type { MailboxProviders } from '../../mail/providers.ts';
import type { DeliveryError } from '../../mail/transport.ts';
import type { DomainRow } from '../domains/index.ts';
import type { EmailRow, HoldReason } from '../emails/index.ts';
import { chooseRoute, type TransportDirectory } from '../transports/index.ts';
import { allowedPerHour, nextUtcDay, utcDay, warmupCap } from './sending.limits.ts';
import { envelopeRecipients } from './sending.message.ts';
import {
  addCounts,
  readThrottles,
  reserveThrottleSlots,
  reserveWarmup,
  sentRecently,
  slowDown,
  type CountDelta,
  type ThrottleState,
} from './sending.throttles.ts';

/** A throttle's slots are reserved this far ahead at most; mail beyond waits in the queue for its turn. */
const THROTTLE_HORIZON_MS = 5000;
const FRESH_MS = 1000;
/** A halved rate never goes below one message a minute (a first message deferred must not stop the pair for good). */
const MIN_SLOWED_PER_HOUR = 60;

export interface Planned {
  email: EmailRow;
  domain: DomainRow;
  stream: 'transactional' | 'marketing';
  /** The provider of its first recipient (what routing and the throttle look at). */
  provider: MailboxProvider;
  /** The provider of each envelope recipient: each one counts. */
  charged: MailboxProvider[];
  /** Transport keys in the order to try: the route's transport, then its fallbacks. */
  chain: string[];
  /** Wait before the handover for the throttle's slot, in ms. */
  throttleDelayMs: number;
}

export interface Held {
  ids: string[];
  reason: HoldReason;
  until: Date;
}

const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/** A "slow down" from a receiving server: 421, or an enhanced 4.7.x code (Gmail's 4.7.28, Microsoft's 4.7.650). */
export function isSlowDown(error: DeliveryError): boolean {
  return !error.connection && (error.responseCode === 421 || /^4\.7\./.test(error.enhancedCode ?? ''));
}

export class SendLimiter {
  private readonly counts = new Map<string, CountDelta>();
  private throttles = new Map<string, ThrottleState>();
  private throttlesAt = 0;
  private throttleDomains = new Set<string>();

  constructor(
    private readonly db: Executor,
    private readonly directory: TransportDirectory,
    private readonly providers: MailboxProviders,
    private readonly now: () => number = Date.now,
  ) {}

  /** Routes the emails and finds their providers. */
  async plan(list: { email: EmailRow; domain: DomainRow }[]): Promise<Planned[]> {
    if (list.length === 0) return [];
    const routings = await this.directory.routings([...new Set(list.map((l) => l.email.projectId))]);
    return Promise.all(
      list.map(async ({ email, domain }) => {
        const recipients = envelopeRecipients(email);
        const charged = await Promise.all(recipients.map((r) => this.providers.ofAddress(r)));
        const provider = await this.providers.ofAddress(email.toEmail);
        const stream = email.marketing ? ('marketing' as const) : ('transactional' as const);
        const route = chooseRoute(routings.get(email.projectId) ?? null, {
          stream,
          senderDomain: domainOf(email.fromEmail),
          recipientDomain: domainOf(email.toEmail),
          recipientProvider: provider,
          tags: email.tags ?? [],
        });
        return {
          email,
          domain,
          stream,
          provider,
          charged,
          chain: [route.transportId, ...route.fallbackIds],
          throttleDelayMs: 0,
        };
      }),
    );
  }

  /**
   * Applies throttles, then warm-up: what may go (with its throttle wait) and what goes back to the queue until when.
   */
  async admit(plans: Planned[]): Promise<{ go: Planned[]; held: Held[] }> {
    const held: Held[] = [];
    const throttled = await this.throttle(plans, held);
    const go = await this.warmup(throttled, held);
    return { go, held };
  }

  private async throttleStates(domainIds: string[]): Promise<Map<string, ThrottleState>> {
    const unknown = domainIds.some((id) => !this.throttleDomains.has(id));
    if (unknown || this.now() - this.throttlesAt >= FRESH_MS) {
      for (const id of domainIds) this.throttleDomains.add(id);
      this.throttles = await readThrottles(this.db, [...this.throttleDomains]);
      this.throttlesAt = this.now();
    }
    return this.throttles;
  }

  /** The pair's allowed rate now; null when unlimited. */
  private allowed(domain: DomainRow, provider: MailboxProvider, states: Map<string, ThrottleState>): number | null {
    const state = states.get(`${domain.id} ${provider}`);
    return allowedPerHour({
      configured: domain.providerLimits?.[provider] ?? null,
      slowedPerHour: state?.slowedPerHour ?? null,
      slowedAt: state?.slowedAt ?? null,
      now: new Date(this.now()),
    });
  }

  private async throttle(plans: Planned[], held: Held[]): Promise<Planned[]> {
    if (plans.length === 0) return plans;
    const states = await this.throttleStates([...new Set(plans.map((p) => p.domain.id))]);
    const pairs = new Map<string, { plans: Planned[]; perHour: number }>();
    const free: Planned[] = [];
    for (const p of plans) {
      const perHour = this.allowed(p.domain, p.provider, states);
      if (perHour === null) {
        free.push(p);
        continue;
      }
      const key = `${p.domain.id} ${p.provider}`;
      const pair = pairs.get(key) ?? { plans: [], perHour };
      pair.plans.push(p);
      pairs.set(key, pair);
    }
    for (const { plans: group, perHour } of pairs.values()) {
      const { domain, provider } = group[0]!;
      const spacing = 3_600_000 / Math.max(perHour, 0.01);
      const { delays, nextInMs } = await reserveThrottleSlots(
        this.db,
        { domainId: domain.id, provider },
        group.length,
        spacing,
        THROTTLE_HORIZON_MS,
      );
      group.forEach((p, i) => {
        const delay = delays[i];
        if (delay === undefined) return;
        p.throttleDelayMs = delay;
        free.push(p);
      });
      const waiting = group.slice(delays.length).map((p) => p.email.id);
      if (waiting.length > 0)
        held.push({ ids: waiting, reason: 'HELD_THROTTLE', until: new Date(this.now() + nextInMs) });
    }
    return free;
  }

  private async warmup(plans: Planned[], held: Held[]): Promise<Planned[]> {
    const now = new Date(this.now());
    const byDomain = new Map<string, { cap: number; marketing: Planned[]; transactional: Planned[] }>();
    const go: Planned[] = [];
    for (const p of plans) {
      const cap = warmupCap(p.domain.warmup ?? null, now);
      if (cap === null) {
        go.push(p);
        continue;
      }
      const group = byDomain.get(p.domain.id) ?? { cap, marketing: [], transactional: [] };
      (p.stream === 'marketing' ? group.marketing : group.transactional).push(p);
      byDomain.set(p.domain.id, group);
    }
    for (const [domainId, group] of byDomain) {
      const granted = await reserveWarmup(this.db, {
        domainId,
        day: utcDay(now),
        cap: group.cap,
        marketing: group.marketing.length,
        transactional: group.transactional.length,
      });
      go.push(...group.transactional, ...group.marketing.slice(0, granted));
      const waiting = group.marketing.slice(granted).map((p) => p.email.id);
      if (waiting.length > 0) held.push({ ids: waiting, reason: 'HELD_WARMUP', until: nextUtcDay(now) });
    }
    return go;
  }

  /** A message handed over: each recipient counts towards its provider. */
  countSent(plan: Planned): void {
    for (const provider of plan.charged) this.count(plan.domain.id, provider).sent++;
  }

  /** A deferral; a "slow down" halves the pair's rate for the next hour. */
  async deferred(plan: Planned, error: DeliveryError): Promise<void> {
    this.count(plan.domain.id, plan.provider).deferred++;
    if (!isSlowDown(error)) return;
    const pair = { domainId: plan.domain.id, provider: plan.provider };
    const states = await this.throttleStates([plan.domain.id]);
    const current = this.allowed(plan.domain, plan.provider, states) ?? (await sentRecently(this.db, pair, 10)) * 6;
    await slowDown(this.db, pair, Math.max(MIN_SLOWED_PER_HOUR, current / 2));
    this.throttlesAt = 0;
  }

  private count(domainId: string, provider: MailboxProvider): CountDelta {
    const key = `${domainId} ${provider}`;
    let delta = this.counts.get(key);
    if (!delta) {
      delta = { domainId, provider, sent: 0, deferred: 0 };
      this.counts.set(key, delta);
    }
    return delta;
  }

  /** Writes the counts gathered since the last flush (kept for the next one when the write fails). */
  async flushCounts(): Promise<void> {
    if (this.counts.size === 0) return;
    const deltas = [...this.counts.values()];
    this.counts.clear();
    try {
      await addCounts(this.db, deltas);
    } catch (error) {
      for (const d of deltas) {
        const into = this.count(d.domainId, d.provider);
        into.sent += d.sent;
        into.deferred += d.deferred;
      }
      throw error;
    }
  }
}
