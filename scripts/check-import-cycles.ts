/**
 * Prints every import cycle among the project's source files and exits 1 when one is not on the
 * allow-list below. Counts value AND type imports (`import type`, `export ... from`, `import()`):
 * a type-only circle is still two modules that cannot be read one without the other.
 *
 * Usage: `tsx scripts/check-import-cycles.ts [root] [folder...]` (defaults: the repository and its
 * source folders). A cycle is reported once per strongly connected component and file: the
 * shortest circle from that file back to itself.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const sourceFolders = ['api', 'activities', 'adapters', 'db', 'domain', 'workflows', 'worker', 'scripts'];

/**
 * Knots left on purpose, each as the exact set of its files (relative paths) with a comment naming
 * its issue: a knot that gains or loses a file, or any new one, fails. Empty since issue 25 cut the
 * last ones.
 */
export const allowedKnots: readonly (readonly string[])[] = [];

export type ImportGraph = Map<string, string[]>;

function sourceFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    if (name === 'node_modules' || name.startsWith('.')) return [];
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts)$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = resolve(dirname(from), specifier);
  const candidates = [base, base.replace(/\.js$/, '.ts'), `${base}.ts`, join(base, 'index.ts')];
  return candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
}

/** Files (relative to root) and the project files each one imports. */
export function importGraph(root: string, folders: readonly string[] = sourceFolders): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of folders.flatMap((folder) => sourceFiles(join(root, folder)))) {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = importedFiles
      .map((imported) => resolveImport(file, imported.fileName))
      .filter((target): target is string => target !== undefined)
      .map((target) => relative(root, target));
    graph.set(relative(root, file), [...new Set(targets)]);
  }
  return graph;
}

/** Strongly connected components with more than one file, or a file importing itself (Tarjan). */
export function knots(graph: ImportGraph): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The shortest circle from each file of a knot back to itself, without repeats. */
export function cyclesOf(graph: ImportGraph, knot: readonly string[]): string[][] {
  const members = new Set(knot);
  const seen = new Set<string>();
  const cycles: string[][] = [];
  for (const start of knot) {
    const previous = new Map<string, string>();
    const queue = [start];
    let closing: string | undefined;
    while (queue.length > 0 && closing === undefined) {
      const node = queue.shift()!;
      for (const next of graph.get(node) ?? []) {
        if (!members.has(next)) continue;
        if (next === start) {
          closing = node;
          break;
        }
        if (!previous.has(next)) {
          previous.set(next, node);
          queue.push(next);
        }
      }
    }
    if (closing === undefined) continue;
    const path = [closing];
    while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
    const smallest = path.indexOf([...path].sort()[0]!);
    const key = [...path.slice(smallest), ...path.slice(0, smallest)].join(' -> ');
    if (seen.has(key)) continue;
    seen.add(key);
    cycles.push([...path, start]);
  }
  return cycles;
}

export function isAllowed(knot: readonly string[], allowed: readonly (readonly string[])[] = allowedKnots): boolean {
  return allowed.some((entry) => entry.length === knot.length && [...entry].sort().every((file, i) => file === knot[i]));
}

function main(): void {
  const [rootArg, ...folderArgs] = process.argv.slice(2);
  const root = resolve(rootArg ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const graph = importGraph(root, folderArgs.length > 0 ? folderArgs : sourceFolders);
  let failing = 0;
  for (const knot of knots(graph)) {
    const allowed = isAllowed(knot);
    if (!allowed) failing += 1;
    console.log(`${allowed ? 'allowed (issue 25, see allowedKnots)' : 'CYCLE'}: ${knot.length} files`);
    for (const cycle of cyclesOf(graph, knot)) console.log(`  ${cycle.join(' -> ')}`);
  }
  console.log(failing === 0 ? `no import cycles (${graph.size} files)` : `${failing} import cycle(s) (${graph.size} files)`);
  process.exitCode = failing === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
