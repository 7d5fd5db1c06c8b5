// Whether a campaign's messages may still be handed over: a paused or cancelled campaign's claimed messages go
// back (or are cancelled) before their handoff. The campaign's status is read at most once a second per campaign
// and process, so a send of thousands costs a handful of queries, and a pause takes effect within that second.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';

const FRESH_MS = 1000;
const MAX_ENTRIES = 1000;

export class CampaignHalts {
  private readonly seen = new Map<string, { at: number; halted: Promise<boolean> }>();

  constructor(private readonly db: Executor) {}

  /** True when the campaign is PAUSED or CANCELLED (as of at most a second ago). */
  halted(campaignId: string): Promise<boolean> {
    const now = Date.now();
    const hit = this.seen.get(campaignId);
    if (hit && now - hit.at < FRESH_MS) return hit.halted;
    const halted = this.db
      .execute(sql`SELECT 1 FROM campaigns WHERE id = ${campaignId}::uuid AND status IN ('PAUSED', 'CANCELLED')`)
      .then(
        (result) => rowsOf(result).length > 0,
        () => false,
      );
    if (this.seen.size >= MAX_ENTRIES) this.seen.clear();
    this.seen.set(campaignId, { at: now, halted });
    return halted;
  }
}
