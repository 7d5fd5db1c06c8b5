import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { generateWebhookSecret, isWebhookSecret, webhookHeaders } from './standard-webhooks.ts';

describe('standard webhooks signing', () => {
  it('is verified by the standardwebhooks package', () => {
    const secret = generateWebhookSecret();
    expect(isWebhookSecret(secret)).toBe(true);
    const body = JSON.stringify({ type: 'test', data: { n: 1, text: 'é' } });
    const headers = webhookHeaders({ id: 'msg_1', body, secrets: [secret] });
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
  });

  it('carries one signature per secret during a rotation; either verifies', () => {
    const [a, b] = [generateWebhookSecret(), generateWebhookSecret()];
    const headers = webhookHeaders({ id: 'msg_2', body: '{}', secrets: [a, b] });
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    expect(new Webhook(a).verify('{}', headers)).toEqual({});
    expect(new Webhook(b).verify('{}', headers)).toEqual({});
  });

  it('fails verification for a changed body or another secret', () => {
    const secret = generateWebhookSecret();
    const headers = webhookHeaders({ id: 'msg_3', body: '{"a":1}', secrets: [secret] });
    expect(() => new Webhook(secret).verify('{"a":2}', headers)).toThrow();
    expect(() => new Webhook(generateWebhookSecret()).verify('{"a":1}', headers)).toThrow();
  });

  it('refuses malformed secrets', () => {
    expect(isWebhookSecret('sk_abc')).toBe(false);
    expect(isWebhookSecret('whsec_')).toBe(false);
    expect(isWebhookSecret('whsec_c2hvcnQ=')).toBe(false);
  });
});
