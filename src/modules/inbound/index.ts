// The front door of the inbound module: mail received at the projects' receiving domains, and reading it.
export { startInboundReceiver } from './inbound.smtp.ts';
export { expireInbound, getInbound, getInboundAttachment, getInboundRaw, listInbound } from './inbound.service.ts';
export type { InboundSummary, InboundView } from './inbound.service.ts';
