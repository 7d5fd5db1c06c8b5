import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { until } from '../../support/until.ts';

describe('npm start (herald serve) on a fresh DATA_DIR', () => {
  const dirs: string[] = [];
  afterEach(() => {
    while (dirs.length) fs.rmSync(dirs.pop()!, { recursive: true, force: true });
  });

  it(
    'creates the Default project, prints its keys and the admin token once, and serves the API with them',
    { timeout: 120_000 },
    async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-serve-'));
      dirs.push(dir);
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'serve'], {
        env: {
          ...process.env,
          DATA_DIR: dir,
          PORT: '0',
          DATABASE_URL: '',
          ADMIN_TOKEN: '',
          APP_SECRET: '',
          LOG_LEVEL: 'warn',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        out += chunk.toString();
      });
      try {
        const started = () => {
          if (child.exitCode !== null) throw new Error(`serve stopped:\n${out}`);
          return /listening on (http:\/\/\S+)/.test(out);
        };
        await until(started, () => `serve did not start:\n${out}`, 60_000);
        const base = /listening on (http:\/\/\S+)/.exec(out)![1]!;
        const secretKey = /secret key\s+(sk_\S+)/.exec(out)?.[1];
        const publicKey = /public key\s+(pk_\S+)/.exec(out)?.[1];
        const adminToken = /admin token\s+(\S+)/.exec(out)?.[1];
        expect(secretKey).toBeDefined();
        expect(publicKey).toBeDefined();
        expect(adminToken).toBe(fs.readFileSync(path.join(dir, 'admin-token'), 'utf8').trim());
        expect(fs.statSync(path.join(dir, 'admin-token')).mode & 0o777).toBe(0o600);
        expect(fs.statSync(path.join(dir, 'app-secret')).mode & 0o777).toBe(0o600);
        expect((await fetch(`${base}/healthz`)).status).toBe(200);
        const contacts = await fetch(`${base}/contacts`, { headers: { authorization: `Bearer ${secretKey}` } });
        expect(contacts.status).toBe(200);
        const projects = (await (
          await fetch(`${base}/admin/projects`, { headers: { authorization: `Bearer ${adminToken}` } })
        ).json()) as { data: { items: { name: string }[] } };
        expect(projects.data.items.map((p) => p.name)).toEqual(['Default']);
      } finally {
        child.kill('SIGTERM');
        await new Promise((resolve) => child.once('exit', resolve));
      }
      expect(child.exitCode === 0 || child.signalCode === 'SIGTERM').toBe(true);
      // The lock is released on a clean shutdown.
      expect(fs.existsSync(path.join(dir, 'herald.lock'))).toBe(false);
    },
  );
});
