import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { startDnsServer, type TestDnsServer } from '../../support/dns-server.ts';

describe('POST /v1/verify over HTTP', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let project: Awaited<ReturnType<TestApp['createProject']>>;

  beforeAll(async () => {
    dns = await startDnsServer({
      'acme.test': [
        { type: 'MX', exchange: 'mx.acme.test', priority: 10 },
        { type: 'NS', ns: 'ns.acme.test' },
        { type: 'A', address: '192.0.2.10' },
      ],
      'nomail.test': [
        { type: 'MX', exchange: '.', priority: 0 },
        { type: 'NS', ns: 'ns.nomail.test' },
      ],
    });
    t = await createTestApp({ env: { DNS_SERVERS: dns.address } });
    project = await t.createProject();
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  const verify = (url: string, payload: unknown, auth = project.auth) =>
    t.app.inject({ method: 'POST', url, headers: auth, payload: payload as Record<string, unknown> });

  it('answers every field of the contract, on /v1/verify and /verify', async () => {
    for (const url of ['/v1/verify', '/verify']) {
      const res = await verify(url, { email: 'jane+news@acme.test' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({
        email: 'jane+news@acme.test',
        valid: true,
        isDisposable: false,
        isAlias: false,
        isTypo: false,
        isPlusAddressed: true,
        isPersonalEmail: false,
        domainExists: true,
        hasWebsite: true,
        hasMxRecords: true,
      });
      expect(res.json().data.reasons).toEqual(expect.arrayContaining([expect.stringContaining('Plus-addressed')]));
    }
  });

  it('finds a null MX invalid and a malformed address invalid without a 422', async () => {
    expect((await verify('/v1/verify', { email: 'a@nomail.test' })).json().data).toMatchObject({
      valid: false,
      hasMxRecords: false,
    });
    const bad = await verify('/v1/verify', { email: '"quoted"@acme.test' });
    expect(bad.statusCode).toBe(200);
    expect(bad.json().data.valid).toBe(false);
  });

  it('checks a batch in request order and refuses an oversized batch with 422', async () => {
    const res = await verify('/v1/verify/batch', { emails: ['a@acme.test', 'b@nomail.test', 'nope'] });
    expect(res.json().data).toMatchObject({ total: 3, valid: 1 });
    expect(res.json().data.results.map((r: { email: string }) => r.email)).toEqual([
      'a@acme.test',
      'b@nomail.test',
      'nope',
    ]);
    expect(
      (await verify('/v1/verify/batch', { emails: Array.from({ length: 1001 }, (_, i) => `u${i}@acme.test`) }))
        .statusCode,
    ).toBe(422);
    expect((await verify('/v1/verify/batch', { emails: [] })).statusCode).toBe(422);
  });

  it('refuses a missing email (422) and a public key (403)', async () => {
    expect((await verify('/v1/verify', {})).statusCode).toBe(422);
    expect((await verify('/v1/verify', { email: 5 })).statusCode).toBe(422);
    expect(
      (await verify('/v1/verify', { email: 'a@acme.test' }, { authorization: `Bearer ${project.publicKey}` }))
        .statusCode,
    ).toBe(403);
  });
});
