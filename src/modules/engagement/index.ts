// The front door of the engagement module: other modules import only what is exported here.
export { resubscribe, trackClick, trackOpen, unsubscribe, unsubscribeTarget } from './engagement.service.ts';
export type { TrackingRequest } from './engagement.service.ts';
