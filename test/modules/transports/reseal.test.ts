// Rotating APP_SECRET: transport secrets sealed under the old one still open with it as APP_SECRET_PREVIOUS, and
// `herald reseal` (a real child process on the test database) seals them all again under the new APP_SECRET.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/client.ts';
import { rowsOf } from '../../../src/db/rows.ts';
import { seal } from '../../../src/lib/seal.ts';
import { unsealTransportSecret } from '../../../src/modules/transports/transports.secrets.ts';
import { ADMIN_TOKEN, APP_SECRET, createTestApp } from '../../support/app.ts';
import { createTestDatabase, testDatabaseKind, type TestDatabase } from '../../support/database.ts';
import { repoRoot } from '../../support/paths.ts';

const NEW_SECRET = 'the-new-app-secret-0123456789abcdefghijklmnop';
const PASSWORD = 'relay-password-sealed-under-the-old-secret';

/** `herald <args>` with only `env` (and PATH, HOME); its exit code and output once it exits. */
async function herald(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stdout, stderr };
}

describe(`herald reseal (${testDatabaseKind})`, () => {
  let testDb: TestDatabase;
  let dataDir: string;
  let env: Record<string, string>;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    testDb = await createTestDatabase();
    const t = await createTestApp({ database: testDb });
    const project = await t.createProject('Rotation');
    const add = async (name: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/transports',
        headers: project.auth,
        payload: {
          type: 'smtp',
          name,
          config: { host: 'relay.example', port: 587, username: 'u', password: PASSWORD },
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return String(res.json().data.id);
    };
    ids.sealed = await add('Sealed under the old secret');
    ids.lost = await add('Sealed under a secret nobody has');
    // One whose secret was sealed under a secret that is neither the old nor the new one.
    const lost = seal('some-other-app-secret-0123456789abcdefghijk', 'transport-secret', '{"password":"x"}');
    await t.ctx.db.execute(sql`UPDATE transports SET secret = ${lost} WHERE id = ${ids.lost}::uuid`);
    await t.close();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-reseal-'));
    if (testDb.kind === 'pglite') fs.renameSync(testDb.location, path.join(dataDir, 'db'));
    env = {
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      ...(testDb.kind === 'postgres' ? { DATABASE_URL: testDb.location } : {}),
    };
  });
  afterAll(async () => {
    await testDb?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  async function withDatabase<T>(work: (database: Database) => Promise<T>): Promise<T> {
    const database =
      testDb.kind === 'pglite' ? await openDatabase({ pgliteDir: path.join(dataDir, 'db') }) : await testDb.open();
    try {
      return await work(database);
    } finally {
      await database.close();
    }
  }
  const secretOf = (id: string) =>
    withDatabase(async (database) => {
      const result = await database.db.execute(sql`SELECT secret FROM transports WHERE id = ${id}::uuid`);
      return rowsOf<{ secret: string }>(result)[0]!.secret;
    });

  it(
    'seals every secret it can open again under APP_SECRET, and names those it cannot',
    { timeout: 120_000 },
    async () => {
      const before = await secretOf(ids.sealed!);
      const run = await herald(['reseal'], { ...env, APP_SECRET: NEW_SECRET, APP_SECRET_PREVIOUS: APP_SECRET });
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout) as { resealed: number; unreadable: { id: string; name: string }[] };
      expect(result.resealed).toBe(1);
      expect(result.unreadable).toEqual([
        { id: ids.lost, projectId: expect.any(String), name: 'Sealed under a secret nobody has' },
      ]);
      const after = await secretOf(ids.sealed!);
      expect(after).not.toBe(before);
      expect(after).not.toContain(PASSWORD);
      // The new secret alone now opens it, and the old one no longer does.
      expect(unsealTransportSecret(after, { appSecret: NEW_SECRET })).toEqual({ password: PASSWORD });
      expect(() => unsealTransportSecret(after, { appSecret: APP_SECRET })).toThrow(/APP_SECRET/);
      // Each re-sealing is in the audit log, by the command line, without the secret.
      const entries = await withDatabase(async (database) =>
        rowsOf<{ actor_label: string; changes: unknown }>(
          await database.db.execute(
            sql`SELECT actor_label, changes FROM audit_log
              WHERE action = 'transport.resealed' AND resource_id = ${ids.sealed}`,
          ),
        ),
      );
      expect(entries).toEqual([{ actor_label: 'cli', changes: { secret: ['[redacted]', '[redacted]'] } }]);
    },
  );

  it('refuses an APP_SECRET_PREVIOUS shorter than 32 characters, naming it', async () => {
    const run = await herald(['reseal'], { ...env, APP_SECRET: NEW_SECRET, APP_SECRET_PREVIOUS: 'short' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('APP_SECRET_PREVIOUS');
  });
});
