// Keeps tracked DYNAMIC segments' membership current: each round claims the segment whose members were
// computed longest ago (once SEGMENT_TRACKING_SECONDS have passed) and records who entered and left since.
import { definePoller } from '../../queue/poller.ts';
import type { AppContext } from '../../context.types.ts';
import { claimDueSegment } from './segments.repo.ts';
import { recomputeMembership, startTracking } from './segments.tracking.ts';

/** Every 2 s (at once again while segments are due); workers share the segments through SKIP LOCKED claims. */
export const membershipTracker = definePoller({
  name: 'segment-membership',
  intervalMs: 2000,
  async run(ctx: AppContext) {
    return ctx.db.transaction(async (tx) => {
      const row = await claimDueSegment(tx, ctx.config.segmentTrackingSeconds);
      if (!row) return false;
      if (row.trackedAt === null) await startTracking({ db: tx, row });
      else await recomputeMembership({ db: tx, row });
      return true;
    });
  },
});
