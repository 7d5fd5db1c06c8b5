import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDnsServer } from '../../../test/support/dns-server.ts';
import type { TestDnsServer, ZoneRecord } from '../../../test/support/dns-server.ts';
import { createDnsClient } from '../../net/dns.ts';
import type { DnsClient } from '../../net/dns.ts';
import { verifyBatchResultSchema, verifyResultSchema } from './verify.schemas.ts';
import { verifyEmail, verifyEmails } from './verify.service.ts';

const mailDomain = (name: string, extra: ZoneRecord[] = []): [string, ZoneRecord[]] => [
  name,
  [{ type: 'MX', exchange: `mx.${name}`, priority: 10 }, { type: 'NS', ns: `ns1.${name}` }, ...extra],
];

describe('verifyEmail', () => {
  let server: TestDnsServer;
  let dns: DnsClient;

  beforeAll(async () => {
    server = await startDnsServer(
      Object.fromEntries([
        mailDomain('good.test', [{ type: 'A', address: '192.0.2.10' }]),
        ['www.good.test', [{ type: 'A', address: '192.0.2.10' }]],
        mailDomain('mailonly.test'),
        [
          'nullmx.test',
          [
            { type: 'MX', exchange: '.', priority: 0 },
            { type: 'A', address: '192.0.2.11' },
          ],
        ],
        [
          'aonly.test',
          [
            { type: 'AAAA', address: '2001:db8::12' },
            { type: 'NS', ns: 'ns1.aonly.test' },
          ],
        ],
        [
          'nomail.test',
          [
            { type: 'NS', ns: 'ns1.nomail.test' },
            { type: 'TXT', data: 'v=spf1 -all' },
          ],
        ],
        mailDomain('gmail.com', [{ type: 'A', address: '192.0.2.20' }]),
        mailDomain('mailinator.com'),
        mailDomain('inbox.freeml.net'),
        mailDomain('mozmail.com'),
        mailDomain('xn--bcher-kva.example', [{ type: 'A', address: '192.0.2.30' }]),
        mailDomain('acme.com'),
      ]),
      { silent: ['slow.test'] },
    );
    dns = createDnsClient({ servers: [server.address], timeoutMs: 2000, cacheSize: 1000 });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    dns.clearCache();
    server.resetQueries();
  });

  it('accepts a deliverable business address', async () => {
    const result = await verifyEmail({ email: 'jane@good.test', dns });
    expect(verifyResultSchema.parse(result)).toEqual({
      email: 'jane@good.test',
      valid: true,
      isDisposable: false,
      isAlias: false,
      isTypo: false,
      isPlusAddressed: false,
      isPersonalEmail: false,
      domainExists: true,
      hasWebsite: true,
      hasMxRecords: true,
      reasons: ['Domain has MX records (mx.good.test)'],
    });
  });

  it('flags a personal provider and plus addressing', async () => {
    const result = await verifyEmail({ email: 'jane+news@gmail.com', dns });
    expect(result).toMatchObject({ valid: true, isPersonalEmail: true, isPlusAddressed: true, isDisposable: false });
    expect(result.reasons).toContain('Personal email provider (free webmail)');
    expect(result.reasons).toContain('Plus-addressed: "+news" is a sub-address of the mailbox');
  });

  it('flags disposable domains, including wildcard-listed subdomains', async () => {
    for (const email of ['x@mailinator.com', 'x@inbox.freeml.net']) {
      const result = await verifyEmail({ email, dns });
      expect(result, email).toMatchObject({ valid: true, isDisposable: true, isPersonalEmail: false });
      expect(result.reasons).toContain('Disposable (temporary) email domain');
    }
  });

  it('flags relay aliases with the service name', async () => {
    const result = await verifyEmail({ email: 'abc123@mozmail.com', dns });
    expect(result).toMatchObject({ valid: true, isAlias: true, isDisposable: false });
    expect(result.reasons).toContain('Forwarding alias service (Firefox Relay)');
  });

  it('suggests a correction for a typo domain that does not exist', async () => {
    const result = await verifyEmail({ email: 'jane@gmial.com', dns });
    expect(result).toMatchObject({ valid: false, isTypo: true, suggestedEmail: 'jane@gmail.com', domainExists: false });
    expect(result.isPersonalEmail).toBe(false);
    expect(result.reasons).toEqual(
      expect.arrayContaining([
        'Possible typo: did you mean jane@gmail.com?',
        'Domain gmial.com does not exist (NXDOMAIN)',
      ]),
    );
  });

  it('suggests another TLD only when the typed domain is dead and the suggested one takes mail', async () => {
    const fixed = await verifyEmail({ email: 'jane@acme.vom', dns });
    expect(fixed).toMatchObject({ valid: false, isTypo: true, suggestedEmail: 'jane@acme.com' });
    const unconfirmed = await verifyEmail({ email: 'jane@nowhere.test', dns }); // the checker proposes nowhere.de
    expect(unconfirmed).toMatchObject({ isTypo: false });
    expect(server.queryCount('nowhere.de', 'MX')).toBe(1);
  });

  it('omits suggestedEmail when there is no typo', async () => {
    expect(await verifyEmail({ email: 'jane@good.test', dns })).not.toHaveProperty('suggestedEmail');
  });

  it('rejects a null MX even when the domain has an address', async () => {
    const result = await verifyEmail({ email: 'jane@nullmx.test', dns });
    expect(result).toMatchObject({ valid: false, hasMxRecords: false, domainExists: true, hasWebsite: true });
    expect(result.reasons).toContain('Domain nullmx.test accepts no email (null MX, RFC 7505)');
  });

  it('falls back to the A/AAAA address when there is no MX', async () => {
    const result = await verifyEmail({ email: 'jane@aonly.test', dns });
    expect(result).toMatchObject({ valid: true, hasMxRecords: false, domainExists: true, hasWebsite: true });
    expect(result.reasons).toContain('No MX records; mail goes to the domain’s A/AAAA address (implicit MX)');
  });

  it('rejects a domain with neither MX nor address, and reports a missing website', async () => {
    const result = await verifyEmail({ email: 'jane@nomail.test', dns });
    expect(result).toMatchObject({ valid: false, domainExists: true, hasWebsite: false, hasMxRecords: false });
    expect(result.reasons).toEqual([
      'Domain nomail.test has no MX and no A/AAAA record, so it cannot receive email',
      'No website at nomail.test or www.nomail.test',
    ]);
    expect((await verifyEmail({ email: 'jane@mailonly.test', dns })).hasWebsite).toBe(false);
  });

  it('reports a domain that does not exist', async () => {
    const result = await verifyEmail({ email: 'jane@nowhere.test', dns });
    expect(result).toMatchObject({ valid: false, domainExists: false, hasWebsite: false, hasMxRecords: false });
    expect(result.reasons).toEqual(['Domain nowhere.test does not exist (NXDOMAIN)']);
  });

  it('resolves an IDN domain through its punycode form', async () => {
    const result = await verifyEmail({ email: 'user@bücher.example', dns });
    expect(result).toMatchObject({ email: 'user@bücher.example', valid: true, hasMxRecords: true });
    expect(result.reasons).toContain('Internationalised domain, looked up as xn--bcher-kva.example');
    expect(server.queryCount('xn--bcher-kva.example', 'MX')).toBe(1);
  });

  it.each([
    ['"john doe"@good.test', /quoted local parts/],
    [`${'a'.repeat(65)}@good.test`, /longer than 64/],
    ['jane@@good.test', /more than one @/],
    ['jane.good.test', /no @/],
    ['jane@good', /no top-level domain/],
  ])('answers bad syntax (%j) without any DNS query', async (email, reason) => {
    const result = await verifyEmail({ email, dns });
    expect(result).toMatchObject({ valid: false, domainExists: false, hasMxRecords: false, isTypo: false });
    expect(result.reasons).toHaveLength(1);
    expect(result.reasons[0]).toMatch(reason);
    expect(server.queryCount()).toBe(0);
  });

  it('answers within a few seconds when the DNS server never replies', async () => {
    const started = Date.now();
    const result = await verifyEmail({ email: 'jane@slow.test', dns });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(result).toMatchObject({ valid: true, domainExists: false, hasMxRecords: false, hasWebsite: false });
    expect(result.reasons).toEqual([expect.stringMatching(/^DNS lookup timed out \(MX slow\.test, A slow\.test/)]);
    expect(server.queryCount('slow.test', 'MX')).toBeGreaterThanOrEqual(1);
  });

  it('makes no DNS query for a domain it has just checked', async () => {
    await verifyEmail({ email: 'a@good.test', dns });
    const queries = server.queryCount();
    expect(queries).toBe(6); // MX, A, AAAA, NS of the domain; A, AAAA of www
    await verifyEmail({ email: 'b@good.test', dns });
    expect(server.queryCount()).toBe(queries);
  });
});

describe('verifyEmails', () => {
  let server: TestDnsServer;
  let dns: DnsClient;

  beforeAll(async () => {
    server = await startDnsServer(Object.fromEntries([mailDomain('one.test'), mailDomain('two.test')]));
    dns = createDnsClient({ servers: [server.address] });
  });
  afterAll(() => server.close());

  it('answers every address in request order, sharing lookups between them', async () => {
    const emails = Array.from({ length: 60 }, (_, i) =>
      i % 3 === 2 ? `bad ${i}` : `u${i}@${i % 3 ? 'two' : 'one'}.test`,
    );
    const batch = verifyBatchResultSchema.parse(await verifyEmails({ emails, dns, concurrency: 8 }));
    expect(batch.results.map((r) => r.email)).toEqual(emails);
    expect(batch).toMatchObject({ total: 60, valid: 40 });
    expect(server.queryCount()).toBe(12); // 6 per domain, however many addresses
  });
});
