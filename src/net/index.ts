// Outbound HTTP to customer-given URLs: the SSRF policy, the pinned client, and Standard Webhooks signing.
export { checkAddress, parseIpLiteral } from './ip-policy.ts';
export type { AddressVerdict } from './ip-policy.ts';
export { createSafeHttpClient, OutboundRequestError, parseTargetUrl, resolveTarget } from './safe-http.ts';
export type { HostResolver, OutboundRequest, OutboundResponse, SafeHttpClient } from './safe-http.ts';
export { generateWebhookSecret, isWebhookSecret, signWebhook, webhookHeaders } from './standard-webhooks.ts';
