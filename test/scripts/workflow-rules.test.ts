/**
 * Issue 26 item 6: the workflow modules are evaluated once per V8 context and shared by every
 * workflow run in it (`preloadModules`, worker/create-worker.ts), so eslint.config.js refuses
 * module-level mutable state in workflows/. Each case lints a probe source at a path in workflows/
 * (nothing is written to disk) with only that rule on.
 */
import type { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';
import { ruleOnlyLinter } from '../helpers/lint-probe.ts';

let eslint: ESLint;

beforeAll(() => {
  eslint = ruleOnlyLinter('no-restricted-syntax');
});

async function messages(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport async function probe(): Promise<void> {}\n`, { filePath });
  return result!.messages.map((m) => m.message);
}

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
