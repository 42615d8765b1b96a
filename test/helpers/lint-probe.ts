import path from 'node:path';
import { ESLint } from 'eslint';

/**
 * ESLint with the project's config (eslint.config.js, what `npm run lint` runs), type information
 * off and only `rule` on: probe sources linted at a path (nothing written to disk) show what the
 * rule refuses there. The rules probed this way are syntactic, and a probe path is in no TypeScript project.
 */
export function ruleOnlyLinter(rule: string): ESLint {
  return new ESLint({
    cwd: path.resolve(import.meta.dirname, '../..'),
    overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
    ruleFilter: ({ ruleId }) => ruleId === rule,
  });
}

/** The messages `eslint` gives `code` linted as the file `filePath` (relative to the repository). */
export async function probeMessages(eslint: ESLint, filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => m.message);
}
