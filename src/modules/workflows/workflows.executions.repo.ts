// Named queries on workflow executions: the API's reads, manual starts and cancels, and the engine's
// guarded transitions (every write names the seq it expects, so a stale job changes nothing).
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { workflowExecutions, type ExecutionStatus, type StepPhase, type HistoryEntry } from '../../db/schema/index.ts';
import { newId } from '../../lib/ids.ts';
import { listPage } from '../../db/list-page.ts';

export type ExecutionRow = typeof workflowExecutions.$inferSelect;

/** Allowed status changes of an execution; every update below is guarded by one of these lists. */
export const EXECUTION_TRANSITIONS = {
  RUNNING: ['RUNNING', 'WAITING'],
  WAITING: ['RUNNING', 'WAITING'],
  COMPLETED: ['RUNNING', 'WAITING'],
  EXITED: ['RUNNING', 'WAITING'],
  FAILED: ['RUNNING', 'WAITING'],
  CANCELLED: ['RUNNING', 'WAITING'],
} as const satisfies Record<ExecutionStatus, readonly ExecutionStatus[]>;

export const ACTIVE_STATUSES: ExecutionStatus[] = ['RUNNING', 'WAITING'];
const FINAL: ExecutionStatus[] = ['COMPLETED', 'EXITED', 'FAILED', 'CANCELLED'];

export async function listExecutions(
  db: Executor,
  workflowId: string,
  opts: { status?: ExecutionStatus | undefined; limit: number; cursor?: string | undefined },
) {
  const where = and(
    eq(workflowExecutions.workflowId, workflowId),
    opts.status ? eq(workflowExecutions.status, opts.status) : undefined,
  );
  return listPage(db, workflowExecutions, where, opts);
}

export async function findExecution(db: Executor, workflowId: string, id: string): Promise<ExecutionRow | null> {
  const [row] = await db
    .select()
    .from(workflowExecutions)
    .where(and(eq(workflowExecutions.workflowId, workflowId), eq(workflowExecutions.id, id)));
  return row ?? null;
}

export async function findExecutionById(db: Executor, id: string): Promise<ExecutionRow | null> {
  const [row] = await db.select().from(workflowExecutions).where(eq(workflowExecutions.id, id));
  return row ?? null;
}

/** An execution for its step job, with whether its project is disabled now (one query). */
export async function findExecutionForStep(
  db: Executor,
  id: string,
): Promise<(ExecutionRow & { projectDisabled: boolean }) | null> {
  const [row] = await db
    .select({
      ...getTableColumns(workflowExecutions),
      projectDisabled: sql<boolean>`EXISTS (SELECT 1 FROM projects p
          WHERE p.id = ${workflowExecutions.projectId} AND p.disabled)`.mapWith(Boolean),
    })
    .from(workflowExecutions)
    .where(eq(workflowExecutions.id, id));
  return row ?? null;
}

/**
 * Holds the due step of an execution whose project is disabled: the execution keeps its status and place, remembers the
 * job's phase, and no longer waits for an event (the step came due first). The project row is share-locked first, so an
 * enable in progress waits for the hold to commit (its trigger then releases it), and one that committed before is
 * seen: 'enabled' then, and nothing is held.
 */
export async function holdExecution(
  tx: Executor,
  exec: Pick<ExecutionRow, 'id' | 'seq' | 'projectId'>,
  statuses: readonly ExecutionStatus[],
  phase: StepPhase,
): Promise<'held' | 'enabled' | 'stale'> {
  const [project] = rowsOf<{ disabled: boolean }>(
    await tx.execute(sql`SELECT disabled FROM projects WHERE id = ${exec.projectId} FOR SHARE`),
  );
  if (!project) return 'stale';
  if (!project.disabled) return 'enabled';
  const rows = await tx
    .update(workflowExecutions)
    .set({ heldPhase: phase, waitEvent: null, seq: sql`${workflowExecutions.seq} + 1`, updatedAt: sql`now()` })
    .where(
      and(
        eq(workflowExecutions.id, exec.id),
        eq(workflowExecutions.seq, exec.seq),
        inArray(workflowExecutions.status, [...statuses]),
      ),
    )
    .returning({ id: workflowExecutions.id });
  return rows.length === 1 ? 'held' : 'stale';
}

/**
 * Starts a MANUAL execution, marked pending for the pump; null when allowReentry is off and the contact already had one
 * (the unique index settles two simultaneous starts).
 */
export async function insertManualExecution(
  tx: Executor,
  w: { projectId: string; id: string; version: number; allowReentry: boolean },
  contactId: string,
): Promise<ExecutionRow | null> {
  const result = await tx.execute(sql`
    INSERT INTO workflow_executions (id, project_id, workflow_id, version, contact_id, status, once, pending)
    SELECT ${newId()}, ${w.projectId}, ${w.id}, ${w.version}, ${contactId}, 'RUNNING', ${!w.allowReentry}, 'START'
    WHERE ${w.allowReentry} OR NOT EXISTS (SELECT 1 FROM workflow_executions p WHERE p.contact_id = ${contactId} AND
      p.workflow_id = ${w.id})
    ON CONFLICT (workflow_id, contact_id) WHERE once DO NOTHING
    RETURNING id`);
  const [row] = (result as unknown as { rows: { id: string }[] }).rows;
  return row ? findExecutionById(tx, row.id) : null;
}

/** Ends active executions (one, or all of a workflow) as CANCELLED; their queued jobs become stale. */
export async function cancelExecutions(
  tx: Executor,
  where: { workflowId: string; id?: string },
): Promise<ExecutionRow[]> {
  return tx
    .update(workflowExecutions)
    .set({
      status: 'CANCELLED',
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
      pending: null,
      heldPhase: null,
      waitEvent: null,
      seq: sql`${workflowExecutions.seq} + 1`,
    })
    .where(
      and(
        eq(workflowExecutions.workflowId, where.workflowId),
        where.id ? eq(workflowExecutions.id, where.id) : undefined,
        inArray(workflowExecutions.status, [...EXECUTION_TRANSITIONS.CANCELLED]),
      ),
    )
    .returning();
}

/** An execution the pump claimed: its step job is queued with this seq and phase (none when `gone`). */
export interface ClaimedExecution {
  id: string;
  seq: number;
  phase: StepPhase;
  gone: boolean;
}

/**
 * Takes up to `limit` executions the events trigger started or woke, or an enabled project released, clearing their
 * marks; the caller queues step jobs for them in the same transaction. One whose workflow was deleted meanwhile (a
 * trigger racing the DELETE) ends CANCELLED instead (`gone`).
 */
export async function claimPending(tx: Executor, limit: number): Promise<ClaimedExecution[]> {
  const result = await tx.execute(sql`
    WITH due AS (
      SELECT x.id, x.pending, x.held_phase, w.deleted_at IS NOT NULL AS gone
      FROM workflow_executions x JOIN workflows w ON w.id = x.workflow_id
      WHERE x.pending IS NOT NULL
      ORDER BY x.updated_at LIMIT ${limit} FOR UPDATE OF x SKIP LOCKED
    )
    UPDATE workflow_executions x SET pending = NULL, held_phase = NULL,
      status = CASE WHEN due.gone THEN 'CANCELLED' ELSE x.status END,
      finished_at = CASE WHEN due.gone THEN now() ELSE x.finished_at END
    FROM due WHERE x.id = due.id
    RETURNING x.id, x.seq, due.pending, due.held_phase, due.gone`);
  return rowsOf<{
    id: string;
    seq: number;
    pending: 'START' | 'EVENT' | 'RELEASE';
    held_phase: StepPhase | null;
    gone: boolean;
  }>(result).map((r) => ({
    id: r.id,
    seq: Number(r.seq),
    // A released execution goes on with the job it was held at; a start or a wake has its own.
    phase: r.pending === 'RELEASE' ? (r.held_phase ?? 'run') : r.pending === 'START' ? 'start' : 'event',
    gone: Boolean(r.gone),
  }));
}

/** Whether any execution waits for the pump (one index probe; the pump's idle check). */
export async function hasPending(db: Executor): Promise<boolean> {
  const result = await db.execute(
    sql`SELECT EXISTS (SELECT 1 FROM workflow_executions WHERE pending IS NOT NULL) AS due`,
  );
  return Boolean((result as unknown as { rows: { due: boolean }[] }).rows[0]?.due);
}

/** Locks an execution for a step run when it still has `seq` and one of `statuses`; null = the job is stale. */
export async function lockExecution(
  tx: Executor,
  id: string,
  seq: number,
  statuses: readonly ExecutionStatus[],
): Promise<ExecutionRow | null> {
  const [row] = await tx
    .select()
    .from(workflowExecutions)
    .where(
      and(
        eq(workflowExecutions.id, id),
        eq(workflowExecutions.seq, seq),
        inArray(workflowExecutions.status, [...statuses]),
      ),
    )
    .for('update');
  return row ?? null;
}

export interface Transition {
  status: ExecutionStatus;
  currentStepId: string | null;
  waitEvent?: string | null;
  wakeAt?: Date | null;
  history?: HistoryEntry;
}

/**
 * Moves a locked execution on (seq + 1), appending a history entry; returns the new seq, or null when the row no longer
 * had `seq` (cancelled or moved on meanwhile).
 */
export async function applyTransition(tx: Executor, id: string, seq: number, t: Transition): Promise<number | null> {
  const [row] = await tx
    .update(workflowExecutions)
    .set({
      status: t.status,
      currentStepId: t.currentStepId,
      waitEvent: t.waitEvent ?? null,
      wakeAt: t.wakeAt ?? null,
      seq: sql`${workflowExecutions.seq} + 1`,
      updatedAt: sql`now()`,
      ...(t.history ? { history: sql`${workflowExecutions.history} || ${JSON.stringify([t.history])}::jsonb` } : {}),
      ...(FINAL.includes(t.status) ? { finishedAt: sql`now()` } : {}),
    })
    .where(
      and(
        eq(workflowExecutions.id, id),
        eq(workflowExecutions.seq, seq),
        inArray(workflowExecutions.status, [...EXECUTION_TRANSITIONS[t.status]]),
      ),
    )
    .returning({ seq: workflowExecutions.seq });
  return row ? row.seq : null;
}

/**
 * The project's executions held while it was disabled are marked for the workflows pump, which queues their step jobs
 * again at its next poll.
 */
export async function releaseHeldExecutions(db: Executor, projectId: string): Promise<void> {
  await db.execute(sql`
    UPDATE workflow_executions SET pending = 'RELEASE', updated_at = now()
    WHERE project_id = ${projectId}::uuid AND held_phase IS NOT NULL AND status IN ('RUNNING', 'WAITING')`);
}
