import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { events } from '../../db/schema/events.ts';

/** What happens to email after it is queued, counted per day (the dashboard's overview chart). */
export const ACTIVITY_METRICS = ['sent', 'delivered', 'opened', 'clicked', 'bounced', 'complained'] as const;
export type ActivityMetric = (typeof ACTIVITY_METRICS)[number];

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

// One indexed pass over the project's `email.*` events of the window: emails per day and kind of event,
// each email counted once a day however often it was opened or clicked.
async function countEmailEventsByDay(db: Executor, projectId: string, since: Date) {
  const names = ACTIVITY_METRICS.map((m) => `email.${m}`);
  const result = await db.execute(sql`
    SELECT to_char(${events.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, ${events.name} AS name,
           count(DISTINCT coalesce(${events.data}->>'emailId', ${events.id}::text))::int AS n
    FROM ${events}
    WHERE ${events.projectId} = ${projectId} AND ${events.name} IN (${sql.join(names.map((n) => sql`${n}`), sql`, `)}) AND ${events.createdAt} >= ${since.toISOString()}
    GROUP BY 1, 2`);
  return (result as unknown as { rows: { day: string; name: string; n: number | string }[] }).rows;
}

/** GET /emails/stats: sent, delivered, opened, clicked, bounced and complained emails per UTC day. */
export async function getEmailStats(opts: { db: Executor; projectId: string; days: number; now?: Date }): Promise<EmailStats> {
  const today = new Date(`${dayOf(opts.now ?? new Date())}T00:00:00.000Z`);
  const first = new Date(today.getTime() - (opts.days - 1) * DAY_MS);
  const zero = () => Object.fromEntries(ACTIVITY_METRICS.map((m) => [m, 0])) as Record<ActivityMetric, number>;
  const days = Array.from({ length: opts.days }, (_, i) => ({ date: dayOf(new Date(first.getTime() + i * DAY_MS)), ...zero() }));
  const byDate = new Map(days.map((d) => [d.date, d]));
  const totals = zero();
  for (const row of await countEmailEventsByDay(opts.db, opts.projectId, first)) {
    const metric = row.name.slice('email.'.length) as ActivityMetric;
    const day = byDate.get(row.day);
    if (!day) continue; // an event stamped after "today" (clock skew between processes)
    day[metric] += Number(row.n);
    totals[metric] += Number(row.n);
  }
  return { from: dayOf(first), to: dayOf(today), days, totals };
}
