/**
 * `npm run bench -- import`: the CSV (1,000,000 rows, 2 MB) against POST /contacts/import, in
 * two fresh processes side by side:
 *   before: what the request path used to do with it (csv-parse/sync over the whole text, then one
 *           candidate per row, before the row count was checked);
 *   after:  Herald itself (embedded database) receiving the upload over HTTP: the stream is counted as it
 *           arrives and refused after 100,000 rows.
 * Each process reports how far its RSS rose above where it stood before the work (the larger of the growth
 * of process.resourceUsage().maxRSS, which sees through a blocked event loop, and of RSS sampled every 5 ms,
 * which sees a peak below an earlier one, such as the database's start-up), the longest
 * event-loop stall while it worked (the longest gap of a 5 ms ticker), and how long it took. BENCH_ROWS changes the row
 * count.
 */
import { fork } from 'node:child_process';
import http from 'node:http';
import { fileURLToPath } from 'node:url';
import { fmt } from './support.ts';

const ROWS = Number(process.env.BENCH_ROWS ?? 1_000_000);
const csv = () => `email\n${'a\n'.repeat(ROWS)}`;

interface Figures {
  label: string;
  status: string;
  peakMb: number;
  stallMs: number;
  ms: number;
}

const maxRssMb = () => process.resourceUsage().maxRSS / 1024;

/** Runs `work` and measures it from inside this process. */
async function measure(label: string, work: () => Promise<string>): Promise<Figures> {
  const maxBefore = maxRssMb();
  const rssBefore = process.memoryUsage().rss / 1024 / 1024;
  let sampled = rssBefore;
  // A 5 ms ticker: its longest gap is the longest time the event loop could not run anything else.
  let last = performance.now();
  let stall = 0;
  const sampler = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last);
    last = now;
    sampled = Math.max(sampled, process.memoryUsage().rss / 1024 / 1024);
  }, 5);
  const started = performance.now();
  const status = await work();
  const ms = performance.now() - started;
  // One more tick, so a stall that lasted until now is counted.
  await new Promise((resolve) => setTimeout(resolve, 10));
  clearInterval(sampler);
  return { label, status, peakMb: Math.max(maxRssMb() - maxBefore, sampled - rssBefore), stallMs: stall, ms };
}

async function before(): Promise<Figures> {
  const { parse } = await import('csv-parse/sync');
  const source = csv();
  return measure('before: parse on the request path', async () => {
    const records = parse(source, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      trim: true,
      delimiter: ',',
    }) as string[][];
    const candidates = records.slice(1).map((cells) => ({ value: { email: cells[0], data: {} } }));
    return candidates.length > 100_000 ? `422 after parsing ${fmt(candidates.length)} rows` : '202';
  });
}

async function after(): Promise<Figures> {
  const { startBenchApp } = await import('./support.ts');
  const { createProject } = await import('../src/modules/projects/projects.service.ts');
  const bench = await startBenchApp({ kind: 'pglite' });
  try {
    const project = await createProject({ db: bench.ctx.db, name: 'Bench' });
    const { port } = new URL(bench.url);
    const body = Buffer.from(csv());
    // The upload is sent from this process too (a fair share of the same memory), as a client would.
    return await measure(
      'after: streamed, counted as it arrives',
      () =>
        new Promise<string>((resolve, reject) => {
          const req = http.request(
            {
              host: '127.0.0.1',
              port: Number(port),
              method: 'POST',
              path: '/contacts/import',
              headers: { authorization: `Bearer ${project.secretKey}`, 'content-type': 'text/csv' },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve(`${res.statusCode}`));
            },
          );
          req.on('error', (error: NodeJS.ErrnoException) =>
            error.code === 'EPIPE' || error.code === 'ECONNRESET'
              ? resolve('answered before the upload ended')
              : reject(error),
          );
          req.end(body);
        }),
    );
  } finally {
    await bench.close();
  }
}

async function child(which: string): Promise<void> {
  const figures = which === 'before' ? await before() : await after();
  process.send!(figures);
}

async function run(which: 'before' | 'after'): Promise<Figures> {
  const proc = fork(fileURLToPath(import.meta.url), ['--child', which], { execArgv: ['--import', 'tsx'] });
  return new Promise((resolve, reject) => {
    proc.once('message', (m) => resolve(m as Figures));
    proc.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`${which} exited with ${code}`))));
  });
}

export default async function main(): Promise<void> {
  const rows: string[] = [];
  for (const which of ['before', 'after'] as const) {
    const f = await run(which);
    rows.push(
      `${f.label.padEnd(40)} ${f.status.padEnd(34)} ${fmt(f.peakMb, 1).padStart(10)} ` +
        `${fmt(f.stallMs, 1).padStart(10)} ${fmt(f.ms, 1).padStart(10)}`,
    );
  }
  process.stdout.write(
    [
      '',
      `POST /contacts/import with a CSV of ${fmt(ROWS)} rows (${fmt(csv().length / 1024 / 1024, 1)} ` +
        `MB), each side in a fresh process`,
      `${'path'.padEnd(40)} ${'answer'.padEnd(34)} ${'peak +MB'.padStart(10)} ` +
        `${'stall ms'.padStart(10)} ${'total ms'.padStart(10)}`,
      ...rows,
      '',
    ].join('\n'),
  );
}

if (process.argv[2] === '--child') {
  child(process.argv[3]!).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
