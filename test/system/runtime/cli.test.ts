/** The `herald` command named by package.json exists, and --help prints usage, not a stack trace. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { freePort, spawnHerald } from '../../support/child.ts';
import { repoRoot } from '../../support/paths.ts';

const root = repoRoot;
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
const herald = (...args: string[]) =>
  spawnSync(process.execPath, [path.join(root, pkg.bin.herald!), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });

describe('the herald command', () => {
  it('is the file package.json names, and answers --help, -h and help with the usage', () => {
    expect(fs.existsSync(path.join(root, pkg.bin.herald!))).toBe(true);
    for (const flag of ['--help', '-h', 'help']) {
      const run = herald(flag);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toContain('herald <command>');
      expect(run.stdout).toContain('projects create <name>');
      expect(run.stderr).toBe('');
    }
  });

  it('answers an unknown option with the usage and exit code 2, without a stack trace', () => {
    const run = herald('--frobnicate');
    expect(run.status).toBe(2);
    expect(run.stderr).toContain("Unknown option '--frobnicate'");
    expect(run.stderr).toContain('herald <command>');
    expect(run.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('the herald command beside a running server on the embedded database', () => {
  it(
    'lists projects, creates and revokes keys and disables projects through the ' +
      'server, and says migrate has nothing to do',
    { timeout: 240_000 },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-cli-'));
      const port = await freePort();
      // Always the embedded database: the lock is what this is about.
      const env = { DATA_DIR: dataDir, PORT: String(port), LOG_LEVEL: 'warn' };
      const server = await spawnHerald('serve', env);
      const cli = (...args: string[]) =>
        spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
          cwd: root,
          encoding: 'utf8',
          timeout: 60_000,
          env: { PATH: process.env.PATH ?? '', ...env },
        });
      try {
        const list = cli('projects', 'list');
        expect(list.status, list.stderr).toBe(0);
        const projects = JSON.parse(list.stdout) as { items: { id: string; name: string }[] };
        expect(projects.items.map((p) => p.name)).toEqual(['Default']);
        const projectId = projects.items[0]!.id;

        const created = cli('keys', 'create', projectId, '--type', 'secret', '--name', 'CI deploys');
        expect(created.status, created.stderr).toBe(0);
        const key = JSON.parse(created.stdout) as { id: string; key: string; name: string };
        expect(key.key).toMatch(/^sk_/);
        expect(key.name).toBe('CI deploys');
        const base = `http://127.0.0.1:${port}`;
        expect((await fetch(`${base}/contacts`, { headers: { authorization: `Bearer ${key.key}` } })).status).toBe(200);

        // People for scripted installs: a one-time set-password link, through the running server's admin API.
        const made = cli('users', 'create', '--email', 'ops@example.com', '--project', projectId, '--role', 'editor');
        expect(made.status, made.stderr).toBe(0);
        const user = JSON.parse(made.stdout) as { user: { email: string }; setPasswordUrl: string };
        expect(user.user.email).toBe('ops@example.com');
        const token = new URL(user.setPasswordUrl).hash.slice(1);
        const set = await fetch(`${base}/auth/password-reset/confirm`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ token, password: 'scripted passphrase' }),
        });
        expect(set.status).toBe(200);
        expect(cli('users', 'create', '--email', 'x@example.com', '--role', 'editor').status).toBe(2);
        const reset = cli('users', 'reset-password', '--email', 'ops@example.com');
        expect(reset.status, reset.stderr).toBe(0);
        expect(JSON.parse(reset.stdout).setPasswordUrl).toMatch(/\/reset-password#[\w-]{43}$/);

        const reader = cli('keys', 'create', projectId, '--scope', 'read', '--expires-at', '2099-01-01T00:00:00Z');
        expect(reader.status, reader.stderr).toBe(0);
        const readKey = JSON.parse(reader.stdout) as { key: string; scope: string; expiresAt: string };
        expect(readKey).toMatchObject({ scope: 'read', expiresAt: '2099-01-01T00:00:00.000Z' });
        expect((await fetch(`${base}/contacts`, { headers: { authorization: `Bearer ${readKey.key}` } })).status).toBe(
          200,
        );
        const write = await fetch(`${base}/contacts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${readKey.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'reader@example.com' }),
        });
        expect(write.status).toBe(403);
        for (const bad of [
          ['--scope', 'admin'],
          ['--expires-at', 'tomorrow'],
          ['--expires-at', '2001-01-01T00:00:00Z'],
          ['--name', 'x'.repeat(101)],
        ]) {
          const refused = cli('keys', 'create', projectId, ...bad);
          expect(refused.status).toBe(2);
          expect(refused.stderr).toContain(bad[0]);
        }

        const revoked = cli('keys', 'revoke', projectId, key.id);
        expect(revoked.status, revoked.stderr).toBe(0);
        expect((await fetch(`${base}/contacts`, { headers: { authorization: `Bearer ${key.key}` } })).status).toBe(401);

        const disabled = cli('projects', 'disable', projectId);
        expect(disabled.status, disabled.stderr).toBe(0);
        expect((JSON.parse(disabled.stdout) as { disabled: boolean }).disabled).toBe(true);

        const migrate = cli('migrate');
        expect(migrate.status, migrate.stderr).toBe(0);
        expect(migrate.stdout).toContain('brought the database up to date when it started; nothing to do');

        const wrong = cli('keys', 'revoke', projectId, '00000000-0000-7000-8000-000000000000');
        expect(wrong.status).toBe(1);
        expect(wrong.stderr).toMatch(/404/);
        expect(wrong.stderr).not.toMatch(/\n\s+at /);
      } finally {
        await server.kill('SIGTERM');
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
      expect(fs.existsSync(path.join(dataDir, 'server.json'))).toBe(false);
    },
  );
});
