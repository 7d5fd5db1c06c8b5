/**
 * `npm run bench -- engagement`: the daily engagement sweep (sunsetting) over BENCH_CONTACTS (1,000,000) contacts of
 * one project on PostgreSQL, beside a baseline in the same run: a plain walk of the same contacts by id in batches of
 * the same size, reading only their ids. The contacts are written straight into the table with engagement figures:
 * 20 % never mailed (new), 2 % dormant (mailed for 400 days, never opened), the rest opened 1–300 days ago. Also the
 * level counts of GET /contacts/engagement. Prints times, rows/s, and this process's RSS (peak sampled every 50 ms
 * during each pass); the database's own memory is PostgreSQL's. Progress goes to stderr.
 */
import { sql } from 'drizzle-orm';
import { countEngagementLevels } from '../src/modules/contacts/index.ts';
import { runSunsetSweep, sweepDay } from '../src/modules/contacts/contacts.sunset.ts';
import { fmt, machineLine, postgresAvailable, startBenchApp } from './support.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const BATCH = 1000;
const SEED_CHUNK = 100_000;
const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MB`;

/** Runs `pass`, sampling this process's RSS: its duration and the highest RSS seen. */
async function measured<T>(pass: () => Promise<T>): Promise<{ value: T; ms: number; peak: number; before: number }> {
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const started = performance.now();
  try {
    const value = await pass();
    return { value, ms: performance.now() - started, peak: Math.max(peak, process.memoryUsage().rss), before };
  } finally {
    clearInterval(timer);
  }
}

export default async function engagementBench(): Promise<void> {
  if (!(await postgresAvailable())) throw new Error('the engagement bench needs PostgreSQL (BENCH_DATABASE_URL)');
  console.log(await machineLine());
  const bench = await startBenchApp({ kind: 'postgres' });
  const db = bench.ctx.db;
  try {
    const inserted = await db.execute(
      sql`INSERT INTO projects (id, name) VALUES (gen_random_uuid(), 'engagement bench') RETURNING id`,
    );
    const project = rowsOf<{ id: string }>(inserted)[0]!.id;
    for (let done = 0; done < CONTACTS; done += SEED_CHUNK) {
      const n = Math.min(SEED_CHUNK, CONTACTS - done);
      // g % 50 = 0: dormant; g % 5 = 1: new; the others opened (g % 300) + 1 days ago, clicked half as often.
      await db.execute(sql`
        INSERT INTO contacts (id, project_id, email, first_marketing_at, last_marketing_at, marketing_received,
          last_human_open_at, last_human_click_at)
        SELECT gen_random_uuid(), ${project}::uuid, 'reader' || g || '@dest.test',
          CASE WHEN g % 5 = 1 THEN NULL ELSE now() - interval '400 days' END,
          CASE WHEN g % 5 = 1 THEN NULL ELSE now() - interval '1 day' END,
          CASE WHEN g % 5 = 1 THEN 0 ELSE 40 END,
          CASE WHEN g % 50 = 0 OR g % 5 = 1 THEN NULL ELSE now() - (g % 300 + 1) * interval '1 day' END,
          CASE WHEN g % 50 = 0 OR g % 5 = 1 OR g % 2 = 0 THEN NULL ELSE now() - (g % 300 + 2) * interval '1 day' END
        FROM generate_series(${done + 1}::int, ${done + n}::int) g`);
      console.error(`[engagement] ${fmt(done + n)} contacts written`);
    }
    await db.execute(sql`ANALYZE contacts`);
    await db.execute(sql`INSERT INTO project_settings (project_id, sunset_action) VALUES (${project}::uuid,
      'unsubscribe')`);

    const walk = await measured(async () => {
      let after: string | null = null;
      let walked = 0;
      for (;;) {
        const rows: { id: string }[] = rowsOf<{ id: string }>(
          await db.execute(sql`SELECT id FROM contacts WHERE project_id = ${project}::uuid
            ${after ? sql`AND id > ${after}::uuid` : sql``} ORDER BY id LIMIT ${BATCH}`),
        );
        walked += rows.length;
        if (rows.length < BATCH) return walked;
        after = rows.at(-1)!.id;
      }
    });
    const counts = await measured(() => countEngagementLevels({ db, projectId: project }));
    const sweep = await measured(() => runSunsetSweep({ db, projectId: project, day: sweepDay(new Date()) }));
    const again = await measured(() =>
      runSunsetSweep({ db, projectId: project, day: sweepDay(new Date(Date.now() + 86_400_000)) }),
    );

    const line = (name: string, r: { ms: number; peak: number; before: number }, extra = '') =>
      console.log(
        `${name.padEnd(44)} ${fmt(r.ms / 1000, 1).padStart(6)} s  ${fmt(CONTACTS / (r.ms / 1000)).padStart(9)} ` +
          `contacts/s  RSS ${mb(r.before)} → peak ${mb(r.peak)}${extra}`,
      );
    console.log(`${fmt(CONTACTS)} contacts, batches of ${fmt(BATCH)}, PostgreSQL`);
    line('baseline: walk by id, ids only', walk, ` (${fmt(walk.value)} walked)`);
    line('level counts (GET /contacts/engagement)', counts, ` ${JSON.stringify(counts.value)}`);
    line('sunset sweep (levels + unsubscribes)', sweep, ` (${fmt(sweep.value ?? 0)} unsubscribed)`);
    line('sunset sweep, next day (none left)', again, ` (${fmt(again.value ?? 0)} unsubscribed)`);
  } finally {
    await bench.close();
  }
}
