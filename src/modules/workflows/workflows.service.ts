import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { findOr404, notFound } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { isId, newId } from '../../lib/ids.ts';
import { sameJson } from '../../lib/same-json.ts';
import { toPage } from '../../lib/pagination.ts';
import { changesOf, recordAudit } from '../audit/index.ts';
import { requireSegmentRefs, requireTrackedSegment } from '../segments/index.ts';
import { findTemplatesByIds } from '../templates/index.ts';
import { cancelExecutions } from './workflows.executions.repo.ts';
import * as repo from './workflows.repo.ts';
import type { StepView } from './workflows.schemas.ts';
import { SEGMENT_TRIGGER_EVENTS, type Step, type Trigger } from './workflows.types.ts';
import { checkSteps, checkTrigger, templateErrors } from './workflows.validate.ts';

export interface WorkflowInput {
  name?: string | undefined;
  description?: string | null | undefined;
  enabled?: boolean | undefined;
  allowReentry?: boolean | undefined;
  trigger?: unknown;
  steps?: unknown;
}

/** The API shape of a workflow. */
export function toWorkflowView(row: repo.WorkflowWithSteps) {
  const trigger = triggerOf(row);
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    enabled: row.enabled,
    allowReentry: row.allowReentry,
    trigger,
    steps: row.steps as unknown as StepView[],
    version: row.version,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

// The definition's steps checked (422 naming the path), with the templates, segments and topics they name checked in
// `tx`.
async function checkedSteps(ctx: AppContext, tx: Executor, projectId: string, value: unknown): Promise<Step[]> {
  const checked = checkSteps(value, { allowPrivate: ctx.config.webhookAllowPrivate });
  templateErrors(
    checked.templates,
    await findTemplatesByIds({ db: tx, projectId, ids: [...new Set(checked.templates.map((t) => t.id))] }),
  );
  if (checked.filterRefs.length > 0) await requireSegmentRefs(tx, projectId, checked.filterRefs);
  return checked.steps;
}

/** The stored trigger as the API shows it: a segment trigger is stored as EVENT on its event name, for one segment. */
function triggerOf(row: Pick<repo.WorkflowWithSteps, 'triggerType' | 'triggerEvent' | 'triggerSegmentId'>): Trigger {
  if (row.triggerType === 'MANUAL') return { type: 'MANUAL' };
  if (row.triggerSegmentId)
    return {
      type: row.triggerEvent === SEGMENT_TRIGGER_EVENTS.SEGMENT_EXITED ? 'SEGMENT_EXITED' : 'SEGMENT_ENTERED',
      segmentId: row.triggerSegmentId,
    };
  return { type: 'EVENT', event: row.triggerEvent! };
}

function triggerColumns(trigger: Trigger) {
  if (trigger.type === 'MANUAL') return { triggerType: 'MANUAL' as const, triggerEvent: null, triggerSegmentId: null };
  if (trigger.type === 'EVENT')
    return { triggerType: 'EVENT' as const, triggerEvent: trigger.event, triggerSegmentId: null };
  return {
    triggerType: 'EVENT' as const,
    triggerEvent: SEGMENT_TRIGGER_EVENTS[trigger.type],
    triggerSegmentId: trigger.segmentId,
  };
}

/**
 * A segment trigger's segment must be one of the project's and track its membership (422 on trigger.segmentId);
 * share-locked until commit.
 */
async function checkTriggerSegment(tx: Executor, projectId: string, trigger: Trigger): Promise<void> {
  if (trigger.type === 'SEGMENT_ENTERED' || trigger.type === 'SEGMENT_EXITED')
    await requireTrackedSegment({ db: tx, projectId, id: trigger.segmentId, path: 'trigger.segmentId' });
}

/**
 * Records `workflow.<verb>` in the audit log with the fields that changed, in the transaction of the change. Steps
 * are named, not copied: a WEBHOOK step's headers may hold the receiver's credentials, a CONDITION may name people.
 */
function recordWorkflowChange(
  tx: Executor,
  verb: string,
  before: repo.WorkflowWithSteps | null,
  after: repo.WorkflowWithSteps,
): Promise<void> {
  const fields = (row: repo.WorkflowWithSteps | null) =>
    row && {
      name: row.name,
      description: row.description,
      enabled: row.enabled,
      allowReentry: row.allowReentry,
      trigger: triggerOf(row),
      steps: row.steps,
      version: row.version,
    };
  return recordAudit(tx, {
    action: `workflow.${verb}`,
    resourceType: 'workflow',
    resourceId: after.id,
    projectId: after.projectId,
    changes: changesOf(fields(before), fields(after)!, { redact: ['steps'] }),
  });
}

/** POST /workflows: a disabled workflow unless `enabled: true`; steps get ids where they have none. */
export async function createWorkflow(opts: {
  ctx: AppContext;
  projectId: string;
  input: WorkflowInput & { name: string };
}) {
  const { ctx, projectId, input } = opts;
  const trigger = checkTrigger(input.trigger);
  const row = await ctx.db.transaction(async (tx) => {
    await checkTriggerSegment(tx, projectId, trigger);
    const steps = await checkedSteps(ctx, tx, projectId, input.steps ?? []);
    const created = await repo.insertWorkflow(
      tx,
      {
        id: newId(),
        projectId,
        name: input.name,
        description: input.description ?? null,
        enabled: input.enabled ?? false,
        allowReentry: input.allowReentry ?? false,
        ...triggerColumns(trigger),
      },
      steps,
    );
    await recordWorkflowChange(tx, 'created', null, created);
    return created;
  });
  return toWorkflowView(row);
}

/** A live workflow of the project, or 404 (also for another project's or a deleted one). */
export function requireWorkflow(opts: {
  db: Executor;
  projectId: string;
  id: string;
  lock?: boolean;
}): Promise<repo.WorkflowWithSteps> {
  return findOr404('Workflow', opts.id, () =>
    repo.findWorkflow(opts.db, opts.projectId, opts.id, { lock: opts.lock ?? false }),
  );
}

export async function getWorkflow(opts: { db: Executor; projectId: string; id: string }) {
  return toWorkflowView(await requireWorkflow({ db: opts.db, projectId: opts.projectId, id: opts.id }));
}

export async function listWorkflows(opts: {
  db: Executor;
  projectId: string;
  limit: number;
  cursor?: string | undefined;
}) {
  const { rows, total } = await repo.listWorkflows(opts.db, opts.projectId, opts);
  return toPage(rows, opts.limit, total, toWorkflowView);
}

/**
 * PATCH /workflows/{id}: steps that differ from the current ones become a new version; running executions keep theirs.
 */
export async function updateWorkflow(opts: { ctx: AppContext; projectId: string; id: string; input: WorkflowInput }) {
  const { ctx, projectId, input } = opts;
  const trigger = input.trigger === undefined ? undefined : checkTrigger(input.trigger);
  const row = await ctx.db.transaction(async (tx) => {
    const current = await requireWorkflow({ db: tx, projectId: projectId, id: opts.id, lock: true });
    if (trigger) await checkTriggerSegment(tx, projectId, trigger);
    const steps = input.steps === undefined ? undefined : await checkedSteps(ctx, tx, projectId, input.steps);
    // jsonb returns the stored steps with its own key order: compare them as JSON, not as strings.
    const changed = steps !== undefined && !sameJson(steps, current.steps);
    const patch = Object.fromEntries(
      Object.entries({
        name: input.name,
        description: input.description,
        enabled: input.enabled,
        allowReentry: input.allowReentry,
        ...(trigger ? triggerColumns(trigger) : {}),
      }).filter(([, v]) => v !== undefined),
    );
    const updated = await repo.updateWorkflow(tx, current, patch, changed ? steps : undefined);
    await recordWorkflowChange(tx, 'updated', current, updated);
    return updated;
  });
  return toWorkflowView(row);
}

/** DELETE /workflows/{id}: no new executions start, and running or waiting ones end CANCELLED. */
export async function deleteWorkflow(opts: { db: Executor; projectId: string; id: string }) {
  const deleted =
    isId(opts.id) &&
    (await opts.db.transaction(async (tx) => {
      const row = await repo.softDeleteWorkflow(tx, opts.projectId, opts.id);
      if (!row) return false;
      const cancelled = await cancelExecutions(tx, { workflowId: opts.id });
      await recordAudit(tx, {
        action: 'workflow.deleted',
        resourceType: 'workflow',
        resourceId: opts.id,
        projectId: opts.projectId,
        changes: {
          name: [row.name, null],
          ...(cancelled.length > 0 ? { executionsCancelled: [null, cancelled.length] } : {}),
        },
      });
      return true;
    }));
  if (!deleted) throw notFound('Workflow');
  return { id: opts.id, deleted: true as const };
}
