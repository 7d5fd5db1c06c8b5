// A version's step tree as the engine walks it: each step with the step that follows it. A branch
// (CONDITION then/else, WAIT_FOR_EVENT onEvent/onTimeout) runs its steps, then continues after its parent.
import type { Step } from './workflows.types.ts';

export interface PlannedStep {
  step: Step;
  /** The step after this one (after its parent, at the end of a branch); null = the execution completes. */
  next: string | null;
}

export interface Plan {
  first: string | null;
  steps: Map<string, PlannedStep>;
}

/** Plans a validated step list. */
export function planSteps(steps: Step[]): Plan {
  const planned = new Map<string, PlannedStep>();
  const walk = (list: Step[], after: string | null): string | null => {
    list.forEach((step, i) => {
      const next = list[i + 1]?.id ?? after;
      planned.set(step.id, { step, next });
      if (step.type === 'CONDITION') {
        walk(step.then, next);
        walk(step.else ?? [], next);
      } else if (step.type === 'WAIT_FOR_EVENT') {
        walk(step.onEvent ?? [], next);
        walk(step.onTimeout ?? [], next);
      }
    });
    return list[0]?.id ?? after;
  };
  return { first: walk(steps, null), steps: planned };
}

/** The first step of a branch, or the step after the parent when the branch is empty. */
export function branchStart(branch: Step[] | undefined, parent: PlannedStep): string | null {
  return branch?.[0]?.id ?? parent.next;
}
