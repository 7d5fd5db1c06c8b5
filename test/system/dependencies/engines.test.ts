// Every installed production dependency must accept the oldest Node that package.json's `engines` declares (and
// the Node running the tests): an upgrade that needs a newer Node fails here, not as an EBADENGINE warning on a
// user's machine and a crash later. Node 20 stays supported.
import path from 'node:path';
import fs from 'node:fs';
import semver from 'semver';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../../support/paths.ts';

const readJson = (file: string) => JSON.parse(fs.readFileSync(path.join(repoRoot, file), 'utf8'));
const pkg = readJson('package.json') as { engines: { node: string } };
const lock = readJson('package-lock.json') as {
  packages: Record<string, { version?: string; dev?: boolean; devOptional?: boolean; engines?: { node?: unknown } }>;
};
const minimum = semver.minVersion(pkg.engines.node)!.version;

describe('Node versions', () => {
  it('supports Node 20', () => {
    expect(semver.major(minimum)).toBe(20);
  });

  it.each([minimum, process.versions.node])('every production dependency accepts Node %s', (node) => {
    const refused = Object.entries(lock.packages)
      .filter(([path, p]) => path !== '' && !p.dev && !p.devOptional && typeof p.engines?.node === 'string')
      .filter(([, p]) => !semver.satisfies(node, p.engines!.node as string))
      .map(
        ([path, p]) => `${path.replace(/^.*node_modules\//, '')}@${p.version} wants node ${String(p.engines!.node)}`,
      );
    expect(refused).toEqual([]);
  });
});
