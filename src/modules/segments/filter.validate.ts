// Checks a filter when it is saved: every problem becomes a 422 naming its path, such as
// `filter.all.1.operator`, so a filter that is stored always compiles.
import { AppError, type FieldError } from '../../lib/errors.ts';
import { isId } from '../../lib/ids.ts';
import { ENGAGEMENT_LEVELS } from '../contacts/index.ts';
import {
  ACTIVITIES,
  FIELD_OPERATORS,
  FILTER_LIMITS,
  durationSeconds,
  toInstant,
  type FieldOperator,
  type Filter,
} from './filter.types.ts';

/**
 * A segment or a topic a filter names, with where it is named (for the 422 of a missing or circular one). Saving
 * checks both kinds exist (requireSegmentRefs); only the segments are expanded when the filter runs.
 */
export interface FilterRef {
  id: string;
  path: string;
  /** A topic condition's topic; left out for a segment. */
  kind?: 'topic';
}

/**
 * A reference to check before saving: a segment (a campaign's segmentId, a trigger's) or, from a filter, either kind.
 */
export type SegmentRef = FilterRef;

export interface CheckedFilter {
  filter: Filter;
  refs: FilterRef[];
}

/** The ids of the segments among a filter's references (what its compilation expands). */
export function segmentIdsOf(refs: FilterRef[]): string[] {
  return refs.filter((r) => r.kind !== 'topic').map((r) => r.id);
}

type FieldKind = 'email' | 'boolean' | 'date' | 'data';

const OPERATORS_OF: Record<FieldKind, readonly FieldOperator[]> = {
  email: ['equals', 'notEquals', 'contains', 'notContains', 'startsWith', 'endsWith', 'in', 'notIn'],
  boolean: ['equals', 'notEquals'],
  date: ['greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual', 'within', 'olderThan'],
  data: FIELD_OPERATORS,
};

const KEYS = {
  all: ['all'],
  any: ['any'],
  not: ['not'],
  field: ['field', 'operator', 'value'],
  event: ['event', 'operator', 'within', 'count'],
  activity: ['activity', 'operator', 'within', 'campaignId', 'human'],
  segment: ['segment', 'operator'],
  topic: ['topic', 'operator'],
  engagement: ['engagement'],
} as const;
type NodeKind = keyof typeof KEYS;

const MAX_ERRORS = 20;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isScalar = (value: unknown) =>
  typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));

/** The keys of `data.<path>`, or an error message. */
export function dataPath(field: string): string[] | string {
  const keys = field.slice('data.'.length).split('.');
  if (keys.length > FILTER_LIMITS.pathDepth) return `a data path has at most ${FILTER_LIMITS.pathDepth} keys`;
  if (keys.some((key) => key.length === 0 || key.length > FILTER_LIMITS.keyLength || CONTROL.test(key))) {
    return `each key of a data path is 1–${FILTER_LIMITS.keyLength} characters without control characters`;
  }
  return keys;
}

function fieldKind(field: unknown): FieldKind | null {
  if (field === 'email') return 'email';
  if (field === 'subscribed') return 'boolean';
  if (field === 'createdAt' || field === 'updatedAt') return 'date';
  return typeof field === 'string' && field.startsWith('data.') ? 'data' : null;
}

class Checker {
  readonly errors: FieldError[] = [];
  readonly refs: FilterRef[] = [];
  private nodes = 0;

  fail(field: string, message: string, code: string): void {
    if (this.errors.length < MAX_ERRORS) this.errors.push({ field, message, code });
  }

  node(value: unknown, path: string, depth: number): void {
    if (++this.nodes > FILTER_LIMITS.nodes) {
      if (this.nodes === FILTER_LIMITS.nodes + 1)
        this.fail(path, `a filter has at most ${FILTER_LIMITS.nodes} conditions and combinators`, 'too_complex');
      return;
    }
    if (depth > FILTER_LIMITS.depth)
      return this.fail(path, `filters nest at most ${FILTER_LIMITS.depth} levels deep`, 'too_complex');
    if (!isObject(value))
      return this.fail(path, 'must be an object: {all}, {any}, {not} or a condition', 'invalid_filter');
    const kinds = (Object.keys(KEYS) as NodeKind[]).filter((kind) => kind in value);
    if (kinds.length !== 1) {
      return this.fail(
        path,
        kinds.length === 0
          ? 'must be {all: [...]}, {any: [...]}, {not: ...} or a condition with field, event, ' +
              'activity, segment, topic or engagement'
          : `has both ${kinds.join(' and ')}: use one per object`,
        'invalid_filter',
      );
    }
    const kind = kinds[0]!;
    for (const key of Object.keys(value)) {
      if (!(KEYS[kind] as readonly string[]).includes(key))
        this.fail(`${path}.${key}`, `unknown key next to "${kind}"`, 'unrecognized_key');
    }
    switch (kind) {
      case 'all':
      case 'any':
        return this.list(value[kind], `${path}.${kind}`, depth);
      case 'not':
        return this.node(value.not, `${path}.not`, depth + 1);
      case 'field':
        return this.field(value, path);
      case 'event':
        return this.event(value, path);
      case 'activity':
        return this.activity(value, path);
      case 'segment':
        return this.segment(value, path);
      case 'topic':
        return this.topic(value, path);
      case 'engagement':
        if (!(ENGAGEMENT_LEVELS as readonly unknown[]).includes(value.engagement))
          this.fail(`${path}.engagement`, `must be one of ${ENGAGEMENT_LEVELS.join(', ')}`, 'invalid_value');
        return;
    }
  }

  private list(value: unknown, path: string, depth: number): void {
    if (!Array.isArray(value)) return this.fail(path, 'must be an array of filters', 'invalid_filter');
    if (value.length > 100) return this.fail(path, 'holds at most 100 filters', 'too_complex');
    value.forEach((item, i) => this.node(item, `${path}.${i}`, depth + 1));
  }

  private operator<T extends string>(node: Record<string, unknown>, path: string, allowed: readonly T[]): T | null {
    if (typeof node.operator === 'string' && (allowed as readonly string[]).includes(node.operator))
      return node.operator as T;
    this.fail(`${path}.operator`, `must be one of ${allowed.join(', ')}`, 'invalid_operator');
    return null;
  }

  private within(node: Record<string, unknown>, path: string): void {
    if (node.within !== undefined && (typeof node.within !== 'string' || durationSeconds(node.within) === null)) {
      this.fail(
        `${path}.within`,
        'must be a duration such as "30m", "12h", "7d" or "4w" (at most 10 years)',
        'invalid_duration',
      );
    }
  }

  private field(node: Record<string, unknown>, path: string): void {
    const kind = fieldKind(node.field);
    if (!kind)
      return this.fail(
        `${path}.field`,
        'must be email, subscribed, createdAt, updatedAt or data.<path>',
        'unknown_field',
      );
    if (kind === 'data') {
      const keys = dataPath(node.field as string);
      if (typeof keys === 'string') return this.fail(`${path}.field`, keys, 'unknown_field');
    }
    const operator = this.operator(node, path, OPERATORS_OF[kind]);
    if (!operator) return;
    const problem = valueProblem(kind, operator, node.value);
    if (problem) this.fail(`${path}.value`, problem, 'invalid_value');
  }

  private event(node: Record<string, unknown>, path: string): void {
    if (typeof node.event !== 'string' || node.event.length === 0 || node.event.length > 200) {
      this.fail(`${path}.event`, 'must be an event name (1–200 characters)', 'invalid_value');
    }
    this.operator(node, path, ['performed', 'notPerformed'] as const);
    this.within(node, path);
    if (node.count === undefined) return;
    const count = node.count;
    const bound = (v: unknown) =>
      v === undefined || (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 1_000_000);
    if (
      !isObject(count) ||
      Object.keys(count).some((k) => k !== 'gte' && k !== 'lte') ||
      (count.gte === undefined && count.lte === undefined) ||
      !bound(count.gte) ||
      !bound(count.lte) ||
      (typeof count.gte === 'number' && typeof count.lte === 'number' && count.gte > count.lte)
    ) {
      this.fail(
        `${path}.count`,
        'must be {gte?, lte?}: whole numbers from 0, at least one of them, gte ≤ lte',
        'invalid_value',
      );
    }
  }

  private activity(node: Record<string, unknown>, path: string): void {
    if (!(ACTIVITIES as readonly unknown[]).includes(node.activity))
      this.fail(`${path}.activity`, `must be one of ${ACTIVITIES.join(', ')}`, 'invalid_value');
    this.operator(node, path, ['performed', 'notPerformed'] as const);
    this.within(node, path);
    if (node.campaignId !== undefined && (typeof node.campaignId !== 'string' || !isId(node.campaignId))) {
      this.fail(`${path}.campaignId`, 'must be a campaign id', 'invalid_value');
    }
    if (node.human !== undefined && typeof node.human !== 'boolean')
      this.fail(`${path}.human`, 'must be true or false', 'invalid_value');
  }

  private segment(node: Record<string, unknown>, path: string): void {
    this.operator(node, path, ['member', 'notMember'] as const);
    if (typeof node.segment !== 'string' || !isId(node.segment))
      return this.fail(`${path}.segment`, 'must be a segment id', 'unknown_segment');
    this.refs.push({ id: node.segment.toLowerCase(), path: `${path}.segment` });
  }

  private topic(node: Record<string, unknown>, path: string): void {
    this.operator(node, path, ['subscribed', 'notSubscribed'] as const);
    if (typeof node.topic !== 'string' || !isId(node.topic))
      return this.fail(`${path}.topic`, 'must be a topic id', 'invalid_value');
    this.refs.push({ id: node.topic.toLowerCase(), path: `${path}.topic`, kind: 'topic' });
  }
}

/** Why `value` does not fit the operator on this kind of field, or null when it does. */
function valueProblem(kind: FieldKind, operator: FieldOperator, value: unknown): string | null {
  const tooLong = (v: unknown) => typeof v === 'string' && v.length > FILTER_LIMITS.stringLength;
  if (tooLong(value)) return `must be at most ${FILTER_LIMITS.stringLength} characters`;
  switch (operator) {
    case 'exists':
    case 'notExists':
      return value === undefined || value === null ? null : 'takes no value';
    case 'within':
    case 'olderThan':
      return typeof value === 'string' && durationSeconds(value) !== null
        ? null
        : 'must be a duration such as "30m", "12h", "7d" or "4w"';
    case 'in':
    case 'notIn': {
      const item = kind === 'email' ? (v: unknown) => typeof v === 'string' : isScalar;
      if (!Array.isArray(value) || value.length === 0 || value.length > FILTER_LIMITS.listValues)
        return `must be a list of 1–${FILTER_LIMITS.listValues} values`;
      return value.every((v) => item(v) && !tooLong(v))
        ? null
        : kind === 'email'
          ? 'must be a list of strings'
          : 'must be a list of strings, numbers or booleans';
    }
    case 'startsWith':
    case 'endsWith':
      return typeof value === 'string' && value.length > 0 ? null : 'must be a non-empty string';
    case 'greaterThan':
    case 'greaterThanOrEqual':
    case 'lessThan':
    case 'lessThanOrEqual':
      if (toInstant(value) !== null) return null;
      if (kind === 'data' && typeof value === 'number' && Number.isFinite(value)) return null;
      return kind === 'date'
        ? 'must be an ISO 8601 date or date-time'
        : 'must be a number or an ISO 8601 date or date-time';
    default:
      if (kind === 'email') return typeof value === 'string' ? null : 'must be a string';
      if (kind === 'boolean') return typeof value === 'boolean' ? null : 'must be true or false';
      return isScalar(value)
        ? null
        : 'must be a string, number or boolean (use exists / notExists to test for a missing key)';
  }
}

/**
 * Validates a filter and lists the segments and topics it names. Throws a 422 whose errors name each offending path
 * under `root` (the request field: `filter`, `audienceFilter`…).
 */
export function checkFilter(value: unknown, root: string): CheckedFilter {
  const checker = new Checker();
  checker.node(value, root, 0);
  if (checker.errors.length > 0) throw filterError(checker.errors);
  return { filter: value as Filter, refs: checker.refs };
}

/** The 422 of a filter problem (or several). */
export function filterError(errors: FieldError[]): AppError {
  const first = errors[0]!;
  return new AppError('VALIDATION_ERROR', `${first.field}: ${first.message}`, { errors });
}
