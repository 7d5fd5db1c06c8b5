// Webhook URLs may not reach loopback, private, link-local or metadata
// addresses — refused at save time when the host is a literal address, at send time (after DNS) otherwise.
// Every IPv6 form that embeds an IPv4 address is refused too, and a refusal never tells what a name resolves to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { startDnsServer, type TestDnsServer } from '../../support/dns-server.ts';

/** IPv6 literals that carry a non-public IPv4 address (loopback, link-local metadata, private). */
const EMBEDDED_IPV4 = [
  '[::127.0.0.1]',
  '[::7f00:1]',
  '[::a9fe:a9fe]',
  '[::ffff:0:7f00:1]',
  '[64:ff9b::a9fe:a9fe]',
  '[64:ff9b:1::a00:1]',
  '[2002:7f00:1::1]',
  '[2001:0:4136:e378:8000:63bf:80ff:fffe]',
];

describe('webhook SSRF rules (WEBHOOK_ALLOW_PRIVATE unset)', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let auth: { authorization: string };

  beforeAll(async () => {
    dns = await startDnsServer({
      'internal.hooks.test': [{ type: 'A', address: '10.1.2.3' }],
      'meta.hooks.test': [{ type: 'A', address: '169.254.169.254' }],
      'compat.hooks.test': [{ type: 'AAAA', address: '::7f00:1' }],
      'compat-meta.hooks.test': [{ type: 'AAAA', address: '::a9fe:a9fe' }],
      'nat64.hooks.test': [{ type: 'AAAA', address: '64:ff9b::a00:1' }],
      'sixtofour.hooks.test': [{ type: 'AAAA', address: '2002:a9fe:a9fe::1' }],
    });
    t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
    auth = (await t.createProject()).auth;
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  const create = (url: string) =>
    t.app.inject({ method: 'POST', url: '/webhooks', headers: auth, payload: { url, events: ['*'] } });

  it.each([
    'https://127.0.0.1/hook',
    'https://10.0.0.1/hook',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/hook',
    'https://[::ffff:127.0.0.1]/hook',
    'https://2130706433/hook',
    'https://0x7f.0.0.1/hook',
    'https://localhost/hook',
    'http://hooks.example.com/x',
    ...EMBEDDED_IPV4.map((host) => `https://${host}/hook`),
  ])('refuses %s at save time', async (url) => {
    const res = await create(url);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.errors[0]).toMatchObject({ field: 'url', code: 'url_not_allowed' });
  });

  it('refuses the same addresses when a PATCH changes the URL', async () => {
    const created = await create('https://hooks.example.com/x');
    expect(created.statusCode).toBe(201);
    for (const host of EMBEDDED_IPV4) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: `/webhooks/${created.json().data.id}`,
        headers: auth,
        payload: { url: `https://${host}/hook` },
      });
      expect(res.statusCode, host).toBe(422);
    }
  });

  const sendTest = async (host: string) => {
    const created = await create(`https://${host}/hook`);
    expect(created.statusCode).toBe(201);
    const test = await t.app.inject({ method: 'POST', url: `/webhooks/${created.json().data.id}/test`, headers: auth });
    const [listed] = (
      await t.app.inject({ method: 'GET', url: `/webhooks/${created.json().data.id}/deliveries`, headers: auth })
    ).json().data.items;
    return { answered: test.json().data, listed };
  };

  it(
    'refuses at send time a name that resolves to a private or metadata address, ' +
      'without retrying or telling the address',
    async () => {
      for (const host of ['internal.hooks.test', 'meta.hooks.test']) {
        const { answered, listed } = await sendTest(host);
        expect(answered, host).toMatchObject({ status: 'FAILED', attempts: 1, responseStatus: null });
        // Only the URL's own host and "non-public": no address, no other name, in the answer or the list.
        expect(answered.lastError).toBe(
          `${host} resolves to a non-public address; WEBHOOK_ALLOW_PRIVATE=true allows it`,
        );
        expect(listed.lastError).toBe(answered.lastError);
      }
    },
  );

  it(
    'refuses at send time a name whose AAAA record embeds a non-public IPv4 address ' + '(compatible, NAT64, 6to4)',
    async () => {
      for (const host of ['compat.hooks.test', 'compat-meta.hooks.test', 'nat64.hooks.test', 'sixtofour.hooks.test']) {
        const { answered } = await sendTest(host);
        expect(answered, host).toMatchObject({
          status: 'FAILED',
          attempts: 1,
          responseStatus: null,
          lastError: expect.stringContaining('non-public address'),
        });
      }
    },
  );
});
