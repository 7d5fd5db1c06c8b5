// The front door of the inbound module: mail received at the projects' receiving domains.
export { startInboundReceiver } from './inbound.smtp.ts';
export { expireInbound } from './inbound.service.ts';
