import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'dist/**', 'web/dist/**', 'src/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': ['error', { object: 'process', property: 'env', message: 'Read configuration through src/config.ts.' }],
    },
  },
  // Module boundaries (ARCHITECTURE, "Where code goes"): modules meet at front doors, infrastructure knows no module.
  {
    files: ['src/modules/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '^\\.\\./[a-z-]+/(?!index\\.ts$)', message: "Import another module only through its front door, '../<module>/index.ts'." }] }],
    },
  },
  {
    files: ['src/lib/**/*.ts', 'src/db/**/*.ts', 'src/mail/**/*.ts', 'src/queue/**/*.ts', 'src/plugins/**/*.ts', 'src/net/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ regex: '(^|/)modules/', message: 'Infrastructure (lib, db, mail, net, queue, plugins) imports no module; pass it a function instead.' }] }],
    },
  },
  {
    files: ['src/config.ts', 'test/**', 'bench/**', 'vitest.config.ts', 'vitest.e2e.config.ts', 'drizzle.config.ts', 'web/build.ts', '**/*.test.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
