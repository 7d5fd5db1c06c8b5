/**
 * A vitest reporter for CI: writes each error of a file or a describe block that is not a test's own (a failing
 * beforeAll or afterAll, an import error) to the file named by HOOK_ERRORS_FILE, one line each, so that the end of
 * the log names why a file's tests were skipped. Vitest's JSON report keeps only test failures and module errors.
 */
import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export default class HookErrorsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const out = process.env.HOOK_ERRORS_FILE;
    if (!out) return;
    for (const module of modules) {
      const file = relative(process.cwd(), module.moduleId);
      for (const entity of [module, ...module.children.allSuites()]) {
        for (const error of entity.errors()) {
          const where = entity.type === 'module' ? file : `${file} > ${entity.fullName}`;
          const why = (error.stack ?? error.message ?? String(error)).split('\n').slice(0, 4).join(' | ');
          appendFileSync(out, `${where}: ${why}\n`);
        }
      }
    }
  }
}
