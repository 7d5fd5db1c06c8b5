// POST /webhooks/{id}/test: a webhook.test delivery queued and attempted at once, so the caller sees the result.
import type { AppContext } from '../../context.types.ts';
import { claimDelivery, findDelivery } from './webhooks.repo.ts';
import { sendClaimed } from './webhooks.sender.ts';
import { queueTestEvent, toDeliveryView } from './webhooks.service.ts';
import type { DeliveryView } from './webhooks.schemas.ts';

export async function testWebhook(opts: { ctx: AppContext; projectId: string; id: string }): Promise<DeliveryView> {
  const { ctx } = opts;
  const queued = await queueTestEvent({ db: ctx.db, projectId: opts.projectId, id: opts.id });
  const owner = `webhooks:test:${queued.id}`;
  const claimed = await claimDelivery(ctx.db, owner, queued.id, 60);
  if (claimed) await sendClaimed(ctx, owner, [claimed]);
  return toDeliveryView((await findDelivery(ctx.db, queued.endpointId, queued.id))!);
}
