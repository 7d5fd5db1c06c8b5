// The events module: what contacts did, as recorded.
import type { ModuleManifest } from '../../context.types.ts';
import { eventsRetentionJob } from './events.retention.ts';
import { eventRoutes } from './events.routes.ts';

export const eventsModule: ModuleManifest = { name: 'events', routes: [eventRoutes], jobs: [eventsRetentionJob] };
