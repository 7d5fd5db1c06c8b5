import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDnsServer } from './dns-server.ts';
import type { TestDnsServer } from './dns-server.ts';

const dkimKey = 'p=' + 'A'.repeat(400); // longer than one 255-octet string and than a 512-byte UDP answer

describe('startDnsServer', () => {
  let server: TestDnsServer;
  let resolver: Resolver;

  beforeAll(async () => {
    server = await startDnsServer(
      {
        'example.test': [
          { type: 'A', address: '192.0.2.1', ttl: 42 },
          { type: 'AAAA', address: '2001:db8::1' },
          { type: 'MX', exchange: 'mx1.example.test', priority: 10 },
          { type: 'NS', ns: 'ns1.example.test' },
          { type: 'TXT', data: ['v=spf1 ', 'include:_spf.example.net ~all'] },
          { type: 'TXT', data: 'second record' },
        ],
        'www.example.test': [{ type: 'CNAME', target: 'example.test' }],
        'sel._domainkey.example.test': [
          { type: 'TXT', data: ['v=DKIM1; k=rsa; ', dkimKey.slice(0, 250), dkimKey.slice(250)] },
        ],
        'nullmx.test': [{ type: 'MX', exchange: '.', priority: 0 }],
        '*.wild.test': [{ type: 'A', address: '192.0.2.9' }],
      },
      { silent: ['blackhole.test'], servfail: ['broken.test'] },
    );
    resolver = new Resolver({ timeout: 300, tries: 1 });
    resolver.setServers([server.address]);
  });
  afterAll(() => server.close());

  it('answers each record type with its TTL', async () => {
    expect(await resolver.resolve4('example.test', { ttl: true })).toEqual([{ address: '192.0.2.1', ttl: 42 }]);
    expect(await resolver.resolve6('example.test', { ttl: true })).toEqual([{ address: '2001:db8::1', ttl: 300 }]);
    expect(await resolver.resolveMx('example.test')).toEqual([{ exchange: 'mx1.example.test', priority: 10 }]);
    expect(await resolver.resolveNs('example.test')).toEqual(['ns1.example.test']);
    expect(await resolver.resolveTxt('example.test')).toEqual([
      ['v=spf1 ', 'include:_spf.example.net ~all'],
      ['second record'],
    ]);
  });

  it('is case-insensitive and follows CNAMEs', async () => {
    expect(await resolver.resolve4('WWW.Example.TEST')).toEqual(['192.0.2.1']);
    expect(await resolver.resolveCname('www.example.test')).toEqual(['example.test']);
  });

  it('serves answers too big for UDP over TCP', async () => {
    const [record] = await resolver.resolveTxt('sel._domainkey.example.test');
    expect(record?.join('')).toBe(`v=DKIM1; k=rsa; ${dkimKey}`);
  });

  it('encodes a null MX as the root name', async () => {
    expect(await resolver.resolveMx('nullmx.test')).toEqual([{ exchange: '', priority: 0 }]);
  });

  it('distinguishes NODATA, NXDOMAIN, wildcards and SERVFAIL', async () => {
    await expect(resolver.resolveMx('www.nowhere.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await expect(resolver.resolve4('nullmx.test')).rejects.toMatchObject({ code: 'ENODATA' });
    // empty non-terminal
    await expect(resolver.resolve4('_domainkey.example.test')).rejects.toMatchObject({ code: 'ENODATA' });
    expect(await resolver.resolve4('anything.wild.test')).toEqual(['192.0.2.9']);
    await expect(resolver.resolve4('broken.test')).rejects.toMatchObject({ code: 'ESERVFAIL' });
  });

  it('counts queries, including the ones it never answers', async () => {
    server.resetQueries();
    await expect(resolver.resolve4('a.blackhole.test')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    await resolver.resolveMx('example.test');
    expect(server.queryCount('a.blackhole.test', 'A')).toBe(1);
    expect(server.queryCount('example.test', 'MX')).toBe(1);
    expect(server.queryCount()).toBe(2);
  });

  it('can change its zone and silence names while running', async () => {
    server.setRecords('late.test', [{ type: 'A', address: '192.0.2.7' }]);
    expect(await resolver.resolve4('late.test')).toEqual(['192.0.2.7']);
    server.silence('late.test');
    await expect(resolver.resolve4('late.test')).rejects.toMatchObject({ code: 'ETIMEOUT' });
    server.unsilence('late.test');
    server.setRecords('late.test', []);
    await expect(resolver.resolve4('late.test')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });
});
