// The import rules of src/ (docs/development.md, "Layout"), checked by `npm run lint` (dependency-cruiser):
// no import circle, type-only imports counted; infrastructure knows no module; modules meet at front doors.
const INFRASTRUCTURE =
  '^src/(lib|db|mail|net|queue|plugins)/|^src/(config|secrets|context|context[.]types|server-file)[.]ts$';

export default {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import circle among src files, type-only imports included.',
      severity: 'error',
      from: { path: '^src/' },
      to: { circular: true },
    },
    {
      name: 'infrastructure-knows-no-module',
      comment:
        'lib, db, mail, net, queue, plugins, config, secrets and the context import no module and no composition ' +
        'file; hand them a function instead.',
      severity: 'error',
      from: { path: INFRASTRUCTURE },
      to: { path: '^src/modules/|^src/(app|modules|runtime|context|cli[^/]*)[.]ts$' },
    },
    {
      name: 'modules-meet-at-front-doors',
      comment: "A module imports another module only through its front door, '../<module>/index.ts'.",
      severity: 'error',
      from: { path: '^src/modules/([^/]+)/' },
      to: { path: '^src/modules/[^/]+/', pathNot: ['^src/modules/$1/', '^src/modules/[^/]+/index[.]ts$'] },
    },
    {
      name: 'composition-uses-front-doors',
      comment:
        'Outside src/modules, a module is reached through its front door; only src/modules.ts imports the manifests.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/modules/' },
      to: {
        path: '^src/modules/[^/]+/',
        pathNot: ['^src/modules/[^/]+/index[.]ts$', '^src/modules/[^/]+/[^/]+[.]module[.]ts$'],
      },
    },
    {
      name: 'manifests-only-in-the-module-list',
      comment: 'A manifest (<name>.module.ts) is imported by src/modules.ts alone.',
      severity: 'error',
      from: { pathNot: '^src/modules[.]ts$' },
      to: { path: '^src/modules/[^/]+/[^/]+[.]module[.]ts$' },
    },
    {
      name: 'emails-schema-only-in-emails',
      comment: 'The emails tables are read and written by the emails module alone; others call its front door.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/modules/emails/', '^src/db/schema/index[.]ts$'] },
      to: { path: '^src/db/schema/emails[.]ts$' },
    },
    {
      name: 'front-doors-export-no-repo',
      comment: "A front door exports services and types, never a repo's queries.",
      severity: 'error',
      from: { path: '^src/modules/[^/]+/index[.]ts$' },
      to: { path: '[.]repo[.]ts$' },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    exclude: { path: '[.]test[.]ts$' },
    doNotFollow: { path: 'node_modules' },
  },
};
