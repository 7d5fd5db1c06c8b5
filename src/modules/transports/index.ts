// The front door of the transports module: other modules import only what is exported here.
export {
  claimProbe,
  deleteHealth,
  readHealth,
  recordConnectionFailure,
  recordFailovers,
  recordHealthy,
  recordProbeFailure,
} from './transports.health.ts';
export type { TransportHealth, Transition } from './transports.health.ts';
export { openTransport, TransportDirectory } from './transports.directory.ts';
export type { DirectoryConfig, TransportRow, UsableTransport } from './transports.directory.ts';
export { chooseRoute, DEFAULT_TRANSPORT_ID } from './transports.route.ts';
export type { Route, RouteFacts, Routing } from './transports.route.ts';
export { reserveTransportSlots } from './transports.pacing.ts';
export { mailboxProviders } from './transports.providers.ts';
export { testTransport, TEST_LIMIT_MS } from './transports.check.ts';
export type { TransportTest } from './transports.check.ts';
export { redactSecrets } from './transports.redact.ts';
export { resealTransportSecrets } from './transports.reseal.ts';
export type { ResealResult } from './transports.reseal.ts';
export { anySesTransport, listAllTransports, projectsOfSnsTopic } from './transports.service.ts';
export { directoryConfigOf } from './transports.view.ts';
