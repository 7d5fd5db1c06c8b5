// Settling attempts as they end. A success on an endpoint that was not failing changes only its delivery: the
// sender queues those (SettleQueue), so that a fast endpoint's successes share statements; anything else also
// updates the endpoint's health, in the same transaction, before the endpoint's next attempt.
import type { AppContext } from '../../context.types.ts';
import { attemptDelivery, outcomeOf, type AttemptResult } from './webhooks.attempt.ts';
import {
  recordEndpointHealth,
  settleDeliveries,
  type ClaimedDelivery,
  type DeliveryOutcome,
} from './webhooks.queue.ts';

/** An endpoint failing this long is disabled. */
export const FAILING_DAYS = 5;
/** The longest a success waits to be settled, so that a fast endpoint's successes share statements. */
const SETTLE_WINDOW_MS = 50;

/** Whether settling this attempt changes nothing but its delivery (a success on an endpoint that was not failing). */
export function settlesAlone(delivery: ClaimedDelivery, result: AttemptResult): boolean {
  return result.ok && delivery.failingSince === null;
}

/** Settles an attempt now, with its endpoint's health (success clears a failure; failures may disable it). */
export async function settleAttempt(
  ctx: AppContext,
  owner: string,
  delivery: ClaimedDelivery,
  result: AttemptResult,
): Promise<DeliveryOutcome> {
  const outcome = outcomeOf(delivery, result);
  if (settlesAlone(delivery, result)) {
    await settleDeliveries(ctx.db, owner, [outcome]);
    return outcome;
  }
  await ctx.db.transaction(async (tx) => {
    if ((await settleDeliveries(tx, owner, [outcome])) === 0) return;
    const health = result.ok ? 'succeeded' : result.status === 410 ? 'gone' : 'failed';
    if (await recordEndpointHealth(tx, delivery.endpointId, health, FAILING_DAYS))
      ctx.logger.warn({ endpoint: delivery.endpointId }, 'webhook endpoint disabled');
  });
  return outcome;
}

/**
 * Successes settled within SETTLE_WINDOW_MS of their end, whatever else runs: those that end within the window
 * (or while its statement runs) share one statement. Without the window a fast endpoint pays one statement per
 * delivery, which on PGlite (one connection) halves the rate one endpoint is served at.
 */
export class SettleQueue {
  private pending: DeliveryOutcome[] = [];
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private failure: unknown = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly owner: string,
  ) {}

  add(outcome: DeliveryOutcome): void {
    this.pending.push(outcome);
    if (!this.running && !this.timer) this.timer = setTimeout(() => this.start(), SETTLE_WINDOW_MS);
  }

  /** How many outcomes wait to be settled. */
  get backlog(): number {
    return this.pending.length;
  }

  private start(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.running ??= this.flush();
  }

  private async flush(): Promise<void> {
    try {
      while (this.pending.length > 0) await settleDeliveries(this.ctx.db, this.owner, this.pending.splice(0));
    } catch (error) {
      this.failure = error;
    } finally {
      this.running = null;
    }
  }

  /** Settles everything added, now; throws what a statement threw. */
  async drain(): Promise<void> {
    if (this.pending.length > 0) this.start();
    while (this.running) await this.running;
    if (this.failure) throw this.failure;
  }
}

/** Attempts a leased delivery and settles it as soon as the attempt ends (the test event). */
export async function sendDelivery(
  ctx: AppContext,
  owner: string,
  delivery: ClaimedDelivery,
): Promise<DeliveryOutcome> {
  return settleAttempt(ctx, owner, delivery, await attemptDelivery(ctx, delivery));
}
