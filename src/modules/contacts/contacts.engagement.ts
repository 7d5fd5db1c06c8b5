// A contact's engagement: how recently a person (never a machine: Apple's prefetch, proxies and scanners are told
// apart in mail/engagement.ts) opened or clicked its mail, against the marketing mail it received. The figures live on
// the contact row; the level and score are derived from them when read, here in TypeScript for the API and below
// in SQL for filters and counts, by the same rules (docs/engagement.md).
import { sql, type SQL } from 'drizzle-orm';
import { contacts } from '../../db/schema/index.ts';
import { DAY_MS, HOUR_MS } from '../../lib/durations.ts';
import { iso } from '../../lib/http.ts';
import type { ContactRow } from './contacts.repo.ts';

export const ENGAGEMENT_LEVELS = ['new', 'engaged', 'at_risk', 'dormant'] as const;
export type EngagementLevel = (typeof ENGAGEMENT_LEVELS)[number];

/** Days without a person's open or click (while marketing mail kept arriving) after which a contact is dormant. */
export const DEFAULT_DORMANT_AFTER_DAYS = 180;
/** Hours of a week: the length of the hour-of-week histogram. */
export const WEEK_HOURS = 168;

export interface EngagementView {
  level: EngagementLevel;
  score: number;
  lastHumanOpenAt: string | null;
  lastHumanClickAt: string | null;
}

type EngagementFacts = Pick<
  ContactRow,
  'lastHumanOpenAt' | 'lastHumanClickAt' | 'firstMarketingAt' | 'lastMarketingAt'
>;

const latest = (a: Date | null, b: Date | null): Date | null => (a && b ? (a > b ? a : b) : (a ?? b));

/**
 * The level: `new` before any marketing mail; `dormant` when no person opened or clicked for dormantAfterDays
 * (counted from the first marketing mail when they never did) and mail arrived after their last activity;
 * `engaged` with a person's open or click within the last half of that; `at_risk` otherwise.
 */
export function engagementLevel(facts: EngagementFacts, dormantAfterDays: number, now = new Date()): EngagementLevel {
  if (!facts.firstMarketingAt) return 'new';
  const active = latest(facts.lastHumanOpenAt, facts.lastHumanClickAt);
  const quietSince = active ?? facts.firstMarketingAt;
  const mailedSince = !active || (facts.lastMarketingAt !== null && facts.lastMarketingAt > active);
  if (quietSince.getTime() <= now.getTime() - dormantAfterDays * DAY_MS && mailedSince) return 'dormant';
  if (active && active.getTime() > now.getTime() - dormantAfterDays * 12 * HOUR_MS) return 'engaged';
  return 'at_risk';
}

/**
 * The score, 0–100: 60 points for the latest human open or click and 40 for the latest human click, each halving
 * every dormantAfterDays / 6 days of age (30 days by default): a click today is 100, an open today 60.
 */
export function engagementScore(facts: EngagementFacts, dormantAfterDays: number, now = new Date()): number {
  const halfLifeMs = (dormantAfterDays * DAY_MS) / 6;
  const weight = (at: Date | null) => (at ? 2 ** (-Math.max(0, now.getTime() - at.getTime()) / halfLifeMs) : 0);
  const active = latest(facts.lastHumanOpenAt, facts.lastHumanClickAt);
  return Math.round(100 * (0.6 * weight(active) + 0.4 * weight(facts.lastHumanClickAt)));
}

/** The `engagement` of a contact as the API shows it. */
export function engagementView(facts: EngagementFacts, dormantAfterDays: number, now = new Date()): EngagementView {
  return {
    level: engagementLevel(facts, dormantAfterDays, now),
    score: engagementScore(facts, dormantAfterDays, now),
    lastHumanOpenAt: facts.lastHumanOpenAt ? iso(facts.lastHumanOpenAt) : null,
    lastHumanClickAt: facts.lastHumanClickAt ? iso(facts.lastHumanClickAt) : null,
  };
}

/** The hour of the week of an instant in UTC, 0 = Monday 00:00–00:59 UTC … 167 = Sunday 23:00–23:59. */
export function hourOfWeek(at: Date): number {
  return ((at.getUTCDay() + 6) % 7) * 24 + at.getUTCHours();
}

/** The project's dormantAfterDays as an SQL value (the default where the project chose none). */
export function dormantAfterDaysSql(projectId: string): SQL {
  return sql`COALESCE((SELECT ps.dormant_after_days FROM project_settings ps WHERE ps.project_id =
    ${projectId}::uuid), ${DEFAULT_DORMANT_AFTER_DAYS})`;
}

/** The predicate "the contact (`contacts` of the outer query) is at this level", by engagementLevel's rules. */
export function engagementLevelSql(level: EngagementLevel, dormantDays: SQL): SQL {
  const active = sql`greatest(${contacts.lastHumanOpenAt}, ${contacts.lastHumanClickAt})`;
  const isNew = sql`${contacts.firstMarketingAt} IS NULL`;
  const dormant = sql`COALESCE(${contacts.firstMarketingAt} IS NOT NULL
    AND COALESCE(${active}, ${contacts.firstMarketingAt}) <= now() - make_interval(days => ${dormantDays})
    AND (${active} IS NULL OR ${contacts.lastMarketingAt} > ${active}), false)`;
  const engaged = sql`(${contacts.firstMarketingAt} IS NOT NULL AND NOT ${dormant}
    AND ${active} > now() - make_interval(hours => (${dormantDays}) * 12))`;
  switch (level) {
    case 'new':
      return sql`(${isNew})`;
    case 'dormant':
      return dormant;
    case 'engaged':
      return engaged;
    case 'at_risk':
      return sql`(${contacts.firstMarketingAt} IS NOT NULL AND NOT ${dormant} AND NOT COALESCE(${engaged}, false))`;
  }
}
