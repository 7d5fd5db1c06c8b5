/**
 * `herald doctor` as a child process against real servers in this process: a DNS server, SMTP servers, an SNTP
 * server, and the test database (PGlite, or PostgreSQL with TEST_DATABASE_URL).
 */
import { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.ts';
import { rowsOf } from '../../src/db/rows.ts';
import type { CheckRow } from '../../src/doctor/index.ts';
import { ADMIN_TOKEN, APP_SECRET, createTestApp } from '../support/app.ts';
import { freePort, spawnHerald } from '../support/child.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';
import { publishDomainRecords, startDnsServer, type TestDnsServer, type ZoneRecord } from '../support/dns-server.ts';
import { repoRoot } from '../support/paths.ts';
import { startSmtpSink, type SmtpSink } from '../support/smtp-sink.ts';

interface DoctorRun {
  code: number | null;
  rows: CheckRow[];
  stderr: string;
  row(name: string): CheckRow;
}

/** `herald doctor --json` with only `env` (and PATH, HOME); resolves once it exits. */
async function doctor(env: Record<string, string>, args: string[] = []): Promise<DoctorRun> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'doctor', '--json', ...args], {
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  let rows: CheckRow[];
  try {
    rows = JSON.parse(stdout) as CheckRow[];
  } catch {
    throw new Error(`doctor printed no JSON (exit ${code}):\n${stdout}\n${stderr}`);
  }
  const row = (name: string) => {
    const found = rows.find((r) => r.name === name);
    if (!found) throw new Error(`no row "${name}" in ${JSON.stringify(rows, null, 2)}`);
    return found;
  };
  return { code, rows, stderr, row };
}

/** An SNTP server whose clock is `offsetMs` ahead of this machine's. */
async function startSntpServer(offsetMs: number): Promise<{ address: string; close(): Promise<void> }> {
  const socket = dgram.createSocket('udp4');
  const write = (packet: Buffer, offset: number, ms: number) => {
    const seconds = Math.floor(ms / 1000) + 2_208_988_800;
    packet.writeUInt32BE(seconds, offset);
    packet.writeUInt32BE(Math.floor(((ms % 1000) / 1000) * 2 ** 32), offset + 4);
  };
  socket.on('message', (request, peer) => {
    if (request.length < 48) return;
    const reply = Buffer.alloc(48);
    reply[0] = (4 << 3) | 4; // version 4, server
    reply[1] = 1; // stratum 1
    request.copy(reply, 24, 40, 48); // the request's transmit time, echoed as the originate time
    const now = Date.now() + offsetMs;
    write(reply, 32, now);
    write(reply, 40, now);
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const { port } = socket.address() as AddressInfo;
  return { address: `127.0.0.1:${port}`, close: () => new Promise((resolve) => socket.close(() => resolve())) };
}

/** An SMTP server that refuses every AUTH (535). */
async function startRefusingSmtp(): Promise<{ port: number; close(): Promise<void> }> {
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(_auth, _session, callback) {
      callback(new Error('Invalid username or password'));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return { port, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const tempDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'herald-doctor-'));
const noStack = (text: string) => expect(text).not.toMatch(/\n\s+at /);

describe('herald doctor', () => {
  let testDb: TestDatabase;
  let dns: TestDnsServer;
  let sink: SmtpSink;
  let ntp: Awaited<ReturnType<typeof startSntpServer>>;
  /** The environment of a Herald on the test database, its domains resolved through the test DNS server. */
  let heraldEnv: Record<string, string>;
  let lost: { id: string; dkim: { name: string; records: ZoneRecord[] } };

  beforeAll(async () => {
    dns = await startDnsServer({});
    sink = await startSmtpSink();
    ntp = await startSntpServer(0);
    testDb = await createTestDatabase();
    const t = await createTestApp({ database: testDb, env: { DNS_SERVERS: dns.address } });
    const project = await t.createProject('Doctor');
    const verified = async (domain: string) => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/domains',
        headers: project.auth,
        payload: { domain },
      });
      const data = created.json().data as {
        id: string;
        records: { type: string; purpose: string; name: string; value: string; values?: string[] }[];
      };
      publishDomainRecords(dns, data.records);
      const res = await t.app.inject({ method: 'POST', url: `/domains/${data.id}/verify`, headers: project.auth });
      expect(res.json().data.status, res.body).toBe('VERIFIED');
      return data;
    };
    await verified('healthy.doctor.test');
    const lostDomain = await verified('lost.doctor.test');
    const dkim = lostDomain.records.find((r) => r.purpose === 'DKIM')!;
    lost = {
      id: lostDomain.id,
      dkim: { name: dkim.name, records: [{ type: 'TXT', data: dkim.values ?? [dkim.value] }] },
    };
    await t.close();
    const dataDir = tempDir();
    // The embedded database moves into DATA_DIR, where Herald looks for it (PGlite does not follow a symlink).
    if (testDb.kind === 'pglite') fs.renameSync(testDb.location, path.join(dataDir, 'db'));
    heraldEnv = {
      DATA_DIR: dataDir,
      ...(testDb.kind === 'postgres' ? { DATABASE_URL: testDb.location } : {}),
      ADMIN_TOKEN,
      APP_SECRET,
      DNS_SERVERS: dns.address,
    };
  });

  afterAll(async () => {
    await testDb?.drop();
    if (heraldEnv) fs.rmSync(heraldEnv.DATA_DIR!, { recursive: true, force: true });
    await Promise.all([dns?.close(), sink?.close(), ntp?.close()]);
  });

  it('finds a healthy setup healthy: every row OK or WARN, exit code 0', { timeout: 90_000 }, async () => {
    const run = await doctor(
      {
        ...heraldEnv,
        SMTP_URL: sink.url.replace('smtp://', 'smtp://herald:secret@'),
        INBOUND_SMTP_PORT: String(new URL(sink.url).port),
      },
      ['--ntp', ntp.address],
    );
    expect(run.code, JSON.stringify(run.rows, null, 2)).toBe(0);
    expect(run.rows.every((row) => row.status !== 'FAIL')).toBe(true);
    for (const name of ['configuration', 'secrets', 'database', 'migrations', 'transport', 'inbound listener', 'clock'])
      expect(run.row(name).status, name).toBe('OK');
    expect(run.row('domain healthy.doctor.test')).toMatchObject({ status: 'OK' });
    expect(run.row('domain healthy.doctor.test').detail).toContain('DKIM');
    expect(run.row('transport').detail).toContain('AUTH accepted for herald');
    expect(run.row('inbound listener').detail).toContain('220');
    // No PUBLIC_URL and no server: a WARN with its fix, not a FAIL.
    expect(run.row('public url')).toMatchObject({ status: 'WARN', fix: expect.stringContaining('PUBLIC_URL') });
  });

  it(
    'names the DKIM record to publish when a verified domain lost it, and changes nothing',
    { timeout: 90_000 },
    async () => {
      const published = lost.dkim.name;
      dns.setRecords(published, []);
      try {
        const run = await doctor({ ...heraldEnv }, ['--ntp', 'off']);
        expect(run.code).toBe(1);
        const row = run.row('domain lost.doctor.test');
        expect(row.status).toBe('FAIL');
        expect(row.detail).toContain(published);
        expect(row.fix).toMatch(new RegExp(`^Publish TXT ${published.replace(/\./g, '\\.')} "v=DKIM1; k=rsa; p=`));
        expect(run.row('domain healthy.doctor.test').status).toBe('OK');
      } finally {
        dns.setRecords(published, lost.dkim.records);
      }
      // The check ran in a transaction rolled back: the domain is still VERIFIED.
      const database =
        testDb.kind === 'pglite'
          ? await openDatabase({ pgliteDir: path.join(heraldEnv.DATA_DIR!, 'db') })
          : await testDb.open();
      try {
        const result = await database.db.execute(sql`SELECT status FROM domains WHERE id = ${lost.id}`);
        expect(rowsOf<{ status: string }>(result)[0]?.status).toBe('VERIFIED');
      } finally {
        await database.close();
      }
    },
  );

  it(
    'fails a wrong SMTP_URL (nothing listens; AUTH refused) and a silent listener, each with its fix',
    { timeout: 90_000 },
    async () => {
      const refusing = await startRefusingSmtp();
      try {
        const [closed, listener] = [await freePort(), await freePort()];
        const [nobody, refused] = await Promise.all([
          doctor({ DATA_DIR: tempDir(), SMTP_URL: `smtp://127.0.0.1:${closed}`, INBOUND_SMTP_PORT: String(listener) }, [
            '--ntp',
            'off',
          ]),
          doctor({ DATA_DIR: tempDir(), SMTP_URL: `smtp://herald:wrong@127.0.0.1:${refusing.port}` }, ['--ntp', 'off']),
        ]);
        expect(nobody.code).toBe(1);
        expect(nobody.row('transport')).toMatchObject({
          status: 'FAIL',
          fix: expect.stringContaining('Nothing listens'),
        });
        expect(nobody.row('inbound listener')).toMatchObject({
          status: 'FAIL',
          fix: expect.stringContaining('INBOUND_SMTP_PORT'),
        });
        expect(refused.code).toBe(1);
        expect(refused.row('transport').status).toBe('FAIL');
        expect(refused.row('transport').detail).toContain('535');
        expect(refused.row('transport').fix).toContain('user and password');
        noStack(nobody.stderr + refused.stderr);
      } finally {
        await refusing.close();
      }
    },
  );

  it('fails an unreachable database with a row, not a stack trace', { timeout: 60_000 }, async () => {
    const port = await freePort();
    const run = await doctor({ DATA_DIR: tempDir(), DATABASE_URL: `postgres://herald@127.0.0.1:${port}/herald` }, [
      '--ntp',
      'off',
    ]);
    expect(run.code).toBe(1);
    expect(run.row('database')).toMatchObject({ status: 'FAIL', fix: expect.stringContaining('Nothing listens') });
    expect(run.row('database').detail).toContain(`127.0.0.1:${port}`);
    expect(run.rows.find((row) => row.name === 'migrations')).toBeUndefined();
    noStack(run.stderr);
    expect(run.stderr).toBe('');
  });

  it('fails a clock 10 minutes off the NTP server, with the time-sync fix', { timeout: 60_000 }, async () => {
    const ahead = await startSntpServer(10 * 60 * 1000);
    try {
      const run = await doctor({ DATA_DIR: tempDir() }, ['--ntp', ahead.address]);
      expect(run.code).toBe(1);
      const clock = run.row('clock');
      expect(clock.status).toBe('FAIL');
      expect(clock.detail).toMatch(/this machine's clock is 600 s behind NTP server 127\.0\.0\.1:\d+/);
      expect(clock.fix).toContain('chrony/systemd-timesyncd');
    } finally {
      await ahead.close();
    }
  });

  it(
    'checks beside a running server: PUBLIC_URL answers; an embedded database is checked through the server',
    { timeout: 120_000 },
    async () => {
      const port = await freePort();
      const env = { ...heraldEnv, PORT: String(port), PUBLIC_URL: `http://127.0.0.1:${port}`, LOG_LEVEL: 'warn' };
      const server = await spawnHerald('api', env);
      try {
        const run = await doctor(env, ['--ntp', ntp.address]);
        expect(run.code, JSON.stringify(run.rows, null, 2)).toBe(0);
        expect(run.row('public url')).toMatchObject({ status: 'OK' });
        expect(run.row('database').status).toBe('OK');
        if (testDb.kind === 'pglite') {
          expect(run.row('database').detail).toContain(`held by the running Herald (pid ${server.pid}`);
        }
        // On the embedded database the server checks its own migrations and domains for the command.
        expect(run.row('migrations').status).toBe('OK');
        expect(run.row('domain healthy.doctor.test').status).toBe('OK');
      } finally {
        await server.kill('SIGTERM');
      }
    },
  );
});
