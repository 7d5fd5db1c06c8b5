import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import { ACTIVITY_SQL, EMAIL_ACTIVITIES, type EmailActivity } from './emails.activity.ts';

/** What happens to email after it is queued, counted per day (the dashboard's overview chart). */
export const ACTIVITY_METRICS = EMAIL_ACTIVITIES;
export type ActivityMetric = EmailActivity;

const counts = Object.fromEntries(ACTIVITY_METRICS.map((m) => [m, z.number().int()])) as Record<ActivityMetric, z.ZodNumber>;

export const emailStatsQuery = z.object({
  days: z.coerce.number().int().min(1).max(90).default(30).meta({ description: 'Days up to and including today (UTC), 1–90' }),
});

export const emailStatsSchema = z.object({
  from: z.string().meta({ description: 'First day (UTC), YYYY-MM-DD' }),
  to: z.string().meta({ description: 'Last day (UTC, today), YYYY-MM-DD' }),
  days: z.array(z.object({ date: z.string(), ...counts })).meta({ description: 'One entry per day, oldest first, zero days included' }),
  totals: z.object(counts),
}).meta({ id: 'EmailStats' });

export type EmailStats = z.infer<typeof emailStatsSchema>;

const DAY_MS = 24 * 60 * 60 * 1000;
const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

/**
 * How far before the first day an email may have been created and still have its activity counted: the bound
 * keeps the query on the (project, created) index instead of every email the project ever sent. Nearly all
 * activity happens within days of sending; an open of a months-old email is not counted.
 */
export const STATS_LOOKBACK_DAYS = 30;

// One pass over the project's recent emails: each activity of ACTIVITY_SQL (the definition campaign stats and
// filters use too) counted on the UTC day it happened, each email once per activity.
async function countActivitiesByDay(db: Executor, projectId: string, since: Date) {
  const created = new Date(since.getTime() - STATS_LOOKBACK_DAYS * DAY_MS);
  const kinds = sql.join(ACTIVITY_METRICS.map((m) => sql`(${m}, CASE WHEN ${ACTIVITY_SQL[m].match} THEN ${ACTIVITY_SQL[m].at} END)`), sql`, `);
  const result = await db.execute(sql`
    SELECT to_char(a.at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, a.metric AS name, count(*)::int AS n
    FROM emails m CROSS JOIN LATERAL (VALUES ${kinds}) AS a(metric, at)
    WHERE m.project_id = ${projectId}::uuid AND m.created_at >= ${created.toISOString()}::timestamptz
      AND m.source_type <> 'TEST' AND a.at >= ${since.toISOString()}::timestamptz
    GROUP BY 1, 2`);
  return rowsOf<{ day: string; name: ActivityMetric; n: number | string }>(result);
}

/** GET /emails/stats: sent, delivered, opened, clicked, bounced and complained emails per UTC day (test sends excluded). */
export async function getEmailStats(opts: { db: Executor; projectId: string; days: number; now?: Date }): Promise<EmailStats> {
  const today = new Date(`${dayOf(opts.now ?? new Date())}T00:00:00.000Z`);
  const first = new Date(today.getTime() - (opts.days - 1) * DAY_MS);
  const zero = () => Object.fromEntries(ACTIVITY_METRICS.map((m) => [m, 0])) as Record<ActivityMetric, number>;
  const days = Array.from({ length: opts.days }, (_, i) => ({ date: dayOf(new Date(first.getTime() + i * DAY_MS)), ...zero() }));
  const byDate = new Map(days.map((d) => [d.date, d]));
  const totals = zero();
  for (const row of await countActivitiesByDay(opts.db, opts.projectId, first)) {
    const metric = row.name;
    const day = byDate.get(row.day);
    if (!day) continue; // an event stamped after "today" (clock skew between processes)
    day[metric] += Number(row.n);
    totals[metric] += Number(row.n);
  }
  return { from: dayOf(first), to: dayOf(today), days, totals };
}
