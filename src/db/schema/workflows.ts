import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { projects, timestamps } from './projects.ts';

export type ExecutionStatus = 'RUNNING' | 'WAITING' | 'COMPLETED' | 'EXITED' | 'FAILED' | 'CANCELLED';

/**
 * Why a step job runs: the first step, the next one, a DELAY's end, a WAIT's event or its time-out (kept on a held
 * execution).
 */
export type StepPhase = 'start' | 'run' | 'resume' | 'event' | 'timeout';

/** One step run of an execution, as the API shows it. */
export interface HistoryEntry {
  stepId: string;
  type: string;
  status: 'COMPLETED' | 'SKIPPED' | 'FAILED' | 'EXITED';
  at: string;
  error?: string;
  detail?: Record<string, unknown>;
}

const at = (name: string) => timestamp(name, { withTimezone: true, precision: 3 });

/**
 * An automation. Its steps live in workflow_versions; `version` is the one new executions
 * start on. DELETE only sets `deleted_at` (and cancels executions), so emails and executions keep their source.
 * The events trigger (migration 0005) reads `enabled`, `trigger_type`, `trigger_event`, `allow_reentry`.
 */
export const workflows = pgTable(
  'workflows',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description'),
    enabled: boolean('enabled').notNull().default(false),
    allowReentry: boolean('allow_reentry').notNull().default(false),
    triggerType: text('trigger_type').$type<'EVENT' | 'MANUAL'>().notNull(),
    triggerEvent: text('trigger_event'),
    /**
     * SEGMENT_ENTERED / SEGMENT_EXITED triggers: stored as EVENT on segment.entered / segment.exited, for this segment
     * only.
     */
    triggerSegmentId: uuid('trigger_segment_id'),
    version: integer('version').notNull().default(1),
    deletedAt: at('deleted_at'),
    ...timestamps,
  },
  (t) => [
    index('workflows_project_created_idx').on(t.projectId, t.createdAt.desc(), t.id.desc()),
    // The events trigger's join: which enabled workflows listen for an event name.
    index('workflows_event_trigger_idx')
      .on(t.projectId, t.triggerEvent)
      .where(sql`enabled AND deleted_at IS NULL AND trigger_type = 'EVENT'`),
  ],
);

/** The steps of each version of a workflow; never changed once written (executions run on theirs). */
export const workflowVersions = pgTable(
  'workflow_versions',
  {
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    steps: jsonb('steps').$type<unknown[]>().notNull(),
    createdAt: timestamps.createdAt,
  },
  (t) => [primaryKey({ columns: [t.workflowId, t.version] })],
);

/**
 * One contact's run through a version of a workflow. `seq` counts its transitions: every step job carries
 * the seq it was made for and runs only while the row still has it, so each step runs once. `pending`
 * marks a row the events trigger started ('START') or woke ('EVENT'), or whose hold was released ('RELEASE'),
 * that still needs its step job. `held_phase` is set while the project is disabled: the step that came due
 * is held, not run, until the project is enabled again (a trigger on projects then marks it 'RELEASE').
 * `contact_id` has no foreign key: an execution outlives its contact (it ends EXITED).
 */
export const workflowExecutions = pgTable(
  'workflow_executions',
  {
    id: uuid('id').primaryKey(),
    projectId: uuid('project_id').notNull(),
    workflowId: uuid('workflow_id')
      .notNull()
      .references(() => workflows.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    contactId: uuid('contact_id').notNull(),
    status: text('status').$type<ExecutionStatus>().notNull(),
    /** allowReentry was off when it started: at most one such execution per contact and workflow. */
    once: boolean('once').notNull(),
    pending: text('pending').$type<'START' | 'EVENT' | 'RELEASE'>(),
    heldPhase: text('held_phase').$type<StepPhase>(),
    seq: integer('seq').notNull().default(0),
    currentStepId: text('current_step_id'),
    waitEvent: text('wait_event'),
    wakeAt: at('wake_at'),
    triggerEventId: uuid('trigger_event_id'),
    history: jsonb('history').$type<HistoryEntry[]>().notNull().default([]),
    createdAt: timestamps.createdAt,
    updatedAt: timestamps.updatedAt,
    finishedAt: at('finished_at'),
  },
  (t) => [
    index('workflow_executions_workflow_created_idx').on(t.workflowId, t.createdAt.desc(), t.id.desc()),
    index('workflow_executions_workflow_status_idx').on(t.workflowId, t.status, t.createdAt.desc(), t.id.desc()),
    index('workflow_executions_contact_idx').on(t.contactId, t.workflowId),
    uniqueIndex('workflow_executions_once_idx')
      .on(t.workflowId, t.contactId)
      .where(sql`once`),
    // A tracked event finds the executions of its contact waiting for it here, never by a scan.
    index('workflow_executions_waiting_idx')
      .on(t.contactId, t.waitEvent)
      .where(sql`status = 'WAITING' AND wait_event IS NOT NULL`),
    index('workflow_executions_pending_idx')
      .on(t.updatedAt)
      .where(sql`pending IS NOT NULL`),
    // Enabling a project finds its held executions here.
    index('workflow_executions_held_idx')
      .on(t.projectId)
      .where(sql`held_phase IS NOT NULL`),
  ],
);

/**
 * The per-project secret WEBHOOK steps are signed with (encrypted with APP_SECRET); the previous one signs too for a
 * day after a rotation.
 */
export const workflowSigningSecrets = pgTable('workflow_signing_secrets', {
  projectId: uuid('project_id')
    .primaryKey()
    .references(() => projects.id, { onDelete: 'cascade' }),
  secret: text('secret').notNull(),
  previousSecret: text('previous_secret'),
  rotatedAt: at('rotated_at'),
  createdAt: timestamps.createdAt,
});
