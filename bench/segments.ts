/**
 * Segment counts at scale: seeds 1,000,000 contacts and ~5,000,000 events into a fresh PostgreSQL database
 * (created and dropped here), then times the count of a few typical segments through the same code path
 * as `memberCount` (filter → one SQL query); then membership tracking and the CSV export (segments.membership.ts).
 * BENCH_CONTACTS scales the seed down for a quick run.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../src/db/client.ts';
import { newId } from '../src/lib/ids.ts';
import { recipientPredicate, filterPredicate } from '../src/modules/segments/segments.audience.ts';
import { countMatching, insertSegment } from '../src/modules/segments/segments.repo.ts';
import { checkFilter } from '../src/modules/segments/filter.validate.ts';
import { fmt, postgresAvailable, startBenchApp } from './support.ts';
import { benchExport, benchMembership } from './segments.membership.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const RUNS = 5;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * 1M contacts with plan/country/age data, then 0–10 events each (about 5M) over the last year. The
 * schema's secondary indexes are dropped for the bulk load and rebuilt from their own definitions after.
 */
async function seed(db: Db, projectId: string): Promise<void> {
  await db.execute(sql`INSERT INTO projects (id, name) VALUES (${projectId}::uuid, 'bench')`);
  const indexes = rowsOf<{ name: string; definition: string }>(
    await db.execute(sql`
    SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
    WHERE i.schemaname = 'public' AND i.tablename IN ('contacts', 'events')
      AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`),
  );
  for (const index of indexes) await db.execute(sql.raw(`DROP INDEX "${index.name}"`));
  let started = performance.now();
  await db.execute(sql`
    INSERT INTO contacts (id, project_id, email, subscribed, data, created_at, updated_at)
    SELECT gen_random_uuid(), ${projectId}::uuid, 'user' || i || '@example' || (i % 97) || '.test', i % 10 <> 0,
      jsonb_build_object(
        'plan', (ARRAY['free', 'free', 'free', 'pro', 'pro', 'team', 'enterprise', 'free'])[1 + i % 8],
        'country', (ARRAY['DE', 'FR', 'US', 'GB', 'NL', 'ES', 'IT', 'SE', 'US', 'US'])[1 + (i * 7) % 10],
        'age', 18 + (i * 13) % 60,
        'firstName', 'User' || i),
      now() - make_interval(days => i % 730), now() - make_interval(days => i % 90)
    FROM generate_series(1, ${CONTACTS}) AS i`);
  console.log(`  seeded ${fmt(CONTACTS)} contacts in ${fmt((performance.now() - started) / 1000, 1)} s`);
  started = performance.now();
  await db.execute(sql`
    INSERT INTO events (id, project_id, contact_id, name, data, created_at)
    SELECT gen_random_uuid(), ${projectId}::uuid, c.id,
      (ARRAY['page_view', 'page_view', 'page_view', 'page_view', 'login', 'login', 'added_to_cart', 'purchase',
        'signup', 'page_view'])[1 + floor(random() * 10)::int],
      '{}'::jsonb, now() - random() * interval '365 days'
    -- (naming c.id makes the series per contact; otherwise it would be computed once for all)
    FROM contacts c CROSS JOIN LATERAL generate_series(1, floor(random() * 11)::int + (c.id IS NULL)::int) AS n`);
  const [{ n }] = rowsOf<{ n: number }>(await db.execute(sql`SELECT count(*)::int AS n FROM events`)) as [
    { n: number },
  ];
  console.log(`  seeded ${fmt(n)} events in ${fmt((performance.now() - started) / 1000, 1)} s`);
  started = performance.now();
  for (const index of indexes) await db.execute(sql.raw(index.definition));
  console.log(
    `  built ${indexes.length} indexes (${indexes.map((i) => i.name).join(', ')}) ` +
      `in ${fmt((performance.now() - started) / 1000, 1)} s`,
  );
  started = performance.now();
  await db.execute(sql`VACUUM ANALYZE contacts`);
  await db.execute(sql`VACUUM ANALYZE events`);
  console.log(`  vacuum analyze in ${fmt((performance.now() - started) / 1000, 1)} s`);
}

const SEGMENTS: [string, unknown][] = [
  ['data: plan = pro', { field: 'data.plan', operator: 'equals', value: 'pro' }],
  ['event: purchase within 30d', { event: 'purchase', operator: 'performed', within: '30d' }],
  [
    'data + event within 30d (plan = pro AND purchase within 30d)',
    {
      all: [
        { field: 'data.plan', operator: 'equals', value: 'pro' },
        { event: 'purchase', operator: 'performed', within: '30d' },
      ],
    },
  ],
  [
    'data + event, rare event (country = SE AND signup within 7d)',
    {
      all: [
        { field: 'data.country', operator: 'equals', value: 'SE' },
        { event: 'signup', operator: 'performed', within: '7d' },
      ],
    },
  ],
  [
    'count: page_view ≥ 3 times within 90d',
    { event: 'page_view', operator: 'performed', within: '90d', count: { gte: 3 } },
  ],
  [
    'mixed: (country in DE,FR) AND NOT plan = free AND age > 40',
    {
      all: [
        { field: 'data.country', operator: 'in', value: ['DE', 'FR'] },
        { not: { field: 'data.plan', operator: 'equals', value: 'free' } },
        { field: 'data.age', operator: 'greaterThan', value: 40 },
      ],
    },
  ],
  [
    'lapsed: login ever AND NOT login within 90d',
    {
      all: [
        { event: 'login', operator: 'performed' },
        { event: 'login', operator: 'notPerformed', within: '90d' },
      ],
    },
  ],
  ['email: endsWith @example7.test', { field: 'email', operator: 'endsWith', value: '@example7.test' }],
];

async function timeCount(
  db: Db,
  projectId: string,
  label: string,
  filter: unknown,
  refs: string[] = [],
  campaign = false,
): Promise<void> {
  const checked = checkFilter(filter, 'filter');
  const times: number[] = [];
  let count = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const predicate = await filterPredicate({
      db,
      projectId,
      filter: checked.filter,
      refs: [...refs, ...checked.refs.map((r) => r.id)],
    });
    count = await countMatching(db, projectId, campaign ? recipientPredicate(predicate) : predicate);
    times.push(performance.now() - started);
  }
  const sorted = [...times].sort((a, b) => a - b);
  console.log(
    `  ${label.padEnd(66)} ${fmt(count).padStart(9)} members  first ` +
      `${fmt(times[0]!).padStart(5)} ms  median ${fmt(sorted[Math.floor(RUNS / 2)]!).padStart(5)} ` +
      `ms`,
  );
}

export default async function run(): Promise<void> {
  if (!(await postgresAvailable())) throw new Error('the segments benchmark needs PostgreSQL (BENCH_DATABASE_URL)');
  const bench = await startBenchApp({ kind: 'postgres' });
  const db = bench.ctx.db;
  try {
    const projectId = newId();
    console.log('segments benchmark on PostgreSQL (a fresh database, dropped at the end):');
    await seed(db, projectId);
    console.log(`count of each segment (${RUNS} runs):`);
    for (const [label, filter] of SEGMENTS) await timeCount(db, projectId, label, filter);
    // A segment of segments: the stored one is expanded into the same query.
    const inner = checkFilter(SEGMENTS[2]![1], 'filter');
    const stored = await insertSegment(db, {
      id: newId(),
      projectId,
      name: 'pro buyers',
      filter: inner.filter,
      segmentRefs: [],
    });
    await timeCount(db, projectId, 'segment ref: member of "pro buyers" AND age > 30', {
      all: [
        { segment: stored.id, operator: 'member' },
        { field: 'data.age', operator: 'greaterThan', value: 30 },
      ],
    });
    await timeCount(
      db,
      projectId,
      'campaign audience of "pro buyers" (subscribed, not suppressed)',
      { segment: stored.id, operator: 'member' },
      [],
      true,
    );
    await benchMembership(db, projectId);
    await benchExport(db, projectId);
  } finally {
    await bench.close();
  }
}
