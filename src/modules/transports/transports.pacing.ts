// A transport's own rate (maxPerSecond), shared by every worker like the project's pacing: one "next free slot"
// time per transport, from which a worker reserves consecutive slots for the messages it is about to hand over.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** Reserves `count` consecutive slots of the transport; how long from now each one starts, in ms. */
export async function reserveTransportSlots(
  db: Executor,
  key: string,
  count: number,
  ratePerSecond: number,
): Promise<number[]> {
  const spacing = 1000 / ratePerSecond;
  const span = `${Math.ceil(spacing * count)} milliseconds`;
  const result = await db.execute(sql`
    INSERT INTO transport_pacing AS p (key, next_at) VALUES (${key}, clock_timestamp() + ${span}::interval)
    ON CONFLICT (key) DO UPDATE SET next_at = greatest(p.next_at, clock_timestamp()) + ${span}::interval
    RETURNING (extract(epoch FROM (p.next_at - clock_timestamp())) * 1000)::float8 AS end_ms`);
  const endMs = Number(rowsOf<{ end_ms: number }>(result)[0]?.end_ms ?? 0);
  const first = endMs - Math.ceil(spacing * count);
  return Array.from({ length: count }, (_, i) => Math.max(0, first + i * spacing));
}
