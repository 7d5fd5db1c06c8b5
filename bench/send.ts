/**
 * POST /v1/send → worker → DKIM-signed SMTP to a local sink, unlimited send rate, on the embedded
 * database and on PostgreSQL; next to nodemailer alone pushing the same signed messages to the same sink.
 */
import { startDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink } from '../test/support/smtp-sink.ts';
import { fmt, postgresAvailable, pushWithNodemailer, runPool, startBenchApp, verifiedSender, type DbKind } from './support.ts';

const EMAILS = Number(process.env.BENCH_EMAILS ?? 2000);
const PER_REQUEST = 10;

async function waitFor(check: () => boolean, limitMs: number): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

export default async function run(): Promise<void> {
  const sink = await startSmtpSink();
  const dns = await startDnsServer({});
  const kinds: DbKind[] = ['pglite', ...((await postgresAvailable()) ? (['postgres'] as const) : [])];
  const rows: string[] = [];
  let raws: { from: string; to: string; raw: Buffer }[] = [];
  for (const kind of kinds) {
    const bench = await startBenchApp({ kind, worker: true, env: { SMTP_URL: sink.url, DNS_SERVERS: dns.address, SEND_RATE_PER_SECOND: '0' } });
    const sender = await verifiedSender(bench.ctx, dns, `${kind}.bench.test`);
    sink.clear();
    const requests = EMAILS / PER_REQUEST;
    const started = performance.now();
    let accepted = 0;
    await runPool(requests, 8, async (i) => {
      const to = Array.from({ length: PER_REQUEST }, (_, j) => `user${i * PER_REQUEST + j}@dest.test`);
      const res = await fetch(`${bench.url}/v1/send`, {
        method: 'POST',
        headers: { authorization: `Bearer ${sender.secretKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ to, from: `hello@${kind}.bench.test`, subject: 'Order {{order}} shipped', body: '<h1>Hi {{email}}</h1><p>Your order {{order}} is on its way.</p>', data: { order: i } }),
      });
      if (res.status !== 200) throw new Error(`send failed: ${res.status} ${await res.text()}`);
      accepted += PER_REQUEST;
    });
    const acceptedAt = performance.now();
    await waitFor(() => sink.messages.length >= EMAILS, 600_000);
    const done = performance.now();
    rows.push(`${kind.padEnd(9)} POST /v1/send accepted ${fmt(accepted / ((acceptedAt - started) / 1000))} emails/s; delivered to SMTP ${fmt(EMAILS / ((done - started) / 1000))} emails/s end to end`);
    if (raws.length === 0) raws = sink.messages.map((m) => ({ from: m.from, to: m.to[0]!, raw: m.raw }));
    await bench.close();
  }

  // The ceiling: nodemailer's SMTP pool alone sending the same signed messages to the same sink.
  sink.clear();
  rows.push(`nodemailer pool alone (same ${raws.length} signed messages, same sink): ${fmt(await pushWithNodemailer(sink.port, raws))} emails/s`);

  console.log(`\nsend benchmark: ${EMAILS} emails, ${PER_REQUEST} recipients per request, SEND_RATE_PER_SECOND=0`);
  for (const row of rows) console.log(`  ${row}`);
  await sink.close();
  await dns.close();
}
