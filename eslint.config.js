// @ts-check
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const ENTITY_MANAGER_CALLS =
  'find|findOne|findOneOrFail|findAndCount|findAll|count|nativeUpdate|nativeDelete|execute|getConnection|getKnex|persist|persistAndFlush|flush|create|assign|remove|upsert|upsertMany|insert|insertMany|getReference|refresh|lock|populate|createQueryBuilder|qb|getUnitOfWork';
const REPOSITORIES_ONLY = 'Queries and writes go through db/repositories (the caller composes them, in em.transactional when they belong together).';
const EM_DATA_CALL = `[callee.property.name=/^(${ENTITY_MANAGER_CALLS})$/]`;
/**
 * An entity manager's data calls outside db/ (issues 25 and 42): on `em`/`tx`, on `request.em`,
 * `orm.em` and the like, or on a manager made in place (`shopEm(...)`, `tenantEm(...)`, `....fork()`).
 * The api and activities/ keep it; `em.transactional` and `em.fork()` stay allowed.
 */
const directDataAccess = [
  { selector: `CallExpression[callee.object.name=/^(em|tx)$/]${EM_DATA_CALL}`, message: REPOSITORIES_ONLY },
  { selector: `CallExpression[callee.object.property.name='em']${EM_DATA_CALL}`, message: REPOSITORIES_ONLY },
  { selector: `CallExpression[callee.object.callee.name=/^(shopEm|tenantEm)$/]${EM_DATA_CALL}`, message: REPOSITORIES_ONLY },
  { selector: `CallExpression[callee.object.callee.property.name='fork']${EM_DATA_CALL}`, message: REPOSITORIES_ONLY },
];
/** Workflow modules are shared by every workflow run of a worker (preloaded once): no state of their own. */
const MODULE_STATE = 'No module-level mutable state in workflow code: the module is loaded once and shared by every workflow run (keep state inside the workflow function).';
const MUTABLE_COLLECTIONS = "[callee.name=/^(Map|Set|WeakMap|WeakSet|Array)$/]";
const apiWorkflowClient = {
  selector: "MemberExpression[object.property.name='workflow'][property.name=/^(start|execute|getHandle|signalWithStart)$/]",
  message: 'Start and signal workflows through app.workflows (api/shared/workflow-starts/), not the Temporal client.',
};

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
    // activities only as types (they run in the worker, proxied by workflows/shared/activities-of.ts,
    // the one file that imports proxyActivities: a profile there says activity or local activity).
    files: ['workflows/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [
            ...nodeBuiltins.map((name) => ({ name, message: 'Workflow code must be deterministic: no Node built-ins.' })),
            {
              name: '@temporalio/workflow',
              importNames: ['proxyActivities', 'proxyLocalActivities'],
              message: 'Call activities through activitiesOf<Group>(PROFILE) (workflows/shared/activities-of.ts, profiles in activity-profiles.ts).',
            },
          ],
          patterns: [
            { group: ['@mikro-orm/*', 'pg', 'ioredis', 'fastify', 'fastify-*', '@fastify/*', 'nodemailer', 'undici'], message: 'No I/O libraries in workflow code.' },
            // `**/` so the rule holds at any folder depth (workflows/shared/x.ts imports '../../db/...').
            { group: ['**/db', '**/db/**', '**/api/**', '**/adapters/**', '**/worker/**', '**/scripts/**'], message: 'Workflows reach the database and the outside world only through activities.' },
            { group: ['**/activities', '**/activities/**'], allowTypeImports: true, message: 'Import activities as types only; call them through activitiesOf (workflows/shared/activities-of.ts).' },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        { selector: "MemberExpression[object.name='Math'][property.name='random']", message: 'No randomness in workflow code: use uuid4() from @temporalio/workflow.' },
        // The workflow modules are evaluated once per V8 context and shared by every run in it
        // (`preloadModules`, worker/create-worker.ts): module-level state would leak between runs.
        { selector: "Program > VariableDeclaration[kind=/^(let|var)$/], Program > ExportNamedDeclaration > VariableDeclaration[kind=/^(let|var)$/]", message: MODULE_STATE },
        {
          selector: `Program > VariableDeclaration > VariableDeclarator > NewExpression${MUTABLE_COLLECTIONS}, Program > ExportNamedDeclaration > VariableDeclaration > VariableDeclarator > NewExpression${MUTABLE_COLLECTIONS}`,
          message: MODULE_STATE,
        },
      ],
    },
  },
  // Layer boundaries (DESIGN.md section 2). `**/` so each rule holds at any folder depth. One
  // no-restricted-imports entry per layer: a later entry for the same files would replace it.
  {
    // The HTTP edge starts and signals workflows (their types, the signal and query definitions,
    // the child input contracts) and never imports the worker's side effects.
    files: ['api/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/activities/**'], message: 'The api does not import activities/: what both processes need lives in adapters/, db/ or domain/.' },
            {
              // File globs, not the folder: a folder pattern would exclude the whole folder and no
              // `!` could take a file back in.
              group: ['**/workflows/**/*.ts', '**/workflows/**/*.js', '!**/workflows/**/*-signals.ts', '!**/workflows/**/contracts.ts'],
              allowTypeImports: true,
              message: 'The api imports workflow code as types only (values: the signal and query definitions in *-signals.ts and contracts.ts).',
            },
            { group: ['**/worker/**', '**/scripts/**'], message: 'The api does not import the worker or scripts.' },
            // Issue 42: no entity class to hand to a generic ORM helper; a repository function named
            // for what it returns reads the row (a 404 is the route's `if (!row) throw notFound(...)`).
            { group: ['**/db/entities', '**/db/entities/**'], allowTypeImports: true, message: 'The api imports entities as types only: rows come from db/repositories functions named for what they return.' },
          ],
        },
      ],
    },
  },
  {
    // The api's own rules (issue 25): queries and writes go through db/repositories (a route may
    // compose them in em.transactional), and workflows are started and signalled through the typed
    // facade `app.workflows` (api/shared/workflow-starts/, the one place that calls the Temporal client).
    files: ['api/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...directDataAccess, apiWorkflowClient] },
  },
  {
    files: ['api/shared/workflow-starts/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ...directDataAccess] },
  },
  {
    files: ['activities/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/api/**'], message: 'Activities do not import api/: what both processes need lives in adapters/, db/ or domain/.' },
            { group: ['**/workflows/**'], allowTypeImports: true, message: 'Activities import workflow code as types only (input and signal payload shapes).' },
            { group: ['**/worker/**', '**/scripts/**'], message: 'Activities do not import the worker or scripts.' },
          ],
        },
      ],
      // Activities decide, repositories run the statements (activities/README.md); an activity
      // may open em.transactional and hand the transaction's manager to repository functions.
      'no-restricted-syntax': ['error', ...directDataAccess],
    },
  },
  {
    // Pure rules: no database, no process, no outside world.
    files: ['domain/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/db/**', '**/api/**', '**/activities/**', '**/workflows/**', '**/adapters/**', '**/worker/**', '**/scripts/**'],
              message: 'domain/ holds pure rules: it imports only domain/ (db, api, activities, workflows and adapters import it).',
            },
          ],
        },
      ],
    },
  },
  {
    // Clients of the outside world: below db/ (db imports them), above domain/ only.
    files: ['adapters/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/db/**', '**/api/**', '**/activities/**', '**/workflows/**', '**/worker/**', '**/scripts/**'],
              message: 'adapters/ take plain values and import only domain/: no api, activities, workflows or db.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['db/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/api/**', '**/activities/**', '**/workflows/**', '**/worker/**', '**/scripts/**'], message: 'db/ imports only domain/ and adapters/.' },
          ],
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
);
