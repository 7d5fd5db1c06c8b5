// Smooth per-project pacing shared by every worker: each project has one "next free slot" time in the
// database; a worker reserves consecutive slots for the emails it claimed and hands each over no earlier
// than its slot. Slots are spaced 1/rate apart (plus a 10 % headroom for handoff jitter), so no window of
// one second ever carries more than SEND_RATE_PER_SECOND messages, whichever workers send them.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** Slots are this much further apart than 1/rate: the jitter of a handoff must not squeeze two into one. */
const HEADROOM = 1.1;
/**
 * A message may go out this late after its slot; later, it takes a new slot. A fifth of the headroom: the
 * rest absorbs what happens between this check and the transport taking the message.
 */
export const LATE_TOLERANCE_MS = (HEADROOM - 1) * 1000 * 0.2;
/** A project whose next slot is further away than this is not claimed from (its mail waits in the table). */
export const PACING_HORIZON_MS = 1000;

export function slotSpacingMs(ratePerSecond: number): number {
  return (1000 / ratePerSecond) * HEADROOM;
}

/** Reserves `count` consecutive slots of the project; returns how long from now each one starts, in ms. */
export async function reserveSlots(
  db: Executor,
  projectId: string,
  count: number,
  ratePerSecond: number,
): Promise<number[]> {
  const spacing = slotSpacingMs(ratePerSecond);
  const span = `${Math.ceil(spacing * count)} milliseconds`;
  const result = await db.execute(sql`
    INSERT INTO send_pacing AS p (project_id, next_at) VALUES (${projectId}::uuid, clock_timestamp() +
      ${span}::interval)
    ON CONFLICT (project_id) DO UPDATE SET next_at = greatest(p.next_at, clock_timestamp()) + ${span}::interval
    RETURNING (extract(epoch FROM (p.next_at - clock_timestamp())) * 1000)::float8 AS end_ms`);
  const endMs = Number(rowsOf<{ end_ms: number }>(result)[0]?.end_ms ?? 0);
  const first = endMs - Math.ceil(spacing * count);
  return Array.from({ length: count }, (_, i) => Math.max(0, first + i * spacing));
}
