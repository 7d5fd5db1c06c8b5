// Which workflows still need a segment, a topic or a template, asked of their stored steps (jsonb) in one SQL
// statement: the workflows module's reference checks, asked before one is deleted. A version is still in use when it
// is the current one of a workflow that is not deleted, or when an execution is on it (RUNNING or WAITING). Steps
// nest in the branches of CONDITION (`then`, `else`) and WAIT_FOR_EVENT (`onEvent`, `onTimeout`), walked to any
// depth by a recursive query; a CONDITION's filter is searched by the segments module's filterNames.
import { sql, type SQL } from 'drizzle-orm';
import type { ReferenceCheck } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { filterNames } from '../segments/index.ts';

/** What a step may name: a segment or a topic (in a CONDITION's filter) or a template (a SEND_EMAIL step). */
export type WorkflowRef = { segment: string } | { topic: string } | { template: string };

/** Which workflows' steps (of the `steps` CTE below) name `ref`: a query of workflow ids. */
function workflowIdsNaming(projectId: string, ref: WorkflowRef): SQL {
  if ('template' in ref)
    return sql`SELECT workflow_id FROM steps WHERE step ->> 'type' = 'SEND_EMAIL' AND lower(step ->> 'templateId') =
      lower(${ref.template})`;
  const inCondition = sql`SELECT workflow_id FROM steps WHERE step ->> 'type' = 'CONDITION' AND
    ${filterNames(sql`step -> 'if'`, ref)}`;
  if ('topic' in ref) return inCondition;
  // A segment trigger names its segment too (on the workflow, not on a version).
  return sql`${inCondition} UNION SELECT w.id FROM workflows w WHERE w.project_id = ${projectId} AND w.deleted_at IS
    NULL AND w.trigger_segment_id::text = lower(${ref.segment})`;
}

/** Up to `limit` workflows of the project whose versions in use name `ref`, by name. */
async function workflowsNaming(
  db: Executor,
  projectId: string,
  ref: WorkflowRef,
  limit = 5,
): Promise<{ id: string; name: string }[]> {
  const result = await db.execute(sql`
    WITH RECURSIVE used AS (
      SELECT w.id, w.name, v.steps FROM workflows w JOIN workflow_versions v ON v.workflow_id = w.id
      WHERE w.project_id = ${projectId} AND (
        (w.deleted_at IS NULL AND v.version = w.version)
        OR EXISTS (SELECT 1 FROM workflow_executions x WHERE x.workflow_id = w.id AND x.version = v.version AND
          x.status IN ('RUNNING', 'WAITING'))
      )
    ),
    steps (workflow_id, step) AS (
      SELECT u.id, s.value FROM used u CROSS JOIN LATERAL jsonb_array_elements(u.steps) s
      UNION ALL
      SELECT st.workflow_id, b.value FROM steps st CROSS JOIN LATERAL jsonb_array_elements(
        coalesce(st.step -> 'then', '[]'::jsonb) || coalesce(st.step -> 'else', '[]'::jsonb)
        || coalesce(st.step -> 'onEvent', '[]'::jsonb) || coalesce(st.step -> 'onTimeout', '[]'::jsonb)) b
    )
    SELECT DISTINCT u.id, u.name FROM used u WHERE u.id IN (${workflowIdsNaming(projectId, ref)}) ORDER BY u.name,
      u.id LIMIT ${limit}`);
  return rowsOf<{ id: string; name: string }>(result);
}

/** Workflows as a 409 names them: `workflow "Welcome" (<id>)`, or `workflows "A" (<id>), "B" (<id>)`. */
function workflowList(list: { id: string; name: string }[]): string {
  return `workflow${list.length > 1 ? 's' : ''} ${list.map((w) => `${JSON.stringify(w.name)} (${w.id})`).join(', ')}`;
}

const CHANGE_THEM =
  'Change those steps (PATCH /workflows/{id}) or delete the workflows; executions ' +
  'still running on an older version keep it in use until they end.';

/**
 * A segment named by a CONDITION step (at any depth of steps and filter) of a workflow version in use, or its trigger.
 */
export const segmentNamedByWorkflows: ReferenceCheck = async ({ db, projectId, id }) => {
  const workflows = await workflowsNaming(db, projectId, { segment: id });
  return workflows.length === 0
    ? null
    : {
        message: `The segment is used by a CONDITION step or the trigger of ${workflowList(workflows)}`,
        suggestion: CHANGE_THEM,
      };
};

/** A template sent by a SEND_EMAIL step of a workflow version in use. */
export const templateSentByWorkflows: ReferenceCheck = async ({ db, projectId, id }) => {
  const workflows = await workflowsNaming(db, projectId, { template: id });
  return workflows.length === 0
    ? null
    : { message: `The template is sent by a SEND_EMAIL step of ${workflowList(workflows)}`, suggestion: CHANGE_THEM };
};

/** A topic named by a `{topic, operator}` condition of a CONDITION step (at any depth) of a workflow version in use. */
export const topicNamedByWorkflows: ReferenceCheck = async ({ db, projectId, id }) => {
  const workflows = await workflowsNaming(db, projectId, { topic: id });
  return workflows.length === 0
    ? null
    : { message: `The topic is named by a CONDITION step of ${workflowList(workflows)}`, suggestion: CHANGE_THEM };
};

/** Up to 5 workflows of the project (not deleted) that start when contacts enter or leave this segment, by name. */
async function workflowsTriggeredBy(
  db: Executor,
  projectId: string,
  segmentId: string,
): Promise<{ id: string; name: string }[]> {
  const result = await db.execute(sql`
    SELECT id, name FROM workflows WHERE project_id = ${projectId} AND deleted_at IS NULL AND trigger_segment_id =
      ${segmentId}::uuid
    ORDER BY name, id LIMIT 5`);
  return rowsOf<{ id: string; name: string }>(result);
}

/** A segment whose entries and exits start workflows (SEGMENT_ENTERED / SEGMENT_EXITED): its tracking stays on. */
export const segmentTriggersWorkflows: ReferenceCheck = async ({ db, projectId, id }) => {
  const workflows = await workflowsTriggeredBy(db, projectId, id);
  if (workflows.length === 0) return null;
  return {
    message:
      `Contacts entering or leaving the segment start ${workflowList(workflows)}: ` +
      `without trackMembership they would never start`,
    suggestion: 'Give those workflows another trigger (PATCH /workflows/{id}) or delete them first.',
  };
};
