// A rolling upgrade on PostgreSQL: the previous release (CHANGELOG.md's first release heading that names a commit,
// built from this repository's history) sends a campaign; the current code's worker joins, the old worker stops, the
// current API replaces the old one, all on one database while the campaign goes on — every reader gets the campaign
// exactly once. And processes that start at once on an empty database migrate it once, taking turns.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnHerald, type HeraldChild } from '../support/child.ts';
import { startDnsServer, type TestDnsServer } from '../support/dns-server.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';
import { until } from '../support/until.ts';
import { heraldApi } from './herald-api.ts';
import { buildRelease, previousRelease } from './release.ts';
import { root } from './podman.ts';

const PG_URL = process.env.OPS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN_TOKEN = `adm_${randomBytes(12).toString('hex')}`;
const APP_SECRET = randomBytes(32).toString('base64url');
const READERS = 1500;

function databaseUrl(name: string): string {
  const url = new URL(PG_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

describe('a rolling upgrade from the previous release (PostgreSQL)', () => {
  const release = previousRelease();
  let admin: pg.Client;
  let sink: SmtpSink;
  let dns: TestDnsServer;
  let oldHome: string;
  const databases: string[] = [];
  const children: HeraldChild[] = [];

  const newDatabase = async () => {
    const name = `herald_ops_${randomBytes(5).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    databases.push(name);
    return databaseUrl(name);
  };

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    sink = await startSmtpSink();
    dns = await startDnsServer({});
    oldHome = await buildRelease(release.commit);
  }, 1_500_000);

  afterAll(async () => {
    for (const child of children) await child.kill('SIGKILL');
    await sink?.close();
    await dns?.close();
    for (const name of databases) await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin?.end();
  }, 120_000);

  it(`${release.version} and the current code side by side: nothing lost, nothing twice`, async () => {
    const DATABASE_URL = await newDatabase();
    const env = (port?: number) => ({
      DATABASE_URL,
      ADMIN_TOKEN,
      APP_SECRET,
      SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
      DNS_SERVERS: dns.address,
      PUBLIC_URL: 'https://mail.upgrade.test',
      LOG_LEVEL: 'warn',
      SEND_RATE_PER_SECOND: '40',
      SEND_RETRY_DELAY_SECONDS: '1',
      SEND_RETRY_DELAY_MAX_SECONDS: '2',
      DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'herald-upgrade-')),
      ...(port ? { PORT: String(port), HOST: '127.0.0.1' } : {}),
    });
    const start = async (role: 'api' | 'worker', home: string | null, port?: number) => {
      const child = await spawnHerald(role, env(port), 120_000, home ? { home } : {});
      children.push(child);
      return child;
    };

    const oldPort = await freePort();
    const oldApi = await start('api', oldHome, oldPort);
    const oldWorker = await start('worker', oldHome);
    const before = heraldApi(`http://127.0.0.1:${oldPort}`, ADMIN_TOKEN);
    const auth = await before.projectWithDomain(dns, 'upgrade.test');
    const readers = Array.from({ length: READERS }, (_, i) => `reader${i}@dest.test`);
    await before.importContacts(auth, readers);
    const campaign = await before.sendCampaign(auth, 'news@upgrade.test');
    await until(() => sink.messages.length >= 100, 'the campaign under way', 120_000, 20);

    // The upgrade, one process at a time: a new worker joins, the old one stops, the new API replaces the old.
    const timed = async <T>(step: () => Promise<T>): Promise<[T, number]> => {
      const began = performance.now();
      const value = await step();
      return [value, Math.round(performance.now() - began)];
    };
    const [newWorker, workerStartMs] = await timed(() => start('worker', null));
    const [, workerStopMs] = await timed(() => oldWorker.kill('SIGTERM'));
    const newPort = await freePort();
    const [, apiStartMs] = await timed(() => start('api', null, newPort));
    const after = heraldApi(`http://127.0.0.1:${newPort}`, ADMIN_TOKEN);
    // Both APIs answer on the one database meanwhile.
    expect(await before.campaignStatus(auth, campaign)).toBe(await after.campaignStatus(auth, campaign));
    const [, apiStopMs] = await timed(() => oldApi.kill('SIGTERM'));
    const atSwitch = sink.messages.length;

    await until(
      async () => (await after.campaignStatus(auth, campaign)) === 'SENT',
      () => `the campaign SENT after the upgrade (${sink.messages.length} messages)\n${newWorker.output()}`,
      300_000,
      500,
    );
    const perReader = new Map<string, number>();
    for (const message of sink.messages) perReader.set(message.to[0]!, (perReader.get(message.to[0]!) ?? 0) + 1);
    const twice = [...perReader].filter(([, n]) => n > 1).map(([to]) => to);
    console.log(
      `upgrade ${release.version} → current: ${atSwitch} of ${READERS} sent before the switch, ` +
        `${perReader.size} readers mailed, ${twice.length} twice; new worker started in ${workerStartMs} ms, old ` +
        `worker stopped in ${workerStopMs} ms, new API started in ${apiStartMs} ms, old API stopped in ${apiStopMs} ms`,
    );
    expect(twice).toEqual([]);
    expect(perReader.size).toBe(READERS);
    const stats = (await after.call('GET', `/campaigns/${campaign}/stats`, undefined, auth)).body.data;
    expect(stats.sent).toBe(READERS);
  }, 900_000);

  it('processes starting at once on an empty database migrate it once, one after another', async () => {
    const DATABASE_URL = await newDatabase();
    const migrate = () =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'migrate'], {
          cwd: root,
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            DATABASE_URL,
            ADMIN_TOKEN,
            APP_SECRET,
            LOG_LEVEL: 'warn',
            DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'herald-migrate-')),
          },
        });
        let output = '';
        child.stdout.on('data', (d: Buffer) => (output += d.toString()));
        child.stderr.on('data', (d: Buffer) => (output += d.toString()));
        child.on('exit', (code) => resolve({ code, output }));
      });
    const runs = await Promise.all([migrate(), migrate(), migrate()]);
    for (const run of runs) expect(run.code, run.output).toBe(0);
    const journal = JSON.parse(fs.readFileSync(path.join(root, 'src/db/migrations/meta/_journal.json'), 'utf8')) as {
      entries: unknown[];
    };
    const client = new pg.Client({ connectionString: DATABASE_URL });
    await client.connect();
    try {
      const applied = await client.query<{ hash: string }>('SELECT hash FROM drizzle.__drizzle_migrations');
      expect(applied.rows.length).toBe(journal.entries.length);
      expect(new Set(applied.rows.map((r) => r.hash)).size).toBe(journal.entries.length);
    } finally {
      await client.end();
    }
  }, 300_000);
});
