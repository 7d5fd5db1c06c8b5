import { and, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { contacts, segmentMembers, segments, type SegmentType } from '../../db/schema/index.ts';
import { keyset } from '../../lib/pagination.ts';
import { filterNames } from './filter.named.ts';
import type { Filter } from './filter.types.ts';
import { rowsOf } from '../../db/rows.ts';
import { listPage } from '../../db/list-page.ts';

export type SegmentRow = typeof segments.$inferSelect;

// Raw SQL hands jsonb back parsed on one driver and as text on the other.
const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
const idList = (ids: string[]) =>
  sql.join(
    ids.map((id) => sql`${id}::uuid`),
    sql`, `,
  );

/** Creates a segment. */
export async function insertSegment(db: Executor, row: typeof segments.$inferInsert): Promise<SegmentRow> {
  const [created] = await db.insert(segments).values(row).returning();
  return created!;
}

/** A segment of the project, or null (another project's id is simply not found). */
export async function findSegment(db: Executor, projectId: string, id: string): Promise<SegmentRow | null> {
  const [row] = await db
    .select()
    .from(segments)
    .where(and(eq(segments.projectId, projectId), eq(segments.id, id)));
  return row ?? null;
}

/** Locks the segment row until the transaction ends (update and delete take turns with uses). */
export async function lockSegment(tx: Executor, projectId: string, id: string): Promise<SegmentRow | null> {
  const [row] = await tx
    .select()
    .from(segments)
    .where(and(eq(segments.projectId, projectId), eq(segments.id, id)))
    .for('update');
  return row ?? null;
}

/** Share-locks the named segments, so none is deleted before the caller's reference commits. */
export async function lockReferencedSegments(tx: Executor, projectId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await tx
    .select({ id: segments.id })
    .from(segments)
    .where(and(eq(segments.projectId, projectId), inArray(segments.id, ids)))
    .for('share');
  return new Set(rows.map((r) => r.id));
}

/** A newest-first page of the project's segments (of one type, or the lists a contact is on), with the total. */
export async function listSegments(
  db: Executor,
  projectId: string,
  opts: {
    limit: number;
    cursor?: string | undefined;
    type?: SegmentType | undefined;
    memberId?: string | undefined;
  },
) {
  const where = and(
    eq(segments.projectId, projectId),
    opts.type ? eq(segments.type, opts.type) : undefined,
    opts.memberId
      ? inArray(
          segments.id,
          db
            .select({ id: segmentMembers.segmentId })
            .from(segmentMembers)
            .where(eq(segmentMembers.contactId, opts.memberId)),
        )
      : undefined,
  );
  return listPage(db, segments, where, opts);
}

/** Updates the given fields of a segment. */
export async function updateSegmentRow(
  db: Executor,
  projectId: string,
  id: string,
  patch: Partial<typeof segments.$inferInsert>,
): Promise<SegmentRow | null> {
  const [row] = await db
    .update(segments)
    .set({ ...patch, updatedAt: sql`now()` })
    .where(and(eq(segments.projectId, projectId), eq(segments.id, id)))
    .returning();
  return row ?? null;
}

/** Deletes a segment. */
export async function deleteSegmentRow(db: Executor, projectId: string, id: string): Promise<boolean> {
  const rows = await db
    .delete(segments)
    .where(and(eq(segments.projectId, projectId), eq(segments.id, id)))
    .returning({ id: segments.id });
  return rows.length === 1;
}

/**
 * Every segment reachable from `ids` (them included), with the one of `ids` it was reached from: one recursive query.
 */
async function segmentClosure(
  db: Executor,
  projectId: string,
  ids: string[],
): Promise<{ root: string; id: string; filter: unknown }[]> {
  if (ids.length === 0) return [];
  const result = await db.execute(sql`
    WITH RECURSIVE closure (root, id, filter, segment_refs) AS (
      SELECT id, id, filter, segment_refs FROM segments WHERE project_id = ${projectId} AND id IN (${idList(ids)})
      UNION
      SELECT c.root, s.id, s.filter, s.segment_refs FROM segments s JOIN closure c ON s.id = ANY (c.segment_refs)
      WHERE s.project_id = ${projectId}
    )
    SELECT root, id, filter FROM closure`);
  return rowsOf(result);
}

/** Stored filters of the named segments and of every segment they name in turn (null: a STATIC segment). */
export async function loadSegmentClosure(
  db: Executor,
  projectId: string,
  ids: string[],
): Promise<Map<string, Filter | null>> {
  return new Map(
    (await segmentClosure(db, projectId, ids)).map((r) => [r.id, r.filter === null ? null : json<Filter>(r.filter)]),
  );
}

/** Which of `refs` lead back to `segmentId` (directly or through other segments): a save would make a cycle. */
export async function refsReaching(
  db: Executor,
  projectId: string,
  refs: string[],
  segmentId: string,
): Promise<Set<string>> {
  return new Set((await segmentClosure(db, projectId, refs)).filter((r) => r.id === segmentId).map((r) => r.root));
}

/** Other segments of the project that include this one (up to 5 ids). */
export async function segmentsNaming(db: Executor, projectId: string, id: string): Promise<string[]> {
  const rows = await db
    .select({ id: segments.id })
    .from(segments)
    .where(and(eq(segments.projectId, projectId), sql`${id}::uuid = ANY (${segments.segmentRefs})`))
    .limit(5);
  return rows.map((r) => r.id);
}

/** Segments of the project whose filter has a condition on this topic (up to 5, by name). */
export async function segmentsNamingTopic(
  db: Executor,
  projectId: string,
  topicId: string,
): Promise<{ id: string; name: string }[]> {
  return db
    .select({ id: segments.id, name: segments.name })
    .from(segments)
    .where(and(eq(segments.projectId, projectId), filterNames(sql`${segments.filter}`, { topic: topicId })))
    .orderBy(segments.name, segments.id)
    .limit(5);
}

/** How many contacts of the project match a compiled filter. */
export async function countMatching(db: Executor, projectId: string, predicate: SQL): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(contacts)
    .where(and(eq(contacts.projectId, projectId), predicate));
  return row?.n ?? 0;
}

/** How many contacts match a compiled filter, and how many of them have no value at each of these data keys. */
export async function countMissingData(
  db: Executor,
  projectId: string,
  predicate: SQL,
  keys: string[],
): Promise<{ total: number; missing: number[] }> {
  // A key absent, null or "" counts as missing: the template renders all three as nothing.
  const lacking = keys.map((key, i) => {
    const value = sql`COALESCE(${contacts.data} -> ${key}, 'null'::jsonb)`;
    return sql`count(*) FILTER (WHERE ${value} IN ('null'::jsonb, '""'::jsonb))::int AS ${sql.identifier(`m${i}`)}`;
  });
  const result = await db.execute(
    sql`SELECT ${sql.join([sql`count(*)::int AS total`, ...lacking], sql`, `)} FROM ${contacts}
      WHERE ${and(eq(contacts.projectId, projectId), predicate)}`,
  );
  const row = rowsOf<Record<string, number>>(result)[0] ?? {};
  return { total: Number(row.total ?? 0), missing: keys.map((_, i) => Number(row[`m${i}`] ?? 0)) };
}

/** A newest-first page of the contacts matching a compiled filter. */
export async function listMatching(
  db: Executor,
  projectId: string,
  predicate: SQL,
  opts: { limit: number; cursor?: string | undefined },
) {
  const where = and(eq(contacts.projectId, projectId), predicate);
  const keys = keyset(contacts.createdAt, contacts.id, opts.cursor);
  const rows = await db
    .select()
    .from(contacts)
    .where(and(where, keys.where))
    .orderBy(...keys.orderBy)
    .limit(opts.limit + 1);
  return keys.arrange(rows, opts.limit);
}

/** Which of these ids are contacts of the project. */
export async function existingContactIds(db: Executor, projectId: string, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.projectId, projectId), inArray(contacts.id, ids)));
  return new Set(rows.map((r) => r.id));
}

/** segment.entered / segment.exited events of this segment in the last `seconds`. */
export async function countMovesSince(
  db: Executor,
  projectId: string,
  segmentId: string,
  seconds: number,
): Promise<{ entered: number; exited: number }> {
  const result = await db.execute(sql`
    SELECT count(*) FILTER (WHERE name = 'segment.entered')::int AS entered, count(*) FILTER (WHERE name =
      'segment.exited')::int AS exited
    FROM events WHERE project_id = ${projectId}::uuid AND name IN ('segment.entered', 'segment.exited')
      AND created_at >= now() - make_interval(secs => ${seconds}) AND data->>'segmentId' = ${segmentId}::text`);
  const [row] = rowsOf<{ entered: number; exited: number }>(result);
  return { entered: Number(row?.entered ?? 0), exited: Number(row?.exited ?? 0) };
}

/** Forgets a segment's tracked members (tracking was turned off). */
export async function clearSnapshot(db: Executor, segmentId: string): Promise<void> {
  await db.execute(sql`DELETE FROM segment_snapshots WHERE segment_id = ${segmentId}::uuid`);
  await db.update(segments).set({ trackedAt: null }).where(eq(segments.id, segmentId));
}

/**
 * Claims one tracked DYNAMIC segment whose members were last computed over `seconds` ago, or never (tracking turned on,
 * but the process stopped before its first snapshot), skipping those another worker holds; the caller snapshots or
 * recomputes it inside the same transaction.
 */
export async function claimDueSegment(tx: Executor, seconds: number): Promise<SegmentRow | null> {
  const [row] = await tx
    .select()
    .from(segments)
    .where(
      and(
        eq(segments.trackMembership, true),
        eq(segments.type, 'DYNAMIC'),
        sql`(${segments.trackedAt} IS NULL OR ${segments.trackedAt} < now() - make_interval(secs => ${seconds}))`,
      ),
    )
    .orderBy(sql`${segments.trackedAt} ASC NULLS FIRST`)
    .limit(1)
    .for('update', { skipLocked: true });
  return row ?? null;
}
