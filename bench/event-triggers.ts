// `npm run bench -- event-triggers`: what starting workflows from a trigger on `events` costs next to doing it in
// code, on PostgreSQL. The trigger runs once per INSERT statement over the rows it inserted (a transition table);
// in code, each insert would return its rows and run the same start/wake statement as a second round trip.
// Both sides run the same SQL for the start and the wake; the code side has the trigger disabled.
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { createBenchDatabase, fmt, machineLine, postgresAvailable } from './support.ts';

const CONTACTS = 500;
const SINGLE = 2000;
const BATCHES = 40;
const BATCH = 500;

/** The trigger's own work, run by code on the rows an insert returned (the `new_events` of the trigger). */
const START_AND_WAKE = `
  WITH new_events AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS e(id uuid, project_id uuid, contact_id uuid, name
    text, data jsonb)),
  woken AS (
    UPDATE workflow_executions x SET status = 'RUNNING', pending = 'EVENT', wait_event = NULL, seq = x.seq + 1,
      updated_at = now()
    FROM new_events e
    WHERE x.status = 'WAITING' AND x.wait_event IS NOT NULL
      AND x.contact_id = e.contact_id AND x.wait_event = e.name AND x.project_id = e.project_id
    RETURNING x.id
  )
  INSERT INTO workflow_executions (id, project_id, workflow_id, version, contact_id, status, once, pending,
    trigger_event_id)
  SELECT herald_uuid7(), w.project_id, w.id, w.version, e.contact_id, 'RUNNING', NOT w.allow_reentry, 'START', e.id
  FROM new_events e
  JOIN workflows w ON w.project_id = e.project_id AND w.trigger_event = e.name
    AND w.enabled AND w.deleted_at IS NULL AND w.trigger_type = 'EVENT'
    AND (w.trigger_segment_id IS NULL OR w.trigger_segment_id::text = e.data->>'segmentId')
  WHERE w.allow_reentry
    OR NOT EXISTS (SELECT 1 FROM workflow_executions p WHERE p.contact_id = e.contact_id AND p.workflow_id = w.id)
  ON CONFLICT (workflow_id, contact_id) WHERE once DO NOTHING`;

const INSERT = `INSERT INTO events (id, project_id, contact_id, name, data)
  SELECT id, project_id, contact_id, name, data FROM jsonb_to_recordset($1::jsonb) AS e(id uuid, project_id uuid,
    contact_id uuid, name text, data jsonb)
  RETURNING id, project_id, contact_id, name, data`;

export default async function eventTriggers(): Promise<void> {
  if (!(await postgresAvailable())) {
    console.log('event-triggers: PostgreSQL is not reachable; nothing to measure');
    return;
  }
  const { databaseUrl, drop } = await createBenchDatabase('postgres');
  const database = await openDatabase({ databaseUrl });
  await migrateDatabase(database);
  await database.close();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const projectId = randomUUID();
    await client.query(`INSERT INTO projects (id, name) VALUES ($1, 'bench')`, [projectId]);
    const contacts = Array.from({ length: CONTACTS }, (_, i) => ({ id: randomUUID(), email: `c${i}@bench.test` }));
    await client.query(
      `INSERT INTO contacts (id, project_id, email) SELECT id, $2::uuid, ` +
        `email FROM jsonb_to_recordset($1::jsonb) AS c(id uuid, email text)`,
      [JSON.stringify(contacts), projectId],
    );
    const rows = (n: number) =>
      JSON.stringify(
        Array.from({ length: n }, (_, i) => ({
          id: randomUUID(),
          project_id: projectId,
          contact_id: contacts[i % CONTACTS]!.id,
          name: 'page.viewed',
          data: {},
        })),
      );
    const timed = async (label: string, runs: number, size: number, code: boolean) => {
      if (code) await client.query('ALTER TABLE events DISABLE TRIGGER events_start_workflows');
      else await client.query('ALTER TABLE events ENABLE TRIGGER events_start_workflows');
      const started = performance.now();
      for (let i = 0; i < runs; i++) {
        await client.query('BEGIN');
        const inserted = await client.query(INSERT, [rows(size)]);
        if (code) await client.query(START_AND_WAKE, [JSON.stringify(inserted.rows)]);
        await client.query('COMMIT');
      }
      const ms = performance.now() - started;
      return { label, perInsert: ms / runs, perEvent: ms / (runs * size) };
    };
    // A warm-up of each, then each measured twice in turn.
    await timed('warm-up', 100, 1, false);
    await timed('warm-up', 100, 1, true);
    const results = [];
    for (let round = 0; round < 2; round++) {
      results.push(await timed('one event per insert (a /v1/track), trigger', SINGLE, 1, false));
      results.push(await timed('one event per insert (a /v1/track), in code', SINGLE, 1, true));
      results.push(await timed(`${BATCH} events per insert (a sent batch), trigger`, BATCHES, BATCH, false));
      results.push(await timed(`${BATCH} events per insert (a sent batch), in code`, BATCHES, BATCH, true));
    }
    console.log(await machineLine());
    for (const r of results)
      console.log(
        `${r.label.padEnd(52)} ${fmt(r.perInsert, 3).padStart(9)} ms per ` +
          `insert  ${fmt(r.perEvent * 1000, 1).padStart(8)} µs per event`,
      );
  } finally {
    await client.end();
    await drop();
  }
}
