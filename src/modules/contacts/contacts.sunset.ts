// Sunsetting: once a day, in projects whose settings say `sunset: {action: "unsubscribe"}`, dormant contacts are
// unsubscribed. The sweep walks a project's contacts by id in batches; each batch's unsubscribes commit with the
// checkpoint (the last id walked), so a sweep stopped at any point (even by kill -9) resumes after it, and a second
// run of the same day finds the checkpoint moved and stops.
import { z } from 'zod';
import type { AppContext } from '../../context.types.ts';
import type { Db } from '../../db/client.ts';
import { defineJob } from '../../queue/registry.ts';
import { findDormantBatch } from './contacts.engagement.repo.ts';
import * as sweeps from './contacts.sunset.repo.ts';
import { patchContactsById } from './contacts.service.ts';

class Superseded extends Error {}

/** Contacts looked at per transaction. */
export const SUNSET_BATCH = 1000;

/** The UTC day a sweep is for (one sweep per project per day). */
export const sweepDay = (now: Date): string => now.toISOString().slice(0, 10);

/**
 * Runs (or resumes) the project's sweep of `day`: answers how many contacts it unsubscribed in this run, or null
 * when that day's sweep was finished already or another run holds it.
 */
export async function runSunsetSweep(opts: {
  db: Db;
  projectId: string;
  day: string;
  batchSize?: number;
}): Promise<number | null> {
  const { db, projectId, day } = opts;
  const limit = opts.batchSize ?? SUNSET_BATCH;
  let sweep = await sweeps.startSweep(db, projectId, day);
  if (!sweep || sweep.finishedAt) return null;
  let unsubscribed = 0;
  for (;;) {
    const from: string | null = sweep.cursor;
    let step: { changed: number; done: boolean; cursor: string | null };
    try {
      step = await db.transaction(async (tx) => {
        const batch = await findDormantBatch(tx, projectId, from, limit);
        // Every unsubscribe goes through the contacts' one path: contact.unsubscribed events, webhooks and the
        // consent ledger's entries (source sunset) follow.
        const changed = await patchContactsById({
          db: tx,
          projectId,
          ids: batch.dormant,
          subscribed: false,
          consent: { type: 'sunset' },
        });
        const done = batch.walked < limit;
        const moved = await sweeps.advanceSweep(tx, projectId, day, from, {
          cursor: batch.last ?? from,
          unsubscribed: changed,
          done,
        });
        if (!moved) throw new Superseded(); // another run moved the checkpoint: this batch is undone
        return { changed, done, cursor: batch.last ?? from };
      });
    } catch (error) {
      if (error instanceof Superseded) return unsubscribed;
      throw error;
    }
    unsubscribed += step.changed;
    if (step.done) return unsubscribed;
    sweep = { ...sweep, cursor: step.cursor };
  }
}

/** Every project that sunsets dormant contacts gets its sweep of the day (resumed where a stopped one left off). */
export async function sunsetDormantContacts(ctx: Pick<AppContext, 'db' | 'logger'>, now = new Date()): Promise<void> {
  const day = sweepDay(now);
  for (const projectId of await sweeps.findSunsetProjects(ctx.db)) {
    const unsubscribed = await runSunsetSweep({ db: ctx.db, projectId, day });
    if (unsubscribed) ctx.logger.info({ projectId, unsubscribed }, 'dormant contacts unsubscribed (sunset)');
  }
}

/** Daily: dormant contacts of projects with `sunset: {action: "unsubscribe"}` are unsubscribed. */
export const sunsetJob = defineJob({
  name: 'contacts-sunset',
  schema: z.object({}),
  cron: '23 4 * * *',
  // One run at a time cluster-wide; a killed worker's run is taken over once its heartbeat stops.
  queue: { retryLimit: 5, retryDelay: 60, policy: 'singleton', expireInSeconds: 6 * 3600, heartbeatSeconds: 60 },
  async handler(_payload, ctx: AppContext) {
    await sunsetDormantContacts(ctx);
  },
});
