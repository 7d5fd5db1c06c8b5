import { z } from 'zod';
import type { Executor } from '../../db/client.ts';
import { EMAIL_ACTIVITIES, type EmailActivity } from './emails.activity.ts';
import { countActivitiesByDay, countTestSendsSince } from './emails.repo.ts';

/** What happens to email after it is queued, counted per day (the dashboard's overview chart). */
export const ACTIVITY_METRICS = EMAIL_ACTIVITIES;
export type ActivityMetric = EmailActivity;

const counts = Object.fromEntries(ACTIVITY_METRICS.map((m) => [m, z.number().int()])) as Record<
  ActivityMetric,
  z.ZodNumber
>;

export const emailStatsQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .min(1)
    .max(90)
    .default(30)
    .meta({ description: 'Days up to and including today (UTC), 1–90' }),
});

export const emailStatsSchema = z
  .object({
    from: z.string().meta({ description: 'First day (UTC), YYYY-MM-DD' }),
    to: z.string().meta({ description: 'Last day (UTC, today), YYYY-MM-DD' }),
    days: z
      .array(z.object({ date: z.string(), ...counts }))
      .meta({ description: 'One entry per day, oldest first, zero days included' }),
    totals: z.object(counts),
    testSends: z.number().int().meta({
      description: 'Test sends sent in the period: listed in the email log, left out of the figures above',
    }),
  })
  .meta({ id: 'EmailStats' });

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
function countActivitiesSince(db: Executor, projectId: string, since: Date) {
  const created = new Date(since.getTime() - STATS_LOOKBACK_DAYS * DAY_MS);
  return Promise.all([
    countActivitiesByDay(db, projectId, since, created),
    countTestSendsSince(db, projectId, since, created),
  ]);
}

/**
 * GET /emails/stats: sent, delivered, opened, clicked, bounced and complained emails per UTC day; test sends are
 * counted apart (`testSends`), so the figures and the email log can be told apart and reconciled.
 */
export async function getEmailStats(opts: {
  db: Executor;
  projectId: string;
  days: number;
  now?: Date;
}): Promise<EmailStats> {
  const today = new Date(`${dayOf(opts.now ?? new Date())}T00:00:00.000Z`);
  const first = new Date(today.getTime() - (opts.days - 1) * DAY_MS);
  const zero = () => Object.fromEntries(ACTIVITY_METRICS.map((m) => [m, 0])) as Record<ActivityMetric, number>;
  const days = Array.from({ length: opts.days }, (_, i) => ({
    date: dayOf(new Date(first.getTime() + i * DAY_MS)),
    ...zero(),
  }));
  const byDate = new Map(days.map((d) => [d.date, d]));
  const totals = zero();
  const [rows, testSends] = await countActivitiesSince(opts.db, opts.projectId, first);
  for (const row of rows) {
    const metric = row.name;
    const day = byDate.get(row.day);
    if (!day) continue; // an event stamped after "today" (clock skew between processes)
    day[metric] += Number(row.n);
    totals[metric] += Number(row.n);
  }
  return { from: dayOf(first), to: dayOf(today), days, totals, testSends };
}
