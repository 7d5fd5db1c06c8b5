// Signing of outgoing webhooks as Standard Webhooks (standardwebhooks.com, the scheme Svix and Resend use):
// `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature: v1,<base64 HMAC-SHA256 of
// "id.timestamp.body">`, keyed with the base64-decoded bytes after `whsec_`.
import { createHmac, randomBytes } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new secret: `whsec_` and 24 random bytes in base64 (the form the standardwebhooks libraries take). */
export function generateWebhookSecret(): string {
  return `${PREFIX}${randomBytes(24).toString('base64')}`;
}

/** True when `secret` is `whsec_` followed by base64 of at least 16 bytes. */
export function isWebhookSecret(secret: string): boolean {
  if (!secret.startsWith(PREFIX)) return false;
  const key = secret.slice(PREFIX.length);
  return /^[A-Za-z0-9+/]+={0,2}$/.test(key) && Buffer.from(key, 'base64').length >= 16;
}

/** One `v1,<base64>` signature of a message. */
export function signWebhook(opts: { id: string; timestamp: number; body: string; secret: string }): string {
  if (!isWebhookSecret(opts.secret)) throw new Error('not a whsec_ secret');
  const key = Buffer.from(opts.secret.slice(PREFIX.length), 'base64');
  const mac = createHmac('sha256', key).update(`${opts.id}.${opts.timestamp}.${opts.body}`).digest('base64');
  return `v1,${mac}`;
}

/**
 * The three headers of a signed message: `webhook-id`, `webhook-timestamp` and `webhook-signature`, or with `prefix:
 * 'svix'` the same values under Svix's names (`svix-id`…), as Resend sends them. Several secrets (a rotation in
 * progress) give several space-separated signatures; a receiver accepts the message when any of them verifies.
 */
export function webhookHeaders(opts: {
  id: string;
  timestamp?: number;
  body: string;
  secrets: string[];
  prefix?: 'webhook' | 'svix';
}): Record<string, string> {
  const timestamp = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const prefix = opts.prefix ?? 'webhook';
  return {
    [`${prefix}-id`]: opts.id,
    [`${prefix}-timestamp`]: String(timestamp),
    [`${prefix}-signature`]: opts.secrets
      .map((secret) => signWebhook({ id: opts.id, timestamp, body: opts.body, secret }))
      .join(' '),
  };
}
