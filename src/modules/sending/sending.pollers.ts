// The delivery engine as one of the worker's pollers: woken by NOTIFY when mail is queued (and released),
// and polling briefly for retries and expired leases coming due. The engine is built here from what it needs
// of the context, once per context, and stopped with the worker.
import { performance } from 'node:perf_hooks';
import type { AppContext } from '../../context.types.ts';
import { definePoller } from '../../queue/poller.ts';
import { createEmailStore, EMAIL_DUE_CHANNEL } from '../emails/index.ts';
import { DeliveryEngine, type Clock } from './sending.engine.ts';
import { CampaignHalts } from './sending.halts.ts';
import { SigningDomains } from './sending.keys.ts';
import { MessageFactory } from './sending.message.ts';
import { deliveryMetrics } from './sending.metrics.ts';
import { reserveSlots } from './sending.pacing.ts';
import { SendLimiter } from './sending.limiter.ts';
import {
  claimProbe,
  mailboxProviders,
  recordConnectionFailure,
  recordFailovers,
  recordHealthy,
  recordProbeFailure,
  reserveTransportSlots,
  TransportDirectory,
} from '../transports/index.ts';

const engines = new WeakMap<AppContext, DeliveryEngine>();

const systemClock: Clock = {
  now: () => Date.now(),
  monotonic: () => performance.now(),
  sleep: (ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)),
};

/** A delivery engine wired to the context's database, transport, configuration and metrics. */
export function createDeliveryEngine(ctx: AppContext): DeliveryEngine {
  const store = createEmailStore(ctx.db);
  const metrics = deliveryMetrics(ctx);
  const directory = new TransportDirectory(ctx.db, { ...ctx.config, appSecret: ctx.secrets.appSecret }, ctx.transport);
  return new DeliveryEngine({
    store,
    directory,
    breaker: {
      failure: (key, error) => recordConnectionFailure(ctx.db, key, error, ctx.config.transportBackoffSeconds),
      healthy: (key) => recordHealthy(ctx.db, key, ctx.config.transportBackoffSeconds),
      failovers: (key, count) => recordFailovers(ctx.db, key, count),
      claimProbe: (key, owner) => claimProbe(ctx.db, key, owner),
      probeFailed: (key, owner, error) => recordProbeFailure(ctx.db, key, owner, error),
    },
    limiter: new SendLimiter(ctx.db, directory, mailboxProviders(ctx)),
    reserveTransportSlots: (key, count, rate) => reserveTransportSlots(ctx.db, key, count, rate),
    builder: new MessageFactory(ctx, store),
    clock: systemClock,
    metrics,
    domains: new SigningDomains(ctx, () => metrics.domainCacheClears.inc()),
    halts: new CampaignHalts(ctx.db),
    reserveSlots: (projectId, count) => reserveSlots(ctx.db, projectId, count, ctx.config.sendRatePerSecond),
    settings: ctx.config,
    logger: ctx.logger,
  });
}

function engineOf(ctx: AppContext): DeliveryEngine {
  let engine = engines.get(ctx);
  if (!engine) {
    engine = createDeliveryEngine(ctx);
    engines.set(ctx, engine);
  }
  return engine;
}

export const deliveryPoller = definePoller({
  name: 'delivery',
  intervalMs: 250,
  wakeOn: EMAIL_DUE_CHANNEL,
  run: (ctx: AppContext) => engineOf(ctx).round(),
  async stop(ctx: AppContext) {
    await engines.get(ctx)?.stop();
    engines.delete(ctx);
  },
});
