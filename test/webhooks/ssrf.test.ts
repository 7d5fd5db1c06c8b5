// CONTRACT §12 / RELIABILITY R79, T9: webhook URLs may not reach loopback, private, link-local or metadata
// addresses — refused at save time when the host is a literal address, at send time (after DNS) otherwise.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';

describe('webhook SSRF rules (WEBHOOK_ALLOW_PRIVATE unset)', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let auth: { authorization: string };

  beforeAll(async () => {
    dns = await startDnsServer({ 'internal.hooks.test': [{ type: 'A', address: '10.1.2.3' }], 'meta.hooks.test': [{ type: 'A', address: '169.254.169.254' }] });
    t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
    auth = (await t.createProject()).auth;
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  const create = (url: string) => t.app.inject({ method: 'POST', url: '/webhooks', headers: auth, payload: { url, events: ['*'] } });

  it.each([
    'https://127.0.0.1/hook', 'https://10.0.0.1/hook', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook', 'https://2130706433/hook', 'https://0x7f.0.0.1/hook', 'https://localhost/hook', 'http://hooks.example.com/x',
  ])('refuses %s at save time', async (url) => {
    const res = await create(url);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.errors[0]).toMatchObject({ field: 'url', code: 'url_not_allowed' });
  });

  it('refuses at send time a name that resolves to a private or metadata address, without retrying', async () => {
    for (const host of ['internal.hooks.test', 'meta.hooks.test']) {
      const created = await create(`https://${host}/hook`);
      expect(created.statusCode).toBe(201);
      const test = await t.app.inject({ method: 'POST', url: `/webhooks/${created.json().data.id}/test`, headers: auth });
      expect(test.json().data).toMatchObject({ status: 'FAILED', responseStatus: null, lastError: expect.stringMatching(/private|metadata|not allowed|refused/i) });
    }
  });
});
