// The webhooks module: endpoints and the signed deliveries of events to them.
import type { ModuleManifest } from '../../context.types.ts';
import { webhookRoutes } from './webhooks.routes.ts';
import { webhookSender } from './webhooks.pollers.ts';

export const webhooksModule: ModuleManifest = { name: 'webhooks', routes: [webhookRoutes], pollers: [webhookSender] };
