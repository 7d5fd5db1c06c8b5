import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { contacts } from '../../db/schema/index.ts';
import {
  dormantAfterDaysSql,
  ENGAGEMENT_LEVELS,
  engagementLevelSql,
  WEEK_HOURS,
  type EngagementLevel,
} from './contacts.engagement.ts';

/**
 * A person's open or click of the contact's mail: the last-open (or click) time moves forward, and when `counted`
 * (the email's first human open or click) the hour of the week it happened in counts once more.
 */
export async function recordHumanActivityRow(
  db: Executor,
  row: { contactId: string; kind: 'open' | 'click'; at: Date; hour: number; counted: boolean },
): Promise<void> {
  const column = row.kind === 'open' ? sql`last_human_open_at` : sql`last_human_click_at`;
  const at = row.at.toISOString();
  const hours = sql.raw(`(COALESCE(engagement_hours, array_fill(0, ARRAY[${WEEK_HOURS}])))`);
  // Whole numbers of our own (0–167), written into the statement: array bounds take no untyped parameters.
  const slot = Math.trunc(row.hour) + 1;
  const [upTo, slotAt, from] = [slot - 1, slot, slot + 1].map((n) => sql.raw(String(n)));
  await db.execute(sql`
    UPDATE contacts SET ${column} = greatest(${column}, ${at}::timestamptz),
      engagement_hours = CASE WHEN ${row.counted}::boolean
        THEN ${hours}[1:${upTo}] || (${hours}[${slotAt}] + 1) || ${hours}[${from}:${sql.raw(String(WEEK_HOURS))}]
        ELSE engagement_hours END
    WHERE id = ${row.contactId}::uuid`);
}

/**
 * A data-modifying statement (for a CTE) noting marketing mail handed over to contacts: `rows` yields one
 * `contact_id` per email. Rows are locked in id order first, so two batches that share contacts cannot deadlock.
 */
export function marketingReceivedStatement(rows: SQL): SQL {
  return sql`UPDATE contacts c SET first_marketing_at = COALESCE(c.first_marketing_at, now()),
      last_marketing_at = now(), marketing_received = c.marketing_received + r.n
    FROM (SELECT l.id, r.n FROM (SELECT lc.id FROM contacts lc WHERE lc.id IN (SELECT contact_id FROM ${rows} x)
        ORDER BY lc.id FOR NO KEY UPDATE) l
      JOIN (SELECT x.contact_id, count(*)::int AS n FROM ${rows} x GROUP BY x.contact_id) r ON r.contact_id = l.id) r
    WHERE c.id = r.id`;
}

/** The project's contacts by engagement level (every level, zeros included). */
export async function countEngagementLevels(db: Executor, projectId: string): Promise<Record<EngagementLevel, number>> {
  const days = sql`(SELECT d FROM days)`;
  const cases = ENGAGEMENT_LEVELS.map(
    (level) => sql`count(*) FILTER (WHERE ${engagementLevelSql(level, days)})::int AS ${sql.identifier(level)}`,
  );
  const result = await db.execute(sql`WITH days AS (SELECT ${dormantAfterDaysSql(projectId)} AS d)
    SELECT ${sql.join(cases, sql`, `)} FROM contacts WHERE ${contacts.projectId} = ${projectId}::uuid`);
  const row = rowsOf<Record<string, number | string>>(result)[0] ?? {};
  return Object.fromEntries(ENGAGEMENT_LEVELS.map((level) => [level, Number(row[level] ?? 0)])) as Record<
    EngagementLevel,
    number
  >;
}

/** The project's dormantAfterDays (its default when it chose none). */
export async function findDormantAfterDays(db: Executor, projectId: string): Promise<number> {
  const result = await db.execute(sql`SELECT ${dormantAfterDaysSql(projectId)} AS days`);
  return Number(rowsOf<{ days: number | string }>(result)[0]!.days);
}

/**
 * The next `limit` contacts of the project after `after` (by id): the last id walked, and those of them who are
 * subscribed and dormant (by the project's dormantAfterDays).
 */
export async function findDormantBatch(
  db: Executor,
  projectId: string,
  after: string | null,
  limit: number,
): Promise<{ last: string | null; walked: number; dormant: string[] }> {
  const dormant = engagementLevelSql('dormant', sql`(SELECT d FROM days)`);
  const result = await db.execute(sql`WITH days AS (SELECT ${dormantAfterDaysSql(projectId)} AS d)
    SELECT ${contacts.id} AS id, ${contacts.subscribed} AND ${dormant} AS due FROM contacts
    WHERE ${contacts.projectId} = ${projectId}::uuid ${after ? sql`AND ${contacts.id} > ${after}::uuid` : sql``}
    ORDER BY ${contacts.id} LIMIT ${limit}`);
  const rows = rowsOf<{ id: string; due: boolean }>(result);
  return { last: rows.at(-1)?.id ?? null, walked: rows.length, dormant: rows.filter((r) => r.due).map((r) => r.id) };
}
