// The front door of the sending module: other modules import only what is exported here.
export { createDeliveryEngine } from './sending.pollers.ts';
export type { Clock, EngineDeps } from './sending.engine.ts';
export { deliveryMetrics } from './sending.metrics.ts';
export type { DeliveryMetrics } from './sending.metrics.ts';
