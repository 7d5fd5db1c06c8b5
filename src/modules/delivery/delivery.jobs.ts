// The delivery engine as one of the worker's pollers: woken by NOTIFY when mail is queued (and released),
// and polling briefly for retries and expired leases coming due.
import type { AppContext } from '../../context.types.ts';
import { definePoller } from '../../queue/poller.ts';
import { DeliveryEngine } from './delivery.engine.ts';

const engines = new WeakMap<AppContext, DeliveryEngine>();

function engineOf(ctx: AppContext): DeliveryEngine {
  let engine = engines.get(ctx);
  if (!engine) {
    engine = new DeliveryEngine(ctx);
    engines.set(ctx, engine);
  }
  return engine;
}

export const deliveryPoller = definePoller({
  name: 'delivery',
  intervalMs: 250,
  wakeOn: 'herald_email_due',
  run: (ctx: AppContext) => engineOf(ctx).round(),
  async stop(ctx: AppContext) {
    await engines.get(ctx)?.stop();
    engines.delete(ctx);
  },
});
