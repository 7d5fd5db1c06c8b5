// Runs one step of one execution (the `workflow-step` job). The job carries the execution's seq: it runs only
// while the row still has it, under the row's lock, and the transaction that records the step also moves the
// row on and queues the next job, so each step runs once even when a worker dies mid-way.
import type { AppContext } from '../../context.types.ts';
import type { Tx } from '../../db/client.ts';
import type { ExecutionStatus } from '../../db/schema/index.ts';
import type { JobMeta } from '../../queue/registry.ts';
import { findContact } from '../contacts/index.ts';
import { emitWebhookEvents } from '../webhooks/index.ts';
import * as repo from './workflows.executions.repo.ts';
import { findVersionSteps } from './workflows.repo.ts';
import { planSteps, type Plan, type PlannedStep } from './workflows.plan.ts';
import { StepFailure, type Outcome, type Phase, type StepRunner } from './workflows.outcome.ts';
import { runSendEmail } from './workflows.step.email.ts';
import { runCondition, runDelay, runExit, runUpdateContact, runWaitForEvent, waitOf } from './workflows.step.flow.ts';
import { runWebhook } from './workflows.step.webhook.ts';
import type { StepType } from './workflows.types.ts';

export interface StepJobPayload {
  executionId: string;
  seq: number;
  phase: Phase;
}

/** Queues a step job in the caller's transaction (the pump, and each step for the next). */
export type EnqueueStep = (ctx: AppContext, tx: Tx, payload: StepJobPayload, startAfter?: Date) => Promise<void>;

const RUNNERS: Record<StepType, StepRunner> = {
  SEND_EMAIL: runSendEmail,
  DELAY: runDelay,
  WAIT_FOR_EVENT: runWaitForEvent,
  CONDITION: runCondition,
  UPDATE_CONTACT: runUpdateContact,
  WEBHOOK: runWebhook,
  EXIT: runExit,
};

// Versions never change once written: their plans are kept (bounded).
const PLAN_CACHE_SIZE = 1000;
const PLANS = Symbol('the plans of workflow versions');

async function planOf(ctx: AppContext, workflowId: string, version: number): Promise<Plan | null> {
  const plans = ctx.resources.of(PLANS, () => new Map<string, Plan>());
  const key = `${workflowId}:${version}`;
  const cached = plans.get(key);
  if (cached) return cached;
  const steps = await findVersionSteps(ctx.db, workflowId, version);
  if (!steps) return null;
  const plan = planSteps(steps);
  plans.set(key, plan);
  if (plans.size > PLAN_CACHE_SIZE) plans.delete(plans.keys().next().value!);
  return plan;
}

/** The statuses an execution must have for a job of this phase: a DELAY's end and a WAIT's time-out find it WAITING. */
function expectedStatuses(phase: Phase): ExecutionStatus[] {
  return phase === 'resume' || phase === 'timeout' ? ['WAITING'] : ['RUNNING'];
}

// Records the outcome, moves the row on and queues what comes next, in the step's transaction. A next step that
// only begins a wait (DELAY, WAIT_FOR_EVENT) begins it here: its one job is the one due when the wait ends.
async function applyOutcome(
  ctx: AppContext,
  tx: Tx,
  exec: repo.ExecutionRow,
  plan: Plan,
  planned: PlannedStep,
  outcome: Outcome,
  enqueue: EnqueueStep,
): Promise<void> {
  const stepId = planned.step.id;
  const following = outcome.kind === 'next' && outcome.to !== null ? plan.steps.get(outcome.to) : undefined;
  const wait = following ? waitOf(following.step) : null;
  if (outcome.kind === 'next' && following && wait) {
    const seq = await repo.applyTransition(tx, exec.id, exec.seq, {
      status: 'WAITING',
      currentStepId: following.step.id,
      waitEvent: wait.event ?? null,
      wakeAt: wait.until,
      history: outcome.entry,
    });
    if (seq !== null) await enqueue(ctx, tx, { executionId: exec.id, seq, phase: wait.then }, wait.until);
  } else if (outcome.kind === 'end') {
    await finishExecution(tx, exec, outcome.status, { currentStepId: stepId, history: outcome.entry });
  } else if (outcome.kind === 'wait') {
    const seq = await repo.applyTransition(tx, exec.id, exec.seq, {
      status: 'WAITING',
      currentStepId: stepId,
      waitEvent: outcome.event ?? null,
      wakeAt: outcome.until,
    });
    if (seq !== null) await enqueue(ctx, tx, { executionId: exec.id, seq, phase: outcome.then }, outcome.until);
  } else if (outcome.to === null) {
    await finishExecution(tx, exec, 'COMPLETED', { currentStepId: null, history: outcome.entry });
  } else {
    const seq = await repo.applyTransition(tx, exec.id, exec.seq, {
      status: 'RUNNING',
      currentStepId: outcome.to,
      history: outcome.entry,
    });
    if (seq !== null) await enqueue(ctx, tx, { executionId: exec.id, seq, phase: 'run' });
  }
}

/** Moves an execution to a final status; COMPLETED and FAILED are pushed to webhooks in the same transaction. */
async function finishExecution(
  tx: Tx,
  exec: repo.ExecutionRow,
  status: 'COMPLETED' | 'FAILED' | 'EXITED',
  change: Omit<repo.Transition, 'status'>,
): Promise<void> {
  const seq = await repo.applyTransition(tx, exec.id, exec.seq, { ...change, status });
  if (seq === null || status === 'EXITED') return;
  const error = status === 'FAILED' ? change.history?.error : undefined;
  await emitWebhookEvents(tx, [
    {
      projectId: exec.projectId,
      type: status === 'COMPLETED' ? 'workflow.execution.completed' : 'workflow.execution.failed',
      data: {
        workflowId: exec.workflowId,
        executionId: exec.id,
        contactId: exec.contactId,
        version: exec.version,
        ...(error ? { error } : {}),
      },
    },
  ]);
}

/** Ends an execution FAILED (or EXITED) with a history entry, if it still has `seq`. */
async function endExecution(
  ctx: AppContext,
  exec: repo.ExecutionRow,
  planned: PlannedStep | { step: { id: string; type: string } },
  status: 'FAILED' | 'EXITED',
  detail: { error?: string; reason?: string },
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const locked = await repo.lockExecution(tx, exec.id, exec.seq, repo.ACTIVE_STATUSES);
    if (!locked) return;
    const entry = {
      stepId: planned.step.id,
      type: planned.step.type,
      status,
      at: new Date().toISOString(),
      ...(detail.error ? { error: detail.error.slice(0, 1000) } : {}),
      ...(detail.reason ? { detail: { reason: detail.reason } } : {}),
    };
    await finishExecution(tx, exec, status, { currentStepId: planned.step.id, history: entry });
  });
}

/**
 * The `workflow-step` job: a StepFailure (or the last retry of any error) ends the execution FAILED with the
 * error in its history; other errors are thrown for the queue to retry. Other executions are never touched.
 * While the execution's project is disabled the step is held instead (the pump queues it again on enable).
 */
export async function runStepJob(
  ctx: AppContext,
  payload: StepJobPayload,
  job: JobMeta,
  enqueue: EnqueueStep,
): Promise<void> {
  const exec = await repo.findExecutionForStep(ctx.db, payload.executionId);
  const statuses = expectedStatuses(payload.phase);
  // stale: the step already ran, or it was cancelled
  if (!exec || exec.seq !== payload.seq || !statuses.includes(exec.status)) return;
  // A disabled project runs no step (no email, request or contact change): the step is held until it is enabled.
  if (
    exec.projectDisabled &&
    (await ctx.db.transaction((tx) => repo.holdExecution(tx, exec, statuses, payload.phase))) !== 'enabled'
  )
    return;
  const plan = await planOf(ctx, exec.workflowId, exec.version);
  const stepId = payload.phase === 'start' ? plan?.first : exec.currentStepId;
  const planned = stepId ? plan?.steps.get(stepId) : undefined;
  if (!planned) {
    if (plan && stepId === null) await completeEmpty(ctx, exec);
    else
      await endExecution(ctx, exec, { step: { id: stepId ?? 'unknown', type: 'UNKNOWN' } }, 'FAILED', {
        error: 'the step is not part of this version',
      });
    return;
  }
  const contact = await findContact({ db: ctx.db, projectId: exec.projectId, id: exec.contactId });
  if (!contact) return endExecution(ctx, exec, planned, 'EXITED', { reason: 'CONTACT_DELETED' });
  try {
    const commit = await RUNNERS[planned.step.type](ctx, { exec, planned, phase: payload.phase, contact });
    await ctx.db.transaction(async (tx) => {
      const locked = await repo.lockExecution(tx, exec.id, exec.seq, statuses);
      if (!locked) return;
      await applyOutcome(ctx, tx, locked, plan!, planned, await commit(tx), enqueue);
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof StepFailure || job.retryCount >= job.retryLimit)
      return endExecution(ctx, exec, planned, 'FAILED', { error: message });
    throw error;
  }
}

// A version without steps completes at once.
async function completeEmpty(ctx: AppContext, exec: repo.ExecutionRow): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    if (await repo.lockExecution(tx, exec.id, exec.seq, ['RUNNING']))
      await finishExecution(tx, exec, 'COMPLETED', { currentStepId: null });
  });
}
