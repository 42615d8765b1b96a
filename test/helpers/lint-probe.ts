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
