// Sends queued webhook deliveries in every worker process. Each round holds free endpoints (one sender per
// endpoint, the least recently served first, a few per project) and serves each on its own slot without waiting
// for the others: the endpoint's due deliveries one at a time, in order, each settled as its attempt ends. A hold
// starts attempts for a few seconds only, then goes back to the pool, so a slow endpoint keeps one slot for a
// bounded time and never delays another endpoint's deliveries or their settling. At-least-once.
import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.types.ts';
import { loggableError } from '../../lib/loggable-error.ts';
import { definePoller } from '../../queue/poller.ts';
import { attemptDelivery, outcomeOf } from './webhooks.attempt.ts';
import { WEBHOOK_CHANNEL } from './webhooks.emit.ts';
import { holdEndpoints, leaseNextDeliveries, releaseEndpoint, unleaseDeliveries } from './webhooks.queue.ts';
import { SettleQueue, settleAttempt, settlesAlone } from './webhooks.settle.ts';

/** Endpoints one sender serves at once (each one request at a time). */
const ENDPOINT_SLOTS = 16;
/** Endpoints of one project held at once, by all senders together. */
const PROJECT_HOLDS = 4;
/** Hold and attempt leases (seconds). */
const LEASE_SECONDS = 60;
/** How long a hold starts attempts; its last attempt then ends well inside the hold's lease. */
const HOLD_BUDGET_MS = 15_000;
/** The longest an attempt can take (DNS, then the client's 10 s deadline), with room to settle it. */
const ATTEMPT_MAX_MS = 15_000;
/** Deliveries leased at once grow up to this while the endpoint answers within FAST_ATTEMPT_MS. */
const MAX_BATCH = 32;
const FAST_ATTEMPT_MS = 1000;

/** One process's sender: its owner name, and the endpoints it is serving. */
class WebhookSender {
  readonly owner = `webhooks:${randomUUID()}`;
  private readonly serving = new Set<Promise<void>>();
  private stopping = false;

  constructor(private readonly ctx: AppContext) {}

  /** One round: holds endpoints for the free slots and starts serving them; true when every slot was filled. */
  async round(): Promise<boolean> {
    const free = ENDPOINT_SLOTS - this.serving.size;
    if (free <= 0 || this.stopping) return false;
    const heldAt = performance.now();
    const held = await this.hold(free);
    for (const endpointId of held) this.startSlot(endpointId, heldAt);
    return held.length === free;
  }

  private hold(limit: number): Promise<string[]> {
    return holdEndpoints(this.ctx.db, this.owner, { limit, perProject: PROJECT_HOLDS, leaseSeconds: LEASE_SECONDS });
  }

  private startSlot(endpointId: string, heldAt: number): void {
    const slot: Promise<void> = this.serveSlot(endpointId, heldAt)
      .catch((error: unknown) => this.ctx.logger.warn({ err: loggableError(error) }, 'webhook sender slot failed'))
      .finally(() => this.serving.delete(slot));
    this.serving.add(slot);
  }

  /** Serves a held endpoint, then (the slot being free) the next endpoint waiting, until none is. */
  private async serveSlot(endpointId: string, heldAt: number): Promise<void> {
    for (let next: string | undefined = endpointId; next; ) {
      await this.serveHold(next, heldAt);
      heldAt = performance.now();
      next = this.stopping ? undefined : (await this.hold(1))[0];
    }
  }

  /**
   * The endpoint's due deliveries in order, for HOLD_BUDGET_MS of starts. They are leased a few at a time while
   * the endpoint answers fast (one at a time once it is slow), and an attempt starts only while its lease has
   * an attempt's length left: whatever was leased and not attempted is given back. Each attempt is settled as
   * it ends: a success in the background within 50 ms (the next attempt goes out meanwhile), anything else
   * before the next attempt.
   */
  private async serveHold(endpointId: string, heldAt: number): Promise<void> {
    const { ctx, owner } = this;
    const settled = new SettleQueue(ctx, owner);
    let leased: Awaited<ReturnType<typeof leaseNextDeliveries>> = [];
    let batch = 1;
    const canStart = (leasedAt: number) => {
      const now = performance.now();
      return !this.stopping && now - heldAt < HOLD_BUDGET_MS && now - leasedAt + ATTEMPT_MAX_MS < LEASE_SECONDS * 1000;
    };
    try {
      for (let leasedAt = performance.now(); canStart(leasedAt); leasedAt = performance.now()) {
        leased = await leaseNextDeliveries(ctx.db, owner, endpointId, batch, LEASE_SECONDS);
        if (leased.length === 0) break;
        let slow = false;
        while (leased.length > 0 && !slow && canStart(leasedAt)) {
          const delivery = leased.shift()!;
          const startedAt = performance.now();
          const result = await attemptDelivery(ctx, delivery);
          slow = performance.now() - startedAt > FAST_ATTEMPT_MS;
          if (settlesAlone(delivery, result)) settled.add(outcomeOf(delivery, result));
          else await settleAttempt(ctx, owner, delivery, result);
          if (settled.backlog >= MAX_BATCH) await settled.drain();
        }
        await unleaseDeliveries(
          ctx.db,
          owner,
          leased.splice(0).map((d) => d.id),
        );
        batch = slow ? 1 : Math.min(batch * 2, MAX_BATCH);
      }
    } finally {
      // Whatever failed, the unattempted leases and the hold go back (or expire, when the database is away too).
      const failed = await settled.drain().then(
        () => null,
        (error: unknown) => error ?? new Error('settle failed'),
      );
      await unleaseDeliveries(
        ctx.db,
        owner,
        leased.map((d) => d.id),
      );
      await releaseEndpoint(ctx.db, owner, endpointId);
      if (failed) throw failed; // eslint-disable-line no-unsafe-finally
    }
  }

  /** Starts nothing more and waits for the attempts in flight (each ends within its deadline). */
  async stop(): Promise<void> {
    this.stopping = true;
    await Promise.all([...this.serving]);
  }
}

const senders = new WeakMap<AppContext, WebhookSender>();

/** The sender of a context (one per process; each test app has its own). */
function senderOf(ctx: AppContext): WebhookSender {
  let sender = senders.get(ctx);
  if (!sender) senders.set(ctx, (sender = new WebhookSender(ctx)));
  return sender;
}

/**
 * Sends webhook deliveries in every worker process: woken by the commit that queued them, else every second (retries).
 */
export const webhookSender = definePoller({
  name: 'webhook-sender',
  intervalMs: 1000,
  wakeOn: WEBHOOK_CHANNEL,
  run: (ctx: AppContext) => senderOf(ctx).round(),
  async stop(ctx: AppContext) {
    await senders.get(ctx)?.stop();
    senders.delete(ctx);
  },
});
