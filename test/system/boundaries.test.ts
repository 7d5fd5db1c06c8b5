// The import rules of src/ (.dependency-cruiser.mjs, run by `npm run lint`): none is broken today, and each one
// fails on a planted violation, so a rule that stopped matching would be noticed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cruise, type IViolation } from 'dependency-cruiser';
import { afterAll, describe, expect, it } from 'vitest';
import rules from '../../.dependency-cruiser.mjs';
import { repoRoot } from '../support/paths.ts';

const root = repoRoot;

async function violations(baseDir: string): Promise<IViolation[]> {
  const previous = process.cwd();
  process.chdir(baseDir);
  try {
    const { output } = await cruise(['src'], {
      ruleSet: { forbidden: rules.forbidden },
      validate: true,
      tsPreCompilationDeps: true,
      exclude: { path: '[.]test[.]ts$' },
    });
    if (typeof output === 'string') throw new Error('expected a cruise result');
    return output.summary.violations;
  } finally {
    process.chdir(previous);
  }
}

describe('the import rules', () => {
  const planted = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-rules-'));
  afterAll(() => fs.rmSync(planted, { recursive: true, force: true }));

  // Reading all of src/ takes dependency-cruiser a while on a busy machine (the suite runs files in parallel).
  it('hold on src/', { timeout: 180_000 }, async () => {
    expect((await violations(root)).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it('fail on a planted violation of each', async () => {
    const files: Record<string, string> = {
      // A type-only circle between two library files.
      'src/lib/a.ts': "import type { B } from './b.ts';\nexport type A = B[];\n",
      'src/lib/b.ts': "import type { A } from './a.ts';\nexport type B = { a?: A };\n",
      // Infrastructure reaching into a module, and into the context (not its types).
      'src/queue/jobs.ts':
        "import { find } from '../modules/alpha/alpha.service.ts';\nimport { " +
        "createContext } from '../context.ts';\nexport const x = [find, createContext];\n",
      'src/context.ts': 'export const createContext = 1;\n',
      // A module importing another past its front door; a door exporting its repo; a manifest imported elsewhere.
      'src/modules/alpha/alpha.repo.ts': 'export const findRow = 1;\n',
      'src/modules/alpha/alpha.service.ts':
        "import { findRow } from './alpha.repo.ts';\nexport const find = findRow;\n",
      'src/modules/alpha/alpha.module.ts': 'export const alphaModule = {};\n',
      'src/modules/alpha/index.ts': "export { findRow } from './alpha.repo.ts';\n",
      'src/modules/beta/beta.service.ts':
        "import { findRow } from '../alpha/alpha.repo.ts';\nimport { alphaModule } from " +
        "'../alpha/alpha.module.ts';\nexport const x = [findRow, alphaModule];\n",
      // Another module reading the emails tables.
      'src/db/schema/emails.ts': 'export const emails = 1;\n',
      'src/modules/beta/beta.repo.ts':
        "import { emails } from '../../db/schema/emails.ts';\nexport const all = emails;\n",
      // Composition reaching a module's service instead of its door.
      'src/app.ts': "import { find } from './modules/alpha/alpha.service.ts';\nexport const app = find;\n",
    };
    for (const [file, text] of Object.entries(files)) {
      fs.mkdirSync(path.dirname(path.join(planted, file)), { recursive: true });
      fs.writeFileSync(path.join(planted, file), text);
    }
    const broken = new Set((await violations(planted)).map((v) => v.rule.name));
    expect([...broken].sort()).toEqual(rules.forbidden.map((r) => r.name).sort());
  });
});
