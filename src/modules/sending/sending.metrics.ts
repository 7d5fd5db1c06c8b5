// What an operator watches of the delivery engine (GET /metrics, Prometheus text format): the queue as the
// database sees it (read at scrape time) and what this process did (counters since it started).
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { AppContext } from '../../context.types.ts';
import { countEmailsByStatus, queueBacklog } from '../emails/index.ts';

function create(ctx: AppContext, registry: Registry) {
  const registers = [registry];
  new Gauge({
    name: 'herald_emails',
    help: 'Emails by status (all projects)',
    labelNames: ['status'],
    registers,
    async collect() {
      const rows = await countEmailsByStatus(ctx.db);
      this.reset();
      for (const row of rows) this.set({ status: row.status }, Number(row.n));
    },
  });
  const oldest = new Gauge({
    name: 'herald_delivery_oldest_due_seconds',
    help: 'How long the oldest due, unclaimed email has been waiting',
    registers,
  });
  new Gauge({
    name: 'herald_delivery_due',
    help: 'Emails due and not claimed by any worker (the backlog)',
    registers,
    async collect() {
      const backlog = await queueBacklog(ctx.db);
      this.set(backlog.due);
      oldest.set(backlog.oldestSeconds);
    },
  });
  return {
    inFlight: new Gauge({
      name: 'herald_delivery_in_flight',
      help: 'Emails this process holds (claimed, not yet settled)',
      registers,
    }),
    claims: new Counter({
      name: 'herald_delivery_claims_total',
      help: 'Claim statements that returned at least one email',
      registers,
    }),
    batchSize: new Histogram({
      name: 'herald_delivery_claim_batch_size',
      help: 'Emails per claim',
      buckets: [1, 5, 10, 25, 50, 100, 250, 500, 1000],
      registers,
    }),
    sends: new Counter({
      name: 'herald_delivery_sends_total',
      help: 'Handoffs to the transport by outcome',
      labelNames: ['transport', 'outcome'],
      registers,
    }),
    handoff: new Histogram({
      name: 'herald_delivery_handoff_seconds',
      help: 'Time the transport took to accept (or refuse) a message',
      labelNames: ['transport'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    pacingWaits: new Counter({
      name: 'herald_delivery_pacing_waits_total',
      help: "Messages that waited for their project's send slot",
      registers,
    }),
    pacingWaitSeconds: new Counter({
      name: 'herald_delivery_pacing_wait_seconds_total',
      help: 'Total time messages waited for send slots',
      registers,
    }),
    reclaims: new Counter({
      name: 'herald_delivery_lease_reclaims_total',
      help: "Emails claimed again after their owner's lease expired",
      registers,
    }),
    holds: new Counter({
      name: 'herald_delivery_holds_total',
      help: 'Emails held back (project disabled, domain not verified)',
      labelNames: ['reason'],
      registers,
    }),
    domainCacheClears: new Counter({
      name: 'herald_delivery_domain_cache_clears_total',
      help: 'Times this process forgot its cached sender domains because one changed',
      registers,
    }),
    recordRetries: new Counter({
      name: 'herald_delivery_record_retries_total',
      help: 'Failed attempts to record sent messages (retried, never re-sent)',
      registers,
    }),
  };
}

export type DeliveryMetrics = ReturnType<typeof create>;
const byRegistry = new WeakMap<Registry, DeliveryMetrics>();

/** The delivery metrics of this context's registry (created on first use). */
export function deliveryMetrics(ctx: AppContext): DeliveryMetrics {
  let metrics = byRegistry.get(ctx.metrics);
  if (!metrics) {
    metrics = create(ctx, ctx.metrics);
    byRegistry.set(ctx.metrics, metrics);
  }
  return metrics;
}
