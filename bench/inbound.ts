// Inbound mail into a real `herald serve` (built, under bin/herald.js's memory settings) with a receiving domain:
// - small: BENCH_INBOUND_MESSAGES (1,000) messages of ~20 KB (text, HTML, an 8 KB attachment) over 10 connections;
// - large: BENCH_INBOUND_LARGE (12) messages of ~20 MB (1 MB of text, 19 MB of attachment) over 4 connections.
// Each is parsed, authenticated (SPF, DKIM, DMARC through a local DNS server) and stored before the 250.
// Prints messages stored per second, latency, how many were answered "try later" (and sent again) and the
// process's peak RSS for each (the process restarted before each, so the peak is that phase's own).
import { performance } from 'node:perf_hooks';
import nodemailer from 'nodemailer';
import { bigMessage } from '../test/support/big-message.ts';
import { freePort } from '../test/support/child.ts';
import { startDnsServer } from '../test/support/dns-server.ts';
import { startSmtpSink } from '../test/support/smtp-sink.ts';
import { memoryOf, startHeraldProcess, type HeraldProcess } from './herald-process.ts';
import { benchKinds, fmt, machineLine, percentile, runPool, type DbKind } from './support.ts';

const SMALL = Number(process.env.BENCH_INBOUND_MESSAGES ?? 1000);
const LARGE = Number(process.env.BENCH_INBOUND_LARGE ?? 12);
const MB = 1024 * 1024;

interface Phase {
  label: string;
  messages: number;
  connections: number;
  raw: (i: number) => Buffer;
}

/** Sends the phase's messages; one answered 4xx (try later) is sent again after a second, as an MTA would later. */
async function runPhase(herald: HeraldProcess, port: number, phase: Phase): Promise<string> {
  await herald.restart();
  const transports = Array.from({ length: phase.connections }, () =>
    nodemailer.createTransport({
      host: '127.0.0.1',
      port,
      secure: false,
      ignoreTLS: true,
      pool: true,
      maxConnections: 1,
      maxMessages: Infinity,
      socketTimeout: 600_000,
    }),
  );
  const latencies: number[] = [];
  let deferred = 0;
  let peak = 0;
  const watch = setInterval(() => {
    peak = Math.max(peak, memoryOf(herald.pid()).peak);
  }, 200);
  const started = performance.now();
  try {
    await runPool(phase.messages, phase.connections, async (i) => {
      const raw = phase.raw(i);
      const t0 = performance.now();
      for (;;) {
        try {
          await transports[i % phase.connections]!.sendMail({
            envelope: { from: `customer${i % 500}@sender.example`, to: [`support+${i}@inbox.example`] },
            raw,
          });
          break;
        } catch (error) {
          const code = (error as { responseCode?: number }).responseCode;
          if (code === undefined || code >= 500) throw error;
          deferred += 1;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
      latencies.push(performance.now() - t0);
    });
  } catch (error) {
    clearInterval(watch);
    for (const t of transports) t.close();
    const reason = (error as Error).message.split('\n')[0];
    return `${phase.label}: FAILED after ${latencies.length} messages (${reason}); peak RSS ${fmt(peak)} MB`;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(watch);
  peak = Math.max(peak, memoryOf(herald.pid()).peak);
  for (const t of transports) t.close();
  latencies.sort((a, b) => a - b);
  return (
    `${phase.label}: ${phase.messages} messages over ${phase.connections} connections in ${fmt(seconds, 1)} s → ` +
    `${fmt(phase.messages / seconds, 1)} messages stored/s; per message p50 ${fmt(percentile(latencies, 50))} ms, ` +
    `p99 ${fmt(percentile(latencies, 99))} ms; ${deferred} answered "try later"; peak RSS ${fmt(peak)} MB`
  );
}

async function benchOne(kind: DbKind): Promise<void> {
  const dns = await startDnsServer({ 'sender.example': [{ type: 'TXT', data: 'v=spf1 ip4:127.0.0.1 -all' }] });
  const sink = await startSmtpSink();
  const port = await freePort();
  const herald = await startHeraldProcess({
    kind,
    sink,
    dns,
    domain: 'inbox.example',
    contacts: 0,
    env: { INBOUND_SMTP_PORT: String(port), INBOUND_SMTP_HOST: '127.0.0.1', INBOUND_MAX_STORED_MB: '100000' },
  });
  try {
    const domains = (await herald.api('GET', '/domains')) as { items: { id: string }[] };
    await herald.api('PATCH', `/domains/${domains.items[0]!.id}`, { receiving: true });
    const addresses = { from: 'Customer <customer@sender.example>', to: 'support@inbox.example' };
    const small = bigMessage({ bytes: 20 * 1024, textBytes: 4 * 1024, ...addresses });
    const large = bigMessage({ bytes: 20 * MB, textBytes: MB, ...addresses });
    for (const phase of [
      { label: `${kind} 20 KB`, messages: SMALL, connections: 10, raw: () => small },
      { label: `${kind} 20 MB`, messages: LARGE, connections: 4, raw: () => large },
    ])
      console.log(await runPhase(herald, port, phase));
  } finally {
    await herald.close();
    await sink.close();
    await dns.close();
  }
}

export default async function run(): Promise<void> {
  console.log(await machineLine());
  for (const kind of await benchKinds()) await benchOne(kind);
}
