// Compiles a validated filter into ONE SQL predicate on the `contacts` table: events and email activity
// become EXISTS sub-queries (or bounded counts), segment references are expanded in place.
import { sql, type SQL } from 'drizzle-orm';
import { contacts } from '../../db/schema/index.ts';
import { contactEmailActivitySql } from '../emails/index.ts';
import { dormantAfterDaysSql, engagementLevelSql } from '../contacts/index.ts';
import { fieldConditionSql } from './filter.fields.ts';
import {
  durationSeconds,
  FILTER_LIMITS,
  type ActivityCondition,
  type EventCondition,
  type Filter,
  type SegmentCondition,
  type TopicCondition,
} from './filter.types.ts';

/** A stored filter that cannot run: a segment it names is gone, or the segments refer to each other. */
export class FilterCompileError extends Error {
  override name = 'FilterCompileError';
  constructor(
    message: string,
    readonly segmentId: string,
  ) {
    super(message);
  }
}

export interface CompileContext {
  projectId: string;
  /**
   * The stored filter of every segment the filter names, directly or through other segments (null: a STATIC segment).
   */
  segments: ReadonlyMap<string, Filter | null>;
}

interface State {
  ctx: CompileContext;
  nodes: number;
  /** Segments being expanded, outermost first (a repeat is a cycle). */
  stack: string[];
}

const since = (seconds: number) => sql`now() - make_interval(secs => ${seconds})`;

function eventSql(condition: EventCondition, projectId: string): SQL {
  const within = condition.within ? sql` AND e.created_at >= ${since(durationSeconds(condition.within)!)}` : sql``;
  // The project as a value (not the outer row's) lets the planner start from events' (project_id, name, created_at)
  // index.
  const events = sql`FROM events e WHERE e.project_id = ${projectId}::uuid AND e.name = ${condition.event}${within}`;
  const performed = condition.operator === 'performed';
  if (!condition.count) {
    const exists = sql`EXISTS (SELECT 1 ${events} AND e.contact_id = ${contacts.id})`;
    return performed ? exists : sql`NOT ${exists}`;
  }
  // Counts are grouped once per query (a semi-join), never counted again for each contact.
  const counted = (having: SQL) =>
    sql`EXISTS (SELECT 1 FROM (SELECT e.contact_id ${events} GROUP BY e.contact_id HAVING ${having}) AS counted WHERE
      counted.contact_id = ${contacts.id})`;
  const gte = condition.count.gte ?? 1;
  const lte = condition.count.lte;
  let inRange: SQL;
  if (gte >= 1)
    inRange = counted(lte === undefined ? sql`count(*) >= ${gte}` : sql`count(*) BETWEEN ${gte} AND ${lte}`);
  else inRange = lte === undefined ? sql`true` : sql`NOT ${counted(sql`count(*) > ${lte}`)}`; // the range holds zero
  return performed ? inRange : sql`NOT (${inRange})`;
}

function activitySql(condition: ActivityCondition, projectId: string): SQL {
  const { activity, human, campaignId, within } = condition;
  const exists = contactEmailActivitySql({
    projectId,
    contact: contacts.id,
    activity,
    human,
    campaignId,
    since: within ? since(durationSeconds(within)!) : undefined,
  });
  return condition.operator === 'performed' ? exists : sql`NOT ${exists}`;
}

function segmentSql(condition: SegmentCondition, state: State): SQL {
  const id = condition.segment.toLowerCase();
  if (state.stack.includes(id))
    throw new FilterCompileError(`Segment ${id} refers to itself through other segments`, id);
  const stored = state.ctx.segments.get(id);
  if (stored === undefined) throw new FilterCompileError(`Segment ${id} does not exist`, id);
  if (stored === null) {
    // A list: its members are rows, found through the (segment_id, contact_id) key.
    const member = sql`EXISTS (SELECT 1 FROM segment_members sm WHERE sm.segment_id = ${id}::uuid AND sm.contact_id =
      ${contacts.id})`;
    return condition.operator === 'member' ? member : sql`NOT ${member}`;
  }
  state.stack.push(id);
  const inner = nodeSql(stored, state);
  state.stack.pop();
  return condition.operator === 'member' ? sql`(${inner})` : sql`NOT (${inner})`;
}

/**
 * In a topic: the contact's own choice, or the topic's default where it made none (OPT_OUT topics reach whoever
 * did not choose out). A topic of another project, or a deleted one, has no subscribers.
 */
export function topicSql(topicId: string, projectId: string, operator: TopicCondition['operator']): SQL {
  const choice = sql`(SELECT ct.subscribed FROM contact_topics ct WHERE ct.contact_id = ${contacts.id} AND ct.topic_id
    = t.id)`;
  const subscribed = sql`EXISTS (SELECT 1 FROM topics t WHERE t.id = ${topicId}::uuid AND t.project_id =
    ${projectId}::uuid
    AND COALESCE(${choice}, t.default_subscription = 'OPT_OUT'))`;
  return operator === 'subscribed' ? subscribed : sql`NOT ${subscribed}`;
}

function nodeSql(filter: Filter, state: State): SQL {
  if (++state.nodes > FILTER_LIMITS.expandedNodes) {
    throw new FilterCompileError(
      `With its segments expanded, the filter has more than ${FILTER_LIMITS.expandedNodes} conditions`,
      state.stack[0] ?? '',
    );
  }
  if ('all' in filter)
    return filter.all.length === 0
      ? sql`true`
      : sql`(${sql.join(
          filter.all.map((f) => nodeSql(f, state)),
          sql` AND `,
        )})`;
  if ('any' in filter)
    return filter.any.length === 0
      ? sql`false`
      : sql`(${sql.join(
          filter.any.map((f) => nodeSql(f, state)),
          sql` OR `,
        )})`;
  if ('not' in filter) return sql`NOT (${nodeSql(filter.not, state)})`;
  if ('field' in filter) return fieldConditionSql(filter);
  if ('event' in filter) return eventSql(filter, state.ctx.projectId);
  if ('activity' in filter) return activitySql(filter, state.ctx.projectId);
  if ('engagement' in filter) return engagementLevelSql(filter.engagement, dormantAfterDaysSql(state.ctx.projectId));
  if ('topic' in filter) return topicSql(filter.topic.toLowerCase(), state.ctx.projectId, filter.operator);
  return segmentSql(filter, state);
}

/** One SQL predicate on `contacts` for a validated filter; segments come from `ctx` (see loadSegmentClosure). */
export function compileFilter(filter: Filter, ctx: CompileContext): SQL {
  return nodeSql(filter, { ctx, nodes: 0, stack: [] });
}
