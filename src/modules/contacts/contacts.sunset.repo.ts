import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

export interface SweepRow {
  cursor: string | null;
  finishedAt: string | null;
}

/** The projects whose settings sunset dormant contacts. */
export async function findSunsetProjects(db: Executor): Promise<string[]> {
  const result = await db.execute(sql`SELECT project_id FROM project_settings WHERE sunset_action = 'unsubscribe'
    ORDER BY project_id`);
  return rowsOf<{ project_id: string }>(result).map((r) => r.project_id);
}

/** The project's sweep of `day`: begun afresh when the last one was of another day, else as it was left. */
export async function startSweep(db: Executor, projectId: string, day: string): Promise<SweepRow | null> {
  await db.execute(sql`
    INSERT INTO engagement_sweeps (project_id, day) VALUES (${projectId}::uuid, ${day}::date)
    ON CONFLICT (project_id) DO UPDATE SET day = EXCLUDED.day, cursor = NULL, unsubscribed = 0, finished_at = NULL,
      updated_at = now()
    WHERE engagement_sweeps.day <> EXCLUDED.day`);
  const found = await db.execute(sql`SELECT cursor, finished_at FROM engagement_sweeps
    WHERE project_id = ${projectId}::uuid AND day = ${day}::date`);
  const [row] = rowsOf<{ cursor: string | null; finished_at: string | null }>(found);
  return row ? { cursor: row.cursor, finishedAt: row.finished_at } : null;
}

/**
 * Moves the sweep's checkpoint from `from` (guarded: false when another run moved it meanwhile), adding the batch's
 * unsubscribes, and marks it finished after the last batch.
 */
export async function advanceSweep(
  db: Executor,
  projectId: string,
  day: string,
  from: string | null,
  next: { cursor: string | null; unsubscribed: number; done: boolean },
): Promise<boolean> {
  const result = await db.execute(sql`
    UPDATE engagement_sweeps SET cursor = ${next.cursor}::uuid, unsubscribed = unsubscribed + ${next.unsubscribed},
      finished_at = CASE WHEN ${next.done}::boolean THEN now() ELSE NULL END, updated_at = now()
    WHERE project_id = ${projectId}::uuid AND day = ${day}::date AND finished_at IS NULL
      AND cursor IS NOT DISTINCT FROM ${from}::uuid
    RETURNING project_id`);
  return rowsOf(result).length > 0;
}
