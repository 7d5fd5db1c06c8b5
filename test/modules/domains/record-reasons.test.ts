import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../support/app.ts';
import { startDnsServer, type TestDnsServer } from '../../support/dns-server.ts';

interface RecordBody {
  purpose: string;
  type: string;
  name: string;
  value: string;
  values?: string[];
  required: boolean;
  status: string;
  reason?: string | null;
}
interface DomainBody {
  id: string;
  status: string;
  records: RecordBody[];
}

const recordOf = (d: DomainBody, purpose: string) => d.records.find((r) => r.purpose === purpose)!;

describe('suggested SPF and DMARC records', () => {
  const created = async (t: TestApp, domain: string) => {
    const project = await t.createProject('Plain');
    const res = await t.app.inject({ method: 'POST', url: '/domains', headers: project.auth, payload: { domain } });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as DomainBody;
  };

  it(
    'suggests no SPF record while Herald does not know who sends, and DMARC without a report mailbox',
    {
      timeout: 120_000,
    },
    async () => {
      const envs: Record<string, string>[] = [
        { MAIL_TRANSPORT: 'outbox' },
        { SMTP_URL: 'smtp://relay.example.net:587' },
      ];
      for (const env of envs) {
        const t = await createTestApp({ env });
        try {
          const d = await created(t, 'plain.example');
          // `v=spf1 ~all` would authorise nobody: no record rather than a useless one.
          expect(d.records.map((r) => r.purpose)).toEqual(['DKIM', 'DMARC']);
          expect(recordOf(d, 'DMARC').value).toBe('v=DMARC1; p=none;');
        } finally {
          await t.close();
        }
      }
    },
  );

  it("suggests the SMTP relay's address when SMTP_URL names it by IP, never a/mx", { timeout: 120_000 }, async () => {
    for (const [url, mechanism] of [
      ['smtp://203.0.113.25:587', 'ip4:203.0.113.25'],
      ['smtps://[2001:db8::25]:465', 'ip6:2001:db8::25'],
    ] as const) {
      const t = await createTestApp({ env: { SMTP_URL: url } });
      try {
        const d = await created(t, 'relayed.example');
        expect(recordOf(d, 'SPF').value).toBe(`v=spf1 ${mechanism} ~all`);
        // The SPF and DMARC values only: a DKIM key's base64 may hold "/a/" or "+mx+" by chance.
        expect(`${recordOf(d, 'SPF').value} ${recordOf(d, 'DMARC').value}`).not.toMatch(/\b(a|mx)\b|rua=/);
      } finally {
        await t.close();
      }
    }
  });

  it('refuses a bad SPF_INCLUDE or DMARC_RUA at start-up, naming it', async () => {
    await expect(createTestApp({ env: { SPF_INCLUDE: 'include:x y' } })).rejects.toThrow(/SPF_INCLUDE/);
    await expect(createTestApp({ env: { DMARC_RUA: 'not-an-address' } })).rejects.toThrow(/DMARC_RUA/);
  });
});

describe('why a domain record failed', () => {
  let t: TestApp;
  let dns: TestDnsServer;
  let project: Awaited<ReturnType<TestApp['createProject']>>;

  beforeAll(async () => {
    dns = await startDnsServer({}, { servfail: ['_dmarc.flaky.example'] });
    t = await createTestApp({
      env: {
        DNS_SERVERS: dns.address,
        SPF_INCLUDE: '_spf.relay.example, 203.0.113.7',
        DMARC_RUA: 'reports@ops.example',
      },
    });
    project = await t.createProject('Reasons');
  });
  afterAll(async () => {
    await t.close();
    await dns.close();
  });

  const add = async (domain: string) =>
    (await t.app.inject({ method: 'POST', url: '/domains', headers: project.auth, payload: { domain } })).json()
      .data as DomainBody;
  const verify = async (id: string) =>
    (await t.app.inject({ method: 'POST', url: `/domains/${id}/verify`, headers: project.auth })).json()
      .data as DomainBody;
  const publishDkim = (d: DomainBody) => {
    const dkim = recordOf(d, 'DKIM');
    dns.setRecords(dkim.name, [{ type: 'TXT', data: dkim.values ?? [dkim.value] }]);
  };

  it('suggests the configured SPF mechanisms and DMARC report address', async () => {
    const d = await add('configured.example');
    expect(recordOf(d, 'SPF').value).toBe('v=spf1 include:_spf.relay.example ip4:203.0.113.7 ~all');
    expect(recordOf(d, 'DMARC').value).toBe('v=DMARC1; p=none; rua=mailto:reports@ops.example');
  });

  it('says per record why it failed: nothing at the name, SPF without the include, a wrong DKIM key', async () => {
    const d = await add('missing.example');
    dns.setRecords('missing.example', [{ type: 'TXT', data: 'v=spf1 include:_spf.google.com ~all' }]);
    const dkim = recordOf(d, 'DKIM');
    dns.setRecords(dkim.name, [
      { type: 'TXT', data: 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnotthisdomainskey' },
    ]);
    const checked = await verify(d.id);
    expect(checked.status).toBe('PENDING');
    expect(recordOf(checked, 'DKIM')).toMatchObject({
      status: 'FAILED',
      reason: `found a DKIM record at ${dkim.name}, but its key (p=) is not this domain's key`,
    });
    expect(recordOf(checked, 'SPF')).toMatchObject({
      status: 'FAILED',
      reason: 'found "v=spf1 include:_spf.google.com ~all" without include:_spf.relay.example ip4:203.0.113.7',
    });
    expect(recordOf(checked, 'DMARC')).toMatchObject({
      status: 'FAILED',
      reason: 'no TXT record found at _dmarc.missing.example',
    });
    // The same answer on a read.
    const read = (await t.app.inject({ method: 'GET', url: `/domains/${d.id}`, headers: project.auth })).json()
      .data as DomainBody;
    expect(recordOf(read, 'DMARC').reason).toBe('no TXT record found at _dmarc.missing.example');
  });

  it('verifies a domain whose advisory records fail, and clears a reason once the record matches', async () => {
    const d = await add('advisory.example');
    publishDkim(d);
    dns.setRecords('advisory.example', [
      { type: 'TXT', data: 'v=spf1 ~all' },
      { type: 'TXT', data: 'v=spf1 include:_spf.relay.example ip4:203.0.113.7 -all' },
    ]);
    const first = await verify(d.id);
    expect(first.status).toBe('VERIFIED');
    expect(recordOf(first, 'DKIM')).toMatchObject({ status: 'VERIFIED', reason: null });
    expect(recordOf(first, 'SPF').reason).toBe(
      'found 2 SPF records (v=spf1) at advisory.example; receivers ignore all of them — merge them into one',
    );
    dns.setRecords('advisory.example', [
      { type: 'TXT', data: 'v=spf1 include:_spf.relay.example ip4:203.0.113.7 -all' },
    ]);
    const second = await verify(d.id);
    expect(recordOf(second, 'SPF')).toMatchObject({ status: 'VERIFIED', reason: null });
  });

  it("reports a DNS error as the reason and keeps the record's last state", async () => {
    const d = await add('flaky.example');
    publishDkim(d);
    const checked = await verify(d.id);
    expect(checked.status).toBe('VERIFIED');
    expect(recordOf(checked, 'DMARC')).toMatchObject({ status: 'PENDING' });
    expect(recordOf(checked, 'DMARC').reason).toMatch(
      /^DNS error \S+ looking up TXT _dmarc\.flaky\.example; try again$/,
    );
  });
});
