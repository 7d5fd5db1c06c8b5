/**
 * The baseline sender, in a process of its own (as Herald's is, so it does not share an event loop with the
 * sink): nodemailer's pooled SMTP transport signing every message with the given DKIM key. Reads its job
 * from the JSON file named by argv[2], reports through IPC: emails/s and CPU seconds used (`throughput`) or each send's
 * duration in ms, one message at a time (`latency`; the first `warmUp` messages are sent but not counted).
 */
import fs from 'node:fs';
import readline from 'node:readline';
import nodemailer from 'nodemailer';

interface Job {
  port: number;
  mode: 'throughput' | 'latency';
  concurrency: number;
  warmUp: number;
  dkim: { domainName: string; keySelector: string; privateKey: string };
  messages: { from: string; to: string; raw: string }[];
}

// The job on the first line of the file, then one message per line (read as a stream: thousands of 100 KB messages
// are more than one string holds).
let job: Omit<Job, 'messages'> | undefined;
const messages: { envelope: { from: string; to: string[] }; raw: Buffer }[] = [];
const input = fs.createReadStream(process.argv[2]!, { encoding: 'latin1' });
for await (const line of readline.createInterface({ input, crlfDelay: Infinity })) {
  if (!line) continue;
  if (!job) {
    job = JSON.parse(line) as Omit<Job, 'messages'>;
    continue;
  }
  const m = JSON.parse(line) as Job['messages'][number];
  messages.push({ envelope: { from: m.from, to: [m.to] }, raw: Buffer.from(m.raw, 'base64') });
}
if (!job) throw new Error('the baseline job file is empty');
const transporter = nodemailer.createTransport({
  pool: true,
  maxConnections: 5,
  host: '127.0.0.1',
  port: job.port,
  secure: false,
  ignoreTLS: true,
  dkim: job.dkim,
});

if (job.mode === 'latency') {
  const durations: number[] = [];
  for (const [i, message] of messages.entries()) {
    const started = performance.now();
    await transporter.sendMail(message);
    if (i >= job.warmUp) durations.push(performance.now() - started);
  }
  process.send!({ durations });
} else {
  let next = 0;
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: job.concurrency }, async () => {
      while (next < messages.length) await transporter.sendMail(messages[next++]!);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  process.send!({ seconds, rate: messages.length / seconds, cpuSeconds: (used.user + used.system) / 1e6 });
}
transporter.close();
process.disconnect();
