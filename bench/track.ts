/**
 * POST /v1/track at 50 connections: Herald on the embedded database, Herald on PostgreSQL (when
 * BENCH_DATABASE_URL or a local server answers), and a bare node:http server as the ceiling, each in
 * its own process, measured in one run. Each request names a new address, as a signup burst does (every call
 * creates its contact), with persistent and non-persistent data. BENCH_DURATION (s, default 10),
 * BENCH_SEED_EVENTS (events stored beforehand).
 * BENCH_TARGETS=pglite or postgres picks the databases; BENCH_MEMORY_TRACE=file samples each server's memory.
 * BENCH_TRIGGER_BASELINE=1 adds each database once more with the workflows events trigger switched off,
 * so the trigger's cost on the hot path is measured in the same run.
 */
import { fork } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { fmt, postgresAvailable } from './support.ts';
import { cpuSecondsOf, memoryOf, postgresCpuSeconds } from './herald-process.ts';

const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = 2;

type Target = 'http' | 'pglite' | 'postgres' | 'pglite:no-trigger' | 'postgres:no-trigger';
const labels: Record<Target, string> = {
  http: 'node:http, bare',
  pglite: 'Herald, embedded PGlite',
  postgres: 'Herald, PostgreSQL',
  'pglite:no-trigger': 'PGlite, no wf trigger',
  'postgres:no-trigger': 'PostgreSQL, no wf trigger',
};

/** The environment and node options on bin/herald.js's first line (`#!/usr/bin/env -S NAME=value node --flag`). */
function heraldNodeSettings(): { env: Record<string, string>; flags: string[] } {
  const words = fs
    .readFileSync(new URL('../bin/herald.js', import.meta.url), 'utf8')
    .split('\n')[0]!
    .split(' ');
  const node = words.indexOf('node');
  const env = Object.fromEntries(
    words
      .slice(0, node)
      .filter((w) => /^[A-Z_]+=/.test(w))
      .map((w) => w.split('=') as [string, string]),
  );
  return { env, flags: words.slice(node + 1).filter(Boolean) };
}

async function startTarget(
  target: Target,
): Promise<{ url: string; key: string; pid: number; stop: () => Promise<void> }> {
  // Herald runs with the settings `herald` starts node with; BENCH_NODE_ARGS adds node's options for every server
  // (`--cpu-prof --cpu-prof-dir=/tmp/prof` to profile them).
  const herald = target === 'http' ? { env: {}, flags: [] } : heraldNodeSettings();
  const nodeArgs = process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const child = fork(fileURLToPath(new URL('./track.server.ts', import.meta.url)), [target], {
    execArgv: ['--import', 'tsx', ...herald.flags, ...nodeArgs],
    env: { ...process.env, ...herald.env },
  });
  const { url, key } = await new Promise<{ url: string; key: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string; key: string }));
    child.once('exit', (code) => reject(new Error(`${target} server exited with ${code}`)));
  });
  const stop = () =>
    new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.send('stop');
    });
  return { url, key, pid: child.pid!, stop };
}

/** Requests made so far, across warm-up and measured runs: each names an address no request has named before. */
let n = 0;

function load(url: string, key: string, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: `${url}/v1/track`,
    connections: CONNECTIONS,
    duration: seconds,
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    requests: [
      {
        setupRequest: (request) => {
          const i = n++;
          const data = { plan: i % 3 ? 'pro' : 'free', path: { value: `/docs/${i % 97}`, persistent: false } };
          return {
            ...request,
            body: JSON.stringify({ email: `user${i}@bench.test`, event: 'page_view', data }),
          };
        },
      },
    ],
  });
}

export default async function run(): Promise<void> {
  const baseline = process.env.BENCH_TRIGGER_BASELINE === '1';
  const pg = await postgresAvailable();
  // BENCH_TARGETS=pglite,postgres runs only those (the bare server still runs first: the ratios need it).
  const only = process.env.BENCH_TARGETS?.split(',');
  const targets = (
    [
      'http',
      ...(baseline ? (['pglite:no-trigger'] as const) : []),
      'pglite',
      ...(pg && baseline ? (['postgres:no-trigger'] as const) : []),
      ...(pg ? (['postgres'] as const) : []),
    ] as Target[]
  ).filter((target) => target === 'http' || !only || only.includes(target));
  const rows: string[] = [];
  let bare = 0;
  for (const target of targets) {
    const server = await startTarget(target);
    try {
      await load(server.url, server.key, WARMUP);
      const onPostgres = target.startsWith('postgres');
      const cpu0 = [cpuSecondsOf(server.pid), onPostgres ? postgresCpuSeconds() : 0];
      const r = await load(server.url, server.key, DURATION);
      // CPU of the server's process (every thread) and of this machine's PostgreSQL, per request served.
      const perRequest = (seconds: number) => fmt((seconds * 1e6) / r.requests.total);
      const serverCpu = perRequest(cpuSecondsOf(server.pid) - cpu0[0]!);
      const postgresCpu = onPostgres ? perRequest(postgresCpuSeconds() - cpu0[1]!) : '';
      const failed = r.non2xx + r.errors + r.timeouts;
      if (target === 'http') bare = r.requests.average;
      const ratio = target === 'http' || !bare ? '' : `${fmt(r.requests.average / bare, 2)}×`;
      rows.push(
        `${labels[target].padEnd(24)} ${fmt(r.requests.average).padStart(8)} ` +
          `${fmt(r.latency.p50, 1).padStart(8)} ${fmt(r.latency.p99, 1).padStart(8)} ` +
          `${fmt(r.requests.total).padStart(9)} ${String(failed).padStart(7)} ${ratio.padStart(10)} ` +
          `${serverCpu.padStart(11)} ${postgresCpu.padStart(9)} ${fmt(memoryOf(server.pid).peak).padStart(8)}`,
      );
      process.stdout.write(`${rows.at(-1)}\n`);
    } finally {
      await server.stop();
    }
  }
  const seeded = Number(process.env.BENCH_SEED_EVENTS ?? 0);
  process.stdout.write(
    [
      '',
      `POST /v1/track, ${CONNECTIONS} connections, ${DURATION} s per target after ${WARMUP} s of warm-up, ` +
        `a new contact per request${seeded ? `, ${fmt(seeded)} events stored beforehand` : ''}`,
      `${'target'.padEnd(24)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ` +
        `${'p99 ms'.padStart(8)} ${'requests'.padStart(9)} ${'failed'.padStart(7)} ${'of http'.padStart(10)} ` +
        `${'server µs/r'.padStart(11)} ${'pg µs/r'.padStart(9)} ${'peak MB'.padStart(8)}`,
      ...rows,
      'server µs/r: CPU of the server process (every thread) per request; pg µs/r: CPU of the PostgreSQL server',
      "per request; peak MB: the server process's peak RSS (through the warm-up and the run)",
      `goal: Herald on PostgreSQL at 0.2× or more of the bare node:http server's requests per second`,
      '',
    ].join('\n'),
  );
}
