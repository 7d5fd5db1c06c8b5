// Membership tracking: a tracked DYNAMIC segment keeps the members it last computed in
// segment_snapshots; each recomputation is one statement in the database — the set difference between the
// filter's members now and that snapshot — that updates the snapshot and records segment.entered /
// segment.exited for the difference (the events trigger starts SEGMENT_ENTERED / SEGMENT_EXITED workflows).
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { contacts } from '../../db/schema/index.ts';
import { eventsFrom } from '../events/index.ts';
import type { Filter } from './filter.types.ts';
import { filterPredicate } from './segments.audience.ts';
import type { SegmentRow } from './segments.repo.ts';

/** The members of a DYNAMIC segment now, as a SELECT of contact ids. */
async function membersNow(db: Executor, row: SegmentRow) {
  const predicate = await filterPredicate({
    db,
    projectId: row.projectId,
    filter: row.filter as Filter,
    refs: row.segmentRefs,
  });
  return sql`SELECT ${contacts.id} AS id FROM ${contacts} WHERE ${contacts.projectId} = ${row.projectId}::uuid AND
    ${predicate}`;
}

// Side effect: replaces the segment's snapshot with its members now, recording nothing (tracking starts here).
export async function startTracking(opts: { db: Executor; row: SegmentRow }): Promise<void> {
  const members = await membersNow(opts.db, opts.row);
  await opts.db.transaction(async (tx) => {
    await tx.execute(sql`DELETE FROM segment_snapshots WHERE segment_id = ${opts.row.id}::uuid`);
    await tx.execute(
      sql`INSERT INTO segment_snapshots (segment_id, contact_id) SELECT ${opts.row.id}::uuid, m.id FROM (${members}) m`,
    );
    await tx.execute(sql`UPDATE segments SET tracked_at = now() WHERE id = ${opts.row.id}::uuid`);
  });
}

/** The data of a membership event. */
const eventData = (row: SegmentRow) =>
  sql`jsonb_build_object('segmentId', ${row.id}::text, 'segmentName', ${row.name}::text)`;

// Side effect: brings the snapshot up to date and records an event for each contact that entered or left.
export async function recomputeMembership(opts: {
  db: Executor;
  row: SegmentRow;
}): Promise<{ entered: number; exited: number }> {
  const { row } = opts;
  const members = await membersNow(opts.db, row);
  // One statement: every CTE sees the snapshot as it was before it, so the two differences do not overlap.
  const result = await opts.db.execute(sql`
    WITH now_in AS MATERIALIZED (${members}),
    entered AS (
      INSERT INTO segment_snapshots (segment_id, contact_id)
      SELECT ${row.id}::uuid, n.id FROM now_in n
      WHERE NOT EXISTS (SELECT 1 FROM segment_snapshots s WHERE s.segment_id = ${row.id}::uuid AND s.contact_id = n.id)
      RETURNING contact_id
    ),
    exited AS (
      DELETE FROM segment_snapshots s WHERE s.segment_id = ${row.id}::uuid
        AND NOT EXISTS (SELECT 1 FROM now_in n WHERE n.id = s.contact_id)
      RETURNING contact_id
    ),
    logged AS (
      ${eventsFrom(sql`SELECT herald_uuid7(), ${row.projectId}::uuid, m.contact_id, m.name, ${eventData(row)} FROM (
        SELECT contact_id, 'segment.entered' AS name FROM entered UNION ALL SELECT contact_id, 'segment.exited' FROM
          exited) m`)}
    ),
    touched AS (UPDATE segments SET tracked_at = now() WHERE id = ${row.id}::uuid)
    SELECT (SELECT count(*) FROM entered)::int AS entered, (SELECT count(*) FROM exited)::int AS exited`);
  const [counts] = rowsOf<{ entered: number; exited: number }>(result);
  return { entered: Number(counts?.entered ?? 0), exited: Number(counts?.exited ?? 0) };
}

/**
 * Side effect: adds contacts to a list (STATIC segment) and, when it is tracked, records segment.entered for each
 * one that was not a member yet, in the same statement. Returns the contacts added.
 */
export async function insertMembers(db: Executor, row: SegmentRow, contactIds: string[]): Promise<string[]> {
  if (contactIds.length === 0) return [];
  const ids = sql.join(
    contactIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const result = await db.execute(sql`
    WITH added AS (
      INSERT INTO segment_members (segment_id, contact_id)
      SELECT ${row.id}::uuid, c.id FROM contacts c WHERE c.project_id = ${row.projectId}::uuid AND c.id IN (${ids})
      ON CONFLICT DO NOTHING RETURNING contact_id
    ),
    logged AS (${eventsFrom(sql`SELECT herald_uuid7(), ${row.projectId}::uuid, a.contact_id, 'segment.entered',
      ${eventData(row)} FROM added a WHERE ${row.trackMembership}`)})
    SELECT contact_id FROM added`);
  return rowsOf<{ contact_id: string }>(result).map((r) => r.contact_id);
}

/** Removes contacts from a list, recording segment.exited for each when it is tracked. */
export async function deleteMembers(db: Executor, row: SegmentRow, contactIds: string[]): Promise<number> {
  if (contactIds.length === 0) return 0;
  const ids = sql.join(
    contactIds.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const result = await db.execute(sql`
    WITH removed AS (
      DELETE FROM segment_members WHERE segment_id = ${row.id}::uuid AND contact_id IN (${ids}) RETURNING contact_id
    ),
    logged AS (${eventsFrom(sql`SELECT herald_uuid7(), ${row.projectId}::uuid, r.contact_id, 'segment.exited',
      ${eventData(row)} FROM removed r WHERE ${row.trackMembership}`)})
    SELECT count(*)::int AS removed FROM removed`);
  return Number(rowsOf<{ removed: number }>(result)[0]?.removed ?? 0);
}
