// A recipient's mailbox provider from its domain's MX hosts, asked of a real DNS server the way DNS_SERVERS names
// it: Google's, Microsoft's, Yahoo's and Apple's hosts (the preferred host decides), anything else `other`; each
// domain asked once and its answer kept for an hour, a failed lookup counted as `other` and asked again after five
// minutes; the providers' own consumer domains need no lookup.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailboxProviders } from '../../../src/mail/providers.ts';
import { createDnsClient } from '../../../src/net/dns.ts';
import { startDnsServer, type TestDnsServer } from '../../support/dns-server.ts';

const MX = (exchange: string, priority = 10) => ({ type: 'MX' as const, exchange, priority });

describe('mailbox providers from MX records', () => {
  let dns: TestDnsServer;
  let clock = 0;
  let providers: MailboxProviders;

  beforeAll(async () => {
    dns = await startDnsServer(
      {
        'google-hosted.example': [MX('aspmx.l.google.com', 1), MX('alt1.aspmx.l.google.com', 5)],
        'old-google.example': [MX('mx.googlemail.com')],
        'office.example': [MX('office-example.mail.protection.outlook.com', 0)],
        'outlook-hosted.example': [MX('mx1.hotmail.outlook.com')],
        'yahoo-hosted.example': [MX('mta5.am0.yahoodns.net'), MX('mta6.am0.yahoodns.net')],
        'apple-hosted.example': [MX('mx01.mail.icloud.com'), MX('mx02.mail.icloud.com', 20)],
        'own-mx.example': [MX('mx.own-mx.example')],
        // A domain that keeps Google as its backup: the preferred host decides.
        'backup-google.example': [MX('mx.backup-google.example', 10), MX('aspmx.l.google.com', 50)],
        // A look-alike of a provider's host name is not the provider.
        'lookalike.example': [MX('mx.notgoogle.com')],
      },
      { servfail: ['broken-dns.example'] },
    );
    // The DNS client keeps no answers of its own: what is kept is the providers' cache.
    const client = createDnsClient({ servers: [dns.address], cacheSize: 0 });
    providers = new MailboxProviders(client, () => clock);
  });
  afterAll(async () => {
    await dns?.close();
  });

  it.each([
    ['ann@google-hosted.example', 'gmail'],
    ['bob@old-google.example', 'gmail'],
    ['cat@office.example', 'microsoft'],
    ['dan@outlook-hosted.example', 'microsoft'],
    ['eve@yahoo-hosted.example', 'yahoo'],
    ['fay@apple-hosted.example', 'apple'],
    ['gus@own-mx.example', 'other'],
    ['hal@backup-google.example', 'other'],
    ['ida@lookalike.example', 'other'],
    ['jon@no-such-domain.example', 'other'],
    ['Kim@GOOGLE-HOSTED.Example', 'gmail'],
  ])('%s is %s', async (address, provider) => {
    expect(await providers.ofAddress(address)).toBe(provider);
  });

  it('knows the providers’ consumer domains without asking', async () => {
    dns.resetQueries();
    const found = await Promise.all(
      ['a@gmail.com', 'b@googlemail.com', 'c@outlook.com', 'd@hotmail.com', 'e@yahoo.com', 'f@icloud.com'].map((a) =>
        providers.ofAddress(a),
      ),
    );
    expect(found).toEqual(['gmail', 'gmail', 'microsoft', 'microsoft', 'yahoo', 'apple']);
    expect(dns.queryCount()).toBe(0);
  });

  it('asks once per domain and keeps the answer for an hour', async () => {
    dns.resetQueries();
    clock = 10_000_000;
    const fresh = 'cached-google.example';
    dns.setRecords(fresh, [MX('aspmx.l.google.com', 1)]);
    const together = await Promise.all(['a', 'b', 'c'].map((n) => providers.ofAddress(`${n}@${fresh}`)));
    expect(together).toEqual(['gmail', 'gmail', 'gmail']);
    expect(dns.queryCount(fresh, 'MX')).toBe(1);
    // The domain moves to its own MX: within the hour the kept answer holds; after it, the new one.
    dns.setRecords(fresh, [MX(`mx.${fresh}`)]);
    clock += 3_599_000;
    expect(await providers.ofAddress(`d@${fresh}`)).toBe('gmail');
    expect(dns.queryCount(fresh, 'MX')).toBe(1);
    clock += 2000;
    expect(await providers.ofAddress(`e@${fresh}`)).toBe('other');
    expect(dns.queryCount(fresh, 'MX')).toBe(2);
  });

  it('counts a failed lookup as other and asks again after five minutes', async () => {
    dns.resetQueries();
    clock = 20_000_000;
    expect(await providers.ofAddress('a@broken-dns.example')).toBe('other');
    const asked = dns.queryCount('broken-dns.example', 'MX');
    expect(asked).toBeGreaterThan(0);
    clock += 299_000;
    expect(await providers.ofAddress('b@broken-dns.example')).toBe('other');
    expect(dns.queryCount('broken-dns.example', 'MX')).toBe(asked);
    clock += 2000;
    expect(await providers.ofAddress('c@broken-dns.example')).toBe('other');
    expect(dns.queryCount('broken-dns.example', 'MX')).toBeGreaterThan(asked);
  });
});
