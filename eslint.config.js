// @ts-check
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export default tseslint.config(
  { ignores: ['eslint.config.js', 'node_modules/**', '.data/**', 'coverage/**', 'db/migrations/*.ts'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  {
    // Workflow code must stay deterministic: no Node built-ins, no I/O libraries, no ORM, and
    // activities only as types (they run in the worker, proxied through proxyActivities).
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: nodeBuiltins.map((name) => ({ name, message: 'Workflow code must be deterministic: no Node built-ins.' })),
          patterns: [
            { group: ['@mikro-orm/*', 'pg', 'ioredis', 'fastify', 'fastify-*', '@fastify/*', 'nodemailer', 'undici'], message: 'No I/O libraries in workflow code.' },
            // `**/` so the rule holds at any folder depth (workflows/shared/x.ts imports '../../db/...').
            { group: ['**/db', '**/db/**', '**/api/**', '**/worker/**', '**/scripts/**'], message: 'Workflows reach the database only through activities.' },
            { group: ['**/activities', '**/activities/**'], allowTypeImports: true, message: 'Import activities as types only; call them through proxyActivities.' },
          ],
        },
      ],
      'no-restricted-syntax': ['error', { selector: "MemberExpression[object.name='Math'][property.name='random']", message: 'No randomness in workflow code: use uuid4() from @temporalio/workflow.' }],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
