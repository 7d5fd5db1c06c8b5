/**
 * Part of the segments benchmark, on its seeded contacts: one recomputation of a tracked DYNAMIC segment after 1 %
 * of the contacts changed (the SQL set difference and the events it writes), and a CSV export of every contact
 * (rows per second, and the process's RSS as it goes: flat, not growing with the row count).
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';
import { newId } from '../src/lib/ids.ts';
import { contactsCsv } from '../src/modules/exports/exports.csv.ts';
import { insertSegment } from '../src/modules/segments/segments.repo.ts';
import { recomputeMembership, startTracking } from '../src/modules/segments/segments.tracking.ts';
import { fmt } from './support.ts';

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;
const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024)} MB`;

export async function benchMembership(db: Db, projectId: string): Promise<void> {
  const row = await insertSegment(db, {
    id: newId(),
    projectId,
    name: 'pro (tracked)',
    filter: { field: 'data.plan', operator: 'equals', value: 'pro' },
    segmentRefs: [],
    trackMembership: true,
  });
  let started = performance.now();
  await startTracking({ db, row });
  const [{ n }] = rowsOf<{ n: number }>(
    await db.execute(sql`SELECT count(*)::int AS n FROM segment_snapshots WHERE segment_id = ${row.id}::uuid`),
  ) as [{ n: number }];
  console.log(
    `membership tracking of "plan = pro": first snapshot of ${fmt(n)} ` +
      `members in ${fmt(performance.now() - started)} ms`,
  );
  started = performance.now();
  const unchanged = await recomputeMembership({ db, row: { ...row, trackedAt: new Date() } });
  console.log(
    `  recomputation with nothing changed: ${fmt(performance.now() - started)} ` +
      `ms (${unchanged.entered} entered, ${unchanged.exited} exited)`,
  );
  // 1 % of the contacts change plan: every 100th one (by email number) flips between pro and free.
  started = performance.now();
  const changed = await db.execute(sql`
    UPDATE contacts SET data = jsonb_set(data, '{plan}', CASE WHEN data->>'plan' = 'pro' THEN '"free"'::jsonb ELSE
      '"pro"'::jsonb END), updated_at = now()
    WHERE project_id = ${projectId}::uuid AND (substring(email FROM 'user([0-9]+)@')::int) % 100 = 0`);
  console.log(
    `  changed ${fmt((changed as { rowCount?: number; affectedRows?: number }).rowCount ?? 0)} ` +
      `contacts (1 %) in ${fmt(performance.now() - started)} ms`,
  );
  const times: number[] = [];
  let moved = { entered: 0, exited: 0 };
  for (let i = 0; i < 3; i++) {
    // Flip back and forth so each run has the same 1 % to record.
    if (i > 0)
      await db.execute(sql`UPDATE contacts SET data = jsonb_set(data, '{plan}', CASE WHEN data->>'plan' = 'pro' THEN
        '"free"'::jsonb ELSE '"pro"'::jsonb END)
      WHERE project_id = ${projectId}::uuid AND (substring(email FROM 'user([0-9]+)@')::int) % 100 = 0`);
    started = performance.now();
    moved = await recomputeMembership({ db, row: { ...row, trackedAt: new Date() } });
    times.push(performance.now() - started);
  }
  console.log(
    `  one recomputation after 1 % changed: ${times.map((t) => `${fmt(t)} ms`).join(', ')} — ` +
      `${fmt(moved.entered)} segment.entered and ${fmt(moved.exited)} segment.exited events written each time`,
  );
}

export async function benchExport(db: Db, projectId: string): Promise<void> {
  const rss: number[] = [];
  const heap: number[] = [];
  let rows = -1;
  let bytes = 0;
  const started = performance.now();
  for await (const chunk of await contactsCsv({ db, projectId, predicate: undefined, data: 'columns' })) {
    rows += chunk.split('\r\n').length - 1;
    bytes += Buffer.byteLength(chunk);
    if (rows % 100_000 < 1000) {
      // Under `node --expose-gc`, collected first, so the heap figure is what is still held.
      (globalThis as { gc?: () => void }).gc?.();
      const memory = process.memoryUsage();
      rss.push(memory.rss);
      heap.push(memory.heapUsed);
    }
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `CSV export of ${fmt(rows)} contacts (${mb(bytes)}): ${fmt(seconds, 1)} s, ${fmt(rows / seconds)} rows/s`,
  );
  console.log(
    `  RSS every ~100,000 rows: ${rss.map(mb).join(', ')}; peak RSS ` +
      `of the process ${mb(process.resourceUsage().maxRSS * 1024)}`,
  );
  // The JavaScript heap in use at the same moments (after a collection under --expose-gc): what the export holds.
  console.log(`  heap in use at the same moments: ${heap.map(mb).join(', ')}`);
}
