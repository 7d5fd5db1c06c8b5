// The rows behind provider throttles and warm-up, shared by every worker: a throttle's next free slot and its
// "slow down" state per sender domain and provider, the messages handed over and deferred per minute, and a
// warming domain's mail per day. Each reservation is one statement, so N workers never hand over more than the
// allowance between them.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { rowsOf } from '../../db/rows.ts';
import type { MailboxProvider } from '../../db/schema/index.ts';

export interface ThrottleState {
  slowedPerHour: number | null;
  slowedAt: Date | null;
}

/** The "slow down" state of each (domain, provider) pair that has one. */
export async function readThrottles(db: Executor, domainIds: string[]): Promise<Map<string, ThrottleState>> {
  const out = new Map<string, ThrottleState>();
  if (domainIds.length === 0) return out;
  const result = await db.execute(sql`
    SELECT domain_id::text, provider, slowed_per_hour, slowed_at FROM send_throttles
    WHERE domain_id IN (${sql.join(
      domainIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}) AND slowed_at IS NOT NULL`);
  for (const r of rowsOf<{ domain_id: string; provider: string; slowed_per_hour: number; slowed_at: string | Date }>(
    result,
  )) {
    out.set(`${r.domain_id} ${r.provider}`, {
      slowedPerHour: Number(r.slowed_per_hour),
      slowedAt: new Date(r.slowed_at),
    });
  }
  return out;
}

/**
 * Reserves up to `count` slots `spacingMs` apart from the pair's next free slot, only as far as `horizonMs` from now:
 * the delays of the slots it got (possibly fewer than asked), and when the next free slot is.
 */
export async function reserveThrottleSlots(
  db: Executor,
  pair: { domainId: string; provider: MailboxProvider },
  count: number,
  spacingMs: number,
  horizonMs: number,
): Promise<{ delays: number[]; nextInMs: number }> {
  await db.execute(sql`
    INSERT INTO send_throttles (domain_id, provider) VALUES (${pair.domainId}::uuid, ${pair.provider})
    ON CONFLICT (domain_id, provider) DO NOTHING`);
  // The subquery locks the row and reads its latest next slot, so concurrent reservations queue up behind each other.
  const result = await db.execute(sql`
    UPDATE send_throttles t SET next_at = o.start + make_interval(secs => o.n * ${spacingMs}::float8 / 1000.0)
    FROM (
      SELECT s.start, least(${count}::int, greatest(0, floor(extract(epoch FROM (clock_timestamp() +
        ${`${horizonMs} milliseconds`}::interval - s.start)) * 1000 / ${spacingMs}::float8)::int + 1)) AS n
      FROM (SELECT greatest(coalesce(next_at, clock_timestamp()), clock_timestamp()) AS start FROM send_throttles
        WHERE domain_id = ${pair.domainId}::uuid AND provider = ${pair.provider} FOR UPDATE) s
    ) o
    WHERE t.domain_id = ${pair.domainId}::uuid AND t.provider = ${pair.provider}
    RETURNING o.n, (extract(epoch FROM (o.start - clock_timestamp())) * 1000)::float8 AS first_ms,
      (extract(epoch FROM (t.next_at - clock_timestamp())) * 1000)::float8 AS next_ms`);
  const row = rowsOf<{ n: number; first_ms: number; next_ms: number }>(result)[0];
  const n = Number(row?.n ?? 0);
  const first = Math.max(0, Number(row?.first_ms ?? 0));
  return {
    delays: Array.from({ length: n }, (_, i) => first + i * spacingMs),
    nextInMs: Math.max(0, Number(row?.next_ms ?? 0)),
  };
}

/**
 * A "slow down" deferral: the pair's rate becomes `perHour` (half of what it was allowed, or of what it sent lately)
 * from now. Several deferrals within a minute (the messages that were in flight together) halve it once.
 */
export async function slowDown(
  db: Executor,
  pair: { domainId: string; provider: MailboxProvider },
  perHour: number,
): Promise<void> {
  await db.execute(sql`
    INSERT INTO send_throttles AS t (domain_id, provider, slowed_per_hour, slowed_at)
    VALUES (${pair.domainId}::uuid, ${pair.provider}, ${perHour}::float8, clock_timestamp())
    ON CONFLICT (domain_id, provider) DO UPDATE SET slowed_per_hour = excluded.slowed_per_hour,
      slowed_at = excluded.slowed_at
    WHERE t.slowed_at IS NULL OR t.slowed_at < clock_timestamp() - interval '1 minute'`);
}

/** What the pair handed over in the last `minutes` minutes. */
export async function sentRecently(
  db: Executor,
  pair: { domainId: string; provider: MailboxProvider },
  minutes: number,
): Promise<number> {
  const result = await db.execute(sql`
    SELECT coalesce(sum(sent), 0)::int AS n FROM send_counts
    WHERE domain_id = ${pair.domainId}::uuid AND provider = ${pair.provider}
      AND minute >= date_trunc('minute', clock_timestamp()) - make_interval(mins => ${minutes})`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

export interface CountDelta {
  domainId: string;
  provider: MailboxProvider;
  sent: number;
  deferred: number;
}

/** Adds to this minute's counts (one statement for all pairs); counts older than two days are dropped now and then. */
export async function addCounts(db: Executor, deltas: CountDelta[]): Promise<void> {
  if (deltas.length === 0) return;
  const rows = JSON.stringify(
    deltas.map((d) => ({ domain_id: d.domainId, provider: d.provider, sent: d.sent, deferred: d.deferred })),
  );
  await db.execute(sql`
    INSERT INTO send_counts AS c (domain_id, provider, minute, sent, deferred)
    SELECT d.domain_id, d.provider, date_trunc('minute', clock_timestamp()), d.sent, d.deferred
    FROM jsonb_to_recordset(${rows}::jsonb) AS d(domain_id uuid, provider text, sent int, deferred int)
    ON CONFLICT (domain_id, provider, minute) DO UPDATE SET sent = c.sent + excluded.sent,
      deferred = c.deferred + excluded.deferred`);
}

/** Drops counts older than two days. */
export async function pruneCounts(db: Executor): Promise<void> {
  await db.execute(sql`DELETE FROM send_counts WHERE minute < clock_timestamp() - interval '2 days'`);
  await db.execute(sql`DELETE FROM warmup_days WHERE day < to_char(clock_timestamp() - interval '120 days',
    'YYYY-MM-DD')`);
}

/**
 * Counts a warming domain's mail for the day: every transactional message (never held), and as many marketing ones as
 * the day's cap still allows. How many marketing messages may go.
 */
export async function reserveWarmup(
  db: Executor,
  opts: { domainId: string; day: string; cap: number; marketing: number; transactional: number },
): Promise<number> {
  const { domainId, day, cap, marketing, transactional } = opts;
  await db.execute(sql`
    INSERT INTO warmup_days (domain_id, day, sent) VALUES (${domainId}::uuid, ${day}, 0)
    ON CONFLICT (domain_id, day) DO NOTHING`);
  const result = await db.execute(sql`
    UPDATE warmup_days w SET sent = w.sent + ${transactional} + o.granted
    FROM (SELECT least(${marketing}, greatest(0, ${cap} - sent - ${transactional}))::int AS granted FROM warmup_days
      WHERE domain_id = ${domainId}::uuid AND day = ${day} FOR UPDATE) o
    WHERE w.domain_id = ${domainId}::uuid AND w.day = ${day}
    RETURNING o.granted`);
  return Number(rowsOf<{ granted: number }>(result)[0]?.granted ?? 0);
}
