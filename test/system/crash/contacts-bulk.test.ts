// A bulk action killed (SIGKILL) mid-run: after a restart it carries on from its checkpoint and completes, with every
// contact processed once. At the kill, the work the database holds is exactly what the checkpoint counts (each batch
// commits with it); at the end every contact has exactly one contact.unsubscribed event and the counters add up.
// On PostgreSQL the API is this test process and a `herald worker` child runs the job; on PGlite a `herald serve`
// child.
import { describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Executor } from '../../../src/db/client.ts';
import { rowsOf } from '../../../src/db/rows.ts';
import { crashWorld } from '../../support/crash.ts';
import { testDatabaseKind } from '../../support/database.ts';
import { until } from '../../support/until.ts';

const CONTACTS = 6000;

interface Snapshot {
  status: string;
  processed: number;
  total: number;
  /** Contacts of the project already unsubscribed. */
  unsubscribed: number;
}

async function snapshot(db: Executor, bulkId: string): Promise<Snapshot> {
  const [row] = rowsOf<Snapshot>(
    await db.execute(sql`
    SELECT b.status, b.processed, b.total,
      (SELECT count(*)::int FROM contacts c WHERE c.project_id = b.project_id AND NOT c.subscribed) AS unsubscribed
    FROM contact_bulk_actions b WHERE b.id = ${bulkId}::uuid`),
  );
  return row!;
}

describe(`kill -9 mid bulk action (${testDatabaseKind})`, () => {
  const world = crashWorld({}, { split: true, sink: false });

  it(
    'resumes from the checkpoint and completes: each contact unsubscribed once, counters equal the total',
    { timeout: 300_000 },
    async () => {
      const { h } = world;
      // This process kills itself (SIGKILL) inside the action's second batch: changed, not yet committed.
      await h.start({ HERALD_TEST_FAULT: 'kill-mid-bulk-batch' });
      const auth = `Bearer ${(await h.api('POST', '/admin/projects', { name: 'bulk crash' })).body.data.secretKey}`;
      const rows = Array.from({ length: CONTACTS }, (_, i) => ({ email: `user${i}@dest.test`, data: { n: i } }));
      const upload = await h.api('POST', '/contacts/import', rows, auth);
      expect(upload.status, JSON.stringify(upload.body)).toBe(202);
      await until(
        async () =>
          (await h.api('GET', `/contacts/import/${upload.body.data.id}`, undefined, auth)).body.data.status ===
          'completed',
        'the import',
        120_000,
        250,
      );

      const created = await h.api(
        'POST',
        '/contacts/bulk',
        { action: 'unsubscribe', filter: { field: 'subscribed', operator: 'equals', value: true } },
        auth,
      );
      expect(created.status, JSON.stringify(created.body)).toBe(202);
      const id = created.body.data.id as string;

      await h.waitForExit(60_000);
      const atKill = await h.query((db) => snapshot(db, id));
      console.log(`bulk crash test (${testDatabaseKind}): killed at ${atKill.processed} of ${atKill.total}`);
      expect(atKill.status).toBe('RUNNING');
      expect(atKill.total).toBe(CONTACTS);
      expect(atKill.processed).toBe(500);
      expect(atKill.unsubscribed).toBe(atKill.processed);

      await h.start();
      const done = await until(
        async () => {
          const view = (await h.api('GET', `/contacts/bulk/${id}`, undefined, auth)).body.data;
          return view.status === 'COMPLETED' ? view : null;
        },
        'COMPLETED after the restart',
        240_000,
        500,
      );
      expect(done).toMatchObject({ total: CONTACTS, processed: CONTACTS, failed: 0 });
      expect((await h.api('GET', '/contacts?subscribed=false&limit=1', undefined, auth)).body.data.total).toBe(
        CONTACTS,
      );
      await h.kill('SIGTERM'); // on PGlite the data folder is read while no child holds it
      const flips = await h.query(
        async (db) =>
          rowsOf<{ contacts: number; events: number }>(
            await db.execute(sql`
      SELECT count(DISTINCT e.contact_id)::int AS contacts, count(*)::int AS events
      FROM events e JOIN contact_bulk_actions b ON b.project_id = e.project_id
      WHERE b.id = ${id}::uuid AND e.name = 'contact.unsubscribed'`),
          )[0]!,
      );
      expect(flips).toEqual({ contacts: CONTACTS, events: CONTACTS });
    },
  );
});
