/** The filter language: the shape a validated filter has. */
import { parseIsoInstant } from '../../lib/dates.ts';

export const FIELD_OPERATORS = [
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
] as const;
export type FieldOperator = (typeof FIELD_OPERATORS)[number];

import { EMAIL_ACTIVITIES, type EmailActivity } from '../emails/index.ts';
import type { EngagementLevel } from '../contacts/index.ts';

export const ACTIVITIES = EMAIL_ACTIVITIES;
export type Activity = EmailActivity;

export type Scalar = string | number | boolean;

export interface FieldCondition {
  /** email | subscribed | createdAt | updatedAt | data.<path> */
  field: string;
  operator: FieldOperator;
  value?: unknown;
}

export interface EventCondition {
  event: string;
  operator: 'performed' | 'notPerformed';
  within?: string;
  count?: { gte?: number; lte?: number };
}

export interface ActivityCondition {
  activity: Activity;
  operator: 'performed' | 'notPerformed';
  within?: string;
  campaignId?: string;
  /** Opens and clicks by people only (not Apple's prefetch, proxies or scanners). */
  human?: boolean;
}

export interface SegmentCondition {
  segment: string;
  operator: 'member' | 'notMember';
}

export interface TopicCondition {
  topic: string;
  operator: 'subscribed' | 'notSubscribed';
}

/** The contact's engagement level (from people's opens and clicks only), as `engagement.level` on the contact. */
export interface EngagementCondition {
  engagement: EngagementLevel;
}

export type Condition =
  | FieldCondition
  | EventCondition
  | ActivityCondition
  | SegmentCondition
  | TopicCondition
  | EngagementCondition;

export type Filter = { all: Filter[] } | { any: Filter[] } | { not: Filter } | Condition;

/** Limits that keep one filter's SQL small enough to plan quickly. */
export const FILTER_LIMITS = {
  /** Nesting of all/any/not. */
  depth: 12,
  /** Nodes of one filter (combinators and conditions). */
  nodes: 200,
  /** Nodes after every segment reference is expanded. */
  expandedNodes: 1000,
  /** Values of an `in` / `notIn` list. */
  listValues: 500,
  /** Characters of a string value. */
  stringLength: 1000,
  /** Keys of a `data.<path>`. */
  pathDepth: 8,
  /** Characters of one key of a `data.<path>`. */
  keyLength: 128,
} as const;

export { durationSeconds } from '../../lib/durations.ts';

/**
 * An ISO 8601 date or date-time as UTC ISO text (no offset = UTC, like a bare date); null when it is
 * none, or not a real day (2024-02-30) or outside the years 1–9999 (PostgreSQL refuses year 0).
 */
export function toInstant(value: unknown): string | null {
  return parseIsoInstant(value)?.toISOString() ?? null;
}
