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
  // Module boundaries and import circles: .dependency-cruiser.mjs (npm run lint runs both).
  {
    files: ['src/config.ts', 'test/**', 'bench/**', 'vitest.config.ts', 'vitest.e2e.config.ts', 'drizzle.config.ts', 'web/build.ts', '**/*.test.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
