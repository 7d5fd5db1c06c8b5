// What one step run decides, and the types every step runner shares.
import type { AppContext } from '../../context.types.ts';
import type { Tx } from '../../db/client.ts';
import type { HistoryEntry, StepPhase } from '../../db/schema/index.ts';
import type { ContactRow } from '../contacts/index.ts';
import type { ExecutionRow } from './workflows.executions.repo.ts';
import type { PlannedStep } from './workflows.plan.ts';

/** Why a job runs: the first step, the next one, a DELAY's end, a WAIT's event or its time-out. */
export type Phase = StepPhase;

export type Outcome =
  /** The step is done: record it and go on with `to` (null: the execution completes). */
  | { kind: 'next'; to: string | null; entry: HistoryEntry }
  /** The execution waits (DELAY, WAIT_FOR_EVENT) until `until`, or until `event` for a WAIT. */
  | { kind: 'wait'; until: Date; event?: string; then: 'resume' | 'timeout' }
  /** The execution ends here. */
  | { kind: 'end'; status: 'EXITED' | 'FAILED'; entry: HistoryEntry };

export interface StepInput {
  exec: ExecutionRow;
  planned: PlannedStep;
  phase: Phase;
  contact: ContactRow;
}

/**
 * A step runner does its outside work first (HTTP, reads that need no lock) and returns what must happen in
 * the transaction that also moves the execution on; that part runs once, under the execution's row lock.
 */
export type StepRunner = (ctx: AppContext, input: StepInput) => Promise<(tx: Tx) => Promise<Outcome>>;

/** A problem no retry can fix (a deleted template, a 4xx from a webhook): the execution ends FAILED at once. */
export class StepFailure extends Error {
  override name = 'StepFailure';
}

/** A history entry of the step being run, at this moment. */
export function entryOf(
  input: Pick<StepInput, 'planned'>,
  status: HistoryEntry['status'],
  extra: Pick<HistoryEntry, 'error' | 'detail'> = {},
): HistoryEntry {
  return {
    stepId: input.planned.step.id,
    type: input.planned.step.type,
    status,
    at: new Date().toISOString(),
    ...extra,
  };
}

/** The step is done; go on after it. */
export function done(
  input: StepInput,
  status: HistoryEntry['status'] = 'COMPLETED',
  detail?: Record<string, unknown>,
): Outcome {
  return { kind: 'next', to: input.planned.next, entry: entryOf(input, status, detail ? { detail } : {}) };
}
