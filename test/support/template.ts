/**
 * Builds the migrated template every test database is cloned from (vitest globalSetup): a PGlite
 * dump file, and, with TEST_DATABASE_URL, a PostgreSQL template database. Both include pg-boss's
 * schema and queues, so each test starts in well under a second.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { pino } from 'pino';
import type { TestProject } from 'vitest/node';
import { openDatabase, type Database } from '../../src/db/client.ts';
import { migrateDatabase } from '../../src/db/migrate.ts';
import { purgeExpiredJob } from '../../src/queue/jobs/maintenance.ts';
import { JobQueue } from '../../src/queue/queue.ts';
import { moduleWork } from '../../src/runtime.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    pgTemplate: string | null;
  }
}

async function prepare(database: Database): Promise<void> {
  await migrateDatabase(database);
  // Every queue the runtime creates, so a test's queue starts without creating any.
  const queue = await JobQueue.start(database, [purgeExpiredJob, ...moduleWork().jobs], pino({ level: 'silent' }));
  await queue.stop();
}

/** Connection string of `url` with another database name. */
export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-tpl-'));
  const lite = await openDatabase({});
  await prepare(lite);
  const dump = await lite.pglite!.dumpDataDir('none');
  const file = path.join(dir, 'template.tar');
  fs.writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await lite.close();
  project.provide('pgliteTemplate', file);

  const url = process.env.TEST_DATABASE_URL;
  let pgTemplate: string | null = null;
  if (url) {
    pgTemplate = `herald_tpl_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${pgTemplate}`);
    await admin.end();
    const database = await openDatabase({ databaseUrl: withDatabase(url, pgTemplate), poolSize: 2 });
    await prepare(database);
    await database.close();
  }
  project.provide('pgTemplate', pgTemplate);

  return async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    if (url && pgTemplate) {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${pgTemplate} WITH (FORCE)`);
      await admin.end();
    }
  };
}
