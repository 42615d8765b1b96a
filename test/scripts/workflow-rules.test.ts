/**
 * Issue 26 item 6: the workflow modules are evaluated once per V8 context and shared by every
 * workflow run in it (`preloadModules`, worker/create-worker.ts), so eslint.config.js refuses
 * module-level mutable state in workflows/. Each case lints a probe source at a path in workflows/
 * (nothing is written to disk) with only that rule on.
 */
import type { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { probeMessages, ruleOnlyLinter } from '../helpers/lint-probe.ts';

let eslint: ESLint;

beforeAll(() => {
  eslint = ruleOnlyLinter('no-restricted-syntax');
});

const messages = (filePath: string, code: string) => probeMessages(eslint, filePath, `${code}\nexport async function probe(): Promise<void> {}\n`);

const workflow = 'workflows/access/probe.ts';

describe('workflow module state in eslint.config.js', () => {
  it.each([
    'let count = 0;',
    'var seen = 0;',
    'export let last: string | null = null;',
    'const seen = new Set<string>();',
    'const byId = new Map<string, number>();',
    'export const cache = new WeakMap<object, number>();',
    'const pending = new Array<string>();',
  ])('refuses %s at module level in workflows/', async (code) => {
    expect(await messages(workflow, code)).toEqual([expect.stringMatching(/module-level mutable state/)]);
  });

  it.each([
    'const LIMIT = 3;',
    "export const KINDS = ['a', 'b'] as const;",
    'export async function wf(): Promise<number> { let n = 0; const seen = new Set<string>(); seen.add("x"); n += seen.size; return n; }',
  ])('allows %s', async (code) => {
    expect(await messages(workflow, code)).toEqual([]);
  });

  it('holds in workflows/ only', async () => {
    expect(await messages('activities/access/probe.ts', 'let count = 0;')).toEqual([]);
  });
});

/**
 * Issue 42 item 3: a workflow calls activities through `activitiesOf<Group>(PROFILE)`
 * (workflows/shared/activities-of.ts), whose profile carries its kind; a `proxyActivities` of its
 * own would bring back a private profile, and one given a local profile would issue another command.
 */
describe('activity proxies in eslint.config.js', () => {
  const RULE = '@typescript-eslint/no-restricted-imports';
  let imports: ESLint;

  beforeAll(() => {
    imports = ruleOnlyLinter(RULE);
  });

  const refusals = (filePath: string, code: string) => probeMessages(imports, filePath, code);

  it.each(['proxyActivities', 'proxyLocalActivities'])('refuses %s imported in a workflow', async (name) => {
    expect(await refusals(workflow, `import { ${name} } from '@temporalio/workflow';\nexport const p = ${name}({ startToCloseTimeout: '1 second' });\n`)).toEqual([
      expect.stringMatching(/activitiesOf<Group>\(PROFILE\)/),
    ]);
  });

  it('allows the rest of @temporalio/workflow and the helper', async () => {
    const code = "import { sleep } from '@temporalio/workflow';\nimport { activitiesOf } from '../shared/activities-of.ts';\nexport const used = [sleep, activitiesOf];\n";
    expect(await refusals(workflow, code)).toEqual([]);
  });

  it('holds in workflows/ only', async () => {
    expect(await refusals('test/workflows/probe.ts', "import { proxyActivities } from '@temporalio/workflow';\nexport const used = proxyActivities;\n")).toEqual([]);
  });
});
