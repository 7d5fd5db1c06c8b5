// Named queries on workflows and their versions.
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { workflows, workflowVersions } from '../../db/schema/index.ts';
import { afterCursor } from '../../lib/pagination.ts';
import type { Step } from './workflows.types.ts';

export type WorkflowRow = typeof workflows.$inferSelect;
export type WorkflowWithSteps = WorkflowRow & { steps: Step[] };

const live = (projectId: string) => and(eq(workflows.projectId, projectId), isNull(workflows.deletedAt));
const withSteps = { workflow: workflows, steps: workflowVersions.steps };
const versionJoin = and(eq(workflowVersions.workflowId, workflows.id), eq(workflowVersions.version, workflows.version));

const merge = (row: { workflow: WorkflowRow; steps: unknown[] }): WorkflowWithSteps => ({
  ...row.workflow,
  steps: row.steps as Step[],
});

/** Creates a workflow and its first version. */
export async function insertWorkflow(
  tx: Executor,
  row: typeof workflows.$inferInsert,
  steps: Step[],
): Promise<WorkflowWithSteps> {
  const [created] = await tx
    .insert(workflows)
    .values({ ...row, version: 1 })
    .returning();
  await tx.insert(workflowVersions).values({ workflowId: created!.id, version: 1, steps });
  return { ...created!, steps };
}

/** A live (not deleted) workflow of the project with the steps of its current version. */
export async function findWorkflow(
  db: Executor,
  projectId: string,
  id: string,
  opts: { lock?: boolean } = {},
): Promise<WorkflowWithSteps | null> {
  const query = db
    .select(withSteps)
    .from(workflows)
    .innerJoin(workflowVersions, versionJoin)
    .where(and(live(projectId), eq(workflows.id, id)));
  const [row] = opts.lock ? await query.for('update', { of: workflows }) : await query;
  return row ? merge(row) : null;
}

export async function listWorkflows(
  db: Executor,
  projectId: string,
  opts: { limit: number; cursor?: string | undefined },
) {
  const [rows, [total]] = await Promise.all([
    db
      .select(withSteps)
      .from(workflows)
      .innerJoin(workflowVersions, versionJoin)
      .where(and(live(projectId), afterCursor(workflows.createdAt, workflows.id, opts.cursor)))
      .orderBy(desc(workflows.createdAt), desc(workflows.id))
      .limit(opts.limit + 1),
    db.select({ n: count() }).from(workflows).where(live(projectId)),
  ]);
  return { rows: rows.map(merge), total: total?.n ?? 0 };
}

/** Changes a workflow's settings; `steps` (when given) become a new version that new executions start on. */
export async function updateWorkflow(
  tx: Executor,
  current: WorkflowRow,
  patch: Partial<typeof workflows.$inferInsert>,
  steps?: Step[],
): Promise<WorkflowWithSteps> {
  const version = steps ? current.version + 1 : current.version;
  if (steps) await tx.insert(workflowVersions).values({ workflowId: current.id, version, steps });
  const [row] = await tx
    .update(workflows)
    .set({ ...patch, version, updatedAt: sql`now()` })
    .where(eq(workflows.id, current.id))
    .returning();
  const [stored] = steps
    ? [{ steps }]
    : await tx
        .select({ steps: workflowVersions.steps })
        .from(workflowVersions)
        .where(and(eq(workflowVersions.workflowId, current.id), eq(workflowVersions.version, version)));
  return { ...row!, steps: stored!.steps as Step[] };
}

// Side effect: marks a workflow deleted and disabled (its rows stay: emails and executions name it).
export async function softDeleteWorkflow(tx: Executor, projectId: string, id: string) {
  const [row] = await tx
    .update(workflows)
    .set({ deletedAt: sql`now()`, enabled: false, updatedAt: sql`now()` })
    .where(and(live(projectId), eq(workflows.id, id)))
    .returning({ name: workflows.name });
  return row ?? null;
}

/** The steps of one version (the engine caches them: versions never change). */
export async function findVersionSteps(db: Executor, workflowId: string, version: number): Promise<Step[] | null> {
  const [row] = await db
    .select({ steps: workflowVersions.steps })
    .from(workflowVersions)
    .where(and(eq(workflowVersions.workflowId, workflowId), eq(workflowVersions.version, version)));
  return row ? (row.steps as Step[]) : null;
}

/** Name and current state of a workflow by id alone (the engine: WEBHOOK bodies name the workflow). */
export async function findWorkflowById(db: Executor, id: string): Promise<WorkflowRow | null> {
  const [row] = await db.select().from(workflows).where(eq(workflows.id, id));
  return row ?? null;
}
