// Which workflows still need a segment or a template, asked of their stored steps (jsonb) in one SQL statement:
// the workflows module's reference checks, asked before a segment or a template is deleted. A version is still in use when it is the current one of
// a workflow that is not deleted, or when an execution is on it (RUNNING or WAITING). Steps nest in the branches
// of CONDITION (`then`, `else`) and WAIT_FOR_EVENT (`onEvent`, `onTimeout`), filters in `all`, `any` and `not`;
// both are walked to any depth by recursive queries.
import { sql } from 'drizzle-orm';
import type { ReferenceCheck } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

/** What a step may name: a segment (in a CONDITION's filter) or a template (a SEND_EMAIL step). */
export type WorkflowRef = { segment: string } | { template: string };

/** Up to `limit` workflows of the project whose versions in use name `ref`, by name. */
async function workflowsNaming(db: Executor, projectId: string, ref: WorkflowRef, limit = 5): Promise<{ id: string; name: string }[]> {
  const named = 'segment' in ref
    ? sql`SELECT workflow_id FROM filters WHERE lower(f ->> 'segment') = lower(${ref.segment})
        UNION SELECT w.id FROM workflows w WHERE w.project_id = ${projectId} AND w.deleted_at IS NULL AND w.trigger_segment_id::text = lower(${ref.segment})`
    : sql`SELECT workflow_id FROM steps WHERE step ->> 'type' = 'SEND_EMAIL' AND lower(step ->> 'templateId') = lower(${ref.template})`;
  const result = await db.execute(sql`
    WITH RECURSIVE used AS (
      SELECT w.id, w.name, v.steps FROM workflows w JOIN workflow_versions v ON v.workflow_id = w.id
      WHERE w.project_id = ${projectId} AND (
        (w.deleted_at IS NULL AND v.version = w.version)
        OR EXISTS (SELECT 1 FROM workflow_executions x WHERE x.workflow_id = w.id AND x.version = v.version AND x.status IN ('RUNNING', 'WAITING'))
      )
    ),
    steps (workflow_id, step) AS (
      SELECT u.id, s.value FROM used u CROSS JOIN LATERAL jsonb_array_elements(u.steps) s
      UNION ALL
      SELECT st.workflow_id, b.value FROM steps st CROSS JOIN LATERAL jsonb_array_elements(
        coalesce(st.step -> 'then', '[]'::jsonb) || coalesce(st.step -> 'else', '[]'::jsonb)
        || coalesce(st.step -> 'onEvent', '[]'::jsonb) || coalesce(st.step -> 'onTimeout', '[]'::jsonb)) b
    ),
    filters (workflow_id, f) AS (
      SELECT workflow_id, step -> 'if' FROM steps WHERE step ->> 'type' = 'CONDITION'
      UNION ALL
      SELECT fl.workflow_id, sub.value FROM filters fl CROSS JOIN LATERAL jsonb_array_elements(CASE
        WHEN jsonb_typeof(fl.f -> 'all') = 'array' THEN fl.f -> 'all'
        WHEN jsonb_typeof(fl.f -> 'any') = 'array' THEN fl.f -> 'any'
        WHEN fl.f -> 'not' IS NOT NULL THEN jsonb_build_array(fl.f -> 'not')
        ELSE '[]'::jsonb END) sub
    )
    SELECT DISTINCT u.id, u.name FROM used u WHERE u.id IN (${named}) ORDER BY u.name, u.id LIMIT ${limit}`);
  return rowsOf<{ id: string; name: string }>(result);
}

/** Workflows as a 409 names them: `workflow "Welcome" (<id>)`, or `workflows "A" (<id>), "B" (<id>)`. */
function workflowList(list: { id: string; name: string }[]): string {
  return `workflow${list.length > 1 ? 's' : ''} ${list.map((w) => `${JSON.stringify(w.name)} (${w.id})`).join(', ')}`;
}

const CHANGE_THEM = 'Change those steps (PATCH /workflows/{id}) or delete the workflows; executions still running on an older version keep it in use until they end.';

/** A segment named by a CONDITION step (at any depth of steps and filter) of a workflow version in use. */
export const segmentNamedByWorkflows: ReferenceCheck = async ({ db, projectId, id }) => {
  const workflows = await workflowsNaming(db, projectId, { segment: id });
  return workflows.length === 0 ? null : { message: `The segment is used by a CONDITION step of ${workflowList(workflows)}`, suggestion: CHANGE_THEM };
};

/** A template sent by a SEND_EMAIL step of a workflow version in use. */
export const templateSentByWorkflows: ReferenceCheck = async ({ db, projectId, id }) => {
  const workflows = await workflowsNaming(db, projectId, { template: id });
  return workflows.length === 0 ? null : { message: `The template is sent by a SEND_EMAIL step of ${workflowList(workflows)}`, suggestion: CHANGE_THEM };
};
