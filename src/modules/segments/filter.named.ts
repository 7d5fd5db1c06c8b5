// Whether a stored filter names a segment or a topic, asked in SQL of its jsonb: "who uses this?" checks run it over
// every segment, unsent campaign or workflow step of a project in one statement instead of loading the filters.
import { sql, type SQL } from 'drizzle-orm';

/** What a filter condition may name: a segment (`{segment, operator}`) or a topic (`{topic, operator}`). */
export type FilterTarget = { segment: string } | { topic: string };

/**
 * A predicate: the jsonb filter `filter` (a column or an expression; NULL names nothing) has a condition naming
 * `target`, at any depth of `all`, `any` and `not`. Ids compare case-insensitively, as the compiler reads them.
 */
export function filterNames(filter: SQL, target: FilterTarget): SQL {
  const [key, id] = 'segment' in target ? [sql.raw(`'segment'`), target.segment] : [sql.raw(`'topic'`), target.topic];
  return sql`EXISTS (
    WITH RECURSIVE node (f) AS (
      SELECT ${filter}
      UNION ALL
      SELECT sub.value FROM node n CROSS JOIN LATERAL jsonb_array_elements(CASE
        WHEN jsonb_typeof(n.f -> 'all') = 'array' THEN n.f -> 'all'
        WHEN jsonb_typeof(n.f -> 'any') = 'array' THEN n.f -> 'any'
        WHEN n.f -> 'not' IS NOT NULL THEN jsonb_build_array(n.f -> 'not')
        ELSE '[]'::jsonb END) sub
    )
    SELECT 1 FROM node WHERE lower(node.f ->> ${key}) = lower(${id}::text))`;
}
