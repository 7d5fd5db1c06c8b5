import type { AppContext, HoldLifted } from '../../context.types.ts';
import type { ExecutionStatus } from '../../db/schema/index.ts';
import { AppError, findOr404, validationError } from '../../lib/errors.ts';
import { iso } from '../../lib/http.ts';
import { toPage } from '../../lib/pagination.ts';
import { recordAudit } from '../audit/index.ts';
import { findContact, findContactEmails } from '../contacts/index.ts';
import * as repo from './workflows.executions.repo.ts';
import { requireWorkflow } from './workflows.service.ts';
import type { Executor } from '../../db/client.ts';

type ContactEmails = Map<string, { email: string; emailUnicode: string }>;

/** The API shape of an execution, with its contact's address when the contact still exists. */
export function toExecutionView(row: repo.ExecutionRow, contacts: ContactEmails = new Map()) {
  return {
    id: row.id,
    workflowId: row.workflowId,
    version: row.version,
    contactId: row.contactId,
    contact: contacts.get(row.contactId) ?? null,
    status: row.status,
    currentStepId: row.currentStepId,
    statusReason: row.heldPhase ? ('HELD_PROJECT_DISABLED' as const) : null,
    history: row.history,
    startedAt: iso(row.createdAt),
    finishedAt: iso(row.finishedAt),
  };
}

/** GET /workflows/{id}/executions: newest first, optionally one status. */
export async function listExecutions(opts: {
  db: Executor;
  projectId: string;
  id: string;
  status?: ExecutionStatus | undefined;
  limit: number;
  cursor?: string | undefined;
}) {
  const workflow = await requireWorkflow({ db: opts.db, projectId: opts.projectId, id: opts.id });
  const { rows, total } = await repo.listExecutions(opts.db, workflow.id, opts);
  const contacts = await findContactEmails({
    db: opts.db,
    projectId: opts.projectId,
    ids: rows.map((r) => r.contactId),
  });
  return toPage(rows, opts.limit, total, (row) => toExecutionView(row, contacts));
}

/** One execution's view, its contact's address looked up. */
async function viewOf(db: Executor, projectId: string, row: repo.ExecutionRow) {
  return toExecutionView(row, await findContactEmails({ db, projectId, ids: [row.contactId] }));
}

async function requireExecution(opts: {
  db: Executor;
  projectId: string;
  id: string;
  executionId: string;
}): Promise<repo.ExecutionRow> {
  const workflow = await requireWorkflow(opts);
  return findOr404('Execution', opts.executionId, () => repo.findExecution(opts.db, workflow.id, opts.executionId));
}

export async function getExecution(opts: { db: Executor; projectId: string; id: string; executionId: string }) {
  return viewOf(
    opts.db,
    opts.projectId,
    await requireExecution({ db: opts.db, projectId: opts.projectId, id: opts.id, executionId: opts.executionId }),
  );
}

/**
 * POST /workflows/{id}/executions {contactId}: starts one execution now (any trigger type; the workflow must be
 * enabled). 409 when allowReentry is off and the contact already had an execution of this workflow.
 */
export async function startExecution(opts: { ctx: AppContext; projectId: string; id: string; contactId: string }) {
  const { ctx, projectId } = opts;
  const row = await ctx.db.transaction(async (tx) => {
    const workflow = await requireWorkflow({ db: tx, projectId: projectId, id: opts.id });
    if (!workflow.enabled)
      throw new AppError('CONFLICT', 'The workflow is disabled; enable it to start executions', {
        suggestion: 'PATCH /workflows/{id} {"enabled": true}',
      });
    const contact = await findContact({ db: tx, projectId, id: opts.contactId.toLowerCase() });
    if (!contact) throw validationError('contactId', 'no contact of this project has this id', 'unknown_contact');
    const created = await repo.insertManualExecution(tx, workflow, contact.id);
    if (!created)
      throw new AppError('CONFLICT', 'This contact already went through the workflow and allowReentry is off');
    await recordAudit(tx, {
      action: 'workflow_execution.started',
      resourceType: 'workflow_execution',
      resourceId: created.id,
      projectId,
      changes: { workflowId: [null, workflow.id], contactId: [null, contact.id], version: [null, created.version] },
    });
    return created;
  });
  return viewOf(ctx.db, projectId, row);
}

/** POST …/executions/{executionId}/cancel: a RUNNING or WAITING execution ends CANCELLED (409 otherwise). */
export async function cancelExecution(opts: { db: Executor; projectId: string; id: string; executionId: string }) {
  const existing = await requireExecution({
    db: opts.db,
    projectId: opts.projectId,
    id: opts.id,
    executionId: opts.executionId,
  });
  const row = await opts.db.transaction(async (tx) => {
    const [cancelled] = await repo.cancelExecutions(tx, { workflowId: existing.workflowId, id: existing.id });
    if (cancelled) {
      await recordAudit(tx, {
        action: 'workflow_execution.cancelled',
        resourceType: 'workflow_execution',
        resourceId: cancelled.id,
        projectId: opts.projectId,
        changes: { status: [existing.status, cancelled.status] },
      });
    }
    return cancelled;
  });
  if (!row)
    throw new AppError(
      'CONFLICT',
      `The execution is ${existing.status}; only RUNNING or WAITING executions can be cancelled`,
    );
  return viewOf(opts.db, opts.projectId, row);
}

/** A project enabled again: its executions held while it was disabled go on from the step they were held at. */
export async function releaseHeldWorkflows(opts: HoldLifted): Promise<void> {
  if (opts.cause === 'PROJECT_DISABLED') await repo.releaseHeldExecutions(opts.db, opts.projectId);
}
