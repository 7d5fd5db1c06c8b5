import { z } from 'zod';
import { nameSchema } from '../../lib/text.ts';
import { isoDate } from '../../lib/http.ts';
import { isId } from '../../lib/ids.ts';
import { paginationQuery } from '../../lib/pagination.ts';
import { filterSchema } from '../segments/index.ts';
import { STEP_TYPES, WEBHOOK_METHODS } from './workflows.types.ts';

const duration = z
  .string()
  .meta({ description: 'A duration: "30s", "30m", "12h", "7d", "4w" (at most a year)', examples: ['2d'] });

/**
 * A step. The schema documents every field; the service checks the rules of each type when the workflow is
 * saved (a 422 names the step path, such as `steps.2.then.0.templateId`).
 */
export const stepSchema = z
  .looseObject({
    id: z
      .string()
      .optional()
      .meta({ description: 'Unique in the workflow; assigned by the server when absent (1–64 of A-Z a-z 0-9 _ -)' }),
    type: z.string().meta({ description: `One of ${STEP_TYPES.join(', ')}`, examples: [...STEP_TYPES] }),
    templateId: z
      .string()
      .optional()
      .meta({ description: 'SEND_EMAIL: a template of the project (it must have a sender)' }),
    data: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({
        description:
          'SEND_EMAIL: template variables over the contact data. UPDATE_CONTACT: merged ' +
          'into the contact data (null deletes a key)',
      }),
    duration: duration.optional().meta({ description: 'DELAY: how long to wait' }),
    event: z
      .string()
      .optional()
      .meta({ description: 'WAIT_FOR_EVENT: the event name to wait for (tracked or email.*/contact.*)' }),
    timeout: duration.optional().meta({ description: 'WAIT_FOR_EVENT: how long to wait at most' }),
    get onEvent() {
      return z.array(stepSchema).optional().meta({ description: 'WAIT_FOR_EVENT: steps when the event came' });
    },
    get onTimeout() {
      return z.array(stepSchema).optional().meta({ description: 'WAIT_FOR_EVENT: steps when the time-out came first' });
    },
    if: filterSchema
      .optional()
      .meta({ description: 'CONDITION: a filter of the segment language, asked of this contact' }),
    get then() {
      return z.array(stepSchema).optional().meta({ description: 'CONDITION: steps when the contact matches' });
    },
    get else() {
      return z.array(stepSchema).optional().meta({ description: 'CONDITION: steps when it does not' });
    },
    subscribed: z.boolean().optional().meta({ description: 'UPDATE_CONTACT: the new subscription state' }),
    url: z.string().optional().meta({ description: 'WEBHOOK: http(s) URL; Liquid allowed ({{contact.id}})' }),
    method: z
      .string()
      .optional()
      .meta({ description: `WEBHOOK: ${WEBHOOK_METHODS.join(', ')} (default POST)` }),
    headers: z
      .record(z.string(), z.string())
      .optional()
      .meta({ description: 'WEBHOOK: extra headers; Liquid allowed in values' }),
    body: z
      .union([z.string(), z.record(z.string(), z.unknown())])
      .optional()
      .meta({
        description:
          'WEBHOOK: a Liquid string or a JSON object sent instead of the default {workflow, execution, contact, event}',
      }),
  })
  .meta({ id: 'WorkflowStep' });

/** A stored step as the API shows it. */
export type StepView = z.infer<typeof stepSchema>;

export const triggerSchema = z
  .looseObject({
    type: z.string().meta({
      description: 'EVENT, MANUAL, SEGMENT_ENTERED or SEGMENT_EXITED',
      examples: ['EVENT', 'MANUAL', 'SEGMENT_ENTERED', 'SEGMENT_EXITED'],
    }),
    event: z.string().optional().meta({
      description: 'EVENT: the event name that starts an execution (tracked, or email.opened, contact.subscribed…)',
    }),
    segmentId: z
      .string()
      .optional()
      .meta({
        description:
          'SEGMENT_ENTERED / SEGMENT_EXITED: the segment whose entries or exits start an ' +
          'execution; it must have trackMembership on (422 otherwise)',
      }),
  })
  .meta({ id: 'WorkflowTrigger' });

export const workflowSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    enabled: z.boolean(),
    allowReentry: z.boolean(),
    trigger: triggerSchema,
    steps: z.array(stepSchema),
    version: z
      .number()
      .int()
      .meta({ description: 'Changes each time the steps change; executions keep the version they started on' }),
    createdAt: isoDate,
    updatedAt: isoDate,
  })
  .meta({ id: 'Workflow' });

export const createWorkflowBody = z.object({
  name: nameSchema(),
  description: z.string().max(2000).nullable().optional(),
  enabled: z.boolean().optional().meta({ description: 'Default false: a disabled workflow starts nothing' }),
  allowReentry: z.boolean().optional().meta({ description: 'Default false: at most one execution per contact, ever' }),
  trigger: triggerSchema,
  steps: z.array(stepSchema).optional().meta({ description: 'The steps, run in order (default: none)' }),
});

export const updateWorkflowBody = createWorkflowBody
  .partial()
  .meta({ description: 'Changing steps makes a new version; running executions finish on theirs' });

export const historyEntrySchema = z
  .object({
    stepId: z.string(),
    type: z.string(),
    status: z.enum(['COMPLETED', 'SKIPPED', 'FAILED', 'EXITED']),
    at: isoDate,
    error: z.string().optional(),
    detail: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({
        description:
          'SEND_EMAIL {emailId, reason?} (the email it made: GET /emails/{emailId}); ' +
          'CONDITION {branch: then|else} (the branch taken: then = the filter matched); ' +
          'WAIT_FOR_EVENT {outcome: EVENT|TIMEOUT}; WEBHOOK {responseStatus, webhookId}',
      }),
  })
  .meta({ id: 'WorkflowHistoryEntry' });

export const EXECUTION_STATUSES = ['RUNNING', 'WAITING', 'COMPLETED', 'EXITED', 'FAILED', 'CANCELLED'] as const;

export const executionSchema = z
  .object({
    id: z.string(),
    workflowId: z.string(),
    version: z.number().int(),
    contactId: z.string(),
    contact: z
      .object({
        email: z.string().meta({ description: 'The stored form (an internationalised domain in punycode)' }),
        emailUnicode: z.string().meta({ description: 'The address as people write it (domain in Unicode)' }),
      })
      .nullable()
      .meta({ description: "The contact's address; null once the contact is deleted" }),
    status: z.enum(EXECUTION_STATUSES),
    currentStepId: z.string().nullable(),
    statusReason: z
      .enum(['HELD_PROJECT_DISABLED'])
      .nullable()
      .meta({
        description:
          'HELD_PROJECT_DISABLED: the step that came due waits for the project to be ' +
          'enabled (then the execution goes on)',
      }),
    history: z.array(historyEntrySchema),
    startedAt: isoDate,
    finishedAt: isoDate.nullable(),
  })
  .meta({ id: 'WorkflowExecution' });

const id = z.string().refine(isId, { error: 'must be an id' });

export const executionParams = z.object({ id: z.string(), executionId: z.string() });

export const listExecutionsQuery = paginationQuery.extend({
  status: z.enum(EXECUTION_STATUSES).optional(),
});

export const startExecutionBody = z.object({ contactId: id });

export const signingSecretSchema = z
  .object({
    secret: z.string().meta({ description: 'whsec_…: verify WEBHOOK step requests with it (Standard Webhooks)' }),
    createdAt: isoDate,
    rotatedAt: isoDate.nullable(),
    previousValidUntil: isoDate
      .nullable()
      .meta({ description: 'After a rotation, the previous secret also signs (a second signature) until then' }),
  })
  .meta({ id: 'WorkflowSigningSecret' });

/** What the API reference says about each workflow route, by operationId. */
export const workflowRouteDocs = {
  getWorkflowSigningSecret:
    "The project's whsec_ secret that signs WEBHOOK step requests (Standard Webhooks); created on first use.",
  rotateWorkflowSigningSecret:
    'A new secret; for 24 hours requests carry a second signature made with the previous one.',
  updateWorkflow: 'Changed steps make a new version: new executions start on it, running ones finish on theirs.',
  startWorkflowExecution:
    'Starts the workflow for one contact now (MANUAL trigger, or any enabled workflow). 409 when the ' +
    'workflow is disabled, or allowReentry is off and the contact already went through it.',
} as const;
