/** Issue 11, item 10: the `herald` command named by package.json exists, and --help prints usage, not a stack trace. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { bin: Record<string, string> };
const herald = (...args: string[]) => spawnSync(process.execPath, [path.join(root, pkg.bin.herald!), ...args], { cwd: root, encoding: 'utf8', timeout: 60_000 });

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
