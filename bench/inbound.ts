// Inbound messages stored per second: 10 SMTP connections deliver 20 KB messages (text, HTML, a 8 KB attachment)
// to a receiving domain; each is parsed, authenticated (SPF, DKIM, DMARC through a local DNS server) and stored
// with its contact, event and webhook rows in one transaction before the 250.
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import { sql } from 'drizzle-orm';
import { startInboundReceiver } from '../src/modules/inbound/index.ts';
import { startDnsServer } from '../test/support/dns-server.ts';
import { benchKinds, fmt, machineLine, percentile, runPool, startBenchApp, type DbKind } from './support.ts';

const CONNECTIONS = 10;
const MESSAGES = Number(process.env.BENCH_INBOUND_MESSAGES ?? 1000);

async function benchOne(kind: DbKind): Promise<void> {
  const dns = await startDnsServer({ 'sender.example': [{ type: 'TXT', data: 'v=spf1 ip4:127.0.0.1 -all' }] });
  const bench = await startBenchApp({ kind, env: { DNS_SERVERS: dns.address } });
  const listener = await startInboundReceiver(bench.ctx, 0);
  try {
    const admin = { authorization: 'Bearer bench-admin-token-0123456789', 'content-type': 'application/json' };
    const project = await (await fetch(`${bench.url}/admin/projects`, { method: 'POST', headers: admin, body: JSON.stringify({ name: 'Inbound bench' }) })).json() as { data: { id: string } };
    // A receiving domain, set up directly: DNS verification is not what is measured.
    await bench.ctx.db.execute(sql`INSERT INTO domains (id, project_id, domain, status, dkim_selector, dkim_public_key, dkim_private_key, records, receiving)
      VALUES (gen_random_uuid(), ${project.data.id}, 'inbox.example', 'VERIFIED', 's', 'x', 'x', '[]'::jsonb, true)`);
    const transports = Array.from({ length: CONNECTIONS }, () => nodemailer.createTransport({ host: '127.0.0.1', port: listener.port, secure: false, ignoreTLS: true, pool: true, maxConnections: 1, maxMessages: Infinity }));
    const text = 'Lorem ipsum dolor sit amet. '.repeat(200);
    const attachment = Buffer.alloc(8 * 1024, 7);
    const latencies: number[] = [];
    const started = performance.now();
    await runPool(MESSAGES, CONNECTIONS, async (i) => {
      const t0 = performance.now();
      await transports[i % CONNECTIONS]!.sendMail({
        from: `customer${i % 500}@sender.example`, to: `support+${i}@inbox.example`, subject: `Ticket ${i}`,
        text, html: `<p>${text}</p>`, attachments: [{ filename: 'log.bin', content: attachment }],
      });
      latencies.push(performance.now() - t0);
    });
    const seconds = (performance.now() - started) / 1000;
    for (const t of transports) t.close();
    latencies.sort((a, b) => a - b);
    console.log(`${kind}: ${MESSAGES} messages (~20 KB) over ${CONNECTIONS} connections in ${fmt(seconds, 1)} s → ${fmt(MESSAGES / seconds)} inbound messages stored/s; `
      + `per message p50 ${fmt(percentile(latencies, 50))} ms, p99 ${fmt(percentile(latencies, 99))} ms`);
  } finally {
    await listener.close();
    await bench.close();
    await dns.close();
  }
}

export default async function run(): Promise<void> {
  console.log(await machineLine());
  for (const kind of await benchKinds()) await benchOne(kind);
}
