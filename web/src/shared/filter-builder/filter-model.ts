// The filter language as the builder edits it: condition kinds, operators per field, values.
import type { Filter } from '../api/types.ts';

export type ConditionKind = 'field' | 'event' | 'activity' | 'segment' | 'topic' | 'engagement';

/** Engagement levels, from people's opens and clicks (see docs/engagement.md). */
export const ENGAGEMENT_LEVELS: [string, string][] = [
  ['engaged', 'engaged'],
  ['at_risk', 'at risk'],
  ['dormant', 'dormant'],
  ['new', 'new (no marketing mail yet)'],
];

export const FIELD_OPERATORS = {
  email: ['equals', 'notEquals', 'contains', 'notContains', 'startsWith', 'endsWith', 'in', 'notIn'],
  subscribed: ['equals', 'notEquals'],
  date: ['greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual', 'within', 'olderThan'],
  data: [
    'equals',
    'notEquals',
    'contains',
    'notContains',
    'startsWith',
    'endsWith',
    'greaterThan',
    'greaterThanOrEqual',
    'lessThan',
    'lessThanOrEqual',
    'in',
    'notIn',
    'exists',
    'notExists',
    'within',
    'olderThan',
  ],
} as const;

export const OPERATOR_LABELS: Record<string, string> = {
  equals: 'equals',
  notEquals: 'does not equal',
  contains: 'contains',
  notContains: 'does not contain',
  startsWith: 'starts with',
  endsWith: 'ends with',
  greaterThan: 'is greater than',
  greaterThanOrEqual: 'is at least',
  lessThan: 'is less than',
  lessThanOrEqual: 'is at most',
  in: 'is one of',
  notIn: 'is none of',
  exists: 'is set',
  notExists: 'is not set',
  within: 'is within the last',
  olderThan: 'is older than',
  performed: 'has performed',
  notPerformed: 'has not performed',
  member: 'is a member of',
  notMember: 'is not a member of',
  subscribed: 'is in',
  notSubscribed: 'is not in',
};

export const ACTIVITIES = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;

/** What each activity reads as after "Contact has" / "has not", so a condition reads as a sentence. */
export const ACTIVITY_LABELS: Record<(typeof ACTIVITIES)[number], string> = {
  sent: 'been sent an email',
  delivered: 'had an email delivered',
  opened: 'opened an email',
  clicked: 'clicked a link in an email',
  bounced: 'had an email bounce',
  complained: 'marked an email as spam',
};

/** `all` or `any` for a group node, null for anything else. */
export function groupMode(f: Filter): 'all' | 'any' | null {
  if (Array.isArray(f.all)) return 'all';
  if (Array.isArray(f.any)) return 'any';
  return null;
}

export function groupChildren(f: Filter): Filter[] {
  const mode = groupMode(f);
  return mode ? (f[mode] as Filter[]) : [];
}

/** The inner filter of a `not` node, or null. */
export function negated(f: Filter): Filter | null {
  return typeof f.not === 'object' && f.not !== null && !Array.isArray(f.not) ? (f.not as Filter) : null;
}

export function kindOf(condition: Filter): ConditionKind {
  if ('event' in condition) return 'event';
  if ('activity' in condition) return 'activity';
  if ('segment' in condition) return 'segment';
  if ('topic' in condition) return 'topic';
  if ('engagement' in condition) return 'engagement';
  return 'field';
}

export function fieldClass(field: string): keyof typeof FIELD_OPERATORS {
  if (field === 'email') return 'email';
  if (field === 'subscribed') return 'subscribed';
  if (field === 'createdAt' || field === 'updatedAt') return 'date';
  return 'data';
}

export const NO_VALUE = new Set(['exists', 'notExists']);

/** A new condition of a kind, valid enough to save once its blanks are filled. */
export function newCondition(kind: ConditionKind): Filter {
  switch (kind) {
    case 'event':
      return { event: '', operator: 'performed' };
    case 'activity':
      return { activity: 'opened', operator: 'performed', within: '30d' };
    case 'segment':
      return { segment: '', operator: 'member' };
    case 'topic':
      return { topic: '', operator: 'subscribed' };
    case 'engagement':
      return { engagement: 'engaged' };
    default:
      return { field: 'email', operator: 'contains', value: '' };
  }
}

/** The typed text of a value, as its input shows it. */
export function valueToText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (Array.isArray(value)) return value.map((v) => String(v)).join(', ');
  return String(value);
}

function scalar(text: string, data: boolean): unknown {
  const t = text.trim();
  if (/^".*"$/.test(t)) return t.slice(1, -1); // quotes keep a number-like value text
  if (data && t !== '' && /^-?\d+(\.\d+)?$/.test(t)) return Number(t);
  if (data && (t === 'true' || t === 'false')) return t === 'true';
  return t;
}

/** The value a condition sends for what was typed: lists for in/notIn, booleans, numbers on data fields. */
export function textToValue(text: string, field: string, operator: string): unknown {
  const data = fieldClass(field) === 'data';
  if (operator === 'in' || operator === 'notIn')
    return text
      .split(',')
      .map((part) => scalar(part, data))
      .filter((v) => v !== '');
  if (field === 'subscribed') return text === 'true';
  if (operator === 'within' || operator === 'olderThan') return text.trim();
  return scalar(text, data);
}

/** Counts the conditions in a filter (the builder's summary). */
export function countConditions(filter: Filter): number {
  if (groupMode(filter)) return groupChildren(filter).reduce((n, f) => n + countConditions(f), 0);
  const inner = negated(filter);
  return inner ? countConditions(inner) : 1;
}

/**
 * Whether a condition still has a blank to fill (an empty text, name, id or list; a value left out where the operator
 * takes one): such a filter is not asked about before it is complete.
 */
export function hasBlanks(filter: Filter): boolean {
  if (groupMode(filter)) return groupChildren(filter).some(hasBlanks);
  const inner = negated(filter);
  if (inner) return hasBlanks(inner);
  if (kindOf(filter) === 'field' && !NO_VALUE.has(String(filter.operator)) && filter.value === undefined) return true;
  return Object.values(filter).some((v) => v === '' || (Array.isArray(v) && v.length === 0));
}
