/**
 * Form submissions per second on PostgreSQL: JSON posts to /f/<id> creating a new contact each (with a topic and a
 * list), with proof-of-work verification (a solved challenge per post, checked and marked used) and without it (the
 * baseline), alternated in one run. The challenges are fetched and solved before the clock starts: the work a browser
 * does is not the server's. Each post names its own client address (X-Forwarded-For from loopback, a trusted proxy),
 * so the 10-a-minute limit per address does not apply. BENCH_POSTS (per round, default 400), BENCH_ROUNDS (4).
 */
import { solveChallenge, type Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { fmt, machineLine, postgresAvailable, runPool, startBenchApp, type BenchApp } from './support.ts';

const POSTS = Number(process.env.BENCH_POSTS ?? 400);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const CONCURRENCY = 8;

let serial = 0;

async function api(app: BenchApp, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(`${app.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { data: { id: string } }).data;
}

/** `count` solved challenges of the form, as the widget posts them. */
async function solutions(app: BenchApp, formId: string, count: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const headers = { 'x-forwarded-for': `10.200.${(i >> 8) & 255}.${i & 255}` };
    const challenge = (await (await fetch(`${app.url}/f/${formId}/challenge`, { headers })).json()) as Challenge;
    const solution = await solveChallenge({ challenge, deriveKey });
    out.push(Buffer.from(JSON.stringify({ challenge, solution })).toString('base64'));
  }
  return out;
}

/** Posts `POSTS` submissions, `CONCURRENCY` at a time; submissions per second. */
async function round(app: BenchApp, formId: string, altcha: string[] | null): Promise<number> {
  const started = performance.now();
  await runPool(POSTS, CONCURRENCY, async (i) => {
    const n = ++serial;
    const res = await fetch(`${app.url}/f/${formId}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
      },
      body: JSON.stringify({ email: `signup${n}@bench.test`, name: 'Ann', ...(altcha ? { altcha: altcha[i] } : {}) }),
    });
    if (res.status !== 200) throw new Error(`submission ${n}: ${res.status} ${await res.text()}`);
  });
  return POSTS / ((performance.now() - started) / 1000);
}

export default async function bench(): Promise<void> {
  if (!(await postgresAvailable())) throw new Error('The forms bench runs on PostgreSQL: none answers');
  console.log(await machineLine());
  const app = await startBenchApp({ kind: 'postgres' });
  try {
    const res = await fetch(`${app.url}/admin/projects`, {
      method: 'POST',
      headers: { authorization: 'Bearer bench-admin-token-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Forms bench' }),
    });
    const key = ((await res.json()) as { data: { secretKey: string } }).data.secretKey;
    const topic = await api(app, key, 'POST', '/topics', { name: 'News', defaultSubscription: 'OPT_IN' });
    const list = await api(app, key, 'POST', '/segments', { name: 'Signups', type: 'STATIC' });
    const form = (captcha: string) =>
      api(app, key, 'POST', '/forms', {
        name: `Signup ${captcha}`,
        fields: [
          { key: 'email', label: 'Email', type: 'email' },
          { key: 'name', label: 'Name', type: 'text' },
        ],
        topicIds: [topic.id],
        segmentId: list.id,
        captcha,
      });
    const plain = await form('none');
    const pow = await form('pow');
    const results: Record<'none' | 'pow', number[]> = { none: [], pow: [] };
    for (let r = 0; r < ROUNDS; r++) {
      const solved = await solutions(app, pow.id, POSTS);
      // Alternately first, so neither gains from a warmer cache or a quieter machine.
      if (r % 2 === 0) results.none.push(await round(app, plain.id, null));
      results.pow.push(await round(app, pow.id, solved));
      if (r % 2 === 1) results.none.push(await round(app, plain.id, null));
    }
    const range = (xs: number[]) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
    console.log(`form submissions/s, ${POSTS} per round, ${CONCURRENCY} in flight, ${ROUNDS} rounds (PostgreSQL):`);
    console.log(`  captcha none (baseline):        ${range(results.none)}`);
    console.log(`  captcha pow (verify + single use): ${range(results.pow)}`);
  } finally {
    await app.close();
  }
}
