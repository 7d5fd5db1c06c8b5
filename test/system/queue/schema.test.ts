// pg-boss 10 would run on queue tables that a newer pg-boss made (an earlier Herald had pg-boss 12) and fail
// later in obscure ways; the queue refuses to start on them instead, saying what to do.
import { expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { JobQueue } from '../../../src/queue/queue.ts';
import { createTestDatabase } from '../../support/database.ts';

it('refuses queue tables made by a newer pg-boss, naming the way out', async () => {
  const testDb = await createTestDatabase();
  const database = await testDb.open();
  try {
    await database.db.execute(sql`UPDATE pgboss.version SET version = 43`);
    await expect(JobQueue.start(database, [], pino({ level: 'silent' }))).rejects.toThrow(
      /version 43.*DROP SCHEMA pgboss CASCADE/,
    );
  } finally {
    await database.close();
    await testDb.drop();
  }
});
