/**
 * `npm run bench -- relay`: messages through the SMTP relay of a real `herald serve` process (10 connections,
 * 20 KB messages) — accepted/s (DATA answered 250) and delivered/s (at the SMTP sink) — beside the same messages
 * through POST /v1/send (10 requests in flight) in the same run. BENCH_MESSAGES (1,000); BENCH_DB=postgres|pglite.
 */
import nodemailer from 'nodemailer';
import { freePort } from '../test/support/child.ts';
import { startDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink } from '../test/support/smtp-sink.ts';
import { until } from '../test/support/until.ts';
import { startHeraldProcess } from './herald-process.ts';
import { benchKinds, fmt, machineLine, runPool, type DbKind } from './support.ts';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1000);
const CONNECTIONS = 10;
const DOMAIN = 'relay.bench.test';
const HTML = `<p>${'Twenty kilobytes of order confirmation. '.repeat(500)}</p>`.slice(0, 20 * 1024);

async function run(kind: DbKind): Promise<void> {
  const dns = await startDnsServer({});
  const sink = await startSmtpSink({ keepRaw: false });
  const relayPort = await freePort();
  const herald = await startHeraldProcess({
    kind,
    dns,
    sink,
    domain: DOMAIN,
    contacts: 0,
    env: { SUBMISSION_SMTP_PORT: String(relayPort) },
  });
  try {
    const measure = async (label: string, send: (i: number) => Promise<void>) => {
      sink.clear();
      const started = performance.now();
      await runPool(MESSAGES, CONNECTIONS, send);
      const accepted = performance.now();
      await until(() => sink.messages.length >= MESSAGES, `${label}: every message at the sink`, 600_000, 50);
      const delivered = performance.now();
      console.log(
        `${kind} ${label}: ${fmt(MESSAGES / ((accepted - started) / 1000))} ` +
          `accepted/s, ${fmt(MESSAGES / ((delivered - started) / 1000))} ` +
          `delivered/s (${MESSAGES} messages of 20 KB)`,
      );
    };
    const transport = nodemailer.createTransport({
      host: '127.0.0.1',
      port: relayPort,
      pool: true,
      maxConnections: CONNECTIONS,
      maxMessages: Infinity,
      auth: { user: 'herald', pass: herald.key },
    });
    await measure('SMTP relay', async (i) => {
      await transport.sendMail({
        from: `orders@${DOMAIN}`,
        to: `r${i}@dest.test`,
        subject: `Order ${i}`,
        html: HTML,
        text: 'Order confirmation',
      });
    });
    transport.close();
    await measure('POST /v1/send', async (i) => {
      await herald.api('POST', '/v1/send', {
        from: `orders@${DOMAIN}`,
        to: `s${i}@dest.test`,
        subject: `Order ${i}`,
        body: HTML,
      });
    });
  } finally {
    await herald.close();
    await sink.close();
    await dns.close();
  }
}

export default async function bench(): Promise<void> {
  console.log(await machineLine());
  for (const kind of await benchKinds()) await run(kind);
}
