// A workflow's steps as the editor works on them: one shape per step type. The OpenAPI document
// describes a step as one object with every field optional; the server checks each step against its type,
// so what it answers is always one of these, and what the editor sends is checked against the document's
// input type where it is sent (api.ts).
import type { Filter, JsonObject, Workflow } from '../../shared/api/types.ts';

export type Step =
  | { id?: string; type: 'SEND_EMAIL'; templateId: string; data?: JsonObject }
  | { id?: string; type: 'DELAY'; duration: string }
  | { id?: string; type: 'WAIT_FOR_EVENT'; event: string; timeout: string; onEvent?: Step[]; onTimeout?: Step[] }
  | { id?: string; type: 'CONDITION'; if: Filter; then: Step[]; else?: Step[] }
  | { id?: string; type: 'UPDATE_CONTACT'; data?: JsonObject; subscribed?: boolean }
  | {
      id?: string;
      type: 'WEBHOOK';
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string | JsonObject;
    }
  | { id?: string; type: 'EXIT' };
export type StepType = Step['type'];
export type Trigger =
  | { type: 'EVENT'; event: string }
  | { type: 'MANUAL' }
  | { type: 'SEGMENT_ENTERED' | 'SEGMENT_EXITED'; segmentId: string };
export type TriggerType = Trigger['type'];

/** A workflow with its steps and trigger in the editor's shapes. */
export type EditableWorkflow = Omit<Workflow, 'steps' | 'trigger'> & { steps: Step[]; trigger: Trigger };

/** The server's workflow in the editor's shapes (see the note above on why this holds). */
export const editable = (workflow: Workflow): EditableWorkflow => workflow as EditableWorkflow;

/** The steps a workflow holds, those inside conditions and waits for an event counted too. */
export function countSteps(steps: readonly Step[]): number {
  let n = 0;
  for (const step of steps) {
    n += 1;
    if (step.type === 'CONDITION') n += countSteps(step.then) + countSteps(step.else ?? []);
    if (step.type === 'WAIT_FOR_EVENT') n += countSteps(step.onEvent ?? []) + countSteps(step.onTimeout ?? []);
  }
  return n;
}
