// SQL of field conditions on `contacts` (email, subscribed, createdAt, updatedAt, data.<path>). Every value
// is a bound parameter; data keys are bound too (`data #> ARRAY[$1, $2]`). Each predicate is true or false,
// never NULL, so `not` is an exact complement.
import { sql, type SQL } from 'drizzle-orm';
import { contacts } from '../../db/schema/index.ts';
import { durationSeconds, toInstant, type FieldCondition, type Scalar } from './filter.types.ts';
import { dataPath } from './filter.validate.ts';

const C = contacts;
const NUMERIC = '^-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]{1,3})?$';
/** Above this many candidate values an `in` list compares values instead of OR-ing indexable containments. */
const CONTAINMENT_LIST_MAX = 16;

const or = (parts: SQL[]) => (parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` OR `)})`);
const comparators = { greaterThan: '>', greaterThanOrEqual: '>=', lessThan: '<', lessThanOrEqual: '<=' } as const;
type Comparator = keyof typeof comparators;

/** Values a data key may hold for `value` to match: CSV imports store text, so 42 also matches "42". */
function candidates(value: Scalar): Scalar[] {
  return typeof value === 'string' ? [value] : [value, String(value)];
}

/** `{"a": {"b": value}}` for the path a.b: what `data @> …` (GIN-indexed) looks for. */
function containing(keys: string[], value: unknown): SQL {
  const doc = keys.reduceRight<unknown>((inner, key) => ({ [key]: inner }), value);
  return sql`${C.data} @> ${JSON.stringify(doc)}::jsonb`;
}

function since(seconds: number): SQL {
  return sql`now() - make_interval(secs => ${seconds})`;
}

function dateComparison(column: SQL, operator: string, value: unknown): SQL {
  if (operator === 'within') return sql`${column} >= ${since(durationSeconds(value as string)!)}`;
  if (operator === 'olderThan') return sql`${column} < ${since(durationSeconds(value as string)!)}`;
  return sql`${column} ${sql.raw(comparators[operator as Comparator])} ${toInstant(value)}::timestamptz`;
}

function emailCondition(operator: string, value: unknown): SQL {
  const v = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const list = () =>
    sql.join(
      (value as string[]).map((item) => sql`${item.trim().toLowerCase()}`),
      sql`, `,
    );
  switch (operator) {
    case 'equals':
      return sql`${C.email} = ${v}`;
    case 'notEquals':
      return sql`${C.email} <> ${v}`;
    case 'contains':
      return sql`strpos(${C.email}, ${v}) > 0`;
    case 'notContains':
      return sql`strpos(${C.email}, ${v}) = 0`;
    case 'startsWith':
      return sql`starts_with(${C.email}, ${v})`;
    case 'endsWith':
      return sql`right(${C.email}, ${[...v].length}) = ${v}`;
    case 'in':
      return sql`${C.email} IN (${list()})`;
    default:
      return sql`${C.email} NOT IN (${list()})`;
  }
}

function dataCondition(keys: string[], operator: string, value: unknown): SQL {
  const path = sql`ARRAY[${sql.join(
    keys.map((key) => sql`${key}`),
    sql`, `,
  )}]::text[]`;
  const json = sql`(${C.data} #> ${path})`;
  const text = sql`(${C.data} #>> ${path})`;
  const isString = sql`jsonb_typeof(${json}) = 'string'`;
  const safe = (predicate: SQL) => sql`coalesce(${predicate}, false)`;
  switch (operator) {
    case 'equals':
    case 'notEquals': {
      const match = or(candidates(value as Scalar).map((c) => containing(keys, c)));
      return operator === 'equals' ? match : sql`NOT ${match}`;
    }
    case 'in':
    case 'notIn': {
      const all = (value as Scalar[]).flatMap(candidates);
      const match =
        all.length <= CONTAINMENT_LIST_MAX
          ? or(all.map((c) => containing(keys, c)))
          : safe(
              sql`${json} IN (${sql.join(
                all.map((c) => sql`${JSON.stringify(c)}::jsonb`),
                sql`, `,
              )})`,
            );
      return operator === 'in' ? match : sql`NOT ${match}`;
    }
    case 'exists':
      return sql`coalesce(jsonb_typeof(${json}), 'null') <> 'null'`;
    case 'notExists':
      return sql`coalesce(jsonb_typeof(${json}), 'null') = 'null'`;
    case 'contains':
    case 'notContains': {
      // An array holding the value, or a string holding it as a case-insensitive substring.
      const inArray = candidates(value as Scalar).map((c) => containing(keys, [c]));
      const parts =
        typeof value === 'string'
          ? [...inArray, safe(sql`${isString} AND strpos(lower(${text}), lower(${value})) > 0`)]
          : inArray;
      return operator === 'contains' ? or(parts) : sql`NOT ${or(parts)}`;
    }
    case 'startsWith':
      return safe(sql`${isString} AND starts_with(lower(${text}), lower(${value}))`);
    case 'endsWith':
      return safe(sql`${isString} AND right(lower(${text}), char_length(lower(${value}))) = lower(${value})`);
    case 'within':
    case 'olderThan':
      return safe(dateComparison(sql`herald_try_timestamptz(${text})`, operator, value));
    default: {
      if (typeof value === 'number') {
        const number = sql`CASE WHEN ${text} ~ ${NUMERIC} THEN ${text}::numeric END`;
        return safe(sql`${number} ${sql.raw(comparators[operator as Comparator])} ${value}::numeric`);
      }
      return safe(dateComparison(sql`herald_try_timestamptz(${text})`, operator, value));
    }
  }
}

/** SQL of one validated field condition on the `contacts` table. */
export function fieldConditionSql(condition: FieldCondition): SQL {
  const { field, operator, value } = condition;
  if (field === 'email') return emailCondition(operator, value);
  if (field === 'subscribed')
    return operator === 'equals' ? sql`${C.subscribed} = ${value}` : sql`${C.subscribed} <> ${value}`;
  if (field === 'createdAt') return dateComparison(sql`${C.createdAt}`, operator, value);
  if (field === 'updatedAt') return dateComparison(sql`${C.updatedAt}`, operator, value);
  return dataCondition(dataPath(field) as string[], operator, value);
}
