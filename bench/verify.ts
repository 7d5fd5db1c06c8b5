// Verification throughput for a 1000-address list-cleaning batch, against a real local DNS server:
// cold (empty cache: every domain costs 6 DNS queries) and warm (answers come from the cache).
import { performance } from 'node:perf_hooks';
import { createDnsClient } from '../src/net/dns.ts';
import { verifyEmails } from '../src/modules/verify/verify.service.ts';
import { startDnsServer } from '../test/support/dns-server.ts';
import type { Zone } from '../test/support/dns-server.ts';

const DOMAINS = 200;
const ADDRESSES = 1000;

/** 200 domains of every kind the verifier tells apart; a tenth of them do not exist at all. */
function buildZone(): { zone: Zone; domains: string[] } {
  const zone: Zone = {};
  const domains: string[] = [];
  for (let i = 0; i < DOMAINS; i++) {
    const domain = `company${i}.example`;
    domains.push(domain);
    const ns = { type: 'NS', ns: `ns1.${domain}` } as const;
    const a = { type: 'A', address: `192.0.2.${i % 250}` } as const;
    const kind = i % 10;
    if (kind === 0) continue; // NXDOMAIN
    if (kind === 1)
      zone[domain] = [ns, a]; // implicit MX
    else if (kind === 2)
      zone[domain] = [ns, a, { type: 'MX', exchange: '.', priority: 0 }]; // null MX
    else zone[domain] = [ns, a, { type: 'MX', exchange: `mx.${domain}`, priority: 10 }];
    if (kind > 4) zone[`www.${domain}`] = [a];
  }
  for (const provider of ['gmail.com', 'mailinator.com', 'mozmail.com']) {
    zone[provider] = [{ type: 'MX', exchange: `mx.${provider}`, priority: 10 }];
    domains.push(provider);
  }
  return { zone, domains };
}

function buildAddresses(domains: string[]): string[] {
  return Array.from({ length: ADDRESSES }, (_, i) => {
    const domain = domains[i % domains.length] ?? 'example.com';
    if (i % 50 === 7) return `broken address ${i}@${domain}`;
    return i % 5 === 0 ? `user${i}+tag@${domain}` : `user${i}@${domain}`;
  });
}

async function timeBatch(label: string, run: () => Promise<{ valid: number; total: number }>): Promise<void> {
  const started = performance.now();
  const batch = await run();
  const seconds = (performance.now() - started) / 1000;
  const rate = Math.round(batch.total / seconds);
  console.log(
    `${label}: ${batch.total} addresses in ${(seconds * 1000).toFixed(0)} ` +
      `ms → ${rate} verifications/s (${batch.valid} valid)`,
  );
}

export default async function run(): Promise<void> {
  const { zone, domains } = buildZone();
  const server = await startDnsServer(zone);
  const emails = buildAddresses(domains);
  const dns = createDnsClient({ servers: [server.address], timeoutMs: 2000, cacheSize: 10_000 });
  try {
    console.log(`verify: ${emails.length} addresses over ${domains.length} domains, DNS server ${server.address}`);
    await timeBatch('cold cache', () => verifyEmails({ emails, dns }));
    const coldQueries = server.queryCount();
    await timeBatch('warm cache', () => verifyEmails({ emails, dns }));
    console.log(
      `DNS queries: ${coldQueries} cold, ${server.queryCount() - coldQueries} ` +
        `warm; cache ${JSON.stringify(dns.stats())}`,
    );
  } finally {
    await server.close();
  }
}
