/**
 * The previous release, built beside the checkout, for the rolling-upgrade test.
 *
 *   const { version, commit } = previousRelease();       // from CHANGELOG.md
 *   const home = await buildRelease(commit);             // a folder with bin/herald.js and dist/
 *
 * The previous release is the first `## <version> — <date> — <commit>` heading of CHANGELOG.md that names a commit
 * (a git tag may not travel with a clone; the file does). Its build is kept in the temporary folder, one per
 * commit, so later runs reuse it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exec, root } from './podman.ts';

export function previousRelease(): { version: string; commit: string } {
  const changelog = fs.readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8');
  const heading = /^## (\S+) — \S+ — ([0-9a-f]{7,40})\s*$/m.exec(changelog);
  if (!heading) throw new Error('CHANGELOG.md names no release commit (## <version> — <date> — <commit>)');
  return { version: heading[1]!, commit: heading[2]! };
}

async function run(file: string, args: string[], cwd: string, timeoutMs = 900_000): Promise<void> {
  const result = await exec(file, args, { cwd, env: process.env, timeoutMs });
  if (result.code !== 0) throw new Error(`${file} ${args.join(' ')} in ${cwd}:\n${result.stdout}\n${result.stderr}`);
}

/** Checks the commit out of this repository's history into its own folder and builds its server there. */
export async function buildRelease(commit: string): Promise<string> {
  const home = path.join(os.tmpdir(), `herald-release-${commit}`);
  const done = path.join(home, '.built');
  if (fs.existsSync(done)) return home;
  fs.rmSync(home, { recursive: true, force: true });
  fs.mkdirSync(home, { recursive: true });
  const archive = path.join(os.tmpdir(), `herald-release-${commit}.tar`);
  await run('git', ['archive', '--format=tar', `--output=${archive}`, commit], root);
  await run('tar', ['-xf', archive, '-C', home], root);
  fs.rmSync(archive, { force: true });
  // Install scripts off: the release's build below is explicit, and no script may reach the internet.
  await run('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--prefer-offline'], home);
  await run('npm', ['run', 'build:server'], home);
  fs.writeFileSync(done, new Date().toISOString());
  return home;
}
