import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';

export interface Take {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Milliseconds until the current window ends. */
  resetMs: number;
}

interface Lease {
  windowStart: number;
  /** Tokens this process holds for the window and has not spent. */
  held: number;
  /** The window's total use across every process, as of our last lease. */
  globalUsed: number;
  exhausted: boolean;
  pending: Promise<void> | null;
}

/**
 * Fixed-window limits shared by every process on one database. Each process leases tokens from the
 * window's row in small batches, so the database sees one write per batch, not one per request, and
 * the sum of leases never exceeds the limit.
 */
export class RateLimiter {
  private readonly leases = new Map<string, Lease>();

  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Spends one token of `bucket` (limit per window of `windowMs`). */
  async take(bucket: string, limit: number, windowMs: number): Promise<Take> {
    const now = this.now();
    const windowStart = Math.floor(now / windowMs) * windowMs;
    const resetMs = windowStart + windowMs - now;
    let current = this.leases.get(bucket);
    if (!current || current.windowStart !== windowStart) {
      current = { windowStart, held: 0, globalUsed: 0, exhausted: false, pending: null };
      this.leases.set(bucket, current);
      this.prune(now, windowMs);
    }
    const lease = current;
    while (lease.held === 0 && !lease.exhausted) {
      lease.pending ??= this.lease(bucket, lease, limit).finally(() => {
        lease.pending = null;
      });
      await lease.pending;
    }
    const remainingOf = (l: Lease) => Math.max(0, limit - l.globalUsed) + l.held;
    if (lease.held === 0) return { allowed: false, limit, remaining: 0, resetMs };
    lease.held -= 1;
    return { allowed: true, limit, remaining: remainingOf(lease), resetMs };
  }

  private async lease(bucket: string, lease: Lease, limit: number): Promise<void> {
    const batch = Math.max(1, Math.min(20, Math.ceil(limit / 100)));
    // Side effect: adds `batch` to the window's use, unless it is already at the limit.
    const result = await this.db.execute(sql`
      INSERT INTO rate_limit_buckets (bucket, window_start, used)
      VALUES (${bucket}, ${new Date(lease.windowStart).toISOString()}, ${batch})
      ON CONFLICT (bucket, window_start) DO UPDATE SET used = rate_limit_buckets.used + ${batch}
      WHERE rate_limit_buckets.used < ${limit}
      RETURNING used`);
    const row = (result as unknown as { rows: { used: number }[] }).rows[0];
    if (!row) {
      lease.exhausted = true;
      lease.globalUsed = limit;
      return;
    }
    const before = Number(row.used) - batch;
    const granted = Math.max(0, Math.min(batch, limit - before));
    lease.held += granted;
    lease.globalUsed = Math.min(limit, Number(row.used));
    // The window is spent once the row reaches the limit: no process can lease more until it ends.
    lease.exhausted = before + batch >= limit;
  }

  private prune(now: number, windowMs: number): void {
    if (this.leases.size < 10_000) return;
    for (const [key, lease] of this.leases) if (lease.windowStart + windowMs < now) this.leases.delete(key);
  }
}
