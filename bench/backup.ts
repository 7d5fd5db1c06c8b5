/**
 * `npm run bench -- backup`: `herald backup` and `herald restore` of a database with BENCH_CONTACTS (1,000,000)
 * contacts, on PostgreSQL (when reachable) and on PGlite (BENCH_DB=postgres|pglite picks one).
 *
 * A fresh, migrated database gets one project and its contacts, written by INSERT … SELECT generate_series in chunks
 * of 100,000 (each contact with a small data object, as an import leaves them). Then, timed from the command's start
 * to its exit, as an operator runs them (bin/herald.js, the built server):
 *   backup             the database alone (PGlite: DATA_DIR opened by the command itself; PostgreSQL: pg_dump)
 *   backup, encrypted  the same with --passphrase-file (scrypt and AES-256-GCM)
 *   backup, serving    PGlite only: through a running `herald serve` (POST /admin/backup), as while Herald serves
 *   restore            the encrypted file into an empty DATA_DIR / empty database, the contacts counted after it
 * and the file's size. Progress goes to stderr.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../src/db/client.ts';
import { migrateDatabase } from '../src/db/migrate.ts';
import { freePort, spawnHerald } from '../test/support/child.ts';
import { benchKinds, createBenchDatabase, fmt, machineLine, type DbKind } from './support.ts';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 1_000_000);
const CHUNK = 100_000;
const root = fileURLToPath(new URL('..', import.meta.url));
const SECRETS = { APP_SECRET: 'bench-app-secret-0123456789abcdefghijklmnop', ADMIN_TOKEN: 'bench-admin-token-0123' };

interface Place {
  dataDir: string;
  databaseUrl: string | undefined;
  env: Record<string, string>;
  drop(): Promise<void>;
}

async function newPlace(kind: DbKind): Promise<Place> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-backup-'));
  const { databaseUrl, drop } = await createBenchDatabase(kind);
  return {
    dataDir,
    databaseUrl,
    env: { DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}) },
    async drop() {
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A connection to the place's database: one statement at a time, then `close`. */
async function connect(place: Place) {
  if (place.databaseUrl) {
    const client = new pg.Client({ connectionString: place.databaseUrl });
    await client.connect();
    return {
      run: async (text: string, params: unknown[] = []) => (await client.query(text, params)).rows,
      migrate: async () => {
        const database = await openDatabase({ databaseUrl: place.databaseUrl! });
        await migrateDatabase(database).finally(() => database.close());
      },
      close: () => client.end(),
    };
  }
  const database = await openDatabase({ pgliteDir: path.join(place.dataDir, 'db') });
  return {
    run: async (text: string, params: unknown[] = []) => (await database.pglite!.query(text, params)).rows,
    migrate: () => migrateDatabase(database),
    close: () => database.close(),
  };
}

/** Migrates the place's database and writes one project with CONTACTS contacts. */
async function seed(place: Place): Promise<void> {
  const db = await connect(place);
  try {
    await db.migrate();
    const [project] = (await db.run(
      `INSERT INTO projects (id, name) VALUES (gen_random_uuid(), 'bench') RETURNING id`,
    )) as { id: string }[];
    const started = performance.now();
    for (let done = 0; done < CONTACTS; done += CHUNK) {
      const upTo = Math.min(CONTACTS, done + CHUNK);
      await db.run(
        `INSERT INTO contacts (id, project_id, email, data)
         SELECT gen_random_uuid(), $1, 'reader' || g || '@dest.test',
                jsonb_build_object('firstName', 'Reader ' || g, 'plan', CASE WHEN g % 5 = 0 THEN 'pro' ELSE 'free' END)
         FROM generate_series($2::int, $3::int) g`,
        [project!.id, done + 1, upTo],
      );
      console.error(`[backup] ${fmt(upTo)} contacts written (${fmt((performance.now() - started) / 1000, 1)} s)`);
    }
    await db.run('ANALYZE contacts');
  } finally {
    await db.close();
  }
}

async function contactCount(place: Place): Promise<number> {
  const db = await connect(place);
  try {
    const [row] = (await db.run('SELECT count(*)::int AS n FROM contacts')) as { n: number }[];
    return row!.n;
  } finally {
    await db.close();
  }
}

/** Runs bin/herald.js with `args`; answers its wall time in seconds (throws with its output when it fails). */
function timed(args: string[], env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const child = spawn(path.join(root, 'bin/herald.js'), args, {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) =>
    child.once('close', (code) =>
      code === 0
        ? resolve((performance.now() - started) / 1000)
        : reject(new Error(`herald ${args.join(' ')} exited with ${code}:\n${output}`)),
    ),
  );
}

const mb = (file: string) => `${fmt(fs.statSync(file).size / 1e6, 1)} MB`;

async function benchKind(kind: DbKind, work: string): Promise<void> {
  const source = await newPlace(kind);
  const target = await newPlace(kind);
  try {
    console.error(`[backup] ${kind}: seeding ${fmt(CONTACTS)} contacts`);
    await seed(source);
    const env = { ...source.env, ...SECRETS };
    const pass = path.join(work, 'passphrase');
    fs.writeFileSync(pass, 'bench passphrase\n', { mode: 0o600 });
    const plain = path.join(work, `${kind}.hbk`);
    const sealed = path.join(work, `${kind}.encrypted.hbk`);
    const lines: string[] = [];
    const plainS = await timed(['backup', plain], env);
    lines.push(`  backup             ${fmt(plainS, 1)} s   ${mb(plain)}`);
    const sealedS = await timed(['backup', sealed, '--passphrase-file', pass], env);
    lines.push(`  backup, encrypted  ${fmt(sealedS, 1)} s   ${mb(sealed)}`);
    if (kind === 'pglite') {
      const port = await freePort();
      const served = path.join(work, `${kind}.served.hbk`);
      const child = await spawnHerald('serve', { ...env, PORT: String(port), HOST: '127.0.0.1' }, 180_000, {
        built: true,
      });
      try {
        const servedS = await timed(['backup', served, '--passphrase-file', pass], env);
        lines.push(`  backup, serving    ${fmt(servedS, 1)} s   ${mb(served)}   (through herald serve)`);
      } finally {
        await child.kill('SIGTERM');
      }
    }
    const restoreS = await timed(['restore', sealed, '--passphrase-file', pass], target.env);
    const restored = await contactCount(target);
    if (restored !== CONTACTS) throw new Error(`restored ${restored} contacts, not ${CONTACTS}`);
    lines.push(`  restore            ${fmt(restoreS, 1)} s   (${fmt(restored)} contacts back)`);
    console.log(`${kind === 'pglite' ? 'PGlite' : 'PostgreSQL'}, ${fmt(CONTACTS)} contacts:\n${lines.join('\n')}`);
  } finally {
    await source.drop();
    await target.drop();
  }
}

export default async function main(): Promise<void> {
  console.log(await machineLine());
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bench-backup-files-'));
  try {
    for (const kind of await benchKinds()) await benchKind(kind, work);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}
