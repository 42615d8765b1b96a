/**
 * Issue 25, item 2: a workflow file is one workflow, and no workflow file imports another (a child
 * is started by name with its contract's input types; what several workflows run is a step in a
 * `steps/` folder). The workflow files are those workflows/index.ts exports from.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importGraph } from '../../../scripts/check-import-cycles.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const exports = [...readFileSync(new URL('../../../workflows/index.ts', import.meta.url), 'utf8').matchAll(/^export \{ (.+) \} from '\.\/(.+)';$/gm)].map(
  ([, names = '', file = '']) => ({ names: names.split(',').map((name) => name.trim()), file: `workflows/${file}` }),
);
const workflowFiles = new Set(exports.map((e) => e.file));

describe('workflow files', () => {
  it('each export one workflow', () => {
    expect(exports.length).toBeGreaterThan(20);
    expect(exports.filter((e) => e.names.length !== 1)).toEqual([]);
    expect(workflowFiles.size).toBe(exports.length);
  });

  it('import no other workflow file', () => {
    const imports = [...importGraph(root, ['workflows'])].filter(([file]) => file !== 'workflows/index.ts');
    expect(imports.length).toBeGreaterThan(workflowFiles.size);
    const crossings = imports.flatMap(([file, targets]) => targets.filter((target) => workflowFiles.has(target)).map((target) => `${file} -> ${target}`));
    expect(crossings).toEqual([]);
  });
});
