// People: sign-ins per second over HTTP (the scrypt hash dominates: its bare rate in this process is the ceiling),
// and what the audit log costs a write-heavy path — contact PATCHes with their audit entry and without, same run,
// same stack, on each database.
import { performance } from 'node:perf_hooks';
import os from 'node:os';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../src/context.types.ts';
import { createUserWithLink } from '../src/modules/accounts/index.ts';
import { hashPassword, SCRYPT } from '../src/modules/accounts/accounts.passwords.ts';
import { updateContact, upsertContact } from '../src/modules/contacts/contacts.service.ts';
import { benchKinds, fmt, machineLine, percentile, runPool, startBenchApp, type DbKind } from './support.ts';

const PASSWORD = 'a long bench passphrase';
const SIGN_INS = 200;
const PATCHES = 3000;
const CONCURRENCY = 8;

/** Two probe routes that differ only in whether the change is audited (both outside the audit catch-all). */
function probes(target: { ctx: AppContext | null; projectId: string }) {
  return (app: FastifyInstance) => {
    for (const audited of [true, false]) {
      app.patch(
        `/bench/${audited ? 'with' : 'without'}/:id`,
        { config: { auth: 'none' }, schema: { params: z.object({ id: z.string() }) } },
        async (request) => {
          const { id } = request.params as { id: string };
          return updateContact({
            db: target.ctx!.db,
            consent: { type: 'api' },
            projectId: target.projectId,
            id,
            data: { n: Math.random() },
            audited,
          });
        },
      );
    }
  };
}

async function timed(
  total: number,
  task: (i: number) => Promise<void>,
): Promise<{ rate: number; p50: number; p99: number }> {
  const latencies: number[] = [];
  const started = performance.now();
  await runPool(total, CONCURRENCY, async (i) => {
    const t0 = performance.now();
    await task(i);
    latencies.push(performance.now() - t0);
  });
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { rate: total / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

async function expectOk(res: Response): Promise<void> {
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

async function benchKind(kind: DbKind): Promise<void> {
  const target: { ctx: AppContext | null; projectId: string } = { ctx: null, projectId: '' };
  const bench = await startBenchApp({ kind, register: probes(target) });
  target.ctx = bench.ctx;
  try {
    const project = await fetch(`${bench.url}/admin/projects`, {
      method: 'POST',
      headers: { authorization: 'Bearer bench-admin-token-0123456789', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Bench' }),
    });
    const created = (await project.json()) as { data: { id: string; secretKey: string } };
    const projectId = created.data.id;
    target.projectId = projectId;
    const made = await createUserWithLink({
      ctx: bench.ctx,
      email: 'bench@example.com',
      isAdmin: false,
      projectId,
      role: 'editor',
    });
    const token = new URL(made.setPasswordUrl).hash.slice(1);
    await expectOk(
      await fetch(`${bench.url}/auth/password-reset/confirm`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token, password: PASSWORD }),
      }),
    );

    const signIns = await timed(SIGN_INS, async () => {
      await expectOk(
        await fetch(`${bench.url}/auth/sign-in`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'bench@example.com', password: PASSWORD }),
        }),
      );
    });
    console.log(
      `[${kind}] sign-in over HTTP, ${CONCURRENCY} at a time: ${fmt(signIns.rate, 1)}/s ` +
        `(p50 ${fmt(signIns.p50)} ms, p99 ${fmt(signIns.p99)} ms)`,
    );

    const ids: string[] = [];
    for (let i = 0; i < 100; i++)
      ids.push(
        (await upsertContact({ db: bench.ctx.db, projectId, email: `patch${i}@example.com`, consent: { type: 'api' } }))
          .contact.id,
      );
    const patch =
      (path: string, headers: Record<string, string> = {}) =>
      async (i: number) => {
        await expectOk(
          await fetch(`${bench.url}${path}${ids[i % ids.length]}`, {
            method: 'PATCH',
            headers: { 'content-type': 'application/json', ...headers },
            body: JSON.stringify({ data: { n: i } }),
          }),
        );
      };
    // Warm both paths, then alternate rounds so neither gets the warmer database.
    await timed(300, patch('/bench/with/'));
    await timed(300, patch('/bench/without/'));
    const rounds: Record<string, number[]> = { with: [], without: [], route: [] };
    for (let round = 0; round < 3; round++) {
      rounds.without!.push((await timed(PATCHES / 3, patch('/bench/without/'))).rate);
      rounds.with!.push((await timed(PATCHES / 3, patch('/bench/with/'))).rate);
      rounds.route!.push(
        (await timed(PATCHES / 3, patch('/contacts/', { authorization: `Bearer ${created.data.secretKey}` }))).rate,
      );
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const [withAudit, without, route] = [mean(rounds.with!), mean(rounds.without!), mean(rounds.route!)];
    console.log(
      `[${kind}] contact PATCH, ${CONCURRENCY} at a time: ${fmt(without)}/s without the audit entry, ` +
        `${fmt(withAudit)}/s with it (${fmt((1 - withAudit / without) * 100, 1)} % fewer); ` +
        `the real route (key, rate limit, audit): ${fmt(route)}/s`,
    );
  } finally {
    await bench.close();
  }
}

export default async function run(): Promise<void> {
  console.log(await machineLine());
  const hashes = 20;
  const started = performance.now();
  await Promise.all(Array.from({ length: hashes }, () => hashPassword(PASSWORD)));
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `scrypt N=${SCRYPT.N} r=${SCRYPT.r} p=${SCRYPT.p} (32 MB each): ${fmt(hashes / seconds, 1)} hashes/s ` +
      `in this process (libuv pool of ${process.env.UV_THREADPOOL_SIZE ?? 4} threads, ` +
      `${os.availableParallelism()} cores) — the ceiling of sign-ins`,
  );
  for (const kind of await benchKinds()) await benchKind(kind);
}
