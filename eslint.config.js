import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/**', 'data/**', 'dist/**', 'web/dist/**', 'sdk/dist/**', 'src/db/migrations/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through src/config.ts.' },
      ],
    },
  },
  { files: ['web/src/**/*.{ts,tsx}'], ...reactHooks.configs.flat.recommended },
  // Prettier formats at 120 columns (npm run lint checks it); what it cannot break — comments, strings — is held here.
  { rules: { 'max-len': ['error', { code: 120, ignorePattern: '^\\s*// https?://\\S+$' }] } },
  { files: ['sdk/src/schema.d.ts'], rules: { 'max-len': 'off' } },
  // Module boundaries and import circles: .dependency-cruiser.mjs (npm run lint runs both).
  {
    // The emails tables belong to the emails module: the schema index must not hand them to anyone else either.
    files: ['src/**/*.ts'],
    ignores: ['src/modules/emails/**', 'src/db/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['../../db/schema/index.ts', '../db/schema/index.ts', './db/schema/index.ts'].map((name) => ({
            name,
            importNames: ['emails', 'emailContents', 'emailAttachments', 'emailMime', 'linkClicks'],
            message: 'Only the emails module reads and writes the emails tables: call its front door.',
          })),
        },
      ],
    },
  },
  {
    files: [
      'src/config.ts',
      'test/**',
      '.ci/**',
      'bench/**',
      'vitest.config.ts',
      'vitest.e2e.config.ts',
      'drizzle.config.ts',
      'web/build.ts',
      '**/*.test.ts',
    ],
    rules: { 'no-restricted-properties': 'off' },
  },
);
