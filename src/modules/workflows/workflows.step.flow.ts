// The steps that shape an execution's path: DELAY, WAIT_FOR_EVENT, CONDITION, UPDATE_CONTACT and EXIT.
import { sql } from 'drizzle-orm';
import { checkFilter, filterPredicate, segmentIdsOf } from '../segments/index.ts';
import { updateContact } from '../contacts/index.ts';
import { AppError } from '../../lib/errors.ts';
import { waitSeconds } from './workflows.duration.ts';
import { branchStart } from './workflows.plan.ts';
import { done, entryOf, StepFailure, type Outcome, type StepRunner } from './workflows.outcome.ts';
import type { Step } from './workflows.types.ts';

const later = (duration: string) => new Date(Date.now() + (waitSeconds(duration) ?? 0) * 1000);

/** The wait a DELAY or WAIT_FOR_EVENT step begins with; null for other steps. */
export function waitOf(step: Step): Extract<Outcome, { kind: 'wait' }> | null {
  if (step.type === 'DELAY') return { kind: 'wait', until: later(step.duration), then: 'resume' };
  if (step.type === 'WAIT_FOR_EVENT')
    return { kind: 'wait', until: later(step.timeout), event: step.event, then: 'timeout' };
  return null;
}

/** DELAY: waits in the queue (a job due at the end), then goes on. */
export const runDelay: StepRunner = async (_ctx, input) => {
  const step = input.planned.step;
  if (step.type !== 'DELAY') throw new Error('not a DELAY step');
  return async () => (input.phase === 'resume' ? done(input) : waitOf(step)!);
};

/** WAIT_FOR_EVENT: waits for the contact's next event of that name (the events trigger wakes it) or the time-out. */
export const runWaitForEvent: StepRunner = async (_ctx, input) => {
  const step = input.planned.step;
  if (step.type !== 'WAIT_FOR_EVENT') throw new Error('not a WAIT_FOR_EVENT step');
  return async () => {
    if (input.phase === 'event' || input.phase === 'timeout') {
      const branch = input.phase === 'event' ? step.onEvent : step.onTimeout;
      return {
        kind: 'next',
        to: branchStart(branch, input.planned),
        entry: entryOf(input, 'COMPLETED', { detail: { outcome: input.phase === 'event' ? 'EVENT' : 'TIMEOUT' } }),
      };
    }
    return waitOf(step)!;
  };
};

/** CONDITION: the filter, compiled to SQL, asked of this one contact inside the step's transaction. */
export const runCondition: StepRunner = async (_ctx, input) => {
  const step = input.planned.step;
  if (step.type !== 'CONDITION') throw new Error('not a CONDITION step');
  const { exec } = input;
  return async (tx) => {
    let predicate;
    try {
      predicate = await filterPredicate({
        db: tx,
        projectId: exec.projectId,
        filter: step.if,
        refs: segmentIdsOf(checkFilter(step.if, 'if').refs),
        field: 'if',
      });
    } catch (error) {
      if (error instanceof AppError) throw new StepFailure(error.message);
      throw error;
    }
    const result = await tx.execute(
      sql`SELECT EXISTS (SELECT 1 FROM contacts WHERE contacts.id = ${exec.contactId} AND contacts.project_id =
        ${exec.projectId} AND ${predicate}) AS matched`,
    );
    const matched = Boolean((result as unknown as { rows: { matched: boolean }[] }).rows[0]?.matched);
    return {
      kind: 'next',
      to: branchStart(matched ? step.then : step.else, input.planned),
      entry: entryOf(input, 'COMPLETED', { detail: { branch: matched ? 'then' : 'else' } }),
    };
  };
};

/** UPDATE_CONTACT: merges data (null deletes a key) and sets subscribed, recording a flip event like any update. */
export const runUpdateContact: StepRunner = async (_ctx, input) => {
  const step = input.planned.step;
  if (step.type !== 'UPDATE_CONTACT') throw new Error('not an UPDATE_CONTACT step');
  return async (tx) => {
    try {
      await updateContact({
        db: tx,
        projectId: input.exec.projectId,
        id: input.exec.contactId,
        data: step.data,
        subscribed: step.subscribed,
        consent: { type: 'workflow', id: input.exec.workflowId },
      });
    } catch (error) {
      // The merged data too large, for one; a contact deleted meanwhile ends EXITED on the retry.
      if (error instanceof AppError && error.code !== 'NOT_FOUND') throw new StepFailure(error.message);
      throw error;
    }
    return done(input);
  };
};

/** EXIT: ends the execution EXITED. */
export const runExit: StepRunner = async (_ctx, input) => async () => ({
  kind: 'end',
  status: 'EXITED',
  entry: entryOf(input, 'COMPLETED'),
});
