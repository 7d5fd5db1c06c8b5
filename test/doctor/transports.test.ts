/**
 * `herald doctor` checks every transport: the instance's own (`transport`) and each project's (`transport
 * <project>/<name>`), each with one real connection (an SMTP sink that takes AUTH, a port nothing listens on), from
 * the command on the test database and from a running server (POST /admin/doctor) alike; no secret in the output.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckRow } from '../../src/doctor/index.ts';
import { ADMIN_TOKEN, APP_SECRET, createTestApp, type TestApp } from '../support/app.ts';
import { freePort } from '../support/child.ts';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../support/database.ts';
import { repoRoot } from '../support/paths.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';

const PASSWORD = 'doctor-relay-password-0123';

/** Adds the project's transports: a relay that answers, one where nothing listens, and an outbox. */
async function addTransports(t: TestApp, sink: SmtpSink): Promise<void> {
  const project = await t.createProject('Doctor');
  const closed = await freePort();
  for (const body of [
    {
      type: 'smtp',
      name: 'Sink',
      config: { host: '127.0.0.1', port: Number(new URL(sink.url).port), username: 'herald', password: PASSWORD },
    },
    { type: 'smtp', name: 'Closed', config: { host: '127.0.0.1', port: closed, username: 'x', password: PASSWORD } },
    { type: 'outbox', name: 'Files' },
  ]) {
    const res = await t.app.inject({ method: 'POST', url: '/transports', headers: project.auth, payload: body });
    expect(res.statusCode, res.body).toBe(201);
  }
}

function expectTransportRows(rows: CheckRow[]): void {
  const row = (name: string) => rows.find((r) => r.name === name);
  expect(row('transport Doctor/Sink')).toMatchObject({
    status: 'OK',
    detail: expect.stringContaining('AUTH accepted'),
  });
  expect(row('transport Doctor/Closed')).toMatchObject({
    status: 'FAIL',
    detail: expect.stringContaining('ECONNREFUSED'),
    fix: expect.stringContaining('PATCH /transports/'),
  });
  expect(row('transport Doctor/Files')).toMatchObject({ status: 'OK', detail: expect.stringContaining('outbox') });
  expect(JSON.stringify(rows)).not.toContain(PASSWORD);
}

describe(`herald doctor and the projects' transports (${testDatabaseKind})`, () => {
  let sink: SmtpSink;
  beforeAll(async () => {
    sink = await startSmtpSink();
  });
  afterAll(async () => {
    await sink.close();
  });

  it('a row per transport from the command, the default first', { timeout: 120_000 }, async () => {
    const testDb: TestDatabase = await createTestDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-doctor-transports-'));
    try {
      const t = await createTestApp({ database: testDb });
      await addTransports(t, sink);
      await t.close();
      if (testDb.kind === 'pglite') fs.renameSync(testDb.location, path.join(dataDir, 'db'));
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'doctor', '--json', '--ntp', 'off'], {
        cwd: repoRoot,
        env: {
          PATH: process.env.PATH ?? '',
          HOME: process.env.HOME ?? '',
          DATA_DIR: dataDir,
          ADMIN_TOKEN,
          APP_SECRET,
          ...(testDb.kind === 'postgres' ? { DATABASE_URL: testDb.location } : {}),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
      const rows = JSON.parse(stdout) as CheckRow[];
      expect(code).toBe(1);
      expect(rows.find((r) => r.name === 'transport')).toMatchObject({ status: 'OK' });
      const names = rows.map((r) => r.name).filter((name) => name.startsWith('transport'));
      expect(names).toEqual([
        'transport',
        'transport Doctor/Sink',
        'transport Doctor/Closed',
        'transport Doctor/Files',
      ]);
      expectTransportRows(rows);
    } finally {
      await testDb.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('the same rows from a running server (POST /admin/doctor)', async () => {
    const t = await createTestApp();
    try {
      await addTransports(t, sink);
      const res = await t.app.inject({ method: 'POST', url: '/admin/doctor', headers: t.admin });
      expect(res.statusCode, res.body).toBe(200);
      expectTransportRows(res.json().data.rows as CheckRow[]);
    } finally {
      await t.close();
    }
  });
});
