// Retention of events (RETENTION_EVENTS_DAYS; unset keeps them forever): the oldest are deleted in small batches,
// each its own short transaction, so tracking goes on beside it on either database.
import { asc, inArray, lt } from 'drizzle-orm';
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import type { Executor } from '../../db/client.ts';
import { events } from '../../db/schema/index.ts';
import { deleteExpired, type RetentionPass } from '../../lib/retention.ts';
import { defineJob } from '../../queue/registry.ts';

/** Deletes up to `limit` events recorded before `before`, oldest first; answers how many. */
async function deleteEventsBatch(db: Executor, before: Date, limit: number): Promise<number> {
  const due = db
    .select({ id: events.id })
    .from(events)
    .where(lt(events.createdAt, before))
    .orderBy(asc(events.createdAt))
    .limit(limit);
  const deleted = await db.delete(events).where(inArray(events.id, due)).returning({ id: events.id });
  return deleted.length;
}

/** Deletes every event older than `days`, batch by batch; answers how many. */
export function deleteExpiredEvents(opts: RetentionPass & { db: Executor }): Promise<number> {
  return deleteExpired(opts, (before, size) => deleteEventsBatch(opts.db, before, size));
}

/** Daily, when RETENTION_EVENTS_DAYS is set: events older than that are deleted. */
export const eventsRetentionJob = defineJob({
  name: 'events-retention',
  schema: z.object({}),
  cron: '43 3 * * *',
  queue: { retryLimit: 1, policy: 'singleton', expireInSeconds: 6 * 3600 },
  async handler(_payload, ctx: AppContext) {
    const days = ctx.config.retention.eventsDays;
    if (days === null) return;
    const deleted = await deleteExpiredEvents({ db: ctx.db, days });
    if (deleted > 0) ctx.logger.info({ deleted }, 'events past their retention deleted');
  },
});
