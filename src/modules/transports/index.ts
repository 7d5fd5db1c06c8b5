// The front door of the transports module: other modules import only what is exported here.
export {
  claimProbe,
  FAILURES_TO_DOWN,
  healthyState,
  readHealth,
  recordConnectionFailure,
  recordFailovers,
  recordHealthy,
  recordProbeFailure,
} from './transports.health.ts';
export type { TransportHealth, Transition } from './transports.health.ts';
export { openTransport, TransportDirectory } from './transports.directory.ts';
export type { DirectoryConfig, TransportRow, UsableTransport } from './transports.directory.ts';
export { chooseRoute, DEFAULT_TRANSPORT_ID, routingUsesProvider } from './transports.route.ts';
export type { Route, RouteFacts, Routing } from './transports.route.ts';
