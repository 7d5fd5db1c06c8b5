/**
 * The yardstick of the sending benches: nodemailer's pooled transport, signing with the sender domain's own
 * DKIM key (RSA-2048, read from Herald's database), sending the very messages Herald delivered (taken from the
 * sink, Herald's DKIM-Signature removed) to the same sink, in a child process of the bench.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReceivedMessage } from '../test/support/smtp-sink.ts';
import type { DkimKey } from './herald-process.ts';

const CHILD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'nodemailer-baseline.child.ts');
/** Connections of the pool and messages in flight, as printed next to the figures. */
export const BASELINE_SHAPE =
  'nodemailer pool, 5 connections, 20 in flight, DKIM RSA-2048 with the same key, own process';

/** The message without its DKIM-Signature header field (folded lines included). */
export function withoutDkimSignature(raw: Buffer): Buffer {
  const text = raw.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  const head = text.slice(0, end).split('\r\n');
  const kept: string[] = [];
  let dropping = false;
  for (const line of head) {
    if (/^[ \t]/.test(line)) {
      if (!dropping) kept.push(line);
      continue;
    }
    dropping = /^dkim-signature:/i.test(line);
    if (!dropping) kept.push(line);
  }
  return Buffer.from(`${kept.join('\r\n')}${text.slice(end)}`, 'latin1');
}

/** Throws unless `raw` carries exactly one DKIM-Signature, of `domain` (the baseline did sign, once). */
export function assertSignedOnceBy(raw: Buffer, domain: string): void {
  const head = raw.toString('latin1').split('\r\n\r\n', 1)[0]!;
  const signatures = head.split(/\r\n(?![ \t])/).filter((field) => /^dkim-signature:/i.test(field));
  if (
    signatures.length !== 1 ||
    !new RegExp(`\\bd=${domain.replace(/\./g, '\\.')};`).test(signatures[0]!.replace(/\s+/g, ''))
  ) {
    throw new Error(
      `the baseline's message carries ${signatures.length} DKIM-Signature fields, expected one of ${domain}`,
    );
  }
}

/** One message per recipient, first copy, ready for the baseline (raw bytes needed: a sink with keepRaw). */
export function baselineMessages(received: readonly ReceivedMessage[]): ReceivedMessage[] {
  const seen = new Set<string>();
  return received.filter((m) => {
    const to = m.to[0]!.toLowerCase();
    if (seen.has(to)) return false;
    seen.add(to);
    return true;
  });
}

interface ChildJob {
  port: number;
  mode: 'throughput' | 'latency';
  dkim: DkimKey;
  messages: readonly ReceivedMessage[];
  warmUp?: number;
}

async function runChild<R>(job: ChildJob): Promise<R> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-baseline-'));
  const file = path.join(dir, 'job.json');
  // The job on its first line, then one message per line: thousands of 100 KB messages are more than one string holds.
  const header = { port: job.port, mode: job.mode, concurrency: 20, warmUp: job.warmUp ?? 0, dkim: job.dkim };
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, `${JSON.stringify(header)}\n`);
    for (const m of job.messages)
      fs.writeSync(
        fd,
        `${JSON.stringify({ from: m.from, to: m.to[0], raw: withoutDkimSignature(m.raw).toString('base64') })}\n`,
      );
  } finally {
    fs.closeSync(fd);
  }
  try {
    const child = fork(CHILD, [file], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    return await new Promise<R>((resolve, reject) => {
      let result: R | undefined;
      child.on('message', (message) => {
        result = message as R;
      });
      child.once('error', reject);
      child.once('exit', (code) =>
        result === undefined ? reject(new Error(`the baseline sender exited with ${code}`)) : resolve(result),
      );
    });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Emails/s of the baseline sending `messages` 20 at a time, and the CPU seconds its process used doing so. */
export async function baselineThroughput(
  port: number,
  dkim: DkimKey,
  messages: readonly ReceivedMessage[],
): Promise<{ rate: number; seconds: number; cpuSeconds: number }> {
  return runChild({ port, mode: 'throughput', dkim, messages });
}

/**
 * Duration of each send of the baseline after the first `warmUp`, one message at a time, in ms (until the sink answered
 * 250).
 */
export async function baselineLatencies(
  port: number,
  dkim: DkimKey,
  messages: readonly ReceivedMessage[],
  warmUp: number,
): Promise<number[]> {
  return (await runChild<{ durations: number[] }>({ port, mode: 'latency', dkim, messages, warmUp })).durations;
}
