import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startDnsServer } from '../../test/support/dns-server.ts';
import type { TestDnsServer } from '../../test/support/dns-server.ts';
import { createDnsClient } from './dns.ts';
import type { DnsClientOptions } from './dns.ts';

describe('DnsClient', () => {
  let server: TestDnsServer;
  let clock: number;
  const client = (options: Partial<DnsClientOptions> = {}) =>
    createDnsClient({ servers: [server.address], timeoutMs: 500, now: () => clock, ...options });

  beforeAll(async () => {
    server = await startDnsServer(
      {
        'example.test': [
          { type: 'A', address: '192.0.2.1', ttl: 30 },
          { type: 'A', address: '192.0.2.2', ttl: 60 },
          { type: 'AAAA', address: '2001:db8::1' },
          { type: 'MX', exchange: 'mx2.example.test', priority: 20 },
          { type: 'MX', exchange: 'mx1.example.test', priority: 10 },
          { type: 'NS', ns: 'ns1.example.test' },
          { type: 'TXT', data: ['v=spf1 ', '-all'] },
        ],
        'alias.example.test': [{ type: 'CNAME', target: 'example.test' }],
        'zero.example.test': [{ type: 'A', address: '192.0.2.3', ttl: 0 }],
        'xn--bcher-kva.example': [{ type: 'A', address: '192.0.2.4' }],
      },
      { silent: ['blackhole.test'], servfail: ['broken.test'] },
    );
  });
  afterAll(() => server.close());
  beforeEach(() => {
    clock = 1_000_000;
    server.resetQueries();
  });

  it('returns records of every type as values', async () => {
    const dns = client();
    expect(await dns.lookup('A', 'example.test')).toEqual({ status: 'found', records: ['192.0.2.1', '192.0.2.2'] });
    expect(await dns.lookup('AAAA', 'example.test')).toEqual({ status: 'found', records: ['2001:db8::1'] });
    const mx = await dns.lookup('MX', 'example.test');
    expect(mx.status === 'found' && mx.records).toContainEqual({ exchange: 'mx1.example.test', priority: 10 });
    expect(await dns.lookup('NS', 'example.test')).toEqual({ status: 'found', records: ['ns1.example.test'] });
    expect(await dns.lookup('TXT', 'example.test')).toEqual({ status: 'found', records: [['v=spf1 ', '-all']] });
    expect(await dns.lookup('CNAME', 'alias.example.test')).toEqual({ status: 'found', records: ['example.test'] });
  });

  it('reports NXDOMAIN, NODATA and server failures without throwing', async () => {
    const dns = client();
    expect(await dns.lookup('MX', 'missing.test')).toEqual({ status: 'nxdomain' });
    expect(await dns.lookup('MX', 'alias.example.test')).toMatchObject({ status: 'found' }); // via the CNAME
    expect(await dns.lookup('CNAME', 'example.test')).toEqual({ status: 'nodata' });
    expect(await dns.lookup('A', 'broken.test')).toEqual({ status: 'error', code: 'ESERVFAIL' });
  });

  it('answers from the cache without a second query', async () => {
    const dns = client();
    await dns.lookup('A', 'example.test');
    await dns.lookup('A', 'EXAMPLE.test.');
    expect(server.queryCount('example.test', 'A')).toBe(1);
    expect(dns.stats()).toMatchObject({ queries: 1, cacheHits: 1 });
  });

  it('keeps an address answer for its lowest TTL', async () => {
    const dns = client();
    await dns.lookup('A', 'example.test');
    clock += 29_000;
    await dns.lookup('A', 'example.test');
    expect(server.queryCount('example.test', 'A')).toBe(1);
    clock += 2_000; // 31 s: the 30 s record has expired
    await dns.lookup('A', 'example.test');
    expect(server.queryCount('example.test', 'A')).toBe(2);
  });

  it('keeps answers without a TTL for defaultTtlSeconds, capped by maxTtlSeconds', async () => {
    const dns = client({ defaultTtlSeconds: 120, maxTtlSeconds: 60 });
    await dns.lookup('MX', 'example.test');
    clock += 59_000;
    await dns.lookup('MX', 'example.test');
    expect(server.queryCount('example.test', 'MX')).toBe(1);
    clock += 2_000;
    await dns.lookup('MX', 'example.test');
    expect(server.queryCount('example.test', 'MX')).toBe(2);
  });

  it('caches NXDOMAIN and NODATA for negativeTtlSeconds', async () => {
    const dns = client({ negativeTtlSeconds: 10 });
    await dns.lookup('MX', 'missing.test');
    await dns.lookup('CNAME', 'example.test');
    await dns.lookup('MX', 'missing.test');
    await dns.lookup('CNAME', 'example.test');
    expect(server.queryCount()).toBe(2);
    clock += 11_000;
    await dns.lookup('MX', 'missing.test');
    expect(server.queryCount('missing.test')).toBe(2);
  });

  it('does not cache a zero TTL, a timeout or a server failure', async () => {
    const dns = client({ timeoutMs: 200 });
    for (const name of ['zero.example.test', 'blackhole.test', 'broken.test']) {
      await dns.lookup('A', name);
      const before = server.queryCount(name, 'A'); // c-ares may retry within one lookup
      await dns.lookup('A', name);
      expect(server.queryCount(name, 'A'), name).toBeGreaterThan(before);
    }
    expect(dns.stats()).toMatchObject({ cacheHits: 0, cacheSize: 0 });
  });

  it('shares one query between concurrent identical lookups', async () => {
    const dns = client();
    const answers = await Promise.all([1, 2, 3].map(() => dns.lookup('NS', 'example.test')));
    expect(new Set(answers.map((a) => JSON.stringify(a))).size).toBe(1);
    expect(server.queryCount('example.test', 'NS')).toBe(1);
    expect(dns.stats().joinedInFlight).toBe(2);
  });

  it('gives up on a server that never answers within the timeout', async () => {
    const dns = client({ timeoutMs: 400, tries: 2 });
    const started = Date.now();
    expect(await dns.lookup('MX', 'blackhole.test')).toEqual({ status: 'timeout' });
    expect(Date.now() - started).toBeLessThan(6_000);
    expect(server.queryCount('blackhole.test', 'MX')).toBeGreaterThanOrEqual(1);
  });

  it('evicts the least recently used answer beyond cacheSize', async () => {
    const dns = client({ cacheSize: 2 });
    await dns.lookup('A', 'example.test');
    await dns.lookup('AAAA', 'example.test');
    await dns.lookup('A', 'example.test'); // refresh: AAAA is now the oldest
    await dns.lookup('NS', 'example.test'); // evicts AAAA
    await dns.lookup('A', 'example.test');
    await dns.lookup('AAAA', 'example.test');
    expect(server.queryCount('example.test', 'A')).toBe(1);
    expect(server.queryCount('example.test', 'AAAA')).toBe(2);
    expect(dns.stats().cacheSize).toBe(2);
  });

  it('looks up internationalised names in punycode', async () => {
    const dns = client();
    expect(await dns.lookup('A', 'bücher.example')).toEqual({ status: 'found', records: ['192.0.2.4'] });
    expect(server.queryCount('xn--bcher-kva.example', 'A')).toBe(1);
  });

  it('rejects a server list it cannot use, and accepts an empty one', () => {
    expect(() => createDnsClient({ servers: ['dns.example.com'] })).toThrow(/Invalid DNS server list/);
    expect(() => createDnsClient({ servers: [] })).not.toThrow();
    expect(() => createDnsClient({ servers: ['192.0.2.53', '[2001:db8::53]:5353', '127.0.0.1:53'] })).not.toThrow();
  });
});
