import { fileURLToPath } from 'node:url';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { Database } from './client.ts';

const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));
// Any constants work; they only have to be the same in every Herald process.
const MIGRATION_LOCK = 7_421_337;
const QUEUE_SETUP_LOCK = 7_421_338;

/**
 * Runs `fn` while holding a PostgreSQL advisory lock on its own connection, so that processes starting at once
 * (a rolling upgrade, a fleet restarted together) take turns at changing the schema instead of deadlocking.
 * The embedded database has one process: `fn` just runs.
 */
async function underLock<T>(database: Database, key: number, fn: (client: pg.Client | null) => Promise<T>): Promise<T> {
  if (database.kind === 'pglite') return fn(null);
  const client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [key]);
    return await fn(client);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [key]).catch(() => {});
    await client.end();
  }
}

/** Brings the schema up to date; on PostgreSQL one process at a time, the others waiting. */
export async function migrateDatabase(database: Database): Promise<void> {
  await underLock(database, MIGRATION_LOCK, async (client) => {
    if (client) await migratePg(drizzlePg(client), { migrationsFolder });
    else await migratePglite(drizzlePglite(database.pglite!), { migrationsFolder });
  });
}

/** Installs or updates the job queue's tables (its schema and one partition per queue) one process at a time. */
export function underQueueSetupLock<T>(database: Database, fn: () => Promise<T>): Promise<T> {
  return underLock(database, QUEUE_SETUP_LOCK, fn);
}
