/**
 * A fresh database for one test, cloned from the run's template: PGlite by default, PostgreSQL
 * (a new randomly named database, dropped afterwards) when TEST_DATABASE_URL is set.
 * `open()` may be called again after closing, to simulate a process restart on the same data.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { withDatabase } from './template.ts';

export const testDatabaseKind: 'pglite' | 'postgres' = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';

export interface TestDatabase {
  kind: 'pglite' | 'postgres';
  /** Connection string on PostgreSQL; the folder of the embedded database on PGlite. */
  location: string;
  open(): Promise<Database>;
  drop(): Promise<void>;
}

/** One statement on the test server's own database (CREATE/DROP DATABASE). */
export async function adminQuery(text: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

/** Creates a test database from the template (random name on PostgreSQL, a temp folder on PGlite). */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDatabaseKind === 'postgres') {
    const name = `herald_t_${randomBytes(6).toString('hex')}`;
    await adminQuery(`CREATE DATABASE ${name} TEMPLATE ${inject('pgTemplate')}`);
    const url = withDatabase(process.env.TEST_DATABASE_URL!, name);
    return {
      kind: 'postgres',
      location: url,
      open: () => openDatabase({ databaseUrl: url, poolSize: 5 }),
      drop: () => adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-db-'));
  let first = true;
  return {
    kind: 'pglite',
    location: dir,
    open: async () => {
      const loadDataDir = first ? new Blob([fs.readFileSync(inject('pgliteTemplate'))]) : undefined;
      first = false;
      return openDatabase({ pgliteDir: dir, ...(loadDataDir ? { loadDataDir } : {}) });
    },
    drop: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
