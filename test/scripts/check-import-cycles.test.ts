/**
 * Issue 25, item 2: the circle check (scripts/check-import-cycles.ts) finds two files importing
 * each other (a type-only import counts too), finds none in a clean folder, fails the run on a
 * cycle, and passes on this repository (the allow-list aside).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cyclesOf, importGraph, isAllowed, knots } from '../../scripts/check-import-cycles.ts';

const root = mkdtempSync(join(tmpdir(), 'import-cycles-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function probe(folder: string, files: Record<string, string>): void {
  mkdirSync(join(root, folder), { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(root, folder, name), text);
}

probe('circle', {
  'a.ts': "import { b } from './b.ts';\nexport const a = () => b;\n",
  'b.ts': "import type { A } from './c.ts';\nexport const b = 1 as unknown as A;\n",
  'c.ts': "export type A = typeof import('./a.ts');\n",
});
probe('clean', {
  'a.ts': "import { b } from './b.ts';\nexport { c } from './c.ts';\nexport const a = b;\n",
  'b.ts': "import type { C } from './c.ts';\nexport const b: C = 1;\n",
  'c.ts': "import { readFileSync } from 'node:fs';\nexport type C = number;\nexport const c = readFileSync;\n",
});
const script = join(import.meta.dirname, '../../scripts/check-import-cycles.ts');
const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', script, ...args], { encoding: 'utf8' });

describe('scripts/check-import-cycles.ts', () => {
  it('finds the circle of two modules importing each other, type-only and import() links included', () => {
    const graph = importGraph(root, ['circle']);
    const found = knots(graph);
    expect(found).toEqual([['circle/a.ts', 'circle/b.ts', 'circle/c.ts']]);
    expect(cyclesOf(graph, found[0]!)).toContainEqual(['circle/a.ts', 'circle/b.ts', 'circle/c.ts', 'circle/a.ts']);
  });

  it('finds none in a folder whose imports only go one way', () => {
    expect(knots(importGraph(root, ['clean']))).toEqual([]);
  });

  it('exits 1 and prints the cycle when one is found, 0 when none', () => {
    const failing = run(root, 'circle');
    expect(failing.status).toBe(1);
    expect(failing.stdout).toContain('CYCLE: 3 files');
    expect(failing.stdout).toContain('circle/a.ts -> circle/b.ts -> circle/c.ts -> circle/a.ts');
    const passing = run(root, 'clean');
    expect(passing.status).toBe(0);
    expect(passing.stdout).toContain('no import cycles (3 files)');
  });

  it('accepts an allow-listed knot only with exactly its files', () => {
    const knot = ['circle/a.ts', 'circle/b.ts'];
    expect(isAllowed(knot, [['circle/b.ts', 'circle/a.ts']])).toBe(true);
    expect(isAllowed(knot, [['circle/a.ts', 'circle/b.ts', 'circle/c.ts']])).toBe(false);
    expect(isAllowed(knot, [])).toBe(false);
  });

  it('finds no cycle in this repository but the allow-listed ones', () => {
    expect(knots(importGraph(join(import.meta.dirname, '../..'))).filter((knot) => !isAllowed(knot))).toEqual([]);
  });
});
