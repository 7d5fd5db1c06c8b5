// POST /webhooks/{id}/test: a webhook.test delivery queued and attempted at once, so the caller sees the result.
import type { AppContext } from '../../context.types.ts';
import { leaseDelivery } from './webhooks.queue.ts';
import { findDelivery } from './webhooks.repo.ts';
import { sendDelivery } from './webhooks.settle.ts';
import { queueTestEvent, toDeliveryView } from './webhooks.service.ts';
import type { DeliveryView } from './webhooks.schemas.ts';

export async function testWebhook(opts: { ctx: AppContext; projectId: string; id: string }): Promise<DeliveryView> {
  const { ctx } = opts;
  const queued = await queueTestEvent({ db: ctx.db, projectId: opts.projectId, id: opts.id });
  const owner = `webhooks:test:${queued.id}`;
  const leased = await leaseDelivery(ctx.db, owner, queued.id, 60);
  if (leased) await sendDelivery(ctx, owner, leased);
  return toDeliveryView((await findDelivery(ctx.db, queued.endpointId, queued.id))!);
}
